#!/usr/bin/env python3
"""pkc benchmarks (not tests): run by hand or with `make bench`.

Reports, as a markdown table for the README (machine named from lscpu):
  a. translate time (`pkc emit`, process start included) per example and for a
     synthetic 3,000-line file: median of 20 runs
  b. cold `pkc build` time per example into a fresh -o directory (median of 3
     for nstream, 1 for the others) and the no-op rebuild time (median of 5)
  c. per-call launch overhead from Python for the trivial parallel_for
     (examples/trivial.py: 10,000 calls after warm-up, median of 5 runs)
  d. `import pykokkos` time (fresh interpreter each time, median of 10)
  e. nstream kernel time, pkc from Python vs the hand-written Kokkos C++ in
     bench/ (same Kokkos, CMake Release, 2 threads, OMP_PROC_BIND=spread,
     OMP_PLACES=threads): median of >= 5 repeats each, and the ratio

Usage: /usr/bin/python3 scripts/bench.py [--quick] [--n N] [--iterations K] [--repeats R]
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
EXAMPLES = ["nstream", "inner_product", "prefix_sum", "functor_axpby", "trivial"]


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


def machine():
    info = {}
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            k, _, v = line.partition(":")
            info[k.strip()] = v.strip()
    except OSError:
        pass
    model = info.get("Model name", "unknown CPU")
    cores = info.get("CPU(s)", str(os.cpu_count()))
    cxx = subprocess.run(["c++", "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()
    return (f"{model}, {cores} cores; {cxx[0] if cxx else 'c++ ?'}; "
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
    _, out = run([PYTHON, "examples/trivial.py", "1", "10000", "5"])
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


# --- e. nstream vs hand-written Kokkos ------------------------------------------

KERNEL_RE = re.compile(r"median kernel ([\d.]+) ms")


def build_hand():
    bdir = os.path.join(ROOT, "build", "bench")
    run(["cmake", "-S", "bench", "-B", bdir, "-DCMAKE_BUILD_TYPE=Release",
         f"-DKokkos_ROOT={KOKKOS_ROOT}"])
    run(["cmake", "--build", bdir])
    return os.path.join(bdir, "nstream_kokkos")


def kernel_ms(cmd):
    _, out = run(cmd)
    m = KERNEL_RE.search(out)
    if not m or "verification PASSED" not in out:
        raise RuntimeError(f"unexpected output of {' '.join(cmd)}:\n{out}")
    return float(m.group(1))


def nstream_ratio(n, iterations, repeats):
    hand = build_hand()
    run([PKC, "build", "examples/nstream.py", "--backend", "openmp"])
    pkc_ms, hand_ms = [], []
    for _ in range(repeats):  # interleaved, so drifts hit both alike
        pkc_ms.append(kernel_ms([PYTHON, "examples/nstream.py", str(n), str(iterations)]))
        hand_ms.append(kernel_ms([hand, str(n), str(iterations)]))
    return pkc_ms, hand_ms


# --- report ----------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description="pkc benchmarks (markdown on stdout)")
    ap.add_argument("--quick", action="store_true", help="fewer repeats, smaller nstream")
    ap.add_argument("--n", type=int, default=1 << 24, help="nstream N (default 2^24)")
    ap.add_argument("--iterations", type=int, default=20, help="nstream iterations per run")
    ap.add_argument("--repeats", type=int, default=11, help="nstream runs per side (>= 5)")
    args = ap.parse_args()
    if not os.access(PKC, os.X_OK):
        sys.exit("build/bin/pkc is missing: run `make` (or scripts/setup.sh) first")
    emit_runs = 5 if args.quick else 20
    n = min(args.n, 1 << 22) if args.quick else args.n
    repeats = max(5, args.repeats)
    rows = []

    log("a. translation times")
    for ex in EXAMPLES:
        rows.append((f"translate `examples/{ex}.py` (`pkc emit`, process included)",
                     f"{time_emit(f'examples/{ex}.py', emit_runs):.1f} ms", ""))
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
    for ex in EXAMPLES:
        cold, noop = time_build(f"examples/{ex}.py", 1 if args.quick or ex != "nstream" else 3)
        rows.append((f"cold `pkc build examples/{ex}.py`", f"{cold:.2f} s", ""))
        rows.append((f"no-op rebuild of `examples/{ex}.py`", f"{noop:.1f} ms", ""))

    log("c. launch overhead")
    rows.append(("launch overhead, trivial parallel_for, N=1 (10,000 calls, median of 5)",
                 f"{launch_overhead():.2f} us/call", "<= 3 us"))
    log("d. import time")
    inproc, whole = import_time()
    rows.append(("`import pykokkos` (median of 10)", f"{inproc:.1f} ms", "<= 50 ms"))
    rows.append(("`import pykokkos`, whole process minus bare interpreter", f"{whole:.1f} ms", ""))

    log("e. nstream vs hand-written Kokkos")
    pkc_ms, hand_ms = nstream_ratio(n, args.iterations, repeats)
    p, h = statistics.median(pkc_ms), statistics.median(hand_ms)

    def gbs(ms):
        return 32.0 * n / (ms * 1e-3) / 1e9

    def spread(v):
        return f"runs {min(v):.3f}-{max(v):.3f} ms"
    rows.append((f"nstream N={n}, pkc from Python (median of {repeats} runs, each the median "
                 f"of {args.iterations} iterations)", f"{p:.3f} ms ({gbs(p):.1f} GB/s; {spread(pkc_ms)})", ""))
    rows.append((f"nstream N={n}, hand-written Kokkos C++ (same)",
                 f"{h:.3f} ms ({gbs(h):.1f} GB/s; {spread(hand_ms)})", ""))
    rows.append(("nstream kernel time ratio pkc / hand-written (medians)", f"{p / h:.3f}", "<= 1.02"))
    rows.append(("nstream kernel time ratio pkc / hand-written (best runs)",
                 f"{min(pkc_ms) / min(hand_ms):.3f}", ""))

    print(f"Machine: {machine()}. OpenMP backend, OMP_NUM_THREADS=2, "
          f"OMP_PROC_BIND=spread, OMP_PLACES=threads.\n")
    print("| measurement | pkc | target |")
    print("|---|---|---|")
    for what, value, target in rows:
        print(f"| {what} | {value} | {target} |")


if __name__ == "__main__":
    main()
