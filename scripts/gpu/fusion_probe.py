"""Where the time of a host-code fused chain goes on a GPU: the whole chain
as the program runs it, the fused kernel called directly, and the chain at
a tiny size (the shim's queue alone). Run from the tree root."""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "fusion"))
import numpy as np  # noqa: E402
import pykokkos as pk  # noqa: E402
import host_subjects as H  # noqa: E402
from pykokkos import _fusion as F  # noqa: E402
from pykokkos._loader import RUNTIME  # noqa: E402

n = 1 << 25
for m in ("1", "0", "1"):
    os.environ["PKC_FUSION"] = m
    print(f"PKC_FUSION={m} nstream50: {H.nstream50(n)[0] * 1e3:.3f} ms", flush=True)
    print(f"PKC_FUSION={m} nstream50 n=1024: {H.nstream50(1024)[0] * 1e3:.3f} ms", flush=True)
os.environ["PKC_FUSION"] = "1"
mod = RUNTIME.module_for(os.path.abspath(H.__file__))
var = [v for v in F.variants_of(mod) if v.repeat and v.links[0]["kernel"] == "nstream"][0]
A, B, C = pk.View([n], pk.double), pk.View([n], pk.double), pk.View([n], pk.double)
kw = {"A": A, "B": B, "C": C, "nstream.scalar": 3.0, "pkc_reps": 50}
run = var.run()
ts = []
for _ in range(7):
    pk.fence()
    t = time.perf_counter()
    run(n, kw)
    pk.fence()
    ts.append(time.perf_counter() - t)
print(f"fused kernel called directly: {statistics.median(ts) * 1e3:.3f} ms ({var.name}, {var.why})")
import cProfile  # noqa: E402
import pstats  # noqa: E402
H.nstream50(1024)
cProfile.run("H.nstream50(1024)", "/tmp/pkc-probe.prof")
pstats.Stats("/tmp/pkc-probe.prof").sort_stats("tottime").print_stats(8)
for m in ("1", "0", "1", "0"):
    os.environ["PKC_FUSION"] = m
    print(f"PKC_FUSION={m} babelstream: {H.babelstream(1 << 27)[0] * 1e3:.3f} ms", flush=True)
