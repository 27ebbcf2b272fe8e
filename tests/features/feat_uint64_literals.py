"""64-bit hash constants above int64's range (splitmix64's multipliers), as
module constants and as literals, computed in uint64 as numpy does, with
pk.uint64(x) and np.uint64(x) converting the work index; np.float32(x)
converts too. A module int constant beyond 64 bits (10**20) is no constant:
a launch reading it raises OverflowError naming it (Python's ints do not
wrap; pkc's folding used to). Values against Python's ints modulo 2**64."""
import numpy as np
import pykokkos as pk

GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
SCALE = 10 ** 20


@pk.workunit
def splitmix(i: int, out: pk.View1D[pk.uint64], frac: pk.View1D[pk.double],
             half: pk.View1D[pk.float]):
    z: pk.uint64 = GOLDEN * pk.uint64(i + 1)
    z = (z ^ (z >> 30)) * M1
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    z = z ^ (z >> 31)
    out[i] = z
    frac[i] = (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    half[i] = np.float32(frac[i]) * np.float32(0.5)


@pk.workunit
def scaled(i: int, out: pk.View1D[pk.double]):
    out[i] = i / SCALE


n = 16
out = pk.View([n], pk.uint64)
frac = pk.View([n], pk.double)
half = pk.View([n], pk.float)
pk.parallel_for(n, splitmix, out=out, frac=frac, half=half)
want = []
for i in range(n):
    z = (GOLDEN * (i + 1)) % 2**64
    z = ((z ^ (z >> 30)) * M1) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    want.append(z ^ (z >> 31))
want_frac = [(z >> 11) * (1.0 / 2**53) for z in want]
checks = [("hashes", [int(v) for v in np.asarray(out)], want),
          ("fractions", np.asarray(frac).tolist(), want_frac),
          ("float32", np.asarray(half).tolist(),
           (np.float32(want_frac) * np.float32(0.5)).tolist())]
try:
    pk.parallel_for(3, scaled, out=pk.View([3], pk.double))
    checks.append(("10**20 raises", "ran", "raised"))
except OverflowError as e:
    checks.append(("10**20 raises", "SCALE" in str(e) and "scaled" in str(e), True))
bad = [c[0] for c in checks if c[1] != c[2]]
print("OK" if not bad else f"BAD {bad} {checks}")
