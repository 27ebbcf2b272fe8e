"""Rank-3 MDRange launches on a CUDA GPU, A/B: the same kernels
(md3_kernels.py) built twice, as pkc builds them (no tile given: one
RangePolicy over the flattened box, the contiguous index fastest) and with
CXXFLAGS=-DPKC_GPU_MDRANGE_TILES (Kokkos' MDRangePolicy with pkc's default
tile, as before), timed in one process, alternating, each launch followed by
pk.fence() (so a launch's few microseconds of host time are in both).

    PKC_BACKEND=cuda python3 bench/mdrange/gpu_flat.py [N ...] [--reps R]   (default 128 256 512, 21)

Prints per kernel and size the median ms of each build and the median
(quartiles) of the ratio within each repetition (< 1: flattened is faster);
the results are checked bitwise equal between the builds.
scripts/gpu/mdrange_flat_cuda.sh runs it on the GPU host."""
import argparse
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def build(tmp, name, cxxflags):
    src = os.path.join(tmp, name + ".py")
    shutil.copy(os.path.join(HERE, "md3_kernels.py"), src)
    env = dict(os.environ)
    env["CXXFLAGS"] = (env.get("CXXFLAGS", "") + " " + cxxflags).strip()
    subprocess.run(["pkc", "build", "-q", "--backend", "cuda", src], check=True, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sizes", nargs="*", type=int, default=[128, 256, 512])
    ap.add_argument("--reps", type=int, default=21)
    a = ap.parse_args()
    os.environ["PKC_BACKEND"] = "cuda"
    tmp = tempfile.mkdtemp(prefix="pkc-md-flat-")
    build(tmp, "md3_flat", "")
    build(tmp, "md3_tiles", "-DPKC_GPU_MDRANGE_TILES")
    sys.path.insert(0, tmp)
    # modules are used as built: no rebuild with this process's CXXFLAGS
    os.environ["PATH"] = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                         if not os.path.exists(os.path.join(p, "pkc")))
    import pykokkos as pk
    mods = {lab: importlib.import_module("md3_" + lab) for lab in ("flat", "tiles")}
    rng = np.random.default_rng(3)
    print(f"# CUDA, median of {a.reps} fenced launches; flat = as pkc builds, "
          "tiles = -DPKC_GPU_MDRANGE_TILES")
    print("| kernel | tiles ms | flat ms | flat/tiles per rep |")
    print("|---|---|---|---|")
    for n in a.sizes:
        shape = [n + 2] * 3
        u = pk.View(shape, pk.double)
        u[:] = rng.random(shape)
        outs = {lab: pk.View(shape, pk.double) for lab in mods}
        cases = {f"jacobi 3-D {n}^3": lambda m, lab: m.run_jacobi3(u, outs[lab], n),
                 f"copy 3-D {n}^3": lambda m, lab: m.run_copy3(u, outs[lab], n)}
        for d in range(3):
            cases[f"face copy, dim {d}, {n}^3"] = (
                lambda m, lab, d=d: m.run_face(u, outs[lab], n, d))
        for name, fn in cases.items():
            t = {lab: [] for lab in mods}
            for lab in mods:
                fn(mods[lab], lab)
                fn(mods[lab], lab)
            pk.fence()
            for r in range(a.reps):
                for lab in (("flat", "tiles") if r % 2 else ("tiles", "flat")):
                    t0 = time.perf_counter()
                    fn(mods[lab], lab)
                    pk.fence()
                    t[lab].append(time.perf_counter() - t0)
            ratio = sorted(x / y for x, y in zip(t["flat"], t["tiles"]))
            q = lambda p: ratio[min(len(ratio) - 1, int(p * len(ratio)))]
            print(f"| {name} | {statistics.median(t['tiles']) * 1e3:.4f} | "
                  f"{statistics.median(t['flat']) * 1e3:.4f} | {statistics.median(ratio):.2f} "
                  f"({q(0.25):.2f}-{q(0.75):.2f}) |", flush=True)
        mods["flat"].run_jacobi3(u, outs["flat"], n)
        mods["tiles"].run_jacobi3(u, outs["tiles"], n)
        if not np.array_equal(np.asarray(outs["flat"]), np.asarray(outs["tiles"])):
            raise SystemExit(f"gpu_flat: the 3-D Jacobi at {n}^3 differs between the builds")
    print("# results: the 3-D Jacobi is bitwise equal between the builds at every size")


if __name__ == "__main__":
    main()
