"""A policy's execution space is honoured between the host backends, as in
PyKokkos: `pk.RangePolicy(pk.Serial, 0, n)` while OpenMP runs runs the kernel
serially (ExaMiniMD fills its lattice with a Serial parallel_reduce whose
accumulator is a running write index: on 2 OpenMP threads the threads
overwrote each other's atoms), and pk.execute(pk.ExecutionSpace.Serial, w)
runs the workload serially; kernels without a space keep the default backend,
in the same process. (Between the host backends only: on a GPU backend the
Views live on the device and such kernels run there.)"""
import os
import sys

import numpy as np
import pykokkos as pk


@pk.workload
class Lattice:
    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.int32] = pk.View([4 * n], pk.int32)
        self.placed: int = 0

    @pk.main
    def run(self):
        self.placed = pk.parallel_reduce(self.n, self.fill)

    @pk.workunit
    def fill(self, i: int, count: pk.Acc[int]):
        for k in range(4):          # the accumulator as a running index: serial only
            self.x[count] = i * 4 + k
            count += 1


@pk.workunit
def running(i: int, acc: pk.Acc[pk.double], out: pk.View1D[pk.double]):
    out[i] = acc
    acc += 1.0


@pk.workunit
def square(i: int, out: pk.View1D[pk.double]):
    out[i] = out[i] * out[i]


def main():
    out = pk.View([100], pk.double)
    pk.parallel_for(100, square, out=out)           # the default backend first
    s = pk.parallel_reduce(pk.RangePolicy(pk.ExecutionSpace.Serial, 0, 100), running, out=out)
    pk.parallel_for(pk.RangePolicy(0, 100), square, out=out)
    w = Lattice(50)
    t = pk.parallel_reduce("fill", pk.RangePolicy(pk.Serial, 0, w.n), w.fill)
    w2 = Lattice(30)
    pk.execute(pk.ExecutionSpace.Serial, w2)
    bad = []
    if os.environ.get("PKC_BACKEND", "openmp") not in ("openmp", "serial"):
        # on a GPU backend the policy's host space is not honoured (the Views live
        # on the device): the kernels still run, and only that is checked there
        print("OK" if t == 200 and s == 100.0 and w2.placed == 120 else f"BAD t={t} s={s}")
        return
    if s != 100.0 or not np.array_equal(np.asarray(out), np.arange(100.0) ** 2):
        bad.append(f"running index: s={s} out={np.asarray(out)[:8].tolist()}...")
    if t != 200 or not np.array_equal(np.asarray(w.x), np.arange(200)):
        bad.append(f"Serial policy: t={t} x={np.asarray(w.x)[:12].tolist()}...")
    if w2.placed != 120 or not np.array_equal(np.asarray(w2.x), np.arange(120)):
        bad.append(f"pk.execute(Serial): placed={w2.placed}")
    if bad:
        print("BAD " + "; ".join(bad))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
