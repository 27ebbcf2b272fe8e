"""Undecorated module functions named like math functions (`def log`, `def
sqrt`), as host helpers a program keeps beside its kernels: a kernel's bare
log(x) / sqrt(x) is the math function (PyKokkos: the intrinsic takes
precedence over a same-name function). pkc translated the host function
instead: the kernel was rejected when it could not be translated, and
computed sqrt(x) = x + 1000 when it could. A @pk.function of such a name is the
program's own and still wins (s3_math_name_kernel.py)."""
import numpy as np
import pykokkos as pk


def log(value):
    raise RuntimeError("host-side logging helper, never a kernel")


def sqrt(value: float) -> float:
    return value + 1000.0


@pk.workunit
def take_log(i: int, v: pk.View1D[pk.double]):
    v[i] = log(v[i])


@pk.workunit
def take_sqrt(i: int, v: pk.View1D[pk.double]):
    v[i] = sqrt(v[i])


x = np.array([1.0, 4.0, 9.0, 16.0])
a, b = x.copy(), x.copy()
pk.parallel_for(4, take_log, v=a)
pk.parallel_for(4, take_sqrt, v=b)
ok = np.allclose(a, np.log(x)) and np.allclose(b, np.sqrt(x)) and sqrt(1.0) == 1001.0
print("OK" if ok else f"BAD {a} {b}")
