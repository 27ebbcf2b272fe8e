"""One kernel for bench/peers/run.py's first-call rows (Numba with
cache=True: the compiled code is kept on disk in NUMBA_CACHE_DIR and loaded by
later processes, as pkc's module cache is): nstream, as in nb_kernels.py."""
from numba import njit, prange


@njit(parallel=True, cache=True)
def nstream(A, B, C, scalar):
    for i in prange(A.shape[0]):
        A[i] += B[i] + scalar * C[i]
