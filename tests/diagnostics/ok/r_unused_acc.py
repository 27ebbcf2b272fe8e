# A reduction (workunit or nested closure) whose body never uses its
# accumulator still compiles without warnings.
import pykokkos as pk


@pk.workunit
def nothing(i: int, acc: pk.Acc[pk.double], v: pk.View1D[pk.double]):
    v[i] = 1.0


@pk.workunit
def team(m: pk.TeamMember, acc: pk.Acc[pk.double], v: pk.View1D[pk.double]):
    def inner(j: int, a: pk.Acc[pk.double]):
        v[j] = 0.0

    t: float = pk.parallel_reduce(pk.TeamThreadRange(m, 4), inner)
    acc += t
