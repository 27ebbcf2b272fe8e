"""Team scratch (ScratchView1D, set_scratch_size with shmem_size) filled by
TeamThreadRange and read back reversed by TeamVectorRange after a barrier."""
import numpy as np
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, n: int, out: pk.View1D[pk.double]):
    s: pk.ScratchView1D[pk.double] = pk.ScratchView1D(m.team_scratch(0), n)
    def fill(j: int):
        s[j] = float(j)
    pk.parallel_for(pk.TeamThreadRange(m, n), fill)
    m.team_barrier()
    def tv(j: int):
        out[m.league_rank() * n + j] = s[n - 1 - j]
    pk.parallel_for(pk.TeamVectorRange(m, n), tv)

n = 8
out = pk.View([2 * n], pk.double)
p = pk.TeamPolicy(2, pk.AUTO).set_scratch_size(0, pk.PerTeam(pk.ScratchView1D.shmem_size(n)))
pk.parallel_for(p, k, n=n, out=out)
exp = np.tile(np.arange(n - 1, -1, -1.0), 2)
print("OK" if np.array_equal(np.asarray(out), exp) else f"BAD {np.asarray(out)}")
