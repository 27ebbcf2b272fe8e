"""PyKokkos' @pk.workunit(scratch=[(T, lambda p: count[, level]), ...]): the
team scratch a kernel's ScratchViews need, computed from the launch's
arguments (p.name), so the TeamPolicy sets no scratch size (upstream's
examples/kokkos/multi_scratch_team.py and multi_level_scratch_team.py). pkc
rejected the decorator ("decorator arguments must be pk.ViewTypeInfo")."""
import numpy as np
import pykokkos as pk


@pk.workunit(scratch=[(int, lambda p: p.nidx), (float, lambda p: p.width),
                      (float, lambda p: p.width, 1)])
def scaled_rows(team: pk.TeamMember, src: pk.View2D[pk.int32], dst: pk.View2D[pk.double],
                nidx: int, width: int, factor: float):
    r: int = team.league_rank()
    idx: pk.ScratchView1D[int] = pk.ScratchView1D(team.team_scratch(0), nidx)
    val: pk.ScratchView1D[float] = pk.ScratchView1D(team.team_scratch(0), width)
    far: pk.ScratchView1D[float] = pk.ScratchView1D(team.team_scratch(1), width)

    def load(j: int):
        idx[j % nidx] = j % nidx
        val[j] = src[r][j] * factor

    pk.parallel_for(pk.TeamThreadRange(team, width), load)
    team.team_barrier()

    def reverse(j: int):
        far[j] = val[width - 1 - j] + idx[0]

    pk.parallel_for(pk.TeamThreadRange(team, width), reverse)
    team.team_barrier()

    def store(j: int):
        dst[r][j] = far[j]

    pk.parallel_for(pk.TeamThreadRange(team, width), store)


rows, width = 37, 300
src = np.random.default_rng(8).integers(-100, 100, size=(rows, width)).astype(np.int32)
dst = np.zeros((rows, width))
pk.parallel_for("scaled_rows", pk.TeamPolicy(rows, pk.AUTO), scaled_rows, src=src, dst=dst,
                nidx=50, width=width, factor=2.5)
want = src[:, ::-1] * 2.5
print("OK" if np.array_equal(dst, want) else f"BAD {np.abs(dst - want).max()}")
