#!/usr/bin/env python3
"""pkc benchmarks (not tests): run by hand or with `make bench`.

Reports, as a markdown table for the README (machine named from lscpu):
  a. translate time (`pkc emit`, process start included) for every
     examples/*.py and for a synthetic 3,000-line file: median of 20 runs
  b. cold `pkc build` time for every examples/*.py into a fresh -o directory
     (median of 3 for nstream, 1 for the others) and the no-op rebuild time
     (median of 5); an example pkc cannot translate yet gets a "failed" row
  c. per-call launch overhead from Python for the trivial parallel_for
     (examples/trivial.py with PKC_FUSION=0: 10,000 calls after warm-up,
     median of 5 runs)
  d. `import pykokkos` time (fresh interpreter each time, median of 10)
  e. kernel time, pkc from Python vs the hand-written Kokkos C++ in bench/,
     for every row of PAIRS (nstream, stencil, transpose, team_policy, gups;
     same Kokkos, CMake Release, 2 threads, OMP_PROC_BIND=spread,
     OMP_PLACES=threads): median of >= 5 interleaved repeats each, the ratio
     of the medians and of the best runs. Both programs print
     "<name>: ... kernel median <ms> ms" (or "median kernel <ms> ms") and a
     "verification PASSED" line.

Usage: /usr/bin/python3 scripts/bench.py [--quick] [--n N] [--iterations K] [--repeats R]
                                         [--only-pairs NAME,...]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKC = os.path.join(ROOT, "build", "bin", "pkc")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
KOKKOS_ROOT = os.environ.get("Kokkos_ROOT") or os.path.join(ROOT, ".deps", "kokkos-openmp")


def all_examples():
    """Stems of every examples/*.py, sorted."""
    import glob
    return sorted(os.path.splitext(os.path.basename(f))[0]
                  for f in glob.glob(os.path.join(ROOT, "examples", "*.py")))


# Kernel-time pairs: (name, example, bench/ CMake target, argument list, quick
# argument list). Both programs get the same arguments; None means "size from
# --n/--iterations" (nstream). To add a pair, add a row and the target in
# bench/CMakeLists.txt; a row whose example or target is missing is reported as
# skipped.
PAIRS = [
    ("nstream", "examples/nstream.py", "nstream_kokkos", None, None),
    ("stencil", "examples/stencil.py", "stencil_kokkos", ["4000", "20", "32"], ["1000", "10", "32"]),
    ("transpose", "examples/transpose.py", "transpose_kokkos", ["4096", "20", "32"],
     ["1024", "10", "32"]),
    ("team_policy", "examples/tutorial_team_policy.py", "team_policy_kokkos", ["4096", "1024", "100"],
     ["1024", "1024", "20"]),
    ("gups", "examples/gups.py", "gups_kokkos", ["16777216", "16777216", "10"],
     ["1048576", "1048576", "4"]),
]


def env(backend="openmp"):
    e = dict(os.environ)
    e["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + e.get("PATH", "")
    e["PYTHONPATH"] = os.path.join(ROOT, "runtime-shim", "python")
    e["PKC_BACKEND"] = backend
    e["OMP_NUM_THREADS"] = "2"
    e["OMP_PROC_BIND"] = "spread"
    e["OMP_PLACES"] = "threads"
    return e


def run(cmd, timeout=900, **kw):
    """Runs cmd, returns (seconds, stdout+stderr); raises on failure."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=kw.pop("cwd", ROOT), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout, env=kw.pop("env", env()), **kw)
    secs = time.perf_counter() - t0
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}\n{out[-2000:]}")
    return secs, out


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def host_facts():
    """(lscpu's fields as a dict, the first line of `c++ --version`); also
    used by bench/peers/run.py."""
    info = {}
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            k, _, v = line.partition(":")
            info[k.strip()] = v.strip()
    except OSError:
        pass
    cxx = subprocess.run(["c++", "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()
    return info, cxx[0] if cxx else "c++ ?"


def machine():
    info, cxx = host_facts()
    model = info.get("Model name", "unknown CPU")
    cores = info.get("CPU(s)", str(os.cpu_count()))
    return (f"{model}, {cores} cores; {cxx}; "
            f"Kokkos {kokkos_version()} (OpenMP) from {KOKKOS_ROOT}")


def kokkos_version():
    import glob
    for f in glob.glob(os.path.join(KOKKOS_ROOT, "lib*", "cmake", "Kokkos", "KokkosConfigVersion.cmake")):
        m = re.search(r'set\(PACKAGE_VERSION "([^"]+)"\)', open(f).read())
        if m:
            return m.group(1)
    return "?"


# --- a. translation ----------------------------------------------------------

SYNTH_TEMPLATES = [
    '''@pk.workunit
def axpy_{k}(i: int, a: float, x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    y[i] = a * x[i] + y[i]
''',
    '''@pk.workunit
def dot_{k}(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    acc += x[i] * y[i]
''',
    '''@pk.workunit
def scan_{k}(i: int, acc: pk.Acc[pk.int64], final: bool, x: pk.View1D[pk.int64],
           out: pk.View1D[pk.int64]):
    if final:
        out[i] = acc
    acc += x[i]
''',
    '''@pk.workunit
def rowsum_{k}(i: int, M: int, A: pk.View2D[pk.double], r: pk.View1D[pk.double]):
    s: float = 0.0
    for j in range(M):
        v: float = A[i][j]
        if v > 0.0:
            s += math.sqrt(v)
        elif v < -1.0:
            s -= v * v
        else:
            s += abs(v) / 2.0
    r[i] = s
''',
    '''@pk.workunit
def collatz_{k}(i: int, steps: pk.View1D[pk.int64]):
    n: int = i + 1
    count: int = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        count += 1
    steps[i] = count
''',
    '''@pk.functor
class Stencil_{k}:
    def __init__(self, n: int, w: float, u: pk.View1D[pk.double], v: pk.View1D[pk.double]):
        self.n: int = n
        self.w: float = w
        self.u: pk.View1D[pk.double] = u
        self.v: pk.View1D[pk.double] = v

    @pk.function
    def at(self, j: int) -> float:
        if j < 0 or j >= self.n:
            return 0.0
        return self.u[j]

    @pk.workunit
    def smooth(self, i: int):
        self.v[i] = self.w * self.at(i - 1) + (1.0 - 2.0 * self.w) * self.at(i) + self.w * self.at(i + 1)

    @pk.workunit
    def energy(self, i: int, acc: pk.Acc[pk.double]):
        acc += self.v[i] * self.v[i]
''',
]


def synthetic_source(min_lines=3000):
    """A 3,000+ line annotated file made of renamed copies of typical kernels."""
    parts, lines, k = ['"""Synthetic pkc translation benchmark input."""\nimport math\n\n'
                       'import pykokkos as pk\n\n'], 5, 0
    while lines < min_lines:
        t = SYNTH_TEMPLATES[k % len(SYNTH_TEMPLATES)].format(k=k)
        parts.append("\n\n" + t)
        lines += t.count("\n") + 2
        k += 1
    return "".join(parts), k


def time_emit(path, runs):
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            out_dir = os.path.join(tmp, "out")
            shutil.rmtree(out_dir, ignore_errors=True)
            secs, _ = run([PKC, "emit", path, "-o", out_dir], timeout=60)
            times.append(secs)
    return statistics.median(times) * 1e3


# --- b. builds ----------------------------------------------------------------

def time_build(path, repeats):
    cold, noop = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeats):
            out_dir = os.path.join(tmp, f"cold{r}")
            secs, _ = run([PKC, "build", path, "-o", out_dir, "--backend", "openmp"])
            cold.append(secs)
        for _ in range(5):
            secs, _ = run([PKC, "build", path, "-o", out_dir, "--backend", "openmp"])
            noop.append(secs)
    return statistics.median(cold), statistics.median(noop) * 1e3


# --- c/d. launch overhead, import time -------------------------------------

def launch_overhead():
    run([PKC, "build", "examples/trivial.py", "--backend", "openmp"])
    # fusion off: the example's loop of launches is a repeated chain pkc fuses,
    # and this row measures the launch itself
    _, out = run([PYTHON, "examples/trivial.py", "1", "10000", "5"],
                 env=dict(env(), PKC_FUSION="0"))
    m = re.search(r"launch overhead ([\d.]+) us/call", out)
    if not m or "verification PASSED" not in out:
        raise RuntimeError("unexpected trivial.py output:\n" + out)
    return float(m.group(1))


def import_time(runs=10):
    code = ("import time; t = time.perf_counter(); import pykokkos; "
            "print(time.perf_counter() - t)")
    inproc, whole = [], []
    for _ in range(runs):
        secs, out = run([PYTHON, "-c", code])
        inproc.append(float(out.strip().splitlines()[-1]))
        whole.append(secs)
    base = statistics.median(run([PYTHON, "-c", "pass"])[0] for _ in range(runs))
    return statistics.median(inproc) * 1e3, (statistics.median(whole) - base) * 1e3


HOST_INDEX_CODE = r"""
import statistics, sys, time
import numpy as np
import pykokkos as pk
E, J, I = 8, 16, 16
def chained_write(A):
    for e in range(E):
        for j in range(J):
            for i in range(I):
                A[e][j][i] = 1.5
def chained_read(A):
    s = 0.0
    for e in range(E):
        for j in range(J):
            for i in range(I):
                s += A[e][j][i]
    return s
def tuple_read(A):
    s = 0.0
    for e in range(E):
        for j in range(J):
            for i in range(I):
                s += A[e, j, i]
    return s
def timed(f, A):
    t = time.perf_counter(); f(A); return (time.perf_counter() - t) / (E * J * I) * 1e9
reps = int(sys.argv[1])
V, N = pk.View([E, J, I], pk.double), np.zeros((E, J, I))
# (name, pk.View side, numpy side: chained indexing)
for name, fv, fn in (("chained_write", chained_write, chained_write),
                     ("chained_read", chained_read, chained_read),
                     ("tuple_read", tuple_read, chained_read)):
    fv(V); fn(N)                        # warm-up
    pv, pn = [], []
    for _ in range(reps):              # the two sides interleaved
        pv.append(timed(fv, V)); pn.append(timed(fn, N))
    print(name, statistics.median(pv), statistics.median(pn))
"""

NAMES_HOST_INDEX = {"chained_write": "`A[e][j][i] = v`", "chained_read": "`A[e][j][i]` read",
                    "tuple_read": "`A[e, j, i]` read"}


def host_indexing(repeats):
    """Per-access ns of `A[e][j][i] = v`, `A[e][j][i]` and `A[e, j, i]` on a
    host pk.View against numpy's chained `a[e][j][i]` (same loops, same
    process, interleaved)."""
    _, out = run([PYTHON, "-c", HOST_INDEX_CODE, str(repeats)])
    got = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in NAMES_HOST_INDEX:
            got[parts[0]] = (float(parts[1]), float(parts[2]))
    if len(got) != len(NAMES_HOST_INDEX):
        raise RuntimeError("unexpected host indexing output:\n" + out)
    return got


# --- e. kernel time vs hand-written Kokkos -------------------------------------

KERNEL_RE = re.compile(r"(?:median kernel|kernel median) ([\d.]+) ms")
BENCH_DIR = os.path.join(ROOT, "build", "bench")


def configure_hand():
    run(["cmake", "-S", "bench", "-B", BENCH_DIR, "-DCMAKE_BUILD_TYPE=Release",
         f"-DKokkos_ROOT={KOKKOS_ROOT}"])


def build_hand(target):
    """Builds one bench/ target (so one broken baseline does not stop the rest)."""
    run(["cmake", "--build", BENCH_DIR, "--target", target, "-j2"])
    return os.path.join(BENCH_DIR, target)


def kernel_ms(cmd):
    _, out = run(cmd)
    m = KERNEL_RE.search(out)
    if not m or "verification PASSED" not in out:
        raise RuntimeError(f"unexpected output of {' '.join(cmd)}:\n{out}")
    return float(m.group(1))


def pair_ratio(example, target, args, repeats):
    """Interleaved runs (so drifts hit both sides alike): ([pkc ms], [hand ms])."""
    hand = build_hand(target)
    run([PKC, "build", example, "--backend", "openmp"])
    pkc_ms, hand_ms = [], []
    for _ in range(repeats):
        pkc_ms.append(kernel_ms([PYTHON, example] + args))
        hand_ms.append(kernel_ms([hand] + args))
    return pkc_ms, hand_ms


def pair_rows(name, example, target, args, repeats, extra=None):
    """Table rows for one pair, or one 'failed/skipped' row."""
    shown = " ".join(args) if args else "defaults"
    if not os.path.exists(os.path.join(ROOT, example)):
        return [(f"{name}: kernel time", f"skipped ({example} is missing)", "")]
    if not os.path.exists(os.path.join(ROOT, "bench", target + ".cpp")):
        return [(f"{name}: kernel time", f"skipped (bench/{target}.cpp is missing)", "")]
    try:
        pkc_ms, hand_ms = pair_ratio(example, target, args, repeats)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        log(f"{name}: {e}")
        return [(f"{name} ({shown}): kernel time", "failed (see stderr)", "")]
    p, h = statistics.median(pkc_ms), statistics.median(hand_ms)

    def spread(v):
        return f"runs {min(v):.3f}-{max(v):.3f} ms"

    def note(ms):
        return f"; {extra(ms)}" if extra else ""
    return [
        (f"{name} ({shown}), pkc from Python (median of {repeats} runs)",
         f"{p:.3f} ms ({spread(pkc_ms)}{note(p)})", ""),
        (f"{name} ({shown}), hand-written Kokkos C++ `bench/{target}.cpp` (same)",
         f"{h:.3f} ms ({spread(hand_ms)}{note(h)})", ""),
        (f"{name} kernel time ratio pkc / hand-written (medians)", f"{p / h:.3f}", "<= 1.02"),
        (f"{name} kernel time ratio pkc / hand-written (best runs)",
         f"{min(pkc_ms) / min(hand_ms):.3f}", ""),
    ]


# --- report ----------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description="pkc benchmarks (markdown on stdout)")
    ap.add_argument("--quick", action="store_true", help="fewer repeats, smaller nstream")
    ap.add_argument("--n", type=int, default=1 << 24, help="nstream N (default 2^24)")
    ap.add_argument("--iterations", type=int, default=20, help="nstream iterations per run")
    ap.add_argument("--repeats", type=int, default=11, help="runs per side of each pair (>= 5)")
    ap.add_argument("--only-pairs", default="", help="comma-separated PAIRS names to time (default all)")
    args = ap.parse_args()
    if not os.access(PKC, os.X_OK):
        sys.exit("build/bin/pkc is missing: run `make` (or scripts/setup.sh) first")
    emit_runs = 5 if args.quick else 20
    n = min(args.n, 1 << 22) if args.quick else args.n
    repeats = max(5, args.repeats)
    rows = []

    examples = all_examples()
    log("a. translation times")
    for ex in examples:
        try:
            ms = f"{time_emit(f'examples/{ex}.py', emit_runs):.1f} ms"
        except RuntimeError as e:
            log(f"{ex}: {e}")
            ms = "failed (see stderr)"
        rows.append((f"translate `examples/{ex}.py` (`pkc emit`, process included)", ms, ""))
    with tempfile.TemporaryDirectory() as tmp:
        src, nkern = synthetic_source()
        path = os.path.join(tmp, "synthetic.py")
        with open(path, "w") as f:
            f.write(src)
        try:
            ms = f"{time_emit(path, emit_runs):.1f} ms"
        except RuntimeError as e:
            log(f"synthetic file: {e}")
            ms = "failed (see stderr)"
        rows.append((f"translate a {src.count(chr(10))}-line file ({nkern} entities)", ms, "<= 20 ms"))

    log("b. build times")
    for ex in examples:
        try:
            cold, noop = time_build(f"examples/{ex}.py", 1 if args.quick or ex != "nstream" else 3)
            rows.append((f"cold `pkc build examples/{ex}.py`", f"{cold:.2f} s", ""))
            rows.append((f"no-op rebuild of `examples/{ex}.py`", f"{noop:.1f} ms", ""))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            log(f"{ex}: {e}")
            rows.append((f"cold `pkc build examples/{ex}.py`", "failed (see stderr)", ""))

    log("c. launch overhead")
    rows.append(("launch overhead, trivial parallel_for, N=1 (10,000 calls, median of 5)",
                 f"{launch_overhead():.2f} us/call", "<= 3 us"))
    log("d. import time")
    inproc, whole = import_time()
    rows.append(("`import pykokkos` (median of 10)", f"{inproc:.1f} ms", "<= 50 ms"))
    rows.append(("`import pykokkos`, whole process minus bare interpreter", f"{whole:.1f} ms", ""))

    log("d2. host element access")
    hi = host_indexing(repeats)
    for key, what in NAMES_HOST_INDEX.items():
        pv, pn = hi[key]
        rows.append((f"host element access {what}, pk.View vs numpy `a[e][j][i]` "
                     f"(8x16x16 loops included, median of {repeats})",
                     f"{pv:.0f} ns vs {pn:.0f} ns ({pv / pn:.2f}x)", "<= 2x"))

    log("e. kernel time vs hand-written Kokkos")
    configure_hand()
    only = set(args.only_pairs.split(",")) if args.only_pairs else None
    for name, example, target, pair_args, quick_args in PAIRS:
        if only and name not in only:
            continue
        log(f"   {name}")
        extra = None
        if pair_args is None:  # nstream: sizes from the command line, bandwidth shown
            pair_args = [str(n), str(args.iterations)]
            extra = lambda ms: f"{32.0 * n / (ms * 1e-3) / 1e9:.1f} GB/s"  # noqa: E731
        elif args.quick:
            pair_args = quick_args
        rows.extend(pair_rows(name, example, target, list(pair_args), repeats, extra))

    print(f"Machine: {machine()}. OpenMP backend, OMP_NUM_THREADS=2, "
          f"OMP_PROC_BIND=spread, OMP_PLACES=threads.\n")
    print("| measurement | pkc | target |")
    print("|---|---|---|")
    for what, value, target in rows:
        print(f"| {what} | {value} | {target} |")


if __name__ == "__main__":
    main()
