"""Host MDRange schemes A/B (issue 24, item 1): the same MDRange kernels
(md_kernels.py) built twice for OpenMP, once as pkc builds them (rows along
the contiguous index; a transpose keeps Kokkos' tiles) and once with
CXXFLAGS=-DPKC_HOST_MDRANGE_TILES (Kokkos' host MDRangePolicy everywhere, as
before issue 24), timed in one process, alternating, each launch followed by
pk.fence().

    OMP_NUM_THREADS=T python3 bench/mdrange/ab.py [N2 [N3 [REPS]]]   (default 4000 250 21)

Prints per kernel the median ms of each build and the median (quartiles) of
rows/tiles within each repetition (< 1: the rows are faster); results are
checked equal between the two builds (bitwise for the parallel_for kernels)."""
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
    shutil.copy(os.path.join(HERE, "md_kernels.py"), src)
    env = dict(os.environ)
    if cxxflags:
        env["CXXFLAGS"] = cxxflags
    subprocess.run(["pkc", "build", "-q", "--backend", "openmp", src], check=True, env=env)


def main():
    n2 = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    n3 = int(sys.argv[2]) if len(sys.argv) > 2 else 250
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 21
    os.environ["PKC_BACKEND"] = "openmp"
    tmp = tempfile.mkdtemp(prefix="pkc-md-ab-")
    build(tmp, "md_rows", "")
    build(tmp, "md_tiles", "-DPKC_HOST_MDRANGE_TILES")
    sys.path.insert(0, tmp)
    os.environ["PATH"] = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                         if not os.path.exists(os.path.join(p, "pkc")))
    import pykokkos as pk
    rows, tiles = importlib.import_module("md_rows"), importlib.import_module("md_tiles")
    rng = np.random.default_rng(7)

    def view(shape):
        v = pk.View(list(shape), pk.double)
        np.asarray(v)[...] = rng.standard_normal(shape)
        return v

    a, b = view((n2, n2)), view((n2, n2))
    u = view((n3,) * 3)
    out = {m: pk.View([n3] * 3, pk.double) for m in ("rows", "tiles")}  # zeros, both
    cases = {
        f"stencil 2-D {n2}^2": lambda m, lab: m.run_stencil(a, b, n2),
        f"transpose {n2}^2 (tile 32)": lambda m, lab: m.run_transpose(a, b, n2),
        f"jacobi 3-D {n3}^3": lambda m, lab: m.run_jacobi3(u, out[lab], n3),
        f"sum 2-D {n2}^2": lambda m, lab: m.run_sum2(a, n2),
    }
    print(f"# OpenMP, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '?')}, "
          f"median of {reps} launches")
    print("| kernel | tiles (before) ms | rows ms | rows/tiles per rep |")
    print("|---|---|---|---|")
    for name, fn in cases.items():
        t = {"rows": [], "tiles": []}
        for lab, m in (("rows", rows), ("tiles", tiles)):
            fn(m, lab)
            fn(m, lab)
            pk.fence()
        for r in range(reps):
            order = (("rows", rows), ("tiles", tiles)) if r % 2 else (("tiles", tiles), ("rows", rows))
            for lab, m in order:
                t0 = time.perf_counter()
                fn(m, lab)
                pk.fence()
                t[lab].append(time.perf_counter() - t0)
        ratio = sorted(x / y for x, y in zip(t["rows"], t["tiles"]))
        q = lambda p: ratio[min(len(ratio) - 1, int(p * len(ratio)))]
        print(f"| {name} | {statistics.median(t['tiles']) * 1e3:.3f} | "
              f"{statistics.median(t['rows']) * 1e3:.3f} | {statistics.median(ratio):.2f} "
              f"({q(0.25):.2f}-{q(0.75):.2f}) |", flush=True)
    if not np.array_equal(np.asarray(out["rows"]), np.asarray(out["tiles"])):
        raise SystemExit("ab: the 3-D Jacobi differs between the two builds")
    print("# results: the 3-D Jacobi is bitwise equal between the builds")


if __name__ == "__main__":
    main()
