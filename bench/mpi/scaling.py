#!/usr/bin/env python3
"""Weak and strong scaling of examples/mpi_jacobi2d.py and mpi_jacobi3d.py
over 1 and N ranks (mpirun), with and without overlap of the halo exchange.
Weak: fixed cells per rank (efficiency t1 / tN); strong: fixed global grid
(efficiency t1 / (N * tN)). Prints a markdown table: ms per iteration (median
of R runs), efficiency, share of time in the halo exchange.

    /usr/bin/python3 bench/mpi/scaling.py [--ranks 2] [--repeats 3] [--gpu]

CPU: one thread per rank (OMP_NUM_THREADS=1). --gpu: PKC_BACKEND=cuda and
GPU-sized grids (one GPU per rank, bound by the node-local rank).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINE = re.compile(r"([\d.]+) ms per iteration, halo exchange (\d+)%")


def run(example, ranks, args, overlap, env):
    cmd = [shutil.which("mpirun") or "mpirun", "--allow-run-as-root", "--oversubscribe",
           "-np", str(ranks), env.get("PY", sys.executable),
           os.path.join(ROOT, "examples", example)] + [str(a) for a in args]
    if overlap:
        cmd.append("--overlap")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    out = r.stdout
    m = LINE.search(out)
    if not m or "verification PASSED" not in out:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{out}\n{r.stderr[-3000:]}")
    return float(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--gpu", action="store_true")
    a = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"))
    env["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + env.get("PATH", "")
    if a.gpu:
        env["PKC_BACKEND"] = "cuda"
        base2, base3, it = 8192, 384, 100
    else:
        env["OMP_NUM_THREADS"] = "1"
        base2, base3, it = 2048, 128, 100
    n = a.ranks
    cases = [  # (name, example, args for 1 rank, args for n ranks, weak?)
        ("2D weak", "mpi_jacobi2d.py", (base2, base2, it), (base2, base2 * n, it), True),
        ("2D strong", "mpi_jacobi2d.py", (base2, base2, it), (base2, base2, it), False),
        ("3D weak", "mpi_jacobi3d.py", (base3, base3, base3, it),
         (base3, base3, base3 * n, it), True),
        ("3D strong", "mpi_jacobi3d.py", (base3, base3, base3, it),
         (base3, base3, base3, it), False),
    ]
    print(f"| case | overlap | 1 rank ms/it | {n} ranks ms/it | efficiency | halo share ({n} ranks) |")
    print("|---|---|---|---|---|---|")
    for name, ex, args1, argsn, weak in cases:
        for overlap in (False, True):
            t1 = statistics.median(run(ex, 1, args1, overlap, env)[0] for _ in range(a.repeats))
            rn = [run(ex, n, argsn, overlap, env) for _ in range(a.repeats)]
            tn = statistics.median(r[0] for r in rn)
            halo = statistics.median(r[1] for r in rn)
            eff = t1 / tn if weak else t1 / (n * tn)
            print(f"| {name} | {'on' if overlap else 'off'} | {t1:.3f} | {tn:.3f} | "
                  f"{100 * eff:.0f}% | {halo}% |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
