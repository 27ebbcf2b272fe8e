"""One kernel for bench/peers/run.py's first-call rows (Numba, compiled on
first call in every process): nstream, as in nb_kernels.py."""
from numba import njit, prange


@njit(parallel=True)
def nstream(A, B, C, scalar):
    for i in prange(A.shape[0]):
        A[i] += B[i] + scalar * C[i]
