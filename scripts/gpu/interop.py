"""CUDA argument passing checks: CuPy and torch arrays zero-copy, host numpy
arrays copied in and back, pk.View device residency, bad arguments raising
errors that name kernel and argument. Prints one PASS/FAIL line per check.

    PKC_BACKEND=cuda python3 scripts/gpu/interop.py
(kernels from bench/cuda/stream_pk.py, built for CUDA)."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "cuda"))
import pykokkos as pk  # noqa: E402
import stream_pk as S  # noqa: E402

N = 1 << 20
results = []


def check(name, fn):
    try:
        ok, detail = fn()
    except Exception as e:  # noqa: BLE001
        ok, detail = False, f"{type(e).__name__}: {e}"
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)


def raises(exc, words, fn):
    try:
        fn()
    except exc as e:
        msg = str(e)
        return all(w in msg for w in words), msg
    return False, "no exception"


def numpy_args():
    a, b, c = np.zeros(N), np.full(N, 2.0), np.full(N, 3.0)
    pk.parallel_for(N, S.triad, a=a, b=b, c=c, scalar=0.5)
    ok = np.all(a == 3.5) and np.all(b == 2.0)
    return ok, f"triad on host numpy arrays (staged): a[0]={a[0]} (expect 3.5)"


def cupy_args():
    import cupy as cp
    a, b, c = cp.zeros(N), cp.full(N, 2.0), cp.full(N, 3.0)
    p0 = a.data.ptr
    pk.parallel_for(N, S.triad, a=a, b=b, c=c, scalar=0.5)
    pk.fence()
    ok = bool(cp.all(a == 3.5)) and a.data.ptr == p0
    # strided CuPy view: the kernel wants contiguous 1-D; a[::2] has stride 2
    return ok, f"triad on CuPy arrays, zero-copy: a[0]={float(a[0])}"


def torch_args():
    import torch
    a = torch.zeros(N, dtype=torch.float64, device="cuda")
    b = torch.full((N,), 2.0, dtype=torch.float64, device="cuda")
    c = torch.full((N,), 3.0, dtype=torch.float64, device="cuda")
    pk.parallel_for(N, S.triad, a=a, b=b, c=c, scalar=0.5)
    pk.fence()
    ok = bool(torch.all(a == 3.5))
    return ok, f"triad on torch CUDA tensors, zero-copy: a[0]={float(a[0])}"


def view_to_cupy():
    import cupy as cp
    v = pk.View([N], pk.double)
    v.fill(1.0)
    b = pk.View([N], pk.double)
    b.fill(2.0)
    pk.parallel_for(N, S.nstream, A=v, B=b, C=b, scalar=1.0)
    x = cp.asarray(v)   # __cuda_array_interface__, no copy
    ok = float(x[5]) == 5.0 and float(np.asarray(v)[N - 1]) == 5.0
    return ok, f"pk.View on the device seen by CuPy: {float(x[5])} (expect 5.0)"


def wrong_dtype():
    import cupy as cp
    a = cp.zeros(N, dtype=cp.float32)
    return raises(TypeError, ["triad", "'a'"],
                  lambda: pk.parallel_for(N, S.triad, a=a, b=a, c=a, scalar=1.0))


def host_only():
    return raises(TypeError, ["triad", "'a'"],
                  lambda: pk.parallel_for(N, S.triad, a=[0.0] * 4, b=None, c=None,
                                          scalar=1.0))


def other_device():
    import cupy as cp
    if cp.cuda.runtime.getDeviceCount() < 2:
        return True, "skipped (one GPU)"
    with cp.cuda.Device(1):
        a = cp.zeros(N)
    return raises(ValueError, ["triad", "'a'", "device"],
                  lambda: pk.parallel_for(N, S.triad, a=a, b=a, c=a, scalar=1.0))


check("host numpy arguments", numpy_args)
check("CuPy zero-copy", cupy_args)
check("torch zero-copy", torch_args)
check("pk.View -> CuPy zero-copy", view_to_cupy)
check("wrong dtype raises TypeError", wrong_dtype)
check("host-only object raises TypeError", host_only)
check("array on another device raises ValueError", other_device)
print(f"interop: {sum(results)}/{len(results)} passed", flush=True)
sys.exit(0 if all(results) else 1)
