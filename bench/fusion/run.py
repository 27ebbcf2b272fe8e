#!/usr/bin/env python3
"""Kernel fusion benchmark: every subject of bench/fusion/subjects.py and of
bench/fusion/host_subjects.py (chains in host code) run with its chains
fused (PKC_FUSION=1, pkc's fused kernels) and unfused (PKC_FUSION=0, the
original launches), interleaved, R repeats each; prints
a markdown table with the medians, the unfused/fused ratio of the medians,
whether the results agree bitwise (reduction results may instead agree
within rounding: "rounding"), and the PyFuser dissertation's speedup
for the same subject (Tables 3.2/3.3, "O" columns: EPYC on CPUs, A100 on
GPUs). Both variants are in the one module `pkc build` made: nothing is
compiled while this runs.

    PKC_BACKEND=openmp /usr/bin/python3 bench/fusion/run.py [--repeats R] [--only NAME,...]
        [--fused all]   (the fused runs' PKC_FUSION: 'all' also uses the variants with
                         several reductions, which GPUs skip by default)
"""
import argparse
import os
import platform
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))   # md_lj
import numpy as np  # noqa: E402
import pykokkos as pk  # noqa: E402
import host_subjects  # noqa: E402
import subjects  # noqa: E402


def once(cls, n, fusion, check):
    os.environ["PKC_FUSION"] = fusion
    if check is None:   # a host-code subject: a function
        t, r = cls(n)
        return t, [r]
    w = cls(n)
    pk.execute(pk.ExecutionSpace.Default, w)
    return w.elapsed, [np.array(getattr(w, c), copy=True) for c in check.split(",")]


def agree(fused, unfused):
    """'yes' (bitwise), 'rounding' (within a relative 1e-12: reduction results) or 'NO'."""
    if all(np.array_equal(f, u) for f, u in zip(fused, unfused)):
        return "yes"
    close = all(np.allclose(f, u, rtol=1e-12, atol=0.0) for f, u in zip(fused, unfused))
    return "rounding" if close else "NO"


def all_subjects():
    """name -> (class or function, CPU size, GPU size, View or None, EPYC, A100)."""
    s = dict(subjects.SUBJECTS)
    for name, (fn, n_cpu, n_gpu, epyc, a100) in host_subjects.SUBJECTS.items():
        s[name] = (fn, n_cpu, n_gpu, None, epyc, a100)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--fused", default="1", help="PKC_FUSION of the fused runs (1 or all)")
    args = ap.parse_args()
    backend = os.environ.get("PKC_BACKEND", "openmp")
    gpu = backend in ("cuda", "hip")
    only = [s for s in args.only.split(",") if s]
    rows = []
    for name, (cls, n_cpu, n_gpu, check, epyc, a100) in all_subjects().items():
        if only and not any(o in name for o in only):
            continue
        n = n_gpu if gpu else n_cpu
        on = args.fused
        once(cls, n, on, check)   # loads the module, warms caches
        times = {on: [], "0": []}
        results = {}
        for k in range(args.repeats):
            for mode in ((on, "0") if k % 2 == 0 else ("0", on)):   # ABBA order
                t, r = once(cls, n, mode, check)
                times[mode].append(t)
                results.setdefault(mode, r)
        fused, unfused = statistics.median(times[on]), statistics.median(times["0"])
        same = agree(results[on], results["0"])
        rows.append((name, n, unfused * 1e3, fused * 1e3, unfused / fused, same,
                     a100 if gpu else epyc))
        print(f"# {name}: unfused {unfused * 1e3:.3f} ms, fused {fused * 1e3:.3f} ms, "
              f"ratio {unfused / fused:.2f}, same results: {same}", file=sys.stderr, flush=True)
    os.environ.pop("PKC_FUSION", None)
    where = "A100" if gpu else "EPYC"
    print(f"\nbackend {backend}, {platform.node()}, PKC_FUSION={args.fused}, median of "
          f"{args.repeats} interleaved runs (ABBA order)\n")
    print(f"| subject | size | unfused ms | fused ms | speedup | bitwise equal | PyFuser {where} |")
    print("|---|---|---|---|---|---|---|")
    for name, n, u, f, r, same, paper in rows:
        theirs = f"{paper:.2f}x" if paper else "-"
        print(f"| {name} | {n} | {u:.3f} | {f:.3f} | {r:.2f}x | {same} | {theirs} |")
    return 0 if all(r[5] != "NO" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
