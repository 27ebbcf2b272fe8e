# expect: 10:5: indentation error: unexpected indent
# A dedent that matches no outer level: Python stops with IndentationError;
# tree-sitter recovers and the statement would move to the top level (its
# store silently gone from the kernel).
import pykokkos as pk

@pk.workunit
def k(i: int, v: pk.View1D[pk.double]):
        v[i] = 1.0
    v[i] = 2.0
