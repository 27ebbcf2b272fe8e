"""A launch with a keyword its kernel does not take (a typo on a rarely
taken path) does not keep the file's kernels from building, as in Python
only that call is wrong: pkc warns at build time, the correct launches
run, and the bad one raises TypeError naming the keyword when it runs."""
import numpy as np
import pykokkos as pk


@pk.workunit
def inc(i: int, v: pk.View1D[pk.int32]):
    v[i] += 1


def debug_path(a):
    pk.parallel_for(5, inc, w=a)   # the typo


a = pk.View([5], pk.int32)
pk.parallel_for(5, inc, v=a)
pk.parallel_for(5, inc, v=a)
try:
    debug_path(a)
    raised = "nothing"
except TypeError as e:
    raised = str(e)
ok = np.array_equal(np.asarray(a), [2] * 5) and "'w'" in raised
print("OK" if ok else f"BAD {np.asarray(a)} {raised}")
