"""Issue 22 item 3: Python names that meet pkc's C++ spellings stay distinct:
a C++ keyword and the same word plus '_' (`new`, `new_`), names with '__',
a trailing '_', workload classes/methods whose names joined by '__' are
the same (`A__b.c` and `A.b__c`), and a @pk.main `Ab.run` beside a workunit
`Ab_run`: each reads its own value."""
import numpy as np
import pykokkos as pk


@pk.workunit
def k(i: int, out: pk.View1D[pk.double]):
    new: float = 1.0
    new_: float = 10.0
    x__y: float = 100.0
    x_0_0y: float = 1000.0
    pkc_end_j: float = 10000.0
    s: float = 0.0
    for j in range(out.extent(0) - i):
        s += 1.0
    out[i] = new + new_ + x__y + x_0_0y + pkc_end_j + s * 100000.0


@pk.workload
class A__b:
    def __init__(self, v: pk.View1D[pk.double]):
        self.v: pk.View1D[pk.double] = v

    @pk.main
    def c(self):
        pk.parallel_for(1, self.w)

    @pk.workunit
    def w(self, i: int):
        self.v[0] = 1.0


@pk.workload
class A:
    def __init__(self, v: pk.View1D[pk.double]):
        self.v: pk.View1D[pk.double] = v

    @pk.main
    def b__c(self):
        pk.parallel_for(1, self.w)

    @pk.workunit
    def w(self, i: int):
        self.v[1] = 2.0


@pk.workunit
def Ab_run(i: int, v: pk.View1D[pk.double]):
    v[i] = 3.0


@pk.workload
class Ab:   # its @pk.main `run` and the workunit `Ab_run` live in one namespace
    def __init__(self, v: pk.View1D[pk.double]):
        self.v: pk.View1D[pk.double] = v

    @pk.main
    def run(self):
        pk.parallel_for(1, self.w)

    @pk.workunit
    def w(self, i: int):
        self.v[0] = 4.0


out = pk.View([2], pk.double)
pk.parallel_for(2, k, out=out)
v = pk.View([2], pk.double)
pk.execute(pk.ExecutionSpace.Default, A__b(v))
pk.execute(pk.ExecutionSpace.Default, A(v))
v2 = pk.View([2], pk.double)
pk.execute(pk.ExecutionSpace.Default, Ab(v2))
pk.parallel_for(1, Ab_run, v=v2[1:])
want = [11111.0 + 200000.0, 11111.0 + 100000.0]
ok = (list(np.asarray(out)) == want and list(np.asarray(v)) == [1.0, 2.0]
      and list(np.asarray(v2)) == [4.0, 3.0])
print("OK" if ok else f"BAD out={np.asarray(out).tolist()} want {want} v={np.asarray(v).tolist()}")
