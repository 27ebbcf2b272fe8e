"""Kernels of a 3-D Jacobi time step for tests/api/mpi_graph_send_prog.py
(built by pkc on first use into tests/api/kern_send3.pk/): the 7-point
update of the owned cells and the copy back."""
import pykokkos as pk


@pk.workunit
def jacobi3(i: int, j: int, k: int, u: pk.View3D[pk.double], unew: pk.View3D[pk.double]):
    unew[i, j, k] = (u[i - 1, j, k] + u[i + 1, j, k] + u[i, j - 1, k] + u[i, j + 1, k]
                     + u[i, j, k - 1] + u[i, j, k + 1]) / 6.0


@pk.workunit
def copy3(i: int, j: int, k: int, unew: pk.View3D[pk.double], u: pk.View3D[pk.double]):
    u[i, j, k] = unew[i, j, k]


def step(u, unew, halo):
    """One step: the ghosts from the neighbours, the update, the copy back."""
    halo.exchange()
    box = pk.MDRangePolicy([1, 1, 1], [u.shape[0] - 1, u.shape[1] - 1, u.shape[2] - 1])
    pk.parallel_for(box, jacobi3, u=u, unew=unew)
    pk.parallel_for(box, copy3, unew=unew, u=u)
