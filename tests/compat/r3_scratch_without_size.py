"""Team scratch Views whose sizes are known in the kernel (PyKokkos' extent-less
`pk.ScratchView1D(m.team_scratch(0))`, or literal extents) run on a policy that
sets no scratch size: the launch asks Kokkos for what they take (upstream's
test_gh_180 launches such a kernel with a plain TeamPolicy). Sizes known only
at the launch still need set_scratch_size (ValueError naming the kernel)."""
import numpy as np
import pykokkos as pk


@pk.workunit
def two_kinds(tm: pk.TeamMember):
    d: pk.ScratchView1D[pk.double] = pk.ScratchView1D(tm.team_scratch(0))
    f: pk.ScratchView1D[pk.float] = pk.ScratchView1D(tm.team_scratch(0))


@pk.workunit
def team_sums(tm: pk.TeamMember, x: pk.View2D[pk.double], out: pk.View1D[pk.double]):
    part: pk.ScratchView1D[pk.double] = pk.ScratchView1D(tm.team_scratch(0), 8)
    r: int = tm.league_rank()
    if tm.team_rank() == 0:
        for k in range(8):
            part[k] = x[r][k] * 2.0
    tm.team_barrier()
    if tm.team_rank() == 0:
        s: float = 0.0
        for k in range(8):
            s += part[k]
        out[r] = s


@pk.workunit
def sized_at_launch(tm: pk.TeamMember, n: int, out: pk.View1D[pk.double]):
    buf: pk.ScratchView1D[pk.double] = pk.ScratchView1D(tm.team_scratch(0), n)
    if tm.team_rank() == 0:
        buf[0] = 1.0
        out[tm.league_rank()] = buf[0]


pk.parallel_for("double_float_scratch", pk.TeamPolicy(2, pk.AUTO), two_kinds)
x = np.arange(24.0).reshape(3, 8)
out = pk.View([3], pk.double)
pk.parallel_for(pk.TeamPolicy(3, pk.AUTO), team_sums, x=pk.array(x), out=out)
bad = [] if np.allclose(np.asarray(out), 2.0 * x.sum(axis=1)) else [f"sums {np.asarray(out)}"]
try:
    pk.parallel_for(pk.TeamPolicy(3, 1), sized_at_launch, n=4, out=out)
    bad.append("a size known only at the launch ran without set_scratch_size")
except ValueError as e:
    if "sized_at_launch" not in str(e) or "set_scratch_size" not in str(e):
        bad.append(f"message: {e}")
policy = pk.TeamPolicy(3, 1).set_scratch_size(0, pk.PerTeam(pk.ScratchView1D.shmem_size(4)))
pk.parallel_for(policy, sized_at_launch, n=4, out=out)
if np.asarray(out).tolist() != [1.0, 1.0, 1.0]:
    bad.append(f"sized {np.asarray(out).tolist()}")
print("OK" if not bad else f"BAD {bad}")
