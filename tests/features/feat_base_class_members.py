"""Functors and workloads whose data members a base class of the same file
declares in its __init__ (ExaMiniMD's `class ForceLJNeigh(Force)`, reached
through super().__init__()): the kernels see them as the instance's own,
over two levels of bases, and a member the subclass annotates again keeps
one type. Tallies against numpy."""
import numpy as np
import pykokkos as pk


class Tally:
    def __init__(self, nbins: int):
        self.nbins: int = nbins
        self.hist: pk.View1D[pk.double] = pk.View([nbins], pk.double)


class WeightedTally(Tally):
    def __init__(self, nbins: int, weight: float):
        super().__init__(nbins)
        self.weight: float = weight


@pk.functor
class Counter(WeightedTally):
    def __init__(self, nbins: int, weight: float, keys: pk.View1D[pk.int32]):
        super().__init__(nbins, weight)
        self.keys: pk.View1D[pk.int32] = keys
        self.nbins: int = nbins   # annotated again, the same type

    @pk.workunit
    def score(self, i: int):
        pk.atomic_add(self.hist, [self.keys[i] % self.nbins], self.weight)


class Field:
    def __init__(self, n: int):
        self.n: int = n
        self.u: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.total: float = 0.0


@pk.workload
class Heat(Field):
    def __init__(self, n: int, steps: int):
        super().__init__(n)
        self.steps: int = steps

    @pk.main
    def run(self):
        for s in range(self.steps):
            pk.parallel_for(self.n, self.add)
        self.total = pk.parallel_reduce(self.n, self.sum)

    @pk.workunit
    def add(self, i: int):
        self.u[i] += 0.5 * i

    @pk.workunit
    def sum(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.u[i]


keys_np = (np.arange(50) * 7 % 13).astype(np.int32)
keys = pk.View([50], pk.int32)
keys[:] = keys_np
c = Counter(5, 0.25, keys)
pk.parallel_for(50, c.score)
want = 0.25 * np.bincount(keys_np % 5, minlength=5)
h = Heat(10, 4)
pk.execute(pk.ExecutionSpace.Default, h)
ok = np.allclose(np.asarray(c.hist), want) and h.total == 4 * 0.5 * np.arange(10).sum()
print("OK" if ok else f"BAD {np.asarray(c.hist)} {want} {h.total}")
