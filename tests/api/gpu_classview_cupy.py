"""By hand on a CUDA machine (not part of `make test`; scripts/gpu/
classview_cupy_cuda.sh runs it): fields of a View of a @pk.classtype as
CuPy arrays, zero copy (issue 26, docs/DIALECT.md 3.4). Run with
PKC_BACKEND=cuda and a Python that has CuPy:

    python3 tests/api/gpu_classview_cupy.py

For AoS and SoA, against numpy: a kernel writes the View and
cupy.asarray(p.x) reads the kernel's values from the device buffer (the
struct size as stride for AoS); CuPy writes a field and a kernel reads it;
nested (p.pos.x) and List (p.v, shape (n, 3)) fields; cupy.from_dlpack; a
host write reaching CuPy's array; an SoA field passed to a scalar kernel.
Prints OK/BAD per check and OK as its last line when all pass."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pykokkos as pk  # noqa: E402
import cupy as cp  # noqa: E402
import kern_classview as K  # noqa: E402

N = 1000
bad = []


def check(name, ok, detail=""):
    print(f"{'OK ' if ok else 'BAD'} {name}{': ' + detail if detail and not ok else ''}",
          flush=True)
    if not ok:
        bad.append(name)


def same(a, want):
    a = cp.asnumpy(a)
    return a.shape == np.shape(want) and np.allclose(a, want), f"{a[:4]} vs {np.asarray(want)[:4]}"


def particles(lay):
    p = pk.View([N], K.Particle, layout=lay)
    p.x = np.arange(N) * 1.0
    p.v = 0.5
    p.id = np.arange(N)
    p.n = 0
    return p


for lay in (pk.AoS, pk.SoA):
    L = lay.name
    p = particles(lay)
    pk.parallel_for(N, K.advance, p=p, dt=2.0)          # x += 2 * v; n += 1
    cx = cp.asarray(p.x)
    check(f"{L} kernel wrote, CuPy reads x", *same(cx, np.arange(N) + 1.0))
    check(f"{L} zero copy", cx.data.ptr == p.x.__cuda_array_interface__["data"][0]
          and cx.strides == ((24,) if lay is pk.AoS else (8,)), f"strides {cx.strides}")
    check(f"{L} CuPy reads n (int64), v (float32)",
          same(cp.asarray(p.n), np.ones(N))[0] and cp.asarray(p.v).dtype == cp.float32
          and same(cp.asarray(p.v), np.full(N, 0.5))[0])
    cx *= 2.0                                             # CuPy writes x on the device
    cp.asarray(p.v)[:] = 3.0                              # ... and v
    pk.parallel_for(N, K.advance, p=p, dt=1.0)            # the kernel reads both
    want = 2.0 * (np.arange(N) + 1.0) + 3.0
    check(f"{L} kernel read CuPy's writes", *same(np.asarray(p.x), want))
    pk.parallel_for(N, K.advance, p=p, dt=1.0)            # device master again
    check(f"{L} CuPy sees the next kernel", *same(cp.asarray(p.x), want + 3.0))
    check(f"{L} the first CuPy array is the same memory", *same(cx, want + 3.0))
    check(f"{L} cupy.from_dlpack", *same(cp.from_dlpack(p.x), want + 3.0))
    p.x[0] = 42.0                                         # a host write
    check(f"{L} host write reaches CuPy", float(cp.asarray(p.x)[0]) == 42.0)

    t = pk.View([N], K.Tracer, layout=lay)
    t.v = np.arange(3.0 * N).reshape(N, 3)
    t.w = 2.0
    t.pos.x = np.arange(N) * 0.25
    pk.parallel_for(N, K.spin, t=t)                       # v[d] += d * w[1]; id = 3
    cv = cp.asarray(t.v)
    check(f"{L} List field v (n, 3)", *same(cv, np.arange(3.0 * N).reshape(N, 3) + 2.0 * np.arange(3)))
    check(f"{L} List field strides", cv.strides == ((64, 8) if lay is pk.AoS else (8, 8 * N)),
          f"{cv.strides}")
    check(f"{L} nested field pos.x", *same(cp.asarray(t.pos.x), np.arange(N) * 0.25))
    check(f"{L} id after the kernel", *same(cp.asarray(t.id), np.full(N, 3)))
    cp.asarray(t.pos.y)[:] = 7.0
    check(f"{L} CuPy write to a nested field reaches the host", *same(np.asarray(t.pos.y),
                                                                      np.full(N, 7.0)))

s = particles(pk.SoA)
pk.parallel_for(N, K.scale, x=s.x, s=3.0)                 # a field to a View1D[float] kernel
check("SoA field in a scalar kernel", *same(cp.asarray(s.x), np.arange(N) * 3.0))
a = particles(pk.AoS)
pk.parallel_for(N, K.scale, x=a.x, s=3.0)   # strided: a contiguous copy, written back
check("AoS (strided) field in a scalar kernel", *same(cp.asarray(a.x), np.arange(N) * 3.0))

print("OK" if not bad else f"BAD {len(bad)}: {', '.join(bad)}")
