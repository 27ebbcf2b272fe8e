"""Team and scatter code that needs nothing from pkc's team synchronization
(docs/DIALECT.md): atomics, the slot reserved with atomic_fetch_add, its own
element read back over the same range, the program's own barrier, a branch
on league_rank(), and the opt-out comment."""
import pykokkos as pk


@pk.workunit
def histogram(i: int, counts: pk.View1D[pk.int32], bins: pk.View1D[pk.int32]):
    pk.atomic_add(counts, [bins[i]], 1)


@pk.workunit
def bin_items(i: int, count: pk.View1D[pk.int32], slots: pk.View2D[pk.int32],
              bins: pk.View1D[pk.int32]):
    slot: int = pk.atomic_fetch_add(count, [bins[i]], 1)
    slots[bins[i]][slot] = i


@pk.workunit
def permute(i: int, A: pk.View1D[pk.double], perm: pk.View1D[pk.int32]):
    A[perm[i]] = 1.0 * i  # pkc: allow possible-race (perm is a permutation)


@pk.workunit
def rows(team_member: pk.TeamMember, y: pk.View2D[pk.int32], out: pk.View1D[pk.int32], N: int):
    j: int = team_member.league_rank()

    def first(i: int):
        y[j][i] = i

    pk.parallel_for(pk.TeamThreadRange(team_member, N), first)

    def second(i: int):
        y[j][i] = 2 * y[j][i]

    pk.parallel_for(pk.TeamThreadRange(team_member, N), second)
    team_member.team_barrier()
    if j % 2 == 0:
        def total(i: int, acc: pk.Acc[pk.int32]):
            acc += y[j][i]
        s: int = pk.parallel_reduce(pk.TeamThreadRange(team_member, N), total)
        if team_member.team_rank() == 0:
            out[j] = s


@pk.workunit
def pack_after(i: int, first: int, n_max: int, count: pk.View1D[pk.int32],
               x: pk.View1D[pk.double], idx: pk.View1D[pk.int32]):
    # a slot reserved atomically, shifted by values the same for every work
    # item (ghost atoms packed after the local ones): distinct, no race
    if x[i] > 0.5:
        slot: int = pk.atomic_fetch_add(count, [0], 1)
        g: int = first + 2 * n_max - n_max + slot
        if g < x.extent(0):
            x[g] = x[i]
            idx[slot + first] = i
