"""Step-by-step probe of the CUDA path (crash localisation): prints a line
before each step, flushed, so a crash names the step it happened in.

    PKC_BACKEND=cuda python3 -X faulthandler scripts/gpu/probe.py
(needs examples/trivial.pk/trivial.cuda.so built for CUDA)."""
import faulthandler
import os
import sys

faulthandler.enable(all_threads=True)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples"))


def step(msg):
    print(f"probe: {msg}", flush=True)


step("import numpy")
import numpy as np  # noqa: E402
step("import pykokkos")
import pykokkos as pk  # noqa: E402
from pykokkos import _loader  # noqa: E402
step("import trivial (kernel source)")
import trivial  # noqa: E402

src = os.path.abspath(trivial.__file__)
step(f"load module for {src} (dlopen + Kokkos::initialize)")
m = _loader.RUNTIME.module_for(src)
d = m.desc
step(f"loaded: backend={d.backend!r} kokkos={d.kokkos_version!r} device_type={d.device_type} "
     f"allocate={bool(d.allocate)} copy={bool(d.copy)}")
step("fence")
m.fence()
step("pk.View([8]) + fill")
v = pk.View([8], pk.double)
v.fill(1.0)
step("first parallel_for (allocates + copies the View to the device)")
pk.parallel_for(8, trivial.increment, v=v)
step("fence")
pk.fence()
step("copy back (np.asarray)")
got = np.asarray(v)
step(f"values {got.tolist()}")
step("host numpy argument (staged copy in/out)")
a = np.zeros(5)
pk.parallel_for(5, trivial.increment, v=a)
step(f"numpy after kernel: {a.tolist()}")
step("1000 launches")
for _ in range(1000):
    pk.parallel_for(8, trivial.increment, v=v)
pk.fence()
step(f"v[0] = {v[0]} (expect 1002)")
ok = float(v[0]) == 1002.0 and a.tolist() == [1.0] * 5
step("del views")
del v
step("done; interpreter exit next (atexit: device memory, Kokkos::finalize)")
print("probe:", "PASSED" if ok else "FAILED", flush=True)
sys.exit(0 if ok else 1)
