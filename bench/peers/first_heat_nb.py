"""The program of first_heat_pk.py for Numba, as its users write it:
@njit(parallel=True) with prange over the outer index (compiled on the first
call in every process)."""
from numba import njit, prange


@njit(parallel=True)
def heat_step(u, u_new, alpha):
    n = u.shape[0]
    for i in prange(1, n - 1):
        for j in range(1, n - 1):
            u_new[i, j] = u[i, j] + alpha * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1]
                                             + u[i, j + 1] - 4.0 * u[i, j])


@njit(parallel=True)
def boundary(u_new, n):
    for i in prange(n):
        u_new[0, i] = 0.0
        u_new[n - 1, i] = 0.0
        u_new[i, 0] = 0.0
        u_new[i, n - 1] = 0.0


def step(u, u_new, alpha):
    heat_step(u, u_new, alpha)
    boundary(u_new, u.shape[0])
