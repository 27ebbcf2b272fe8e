#!/usr/bin/env python3
"""pkc against its peers: the same kernels written idiomatically in pkc
(PyKokkos style, pk_kernels.py), in Numba (`@njit(parallel=True)` + `prange`,
nb_kernels.py) and in NumPy (whole-array expressions, np_kernels.py), timed in
one process.

    /usr/bin/python3 bench/peers/run.py [--repeats R] [--threads T] [--quick]
                                        [--only NAME,...] [--md PATH] [--pk-huge-pages]
                                        [--bounds-check] [--skip NAME,...] [--rep-seconds S]
    /usr/bin/python3 bench/peers/run.py --threads 1,2,4,8,16 [--time-limit S] [...]   (scaling.py)
    python3 bench/peers/run.py --gpu [--quick] [--md PATH]           (gpu_run.py)
    make bench-peers

Rules:
  - the contenders alternate: repetition r runs them in the order rotated by
    r (pkc, Numba, NumPy / Numba, NumPy, pkc / ...), at least R (default 11)
    timed repetitions (more for short kernels, up to 41: about 4 s a row)
    after 2 untimed warm-ups (pkc's module load and Kokkos start, Numba's JIT
    compilation, page faults of fresh arrays happen there); each cell is the
    median. A pkc launch is followed by pk.fence().
  - threads: pkc's OpenMP backend gets OMP_NUM_THREADS=T (with
    OMP_PROC_BIND=spread, OMP_PLACES=threads, as scripts/bench.py), Numba
    NUMBA_NUM_THREADS=T and numba.set_num_threads(T); T defaults to the
    machine's cores. NumPy is single-threaded (its BLAS here is the reference
    BLAS): it is what it is.
  - every contender's result is checked against NumPy's after its first run
    and again after the last (all ran the same number of times), with an
    assert: a wrong kernel stops the benchmark.
  - the trivial launch: `calls` launches over one element in a row per
    repetition, us/call.
  - import and first-call rows run in fresh processes (first_call.py): the
    import of pykokkos / numba, pkc's first call with the module already
    built, with the module not built (cold `pkc build`, toolchain cache warm)
    and on a machine never used (empty PKC_CACHE_DIR too), against Numba's
    first call (JIT compilation), and with Numba's cache=True cache warm;
    and the first run of an unannotated two-kernel program (the 2-D heat
    equation, first_heat_pk.py / first_heat_nb.py): its first step with
    nothing built (pkc builds the module and its run-time specializations)
    against Numba's first step, JIT included (`--only heat`: these rows only).
  - --pk-huge-pages: pkc's Views over np.empty arrays (see new_view), to
    show what pk.View's own allocation costs.
  - --bounds-check: a third contender "pkc checked", the same kernels built
    with `pkc build --bounds-check` (what PKC_BOUNDS_CHECK=1 selects) from a
    copy of pk_kernels.py under build/peers-checked/, on Views of its own;
    its column gives its time and its ratio to unchecked pkc.
  - --threads with several counts (1,2,4,8,16) runs this script once per
    count in a child process and prints one table, pkc and Numba per count
    (scaling.py); --gpu runs the GPU mode instead (gpu_run.py: pkc on CUDA
    against CuPy and Numba-CUDA).

Prints a markdown table (times, ratios pkc/Numba and pkc/NumPy: ratios of the
medians, < 1 means pkc is faster; GB/s from the bytes each kernel must move)
and writes it with the machine's description to bench/peers/last_run.md
(--md to change).
"""
import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The CPUs this process may use, before Kokkos starts here: with
# OMP_PROC_BIND=spread, Kokkos binds the main thread to one core, and every
# process started from it would inherit that one core (first_calls).
START_CPUS = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
# The first-call workers run under this interpreter (it has numpy and Numba:
# on a GPU host /usr/bin/python3 has neither, the venv's python does).
PYTHON = sys.executable
WHO = ("pkc", "numba", "numpy")
NAMES = {"pkc": "pkc", "numba": "Numba", "numpy": "NumPy", "pkc_checked": "pkc checked"}
sys.path.insert(0, HERE)
from common import Case, check, fmt_t, log, numba_numpy_fix, paired  # noqa: E402


def thread_counts(text):
    """--threads: one count or a comma-separated list of counts >= 1."""
    try:
        counts = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"--threads wants counts >= 1 such as 2 or 1,2,4, got {text!r}")
    return counts


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=11, help="timed repetitions (default 11)")
    ap.add_argument("--warmup", type=int, default=2, help="untimed repetitions (default 2)")
    ap.add_argument("--threads", type=thread_counts, default=[os.cpu_count() or 1],
                    help="threads for pkc (OpenMP) and Numba (default: the machine's cores); "
                         "several (1,2,4,8,16): one table of pkc and Numba per count")
    ap.add_argument("--rep-seconds", type=float, default=4.0,
                    help="short kernels repeat until a row takes about this long (default 4)")
    ap.add_argument("--bounds-check", action="store_true",
                    help="also time pkc's --bounds-check build ('pkc checked' column)")
    ap.add_argument("--gpu", action="store_true",
                    help="GPU mode: pkc (CUDA) against CuPy and Numba-CUDA (gpu_run.py)")
    ap.add_argument("--time-limit", type=float, default=0,
                    help="with several --threads counts: stop starting (and stop) runs after "
                         "this many seconds, largest count first; the table says what did not run")
    ap.add_argument("--skip", default="", help="comma-separated row names (substrings) to leave out")
    ap.add_argument("--json", default="", help=argparse.SUPPRESS)   # scaling.py's children
    ap.add_argument("--quick", action="store_true", help="small sizes, 3 repeats (smoke test)")
    ap.add_argument("--pk-huge-pages", action="store_true",
                    help="pkc's Views over np.empty arrays (huge pages), not pk.View's np.zeros")
    ap.add_argument("--only", default="", help="comma-separated row names (substrings)")
    ap.add_argument("--md", default=None,
                    help="markdown output (default bench/peers/last_run.md, with --gpu "
                         "last_run_gpu.md; '' for none)")
    a = ap.parse_args()
    if a.quick:
        a.repeats = min(a.repeats, 3)
        a.warmup = 1
    return a


ARGS = parse_args()
if ARGS.gpu:
    import gpu_run
    sys.exit(gpu_run.main(ARGS))
if len(ARGS.threads) > 1:
    import scaling
    sys.exit(scaling.main(ARGS, sys.argv[1:]))
ARGS.threads = ARGS.threads[0]
if ARGS.md is None:
    ARGS.md = os.path.join(HERE, "last_run.md")
REP_SECONDS = ARGS.rep_seconds   # a row's repetitions take about this long at least (see time_case)


def environment(threads):
    """The environment of this process and of the first-call workers: set
    before pykokkos (Kokkos reads OMP_* when it starts) and numba load."""
    e = os.environ
    e["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + e.get("PATH", "")
    shim = os.path.join(ROOT, "runtime-shim", "python")
    e["PYTHONPATH"] = shim + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e["PKC_BACKEND"] = "openmp"
    e["OMP_NUM_THREADS"] = str(threads)
    e["OMP_PROC_BIND"] = "spread"
    e["OMP_PLACES"] = "threads"
    e["NUMBA_NUM_THREADS"] = str(threads)
    if shim not in sys.path:
        sys.path.insert(0, shim)


environment(ARGS.threads)
import numpy as np  # noqa: E402
NUMPY_NOTE = numba_numpy_fix()
import numba  # noqa: E402
import pykokkos as pk  # noqa: E402
import pk_kernels as K  # noqa: E402
import nb_kernels as NB  # noqa: E402
import np_kernels as NP  # noqa: E402

numba.set_num_threads(ARGS.threads)

# Sizes: the arrays of the memory-bound rows are about 2^24 doubles (128 MiB),
# far beyond the 32 MiB L3 of the CI machine; --quick makes them 4-16 times smaller.
Q = 16 if ARGS.quick else 1
SIZES = {
    "stream": (1 << 24) // Q,            # nstream, BabelStream: elements per array
    # n x n grids of 4000 (122 MiB), not 4096: with rows a power of two apart
    # (32 KiB) the 32-row tiles fall into few cache sets, and how few depends
    # on where the pages landed physically (4 KiB pages: random; 2 MiB: the
    # same sets): the 4096 transpose took 68-200 ms for the same code between
    # runs, pkc or Numba ahead by the memory it was given (see README.md).
    "stencil": 4000 // (4 if Q > 1 else 1),
    "transpose": 4000 // (4 if Q > 1 else 1),  # tile 32
    "tile": 32,
    "gather": (1 << 24) // Q,            # table and index count
    "gups_table": (1 << 24) // Q,
    "gups_updates": (1 << 22) // Q,      # NumPy's ufunc.at takes ~0.9 s for 2^22
    "yAx": (16384 // Q, 1024),           # N rows x M columns
    "lj_nx": 8 if Q > 1 else 14,         # 4 nx^3 atoms
    "trivial_calls": 2000 // (4 if Q > 1 else 1),
}


# --- the kernels, one Case each: how to set up each contender's data, run it
# once (synchronously) and read its result back for the check --------------

def new_view(shape, dtype=pk.double):
    """pk.View(shape, dtype), as users make them; with --pk-huge-pages a View
    over an np.empty array (NumPy asks for transparent huge pages there, as
    for Numba's and NumPy's arrays here): what the shim would give if it
    allocated that way (see README.md, findings)."""
    if ARGS.pk_huge_pages:
        a = np.empty(shape, dtype=np.dtype(dtype))
        a[...] = 0
        return pk.View(list(shape), dtype, array=a)
    return pk.View(list(shape), dtype)


def pk_view(a, dtype=pk.double):
    """A pk.View holding a copy of numpy array a (how a PyKokkos user gets data in)."""
    v = new_view(a.shape, dtype)
    np.asarray(v)[...] = a
    return v


def fenced(f):
    def g():
        r = f()
        pk.fence()
        return r
    return g


def checked_kernels():
    """pk_kernels.py built with `pkc build --bounds-check` (--bounds-check):
    a copy named pk_kernels_checked.py under build/peers-checked/ (its own
    module, rebuilt only when pk_kernels.py changes), imported beside the
    unchecked one. Asserts that it is checked: its gather raises IndexError
    for an index past the table."""
    import importlib.util
    d = os.path.join(ROOT, "build", "peers-checked")
    os.makedirs(d, exist_ok=True)
    src, dst = os.path.join(HERE, "pk_kernels.py"), os.path.join(d, "pk_kernels_checked.py")
    with open(src, "rb") as f:
        text = f.read()
    old = open(dst, "rb").read() if os.path.exists(dst) else None
    if old != text:
        with open(dst, "wb") as f:
            f.write(text)
    p = subprocess.run(["pkc", "build", "-q", "--bounds-check", "--backend", "openmp", dst],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 0, f"pkc build --bounds-check {dst} failed:\n{p.stdout[-2000:]}"
    spec = importlib.util.spec_from_file_location("pk_kernels_checked", dst)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x, idx, y = pk.View([4], pk.double), pk.View([4], pk.int64), pk.View([4], pk.double)
    np.asarray(idx)[...] = [0, 1, 2, 4]
    # the shim loads a module on its first call, checked as PKC_BOUNDS_CHECK says
    # (it would rebuild this one unchecked without it); later calls reuse it
    was = os.environ.get("PKC_BOUNDS_CHECK")
    os.environ["PKC_BOUNDS_CHECK"] = "1"
    try:
        mod.run_gather(x, idx, y)
        pk.fence()
    except IndexError:
        return mod
    finally:
        if was is None:
            del os.environ["PKC_BOUNDS_CHECK"]
        else:
            os.environ["PKC_BOUNDS_CHECK"] = was
    raise AssertionError(f"{dst}: the --bounds-check build did not raise IndexError for x[4]")


KC = checked_kernels() if ARGS.bounds_check else None
PKC = [("pkc", K)] + ([("pkc_checked", KC)] if KC else [])   # (who, kernel module)


def add_pkc(c, setup):
    """pkc's entries of case c: setup(kernels) makes Views of its own and
    returns (run, result, extra...) for that kernel module; called for
    pk_kernels and, with --bounds-check, for its checked build. Returns the
    unchecked call's extra items."""
    first = None
    for who, mod in PKC:
        got = setup(mod)
        c.run[who], c.result[who] = got[0], got[1]
        if first is None:
            first = got[2:]
    return first


def case_nstream():
    n = SIZES["stream"]
    c = Case("nstream (A += B + s*C)", f"N=2^{n.bit_length() - 1}", nbytes=4 * 8 * n, rtol=1e-13)
    A0, B0, C0 = np.zeros(n), np.full(n, 2.0), np.arange(n, dtype=np.float64) % 97
    s = 3.0

    def pkc(mod):
        A, B, C = pk_view(A0), pk_view(B0), pk_view(C0)
        return fenced(lambda: mod.run_nstream(A, B, C, s)), lambda: np.asarray(A), B
    B = add_pkc(c, pkc)[0]
    a, b, cc = A0.copy(), B0.copy(), C0.copy()
    c.run["numba"] = lambda: NB.nstream(a, b, cc, s)
    c.result["numba"] = lambda: a
    a2, b2, c2 = A0.copy(), B0.copy(), C0.copy()
    c.run["numpy"] = lambda: NP.nstream(a2, b2, c2, s)
    c.result["numpy"] = lambda: a2
    c.memory = {"pkc": B, "numba": b, "numpy": b2}
    return c


def stream_inputs(n):
    # BabelStream's start values (0.1, 0.2, 0.0), with a little variation so
    # that a kernel reading the wrong array is caught.
    i = np.arange(n, dtype=np.float64)
    return 0.1 + (i % 7) * 0.01, 0.2 + (i % 5) * 0.01, np.zeros(n)


def result_of(x):
    return lambda: np.asarray(x)


def keeper(last, who, f):
    """A run that keeps f's value (a reduction's) in last[who]."""
    def g():
        last[who] = f()
    return g


def case_babel(kind):
    n = SIZES["stream"]
    moved = {"copy": 2, "mul": 2, "add": 3, "triad": 3, "dot": 2}[kind]
    c = Case(f"BabelStream {kind}", f"N=2^{n.bit_length() - 1}", nbytes=moved * 8 * n,
             # triad: a compiler may fuse b + s*c into one FMA (1 ulp off NumPy)
             rtol={"dot": 1e-10, "triad": 1e-15}.get(kind, 0.0))
    a0, b0, c0 = stream_inputs(n)
    if kind in ("mul", "triad"):
        c0 = np.full(n, 0.3)
    s = 0.4
    last = {}
    # Each kernel is timed on its own arrays (the output never feeds an input,
    # so every repetition computes the same values). A reduction returns its
    # value (the call waits for it).
    out = {"copy": 2, "mul": 1, "add": 2, "triad": 0}.get(kind)

    def launches(mod, a, b, cc):   # pk_kernels' launches are run_<kind>, the others <kind>
        f = getattr(mod, "run_" + kind, None) or getattr(mod, kind)
        args = {"copy": (a, cc), "mul": (b, cc, s), "add": (a, b, cc), "triad": (a, b, cc, s),
                "dot": (a, b)}[kind]
        return lambda: f(*args)

    def setup(who, mod, arrays, fence):
        f = launches(mod, *arrays)
        if kind == "dot":
            return keeper(last, who, f), lambda: np.array([last[who]])
        return (fenced(f) if fence else f), result_of(arrays[out])

    add_pkc(c, lambda mod: setup([w for w, m in PKC if m is mod][0], mod,
                                 (pk_view(a0), pk_view(b0), pk_view(c0)), True))
    c.run["numba"], c.result["numba"] = setup("numba", NB, (a0.copy(), b0.copy(), c0.copy()), False)
    c.run["numpy"], c.result["numpy"] = setup("numpy", NP, (a0.copy(), b0.copy(), c0.copy()), False)
    return c


def case_stencil():
    n, tile = SIZES["stencil"], SIZES["tile"]
    c = Case("stencil 2D 5-point", f"{n}x{n}", nbytes=2 * 8 * (n - 2) ** 2, rtol=1e-13)
    i = np.arange(n, dtype=np.float64)
    inp0 = np.sin(i)[:, None] * 2.0 + np.cos(i)[None, :]

    def pkc(mod):
        pin, pout = pk_view(inp0), new_view((n, n))
        return fenced(lambda: mod.run_stencil5(pin, pout, tile)), result_of(pout)
    add_pkc(c, pkc)
    nin, nout = inp0.copy(), np.zeros((n, n))
    min_, mout = inp0.copy(), np.zeros((n, n))
    c.run["numba"] = lambda: NB.stencil5(nin, nout)
    c.run["numpy"] = lambda: NP.stencil5(min_, mout)
    c.result["numba"], c.result["numpy"] = result_of(nout), result_of(mout)
    return c


def case_transpose():
    n, tile = SIZES["transpose"], SIZES["tile"]
    c = Case("transpose (B += A^T; A += 1)", f"{n}x{n}, tile {tile}", nbytes=4 * 8 * n * n)
    A0 = np.arange(n * n, dtype=np.float64).reshape(n, n)

    def pkc(mod):
        pA, pB = pk_view(A0), new_view((n, n))
        return fenced(lambda: mod.run_transpose(pA, pB, tile)), result_of(pB)
    add_pkc(c, pkc)
    nA, nB = A0.copy(), np.zeros((n, n))
    mA, mB = A0.copy(), np.zeros((n, n))
    c.run["numba"] = lambda: NB.transpose(nA, nB, tile)
    c.run["numpy"] = lambda: NP.transpose(mA, mB)
    c.result["numba"], c.result["numpy"] = result_of(nB), result_of(mB)
    return c


def case_gather():
    n = SIZES["gather"]
    c = Case("gather y[i] = x[idx[i]]", f"N=2^{n.bit_length() - 1}, random idx",
             nbytes=3 * 8 * n)
    rng = np.random.default_rng(12)
    idx0 = rng.integers(0, n, n, dtype=np.int64)
    x0 = rng.random(n)

    def pkc(mod):
        px, pidx, py = pk_view(x0), pk_view(idx0, pk.int64), new_view((n,))
        return fenced(lambda: mod.run_gather(px, pidx, py)), result_of(py)
    add_pkc(c, pkc)
    nx_, nidx, ny = x0.copy(), idx0.copy(), np.zeros(n)
    mx, midx, my = x0.copy(), idx0.copy(), np.zeros(n)
    c.run["numba"] = lambda: NB.gather(nx_, nidx, ny)
    c.run["numpy"] = lambda: NP.gather(mx, midx, my)
    c.result["numba"], c.result["numpy"] = result_of(ny), result_of(my)
    return c


def case_gups():
    """Two rows: non-atomic (pkc, Numba, NumPy's ufunc.at) and atomic
    (pkc's pk.atomic_fetch_xor; Numba has no CPU atomics; NumPy the same
    ufunc.at, measured once for both rows)."""
    T, U = SIZES["gups_table"], SIZES["gups_updates"]
    ck = {"pkc_checked": "pkc_checked"} if KC else {}
    cka = {"pkc_checked": "pkc_atomic_checked"} if KC else {}
    c = Case("gups", f"table 2^{T.bit_length() - 1}, 2^{U.bit_length() - 1} updates",
             updates=U,
             # a lost update (two threads xor-ing one entry at once) flips an
             # entry back: a handful can happen in the non-atomic versions
             bad_ok=max(16, T // 10000),
             rows=[("gups xor, non-atomic",
                    {"pkc": "pkc", "numba": "numba", "numpy": "numpy", **ck}),
                   ("gups xor, atomic (Numba: no CPU atomics)",
                    {"pkc": "pkc_atomic", "numba": None, "numpy": "numpy", **cka})])
    rng = np.random.default_rng(2021)
    idx0 = rng.integers(0, T, U, dtype=np.int64)
    t0 = np.arange(T, dtype=np.int64)
    datum = np.int64(-1)
    for who, mod in PKC:
        atomic = who.replace("pkc", "pkc_atomic")
        ptab, ptab2, pidx = pk_view(t0, pk.int64), pk_view(t0, pk.int64), pk_view(idx0, pk.int64)
        c.run[who] = fenced((lambda m, t, i: lambda: m.run_gups(t, i, -1))(mod, ptab, pidx))
        c.run[atomic] = fenced((lambda m, t, i: lambda: m.run_gups_atomic(t, i, -1))(mod, ptab2, pidx))
        c.result[who], c.result[atomic] = result_of(ptab), result_of(ptab2)
    ntab, nidx = t0.copy(), idx0.copy()
    mtab, midx = t0.copy(), idx0.copy()
    c.run["numba"] = lambda: NB.gups(ntab, nidx, datum)
    c.run["numpy"] = lambda: NP.gups(mtab, midx, datum)
    c.result["numba"], c.result["numpy"] = result_of(ntab), result_of(mtab)
    c.exact = {"pkc_atomic", "pkc_atomic_checked"}   # atomic updates lose nothing: must be exact
    return c


def case_yAx():
    N, M = SIZES["yAx"]
    c = Case("yAx = y^T A x (pkc: TeamPolicy)", f"{N}x{M}", nbytes=8 * (N * M + N + M),
             rtol=1e-10)
    i, j = np.arange(N), np.arange(M)
    y0 = 1.0 + (i % 7) * 0.5
    x0 = (j % 5) - 1.5
    A0 = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    last = {}
    for who, mod in PKC:
        py, px, pA = pk_view(y0), pk_view(x0), pk_view(A0)
        c.run[who] = keeper(last, who, (lambda m, y, x, A: lambda: m.run_yAx(M, y, x, A))(mod, py, px, pA))
    c.run["numba"] = keeper(last, "numba", lambda: NB.yAx(y0, x0, A0))
    c.run["numpy"] = keeper(last, "numpy", lambda: NP.yAx(y0, x0, A0))
    for who in c.run:
        c.result[who] = (lambda w: lambda: np.array([last[w]]))(who)
    return c


from lj_system import CUTOFF, lj_system  # noqa: E402


def case_lj():
    nx = SIZES["lj_nx"]
    x0, L, num0, neigh0 = lj_system(nx)
    n = len(x0)
    rc2 = CUTOFF * CUTOFF
    c = Case("Lennard-Jones force (neighbour list)",
             f"{n} atoms, {int(num0.mean())} neigh/atom", rtol=1e-10)
    c.atol_scale = True

    def pkc(mod):
        px, pnum, pneigh = pk_view(x0), pk_view(num0, pk.int32), pk_view(neigh0, pk.int32)
        pf = new_view((n, 3))
        return (fenced(lambda: mod.run_lj_force(L, rc2, px, pnum, pneigh, pf)), result_of(pf))
    add_pkc(c, pkc)
    nf, mf = np.zeros((n, 3)), np.zeros((n, 3))
    nx_, nnum, nneigh = x0.copy(), num0.copy(), neigh0.copy()
    c.run["numba"] = lambda: NB.lj_force(L, rc2, nx_, nnum, nneigh, nf)
    c.run["numpy"] = lambda: NP.lj_force(L, rc2, x0, num0, neigh0, mf)
    c.result["numba"], c.result["numpy"] = result_of(nf), result_of(mf)
    c.pairs = int(num0.sum())
    return c


# --- running and checking ----------------------------------------------------

def huge_share(a):
    """Share of array a's memory in transparent huge pages (Linux smaps), or
    None where that cannot be read."""
    a = np.asarray(a)
    lo, hi = a.ctypes.data, a.ctypes.data + a.nbytes
    rss = huge = 0
    cur = False
    try:
        with open("/proc/self/smaps") as f:
            for line in f:
                parts = line.split()
                if parts and "-" in parts[0] and not parts[0].endswith(":"):
                    b, e = (int(x, 16) for x in parts[0].split("-"))
                    cur = b < hi and e > lo
                elif cur and parts[0] == "Rss:":
                    rss += int(parts[1])
                elif cur and parts[0] == "AnonHugePages:":
                    huge += int(parts[1])
    except (OSError, ValueError):
        return None
    return huge / rss if rss else None


MEMORY = {}   # who -> share of the nstream inputs in huge pages (reported)


def check_all(case, when):
    ref = np.array(case.result["numpy"](), copy=True)
    for who in case.run:
        if who != "numpy":
            check(case, who, case.result[who](), ref, when)


def time_case(case, repeats, warmup):
    """Runs every contender once and checks it, warms up, then alternating
    timed repetitions: `repeats`, or more (up to 41) so that they take about
    REP_SECONDS (short kernels are the noisiest); returns {who: [seconds]}."""
    order = list(case.run)
    for who in order:
        case.run[who]()
    check_all(case, "after the first run")
    t0 = time.perf_counter()
    for _ in range(warmup):
        for who in order:
            case.run[who]()
    per_rep = (time.perf_counter() - t0) / max(warmup, 1)
    if not ARGS.quick:
        repeats = max(repeats, min(41, int(REP_SECONDS / max(per_rep, 1e-6))))
    case.repeats = repeats
    times = {who: [] for who in order}
    for r in range(repeats):
        k = r % len(order)
        for who in order[k:] + order[:k]:
            f = case.run[who]
            t0 = time.perf_counter()
            f()
            times[who].append(time.perf_counter() - t0)
    check_all(case, f"after {1 + warmup + repeats} runs")
    return times


def time_trivial(repeats, warmup):
    """Per-call time of a launch over one element, us/call: `calls` calls in a
    row per repetition, the contenders alternating between repetitions."""
    calls = SIZES["trivial_calls"]
    pv, nv, mv = pk.View([1], pk.double), np.zeros(1), np.zeros(1)

    def pk_calls():
        for _ in range(calls):
            K.run_increment(pv)
        pk.fence()

    def nb_calls():
        for _ in range(calls):
            NB.increment(nv)

    def np_calls():
        for _ in range(calls):
            NP.increment(mv)
    run = {"pkc": pk_calls, "numba": nb_calls, "numpy": np_calls}
    for _ in range(warmup):
        for f in run.values():
            f()
    times = {who: [] for who in run}
    order = list(run)
    for r in range(repeats):
        k = r % 3
        for who in order[k:] + order[:k]:
            t0 = time.perf_counter()
            run[who]()
            times[who].append((time.perf_counter() - t0) / calls)
    total = float(calls * (warmup + repeats))
    for who, v in (("pkc", pv), ("numba", nv), ("numpy", mv)):
        assert float(np.asarray(v)[0]) == total, f"trivial: {who} counted {np.asarray(v)[0]}"
    return times, calls


def first_calls(reps, coldest_reps, nstream=True, heat=True):
    """{label: [first-call seconds]} from fresh processes (first_call.py):
    nstream's kinds, and the heat program's (heat_*: the first step of
    first_heat_pk.py, cold, and of first_heat_nb.py; *_total adds the import)."""
    worker = os.path.join(HERE, "first_call.py")
    env = dict(os.environ)

    def one(who, path, extra=None):
        e = dict(env)
        e.update(extra or {})
        # a fresh process of a user: every CPU of the machine, not the one core
        # Kokkos bound this thread to (children inherit the thread's affinity)
        bound = os.sched_getaffinity(0) if START_CPUS else None
        if bound is not None and bound != START_CPUS:
            os.sched_setaffinity(0, START_CPUS)
        try:
            p = subprocess.run([PYTHON, worker, who, path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=e, timeout=600)
        finally:
            if bound is not None and bound != START_CPUS:
                os.sched_setaffinity(0, bound)
        assert p.returncode == 0, f"first_call.py {who} {path} failed:\n{p.stderr[-2000:]}"
        import json
        return json.loads(p.stdout.strip().splitlines()[-1])

    out = {"pkc_warm": [], "pkc_cold": [], "pkc_coldest": [], "numba": [], "numba_cached": [],
           "pkc_import": [], "numba_import": [], "heat_pkc_cold": [], "heat_numba": [],
           "heat_pkc_cold_total": [], "heat_numba_total": [], "heat_pkc_warm": []}
    tmp = tempfile.mkdtemp(prefix="pkc-peers-")
    try:
        # A private copy of pkc: a module's cache key records pkc's path, size
        # and mtime, so relinking build/bin/pkc (make, by anyone, during the
        # run) would make the warm module "recheck" and could break a build in
        # flight. Same binary, same Kokkos, same compiler.
        exe = shutil.which("pkc")
        assert exe, "pkc is not on PATH (make first)"
        priv = os.path.join(tmp, "pkc")
        shutil.copy2(exe, priv)
        env["PKC"] = priv
        # the bytecode of the modules cached, as after an install (with
        # PYTHONDONTWRITEBYTECODE=1, as on the CI VM, every import would
        # compile pykokkos' sources again: 40 ms of its 47); filled once here
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "bytecode")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([PYTHON, "-c", "import pykokkos\ntry:\n    import numba\nexcept Exception:\n"
                        "    pass"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        warm = os.path.join(tmp, "warm")
        os.makedirs(warm)
        shutil.copy(os.path.join(HERE, "first_pk.py"), warm)
        pk_file = os.path.join(warm, "first_pk.py")
        one("pkc", pk_file)   # builds warm/first_pk.pk/ (not timed)
        shutil.copy(os.path.join(HERE, "first_heat_pk.py"), warm)
        heat_warm = os.path.join(warm, "first_heat_pk.py")
        if heat:
            one("pkc_heat", heat_warm)   # builds warm/first_heat_pk.pk/ (not timed)
        nb_cache = os.path.join(tmp, "numba-cache")
        one("numba", os.path.join(HERE, "first_nb_cached.py"), {"NUMBA_CACHE_DIR": nb_cache})
        for r in range(reps if heat else 0):   # the heat program's kinds, alternating
            cold = os.path.join(tmp, f"heat{r}")
            os.makedirs(cold)
            shutil.copy(os.path.join(HERE, "first_heat_pk.py"), cold)
            kinds = [("heat_pkc_cold", "pkc_heat", os.path.join(cold, "first_heat_pk.py")),
                     ("heat_numba", "numba_heat", os.path.join(HERE, "first_heat_nb.py")),
                     ("heat_pkc_warm", "pkc_heat", heat_warm)]
            k = r % len(kinds)
            for label, who, path in kinds[k:] + kinds[:k]:
                res = one(who, path)
                out[label].append(res["first"])
                if label != "heat_pkc_warm":
                    out[label + "_total"].append(res["import"] + res["first"])
        for r in range(reps if nstream else 0):
            cold = os.path.join(tmp, f"cold{r}")
            os.makedirs(cold)
            shutil.copy(os.path.join(HERE, "first_pk.py"), cold)
            # alternate the four kinds of process
            coldest = os.path.join(tmp, f"coldest{r}")
            os.makedirs(coldest)
            shutil.copy(os.path.join(HERE, "first_pk.py"), coldest)
            kinds = [("pkc_warm", "pkc", pk_file, None),
                     ("numba", "numba", os.path.join(HERE, "first_nb.py"), None),
                     ("pkc_cold", "pkc", os.path.join(cold, "first_pk.py"), None),
                     ("numba_cached", "numba", os.path.join(HERE, "first_nb_cached.py"),
                      {"NUMBA_CACHE_DIR": nb_cache})]
            if r < coldest_reps:   # also an empty toolchain cache (pkc's first build ever)
                kinds.append(("pkc_coldest", "pkc", os.path.join(coldest, "first_pk.py"),
                              {"PKC_CACHE_DIR": os.path.join(coldest, "toolchains")}))
            k = r % len(kinds)
            for label, who, path, extra in kinds[k:] + kinds[:k]:
                res = one(who, path, extra)
                out[label].append(res["first"])
                if label == "pkc_warm":
                    out["pkc_import"].append(res["import"])
                if label == "numba":
                    out["numba_import"].append(res["import"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


# --- reporting -----------------------------------------------------------------

def thp_mode():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            t = f.read()
        return t[t.index("[") + 1:t.index("]")]
    except (OSError, ValueError):
        return "?"


def machine():
    sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
    from bench import host_facts   # scripts/bench.py
    info, cxx = host_facts()
    return {
        "cpu": f"{info.get('Model name', '?')}, {info.get('CPU(s)', os.cpu_count())} cores "
               f"(L3 {info.get('L3 cache', '?')})",
        "cxx": cxx,
        "numba": f"Numba {numba.__version__} (threading layer "
                 f"{numba.threading_layer()}, {numba.get_num_threads()} threads)",
        "numpy": f"NumPy {np.__version__}",
        "python": f"Python {platform.python_version()}",
    }


def main():
    only = [s for s in ARGS.only.split(",") if s]
    skip = [s for s in ARGS.skip.split(",") if s]
    want = (lambda name: (not only or any(o in name for o in only))
            and not any(o in name for o in skip))
    t_start = time.perf_counter()
    load0 = os.getloadavg()
    # (name, size, unit, {who: median s or None}, {who: rate str}, spread str,
    #  checked: (median s, "per rep checked/pkc") with --bounds-check, else None)
    rows = []

    def add_rows(case, times):
        specs = case.rows or [(case.name, {w: w for w in WHO + tuple(w for w, _ in PKC[1:])})]
        for name, keys in specs:
            ck = keys.pop("pkc_checked", None)
            med = {w: (statistics.median(times[k]) if k else None) for w, k in keys.items()}
            rate = {}
            for w, m in med.items():
                if m is None:
                    rate[w] = "n/a"
                elif case.nbytes:
                    rate[w] = f"{case.nbytes / m / 1e9:.1f} GB/s"
                elif case.updates:
                    rate[w] = f"{case.updates / m / 1e9:.3f} GUP/s"
                elif getattr(case, "pairs", None):
                    rate[w] = f"{case.pairs / m / 1e6:.0f} Mpair/s"
                else:
                    rate[w] = ""
            spread = paired(times[keys["pkc"]], times[keys["numba"]]) if keys["numba"] else "n/a"
            chk = (statistics.median(times[ck]), paired(times[ck], times[keys["pkc"]])) if ck else None
            rows.append((name, f"{case.size}; {case.repeats} reps", "ms", med, rate, spread, chk))
            log(f"# {name}: " + ", ".join(
                f"{NAMES[w]} {fmt_t(m, 'ms') if m else 'n/a'} ms" for w, m in med.items())
                + (f", pkc checked {fmt_t(chk[0], 'ms')} ms (checked/pkc per rep {chk[1]})"
                   if chk else ""))

    builders = [("nstream", case_nstream)]
    builders += [(f"BabelStream {k}", (lambda k: lambda: case_babel(k))(k))
                 for k in ("copy", "mul", "add", "triad", "dot")]
    builders += [("stencil", case_stencil), ("transpose", case_transpose),
                 ("gather", case_gather), ("gups", case_gups), ("yAx", case_yAx),
                 ("Lennard-Jones", case_lj)]
    for name, build in builders:
        if not want(name):
            continue
        t0 = time.perf_counter()
        case = build()
        times = time_case(case, ARGS.repeats, ARGS.warmup)
        for who, arr in getattr(case, "memory", {}).items():
            MEMORY[who] = huge_share(arr)
        add_rows(case, times)
        del case
        log(f"#   ({time.perf_counter() - t0:.1f} s)")
    if want("trivial"):
        times, calls = time_trivial(ARGS.repeats, ARGS.warmup)
        med = {w: statistics.median(t) for w, t in times.items()}
        rows.append(("trivial launch (N=1)", f"{calls} calls in a row", "us/call", med,
                     {w: "" for w in WHO}, paired(times["pkc"], times["numba"]), None))
        log("# trivial: " + ", ".join(f"{NAMES[w]} {m * 1e6:.2f} us/call" for w, m in med.items()))
    first = None
    if want("first") or want("first heat"):
        t0 = time.perf_counter()
        first = first_calls(3 if ARGS.quick else 5, 1 if ARGS.quick else 3,
                            nstream=want("first"), heat=want("first heat"))
        fm = {k: statistics.median(v) if v else None for k, v in first.items()}
        none = {w: "" for w in WHO}
    if first and want("first heat"):
        heat = "heat 2-D, 256x256, 2 kernels"
        rows.append(("first run of an unannotated two-kernel program (heat 2-D): first step, "
                     "fresh process, nothing built (pkc: module and run-time specializations "
                     "built, toolchain cache warm; Numba: JIT compile)", heat, "s",
                     {"pkc": fm["heat_pkc_cold"], "numba": fm["heat_numba"], "numpy": None},
                     none, paired(first["heat_pkc_cold"], first["heat_numba"]), None))
        rows.append(("first run of the heat 2-D program as above, import of pykokkos / numba "
                     "and the program included", heat, "s",
                     {"pkc": fm["heat_pkc_cold_total"], "numba": fm["heat_numba_total"],
                      "numpy": None}, none,
                     paired(first["heat_pkc_cold_total"], first["heat_numba_total"]), None))
        rows.append(("later runs of the heat 2-D program: first step (pkc: module and "
                     "specializations built; Numba: JIT compile)", heat, "s",
                     {"pkc": fm["heat_pkc_warm"], "numba": fm["heat_numba"], "numpy": None},
                     none, paired(first["heat_pkc_warm"], first["heat_numba"]), None))
    if first and want("first"):
        rows.append(("import, fresh process (pykokkos / numba + the kernel file)", "", "s",
                     {"pkc": fm["pkc_import"], "numba": fm["numba_import"], "numpy": None}, none,
                     paired(first["pkc_import"], first["numba_import"]), None))
        rows.append(("first call, fresh process (pkc: module already built; Numba: JIT compile)",
                     "nstream, 2^16", "s",
                     {"pkc": fm["pkc_warm"], "numba": fm["numba"], "numpy": None}, none,
                     paired(first["pkc_warm"], first["numba"]), None))
        rows.append(("first call, fresh process, module not built (pkc: cold `pkc build`, "
                     "toolchain cache warm; Numba: JIT compile)", "nstream, 2^16", "s",
                     {"pkc": fm["pkc_cold"], "numba": fm["numba"], "numpy": None}, none,
                     paired(first["pkc_cold"], first["numba"]), None))
        rows.append(("first call, fresh process, nothing cached, no toolchain cache either "
                     "(pkc: first build on the machine; Numba: JIT compile)", "nstream, 2^16", "s",
                     {"pkc": fm["pkc_coldest"], "numba": fm["numba"], "numpy": None}, none,
                     paired(first["pkc_coldest"], first["numba"]), None))
        rows.append(("first call, fresh process, compiled code on disk (pkc: module built; "
                     "Numba: cache=True, warm)", "nstream, 2^16", "s",
                     {"pkc": fm["pkc_warm"], "numba": fm["numba_cached"], "numpy": None}, none,
                     paired(first["pkc_warm"], first["numba_cached"]), None))
    if first:
        log("# first calls: " + ", ".join(f"{k} {v:.3f} s" for k, v in fm.items()
                                          if v is not None)
            + f" ({time.perf_counter() - t0:.1f} s)")
    elapsed = time.perf_counter() - t_start
    load1 = os.getloadavg()

    m = machine()
    head = ("| kernel | size | unit | pkc | Numba | NumPy | pkc/Numba | pkc/Numba per rep "
            "| pkc/NumPy | pkc rate | Numba rate | NumPy rate |")
    if KC:
        head += " pkc checked | checked/pkc | checked/pkc per rep |"
    lines = [head, "|" + "---|" * (15 if KC else 12)]
    for name, size, unit, med, rate, spread, chk in rows:
        cell = {w: (fmt_t(med[w], unit) if med[w] is not None else "n/a") for w in WHO}
        r_nb = f"{med['pkc'] / med['numba']:.2f}" if med["numba"] else "n/a"
        r_np = f"{med['pkc'] / med['numpy']:.2f}" if med["numpy"] else "n/a"
        line = (f"| {name} | {size} | {unit} | {cell['pkc']} | {cell['numba']} | "
                f"{cell['numpy']} | {r_nb} | {spread} | {r_np} | {rate['pkc']} | {rate['numba']} | "
                f"{rate['numpy']} |")
        if KC:
            line += (f" {fmt_t(chk[0], unit)} | {chk[0] / med['pkc']:.2f} | {chk[1]} |" if chk
                     else " n/a | n/a | n/a |")
        lines.append(line)
    table = "\n".join(lines)
    if ARGS.json:   # for scaling.py
        import json
        with open(ARGS.json, "w") as f:
            json.dump({"threads": ARGS.threads, "rows": [
                {"name": r[0], "unit": r[2], "med": r[3], "spread": r[5], "checked": r[6]}
                for r in rows]}, f)
    desc = (f"{m['cpu']}; {m['cxx']}; {m['numba']}; {m['numpy']}; {m['python']}. "
            f"pkc: OpenMP backend, OMP_NUM_THREADS={ARGS.threads}, OMP_PROC_BIND=spread, "
            f"OMP_PLACES=threads; Numba: NUMBA_NUM_THREADS={ARGS.threads}; NumPy: one thread."
            + (" pkc's Views over np.empty arrays (--pk-huge-pages)." if ARGS.pk_huge_pages else "")
            + (" pkc checked: the same kernels built with `pkc build --bounds-check` (what "
               "PKC_BOUNDS_CHECK=1 selects), on Views of their own." if KC else "")
            + (" " + NUMPY_NOTE if NUMPY_NOTE else ""))
    notes = [
        f"Medians of at least {ARGS.repeats} timed repetitions after {ARGS.warmup} warm-ups, the "
        "contenders alternating in rotated order each repetition; ratios are ratios of the "
        "medians (time pkc / time other: < 1 means pkc is faster); \"per rep\" gives the "
        "median and quartiles of pkc/Numba within each repetition (the two ran back to back): "
        "steadier than the ratio of medians when the load drifts, and the quartiles show the "
        "noise. Rows of short kernels repeat more (up to 41 times, about 4 s a row). "
        "Rates count the bytes a "
        "kernel must move (no write-allocate traffic; gather counts 8 bytes per random read).",
        ("Import and first-call rows: medians of fresh processes (first_call.py; 5 of each kind, "
        "3 for the empty toolchain cache, the kinds alternating), the first call of nstream on "
        "2^16 doubles, imports not included; pkc's first call loads the module and starts "
        "Kokkos (cold: runs `pkc build` first, with a private copy of pkc; its toolchain cache "
        "is ~/.cache/pkc, or a fresh PKC_CACHE_DIR for the first build on the machine), "
        "Numba's compiles (or loads its cache) and starts its threads. The heat 2-D rows "
        "(issue 24 item 4): first_heat_pk.py, unannotated workunits typed from the first "
        "launch, against first_heat_nb.py (@njit(parallel=True), prange); the first step "
        "(both kernels) of a fresh process, the field checked against numpy after two steps; "
        "cold: a fresh copy of the file, so pkc builds the module and its specializations "
        "(one `pkc build`, compiles in parallel) within that step.") if first else "",
        f"Load average {load0[0]:.2f} at the start, {load1[0]:.2f} at the end, niceness "
        f"{os.getpriority(os.PRIO_PROCESS, 0)} (a 2-core VM shared with other work: "
        f"expect several % of noise between runs); whole run {elapsed:.0f} s.",
    ]
    if MEMORY:
        low = (MEMORY.get("pkc") or 0.0) + 0.5 < max(v or 0.0 for v in MEMORY.values())
        notes.append("Memory in transparent huge pages (nstream's inputs; THP mode "
                     f"{thp_mode()}): " + ", ".join(
                         f"{NAMES[w]} {'?' if v is None else f'{100 * v:.0f}%'}"
                         for w, v in MEMORY.items())
                     + (" (pkc's Views are not: random access and tiled kernels pay TLB "
                        "misses that the others do not)." if low else "."))
    print()
    print(desc)
    print()
    print(table)
    print()
    notes = [n for n in notes if n]
    for n in notes:
        print(n)
    if ARGS.md:
        cmd = "/usr/bin/python3 bench/peers/run.py " + " ".join(sys.argv[1:])
        try:
            rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True).stdout.strip() or "?"
        except OSError:
            rev = "?"
        with open(ARGS.md, "w") as f:
            f.write(f"# bench/peers: pkc vs Numba vs NumPy\n\n"
                    f"`{cmd.strip()}` on {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}, "
                    f"tree {rev}\n\n"
                    f"Machine: {desc}\n\n{table}\n\n" + "\n\n".join(notes) + "\n")
        log(f"# wrote {ARGS.md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
