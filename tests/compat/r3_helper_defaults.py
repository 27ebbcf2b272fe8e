"""Device functions with default parameter values, called with fewer
arguments or with keyword arguments, as Python binds them: an undecorated
helper (upstream's implicit functions) and a @pk.function, a default that is
a module constant, an int default for a float parameter, keywords out of order.
pkc rejected the defaults, and the kernels then failed with 'wrong number of
arguments'."""
import numpy as np
import pykokkos as pk

GAIN = 0.5


def scale(x: float, k: float = 3.0, shift: float = GAIN) -> float:
    return x * k + shift


@pk.function
def clip(x: float, lo: float = 0, hi: float = 10.0) -> float:
    return min(max(x, lo), hi)


@pk.classtype
class Acc2:
    def __init__(self):
        self.s: float = 0.0

    @pk.function
    def add(self, x: float, w: float = 1.0):
        self.s += w * x


@pk.workunit
def kernels(i: int, out: pk.View2D[pk.double]):
    x: float = float(i) - 3.0
    out[i][0] = scale(x)
    out[i][1] = scale(x, 2.0)
    out[i][2] = scale(x, shift=-1.0)
    out[i][3] = scale(shift=1.0, x=x, k=4.0)
    out[i][4] = clip(x)
    out[i][5] = clip(x, hi=2.0)
    a: Acc2 = Acc2()
    a.add(x)
    a.add(x, 3.0)
    out[i][6] = a.s


n = 12
out = np.zeros((n, 7))
pk.parallel_for(n, kernels, out=out)
x = np.arange(n) - 3.0
want = np.stack([x * 3 + 0.5, x * 2 + 0.5, x * 3 - 1, x * 4 + 1, np.clip(x, 0, 10),
                 np.clip(x, 0, 2), 4 * x], axis=1)
print("OK" if np.array_equal(out, want) else f"BAD {out - want}")
