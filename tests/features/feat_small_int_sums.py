"""Sums and scans with 8- and 16-bit integer accumulators (pk.Acc[pk.int16],
pk.Acc[pk.uint8], ...), as upstream PyKokkos' test_parallelreduce.py writes
them (SquareSumInt16): Kokkos takes a reduction value whose size is a
multiple of sizeof(int) only, so pkc adds them in 32 bits and casts the
result back. The numbers are the accumulator type's: sums wrap modulo 2^bits
as numpy's sums in that dtype do. Top-level reductions and scans, a
@pk.main's reduction into an int16 member, two fused into one kernel, and a
TeamThreadRange reduction."""
import os

import numpy as np
import pykokkos as pk


@pk.workunit
def square_sum16(i: int, acc: pk.Acc[pk.int16]):
    acc += i * i


@pk.workunit
def byte_sum(i: int, acc: pk.Acc[pk.uint8], x: pk.View1D[pk.uint8]):
    acc += x[i]


@pk.workunit
def prefix8(i: int, acc: pk.Acc[pk.int8], last: bool, x: pk.View1D[pk.int8],
            y: pk.View1D[pk.int8]):
    acc += x[i]
    if last:
        y[i] = acc


@pk.workunit
def row_sums(m: pk.TeamMember, a: pk.View2D[pk.int16], out: pk.View1D[pk.int16]):
    r: int = m.league_rank()

    def body(j: int, acc: pk.Acc[pk.int16]):
        acc += a[r][j]
    s: pk.int16 = pk.parallel_reduce(pk.TeamThreadRange(m, a.extent(1)), body)
    if m.team_rank() == 0:
        out[r] = s


@pk.workload
class SquareSumInt16:
    def __init__(self, n: int):
        self.N: int = n
        self.total: pk.int16 = 0

    @pk.main
    def run(self):
        self.total = pk.parallel_reduce(self.N, self.squaresum)

    @pk.workunit
    def squaresum(self, i: pk.int16, acc: pk.Acc[pk.int16]):
        acc += i * i


@pk.workload
class TwoSums:
    """Two reductions in a row in a @pk.main: one fused kernel (int16 and
    uint8 results from one pass)."""

    def __init__(self, n: int):
        self.n: int = n
        self.x: pk.View1D[pk.int16] = pk.View([n], pk.int16)
        self.a: pk.int16 = 0
        self.b: pk.uint8 = 0

    @pk.main
    def run(self):
        self.a = pk.parallel_reduce(self.n, self.s16)
        self.b = pk.parallel_reduce(self.n, self.s8)

    @pk.workunit
    def s16(self, i: int, acc: pk.Acc[pk.int16]):
        acc += self.x[i] * 3

    @pk.workunit
    def s8(self, i: int, acc: pk.Acc[pk.uint8]):
        acc += self.x[i]


def wrapped(values, dtype):
    """The sum of values in dtype's arithmetic (modulo 2^bits)."""
    return int(np.array(sum(int(v) for v in values) % (1 << np.dtype(dtype).itemsize * 8),
                        dtype=np.uint64).astype(dtype))


checks = []
n = 1000
got = pk.parallel_reduce(n, square_sum16)
checks.append(("int16 sum", int(got), wrapped((i * i for i in range(n)), np.int16)))

x = pk.View([300], pk.uint8)
x[:] = (np.arange(300) * 7 % 251).astype(np.uint8)
got = pk.parallel_reduce(300, byte_sum, x=x)
checks.append(("uint8 sum", int(got), wrapped(np.array(x), np.uint8)))

xs = pk.View([200], pk.int8)
xs[:] = ((np.arange(200) * 37) % 255 - 127).astype(np.int8)
ys = pk.View([200], pk.int8)
total = pk.parallel_scan(200, prefix8, x=xs, y=ys)
want = np.cumsum(np.array(xs), dtype=np.int8)
checks.append(("int8 scan", np.array(ys).tolist(), want.tolist()))
checks.append(("int8 scan total", int(total), int(want[-1])))

a = pk.View([4, 500], pk.int16)
a[:] = (np.arange(2000).reshape(4, 500) * 131 % 30011 - 15000).astype(np.int16)
# teams of one thread (pk.AUTO on host backends) and of two (OpenMP)
for size in [pk.AUTO] + ([2] if os.environ.get("PKC_BACKEND", "openmp") == "openmp" else []):
    out = pk.View([4], pk.int16)
    pk.parallel_for(pk.TeamPolicy(4, size), row_sums, a=a, out=out)
    checks.append((f"int16 team sums, team {size}", np.array(out).tolist(),
                   np.array(a).sum(axis=1, dtype=np.int16).tolist()))

w = SquareSumInt16(20)
pk.execute(pk.ExecutionSpace.Default, w)
checks.append(("int16 @pk.main", int(w.total), sum(i * i for i in range(20))))

t = TwoSums(1000)
t.x[:] = (np.arange(1000) * 37 % 2000).astype(np.int16)
pk.execute(pk.ExecutionSpace.Default, t)
xs16 = np.array(t.x).astype(np.int64)
checks.append(("fused int16", int(t.a), wrapped(xs16 * 3, np.int16)))
checks.append(("fused uint8", int(t.b), wrapped(xs16, np.uint8)))

bad = [c for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad}")
