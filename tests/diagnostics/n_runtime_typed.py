# expect-note: 10:13: the type of parameter 's' of 'k' is taken from the arguments at run time
import pykokkos as pk

# Two call sites pass different types: pkc leaves 's' to run-time typing
# (one specialization per argument signature) and says so in a note; with
# --strict-types it is an error (e_infer_conflict.py).


@pk.workunit
def k(i, A, s):
    A[i] = s

def host(A):
    pk.parallel_for(10, k, A=A, s=1)
    pk.parallel_for(10, k, A=A, s=2.5)
