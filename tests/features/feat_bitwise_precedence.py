"""Python's precedence of the bitwise operators, & above ^ above |, with
shifts and arithmetic tighter still: `a ^ b & c` is `a ^ (b & c)` and `a & b
^ c` is `(a & b) ^ c` (tree-sitter-python's grammar ranks ^ above &, so pkc
re-reads such chains). Hash-like mixes as random-number and hashing kernels
write them, in a workunit, a @pk.function and a workload's @pk.main, against
Python on the same integers."""
import numpy as np
import pykokkos as pk


@pk.function
def mix(a: int, b: int, c: int) -> int:
    return a & b ^ c & a ^ b


@pk.workunit
def bitmix(i: int, a: pk.View1D[pk.int64], b: pk.View1D[pk.int64], c: pk.View1D[pk.int64],
           out: pk.View2D[pk.int64]):
    x: int = a[i]
    y: int = b[i]
    z: int = c[i]
    out[i][0] = x ^ y & z
    out[i][1] = x & y ^ z
    out[i][2] = x ^ y & z ^ x & 255
    out[i][3] = x | y ^ z & x
    out[i][4] = x ^ y << 3 & z
    out[i][5] = (x ^ y) & z
    out[i][6] = x & y & z ^ x ^ y ^ z
    out[i][7] = mix(x, y, z)
    out[i][8] = x + 1 & y - 1 ^ z * 3


@pk.workload
class Hash:
    def __init__(self, n: int):
        self.n: int = n
        self.h: int = 0

    @pk.main
    def run(self):
        self.h = self.n ^ 12345 & self.n * 7 ^ 99


def python(x, y, z):
    return [x ^ y & z, x & y ^ z, x ^ y & z ^ x & 255, x | y ^ z & x, x ^ y << 3 & z,
            (x ^ y) & z, x & y & z ^ x ^ y ^ z, x & y ^ z & x ^ y, x + 1 & y - 1 ^ z * 3]


rng = np.random.default_rng(11)
n = 200
vals = [rng.integers(-(1 << 40), 1 << 40, n) for _ in range(3)]
a, b, c = (pk.array(v.astype(np.int64)) for v in vals)
out = pk.View([n, 9], pk.int64)
pk.parallel_for(n, bitmix, a=a, b=b, c=c, out=out)
got = np.asarray(out)
bad = [i for i in range(n)
       if got[i].tolist() != python(int(vals[0][i]), int(vals[1][i]), int(vals[2][i]))]
w = Hash(987654)
pk.execute(pk.ExecutionSpace.Default, w)
if w.h != (987654 ^ 12345 & 987654 * 7 ^ 99):
    bad.append(f"@pk.main {w.h}")
print("OK" if not bad else f"BAD {bad[:5]}")
