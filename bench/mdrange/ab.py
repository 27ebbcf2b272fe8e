"""Host MDRange schemes A/B (issue 24, item 1; issue 26): the same MDRange
kernels (md_kernels.py) built three times for OpenMP: as pkc builds them (rows
along the contiguous index, their loops marked free of loop-carried
dependences where the kernel writes only its own elements and the launch
finds the Views apart; a transpose keeps Kokkos' tiles), with
CXXFLAGS=-DPKC_HOST_MDRANGE_TILES (Kokkos' host MDRangePolicy everywhere, as
before issue 24) and with -DPKC_HOST_ROWS_PLAIN (rows, never marked), timed
in one process, alternating, each launch followed by pk.fence().

    OMP_NUM_THREADS=T python3 bench/mdrange/ab.py [N2 [N3 [REPS]]]   (default 4000 250 21)

Prints two tables, rows against tiles and rows against plain rows: per
kernel the median ms of each build and the median (quartiles) of the ratio
within each repetition (< 1: the rows are faster); results are checked equal
between the builds (bitwise for the parallel_for kernels)."""
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
    build(tmp, "md_plain", "-DPKC_HOST_ROWS_PLAIN")
    sys.path.insert(0, tmp)
    os.environ["PATH"] = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                         if not os.path.exists(os.path.join(p, "pkc")))
    import pykokkos as pk
    mods = {lab: importlib.import_module("md_" + lab) for lab in ("rows", "tiles", "plain")}
    rng = np.random.default_rng(7)

    def view(shape, lo=0.0):
        v = pk.View(list(shape), pk.double)
        np.asarray(v)[...] = lo + rng.random(shape)
        return v

    a, b = view((n2, n2)), view((n2, n2))
    u = view((n3,) * 3)
    ins = [view((n2, n2), lo) for lo in (1.0, -0.5, -0.5, 5.0)]
    out = {m: pk.View([n3] * 3, pk.double) for m in mods}  # zeros, all
    flux = {m: [pk.View([n2, n2], pk.double) for _ in range(4)] for m in mods}
    cases = {
        f"stencil 2-D {n2}^2": lambda m, lab: m.run_stencil(a, b, n2),
        f"transpose {n2}^2 (tile 32)": lambda m, lab: m.run_transpose(a, b, n2),
        f"jacobi 3-D {n3}^3": lambda m, lab: m.run_jacobi3(u, out[lab], n3),
        f"sum 2-D {n2}^2": lambda m, lab: m.run_sum2(a, n2),
        f"Euler x-flux 2-D {n2}^2, 8 Views": lambda m, lab: m.run_euler_x(ins, flux[lab], n2),
    }

    def table(new, old, names):
        print(f"| kernel | {old} ms | {new} ms | {new}/{old} per rep |")
        print("|---|---|---|---|")
        for name in names:
            fn = cases[name]
            t = {new: [], old: []}
            for lab in (new, old):
                fn(mods[lab], lab)
                fn(mods[lab], lab)
                pk.fence()
            for r in range(reps):
                for lab in ((new, old) if r % 2 else (old, new)):
                    t0 = time.perf_counter()
                    fn(mods[lab], lab)
                    pk.fence()
                    t[lab].append(time.perf_counter() - t0)
            ratio = sorted(x / y for x, y in zip(t[new], t[old]))
            q = lambda p: ratio[min(len(ratio) - 1, int(p * len(ratio)))]
            print(f"| {name} | {statistics.median(t[old]) * 1e3:.3f} | "
                  f"{statistics.median(t[new]) * 1e3:.3f} | {statistics.median(ratio):.2f} "
                  f"({q(0.25):.2f}-{q(0.75):.2f}) |", flush=True)

    print(f"# OpenMP, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '?')}, "
          f"median of {reps} launches")
    print("# rows (as pkc builds them) against Kokkos' tiles (-DPKC_HOST_MDRANGE_TILES)")
    table("rows", "tiles", list(cases))
    print("# rows against plain rows (-DPKC_HOST_ROWS_PLAIN: row loops never marked)")
    table("rows", "plain", [n for n in cases if not n.startswith(("sum", "transpose"))])
    for lab in ("tiles", "plain"):
        if not np.array_equal(np.asarray(out["rows"]), np.asarray(out[lab])):
            raise SystemExit(f"ab: the 3-D Jacobi differs between the rows and {lab} builds")
        for k in range(4):
            if not np.array_equal(np.asarray(flux["rows"][k]), np.asarray(flux[lab][k])):
                raise SystemExit(f"ab: the Euler flux {k} differs between the rows and {lab} builds")
    print("# results: the 3-D Jacobi and the Euler fluxes are bitwise equal between the builds")


if __name__ == "__main__":
    main()
