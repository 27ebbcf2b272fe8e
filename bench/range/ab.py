"""RangePolicy launch schemes A/B (issue 24): the kernels of range_kernels.py
(BabelStream's copy, mul, triad and dot, a gather, a nine-View particle push,
y^T A x with a TeamPolicy) built twice for OpenMP, once as pkc builds them
(kernels that write only their own elements in one dependence-free loop per
thread, a copy as one memcpy per thread, sums in partial sums held in
registers: pkc_dialect.hpp, range_parallel_for / range_copy /
range_parallel_reduce / team_thread_reduce) and once with
CXXFLAGS=-DPKC_HOST_RANGE_KOKKOS (Kokkos' parallel_for and parallel_reduce,
as before), timed in one process, alternating, each launch followed by
pk.fence().

    OMP_NUM_THREADS=T python3 bench/range/ab.py [LOG2N [REPS]]   (default 24 21)

Prints per kernel the median ms of each build and the median (quartiles) of
new/Kokkos within each repetition (< 1: the new launch is faster); results are
checked bitwise equal between the two builds (the sums, whose order of
additions differs, to 1e-12 relative)."""
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
KERNELS = os.path.join(HERE, "range_kernels.py")


def build(tmp, name, cxxflags):
    src = os.path.join(tmp, name + ".py")
    shutil.copy(KERNELS, src)
    env = dict(os.environ)
    if cxxflags:
        env["CXXFLAGS"] = (env.get("CXXFLAGS", "") + " " + cxxflags).strip()
    subprocess.run(["pkc", "build", "-q", "--backend", "openmp", src], check=True, env=env,
                   stderr=subprocess.DEVNULL)


def quartiles(xs):
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return q[0], statistics.median(xs), q[2]


def main():
    n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 24)
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    os.environ["PKC_BACKEND"] = "openmp"
    tmp = tempfile.mkdtemp(prefix="pkc-range-ab-")
    build(tmp, "range_new", "")
    build(tmp, "range_kokkos", "-DPKC_HOST_RANGE_KOKKOS")
    sys.path.insert(0, tmp)
    os.environ["PATH"] = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                         if not os.path.exists(os.path.join(p, "pkc")))
    import pykokkos as pk
    mods = {"new": importlib.import_module("range_new"),
            "kokkos": importlib.import_module("range_kokkos")}
    rng = np.random.default_rng(24)

    def view(a, dtype):
        v = pk.View([len(a)], dtype)
        np.asarray(v)[:] = a
        return v

    data = {k: rng.standard_normal(n) for k in ("a", "b", "c", "x", "y", "z", "vx", "vy", "vz")}
    data["idx"] = rng.integers(0, n, n)
    views = {m: {k: view(a, pk.int64 if k == "idx" else pk.double) for k, a in data.items()}
             for m in mods}
    rows = n // 1024
    A0, rx0, ry0 = rng.standard_normal((rows, 1024)), rng.standard_normal(1024), rng.standard_normal(rows)
    for m in mods:
        views[m]["A"] = pk.View([rows, 1024], pk.double)
        np.asarray(views[m]["A"])[...] = A0
        views[m]["rx"], views[m]["ry"] = view(rx0, pk.double), view(ry0, pk.double)
    cases = {
        "copy": lambda m, v: pk.parallel_for(n, m.copy, a=v["a"], c=v["c"]),
        "mul": lambda m, v: pk.parallel_for(n, m.mul, b=v["b"], c=v["c"], scalar=0.4),
        "triad": lambda m, v: pk.parallel_for(n, m.triad, a=v["a"], b=v["b"], c=v["c"],
                                              scalar=0.4),
        "gather": lambda m, v: pk.parallel_for(n, m.gather, x=v["a"], idx=v["idx"], y=v["y"]),
        "push (9 Views)": lambda m, v: pk.parallel_for(
            n, m.push, x=v["x"], y=v["y"], z=v["z"], vx=v["vx"], vy=v["vy"], vz=v["vz"],
            fx=v["a"], fy=v["b"], fz=v["c"], dt=1e-3, m=2.0),
        "dot (sum)": lambda m, v: pk.parallel_reduce(n, m.dot, a=v["a"], b=v["b"]),
        f"yAx {rows} x 1024 (TeamPolicy sums)": lambda m, v: pk.parallel_reduce(
            pk.TeamPolicy(rows, pk.AUTO), m.yAx, M=1024, y=v["ry"], x=v["rx"], A=v["A"]),
    }
    print(f"N=2^{n.bit_length() - 1}, {reps} repetitions, OMP_NUM_THREADS="
          f"{os.environ.get('OMP_NUM_THREADS', '(all)')}")
    print("| kernel | new ms | Kokkos ms | new/Kokkos per rep |\n|---|---|---|---|")
    bad = []
    for name, run in cases.items():
        times = {k: [] for k in mods}
        got = {}
        for r in range(reps + 2):
            for k in (list(mods) if r % 2 == 0 else list(mods)[::-1]):
                t = time.perf_counter()
                got[k] = run(mods[k], views[k])
                pk.fence()
                if r >= 2:
                    times[k].append(time.perf_counter() - t)
        if got["new"] is not None and not abs(got["new"] - got["kokkos"]) <= 1e-12 * abs(got["kokkos"]):
            bad.append(f"{name}: {got['new']!r} against {got['kokkos']!r}")
        for key in data:
            if not np.array_equal(np.asarray(views["new"][key]), np.asarray(views["kokkos"][key])):
                bad.append(f"{name}:{key}")
        ratio = [x / y for x, y in zip(times["new"], times["kokkos"])]
        lo, mid, hi = quartiles(ratio)
        print(f"| {name} | {1e3 * statistics.median(times['new']):.3f} | "
              f"{1e3 * statistics.median(times['kokkos']):.3f} | {mid:.2f} ({lo:.2f}-{hi:.2f}) |")
    print("results equal (Views bitwise, sums to 1e-12)" if not bad else f"RESULTS DIFFER: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
