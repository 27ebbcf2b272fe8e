"""By hand on a CUDA machine (not part of `make test`): the GPU side of the
host API. Build first: `pkc build tests/api/kern_api.py --backend cuda`; run
with PKC_BACKEND=cuda and a Python that has CuPy and torch:

    python3 tests/api/gpu_interop.py [DEVICE]

Checks, against numpy: pk.set_device_id(DEVICE) before the first kernel puts
the Views' device memory on that GPU and a later switch raises;
pk.array(cupy array) and pk.array(torch CUDA tensor) are zero-copy (a kernel
writes the caller's device memory in place); pk.array(torch CPU tensor)
shares its memory; a host write into a device-resident View reaches the
device. Prints OK as its last line."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pykokkos as pk  # noqa: E402

dev = int(sys.argv[1]) if len(sys.argv) > 1 else 0
pk.set_device_id(dev)
import cupy as cp  # noqa: E402
import torch  # noqa: E402
import kern_api as K  # noqa: E402

bad = []


def check(what, ok):
    print(("ok   " if ok else "BAD  ") + what, flush=True)
    if not ok:
        bad.append(what)


n = 1000
x = pk.array(np.linspace(0.0, 1.0, n))
y = pk.zeros(n)
pk.parallel_for(n, K.axpy, y=y, x=x, a=2.0)
check("axpy on created Views", np.allclose(np.asarray(y), 2.0 * np.linspace(0.0, 1.0, n)))
ptr = y.__cuda_array_interface__["data"][0]
attr = cp.cuda.runtime.pointerGetAttributes(ptr)
check(f"View memory on device {dev} (pointer says {attr.device})", attr.device == dev)
other = 1 - dev if dev in (0, 1) else 0
try:
    pk.set_device_id(other)
    check("switching devices raises", False)
except RuntimeError as e:
    check(f"switching devices raises: {e}", "one process per device" in str(e))

with cp.cuda.Device(dev):
    c = cp.arange(n, dtype=cp.float64)
    v = pk.array(c)
    check("pk.array(cupy) is device-resident", v._dev is not None)
    pk.parallel_for(n, K.axpy, y=v, x=x, a=10.0)
    cp.cuda.runtime.deviceSynchronize()
    want = np.arange(n) + 10.0 * np.linspace(0.0, 1.0, n)
    check("pk.array(cupy): the kernel wrote the CuPy array in place",
          np.allclose(cp.asnumpy(c), want))
    check("pk.array(cupy): values through the View", np.allclose(np.asarray(v), want))
    v[0] = -5.0
    pk.parallel_for(n, K.axpy, y=v, x=x, a=0.0)
    cp.cuda.runtime.deviceSynchronize()
    check("host write reaches the CuPy memory", float(c[0]) == -5.0)

t = torch.arange(n, dtype=torch.float64, device=f"cuda:{dev}")
tv = pk.array(t)
pk.parallel_for(n, K.axpy, y=tv, x=x, a=1.0)
torch.cuda.synchronize()
check("pk.array(torch.cuda): the kernel wrote the tensor in place",
      np.allclose(t.cpu().numpy(), np.arange(n) + np.linspace(0.0, 1.0, n)))
i32 = torch.arange(n, dtype=torch.int32, device=f"cuda:{dev}")
pk.parallel_for(n, K.scale_i32, v=pk.array(i32), k=3)
torch.cuda.synchronize()
check("pk.array(torch.cuda int32) scaled in place",
      (i32.cpu().numpy() == 3 * np.arange(n)).all())

tc = torch.arange(8, dtype=torch.float64)
vc = pk.array(tc)
vc[0] = 42.0
check("pk.array(torch CPU) shares memory", float(tc[0]) == 42.0)

print("BAD: " + "; ".join(bad) if bad else "OK")
