"""Views of every kind passed to a @pk.function parameter annotated
pk.View1D/2D[T]: an Atomic View (its updates stay atomic), a column subview
A[:, j] (strided), a LayoutLeft View, a team scratch View, a plane u[i, :, :]
of a 3-D View. The parameter takes the argument's View type; a fixed
default-layout View lost the Atomic trait (counts lost under threads),
and Kokkos refused or aborted the other conversions. Values against numpy."""
import numpy as np
import pykokkos as pk


@pk.function
def bump(p: pk.View1D[pk.double], i: int):
    p[i % 2] += 1.0


@pk.function
def colsum(c: pk.View1D[pk.double], n: int) -> float:
    s: float = 0.0
    for r in range(n):
        s += c[r]
    return s


@pk.function
def at(p: pk.View2D[pk.double], i: int, j: int) -> float:
    return p[i][j]


@pk.workunit(A=pk.ViewTypeInfo(trait=pk.Atomic))
def counts(i: int, A: pk.View1D[pk.double]):
    bump(A, i)


@pk.workunit
def columns(j: int, A: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    col = A[:, j]
    out[j] = colsum(col, A.extent(0))


@pk.workunit(L=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def left(i: int, L: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    out[i] = at(L, i, 1)


@pk.workunit
def planes(i: int, u: pk.View3D[pk.double], out: pk.View1D[pk.double]):
    p = u[i, :, :]
    out[i] = at(p, 1, 2)


@pk.workunit
def in_scratch(m: pk.TeamMember, A: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(m.team_scratch(0), 4)
    r: int = m.league_rank()

    def load(j: int):
        s[j] = A[r][j]

    pk.parallel_for(pk.TeamThreadRange(m, 4), load)
    m.team_barrier()

    def put():
        out[r] = colsum(s, 4)

    pk.single(pk.PerTeam(m), put)


checks = []
A = pk.View([2], pk.double, trait=pk.Atomic)
pk.parallel_for(200000, counts, A=A)
checks.append(("atomic", np.asarray(A).tolist(), [100000.0, 100000.0]))

M = np.arange(12.0).reshape(4, 3)
B = pk.View([4, 3], pk.double)
B[:] = M
out = pk.View([3], pk.double)
pk.parallel_for(3, columns, A=B, out=out)
checks.append(("columns", np.asarray(out).tolist(), M.sum(axis=0).tolist()))

L = pk.View([4, 3], pk.double, layout=pk.LayoutLeft)
L[:] = M
o4 = pk.View([4], pk.double)
pk.parallel_for(4, left, L=L, out=o4)
checks.append(("LayoutLeft", np.asarray(o4).tolist(), M[:, 1].tolist()))

U = np.arange(60.0).reshape(5, 3, 4)
u = pk.View([5, 3, 4], pk.double)
u[:] = U
o5 = pk.View([5], pk.double)
pk.parallel_for(5, planes, u=u, out=o5)
checks.append(("planes", np.asarray(o5).tolist(), U[:, 1, 2].tolist()))

T = np.arange(12.0).reshape(3, 4)
C = pk.View([3, 4], pk.double)
C[:] = T
o3 = pk.View([3], pk.double)
policy = pk.TeamPolicy(3, pk.AUTO).set_scratch_size(0, pk.PerTeam(pk.ScratchView1D.shmem_size(4)))
pk.parallel_for(policy, in_scratch, A=C, out=o3)
checks.append(("scratch", np.asarray(o3).tolist(), T.sum(axis=1).tolist()))
bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad} {checks}")
