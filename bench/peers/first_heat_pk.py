"""The unannotated two-kernel program of bench/peers/run.py's "first run"
rows (issue 24 item 4), as a first-time PyKokkos user writes it: the 2-D heat
equation, workunit parameters without annotations (pkc types them from the
first launch's arguments: run-time specializations), an MDRangePolicy
without tiles and a RangePolicy; numpy arrays in, as in
tests/compat/first_run/heat2d.py. run.py copies this file into a fresh
directory for the cold row."""
import pykokkos as pk


@pk.workunit
def heat_step(i, j, u, u_new, alpha):
    u_new[i, j] = u[i, j] + alpha * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1]
                                     + u[i, j + 1] - 4.0 * u[i, j])


@pk.workunit
def boundary(i, u_new, n):
    u_new[0, i] = 0.0
    u_new[n - 1, i] = 0.0
    u_new[i, 0] = 0.0
    u_new[i, n - 1] = 0.0


def step(u, u_new, alpha):
    n = u.shape[0]
    pk.parallel_for(pk.MDRangePolicy([1, 1], [n - 1, n - 1]), heat_step,
                    u=u, u_new=u_new, alpha=alpha)
    pk.parallel_for(n, boundary, u_new=u_new, n=n)
    pk.fence()
