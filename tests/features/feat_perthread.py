"""Per-thread scratch and pk.single(PerThread / PerTeam) counted with atomics;
a team size the backend cannot run raises instead of aborting."""
import os

import numpy as np
import pykokkos as pk

@pk.workunit
def k(m: pk.TeamMember, out: pk.View1D[pk.int64]):
    t: pk.ScratchView1D[pk.int64] = pk.ScratchView1D(m.thread_scratch(0), 1)
    t[0] = m.team_rank()
    def once():
        pk.atomic_add(out, [0], 1)
    pk.single(pk.PerThread(m), once)
    def cnt():
        pk.atomic_add(out, [1], 1)
    pk.single(pk.PerTeam(m), cnt)

# Serial runs teams of one thread; a team size the backend cannot run must
# raise (naming the kernel), not abort the process.
team = 1 if os.environ.get("PKC_BACKEND") == "serial" else 2
out = pk.View([2], pk.int64)
p = pk.TeamPolicy(3, team).set_scratch_size(0, pk.PerTeam(0), pk.PerThread(64))
pk.parallel_for(p, k, out=out)
ok = list(np.asarray(out)) == [3 * team, 3]
try:
    pk.parallel_for(pk.TeamPolicy(3, 4096).set_scratch_size(0, pk.PerTeam(0), pk.PerThread(64)), k, out=out)
    raised = "no error"
except RuntimeError as e:
    raised = str(e)
ok = ok and raised.startswith("k: team size 4096 is larger than")
print("OK" if ok else f"BAD {np.asarray(out)} {raised!r}")
