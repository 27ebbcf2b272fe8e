# expect: 14:10: method call 'out.foo(...)' is not supported in kernels
# expect-only
# A local whose value is rejected is reported once: its later uses are not
# reported again, nor taken for the module global of the same name (r2), and
# the names of a rejected tuple assignment neither.
import pykokkos as pk

r2 = 5.0


@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    a: float = 1.0
    r2 = out.foo(3)
    out[i] = r2 * 2.0 + a
    if i > 0:
        out[i] += r2
