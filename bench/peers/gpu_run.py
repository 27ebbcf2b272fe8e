"""bench/peers/run.py --gpu: pkc (CUDA backend, Views in device memory)
against CuPy and Numba-CUDA on the kernels of the CPU rows, at sizes that
fill a GPU (arrays of 2^26 doubles, 8000^2 grids; --quick: 16-64x smaller).

Rules (as the CPU rows, plus the device):
  - pkc's kernels are pk_kernels.py's workunits and launches; its 2-D kernels
    give no tile (run_stencil5_default, run_transpose_default: what users
    write). CuPy in two forms (gpu_kernels.py), the faster reported and named;
    Numba-CUDA @cuda.jit.
  - every timed call ends with the device's synchronisation: pk.fence(),
    cp.cuda.Device().synchronize(), numba.cuda.synchronize(); a reduction's
    value is read back to the host (pk.parallel_reduce returns it there).
  - one checked run, warm-ups (module load, JIT, first-touch), then at least
    --repeats repetitions (short kernels more, up to 51: about 1 s a row), the
    contenders in rotated order; cells are medians, "per rep" the median and
    quartiles of pkc/other within each repetition.
  - results are compared with NumPy's on the host, in full, after the first
    run and after the last (kernels that update their inputs, nstream and
    transpose, against the closed form after k runs).
  - a contender that cannot be imported (no CuPy, numba-cuda broken, ...) is
    n/a with the reason; one that fails or computes a wrong result on a row
    is n/a there, the reason is printed, and the exit status is 1. NumPy 2.5
    lacks np.row_stack, which numba-cuda 0.30.4 uses: it is set to np.vstack
    before numba is imported, and the output says so.
  - no GPU on the machine (no /dev/nvidiactl, no nvidia-smi): the mode says so
    and exits 0. PEERS_GPU_SIMULATE=1 runs it without one, for the tests:
    pkc on OpenMP, Numba's CUDA simulator, tiny sizes (not for numbers).
"""
import datetime
import gc
import os
import shutil
import statistics
import subprocess
import sys
import time

from common import Case, check, fmt_t, log, numba_numpy_fix, paired

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WHO = ("pkc", "cupy", "numba")
NAMES = {"pkc": "pkc", "cupy": "CuPy", "numba": "Numba-CUDA"}
SIM = os.environ.get("PEERS_GPU_SIMULATE", "") == "1"
REP_SECONDS = 1.0


def gpu_present():
    if os.path.exists("/dev/nvidiactl"):
        return True
    smi = shutil.which("nvidia-smi")
    return bool(smi) and subprocess.run([smi, "-L"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL).returncode == 0


def sizes(quick):
    if SIM:   # Numba's simulator runs a thread per element in Python
        return {"stream": 1 << 9, "grid": 24, "gather": 1 << 9, "yAx": (4, 64), "lj_nx": 3}
    q = 16 if quick else 1
    return {"stream": (1 << 26) // q, "grid": 8000 // (4 if quick else 1),
            "gather": (1 << 26) // q, "yAx": ((1 << 15) // q, 4096), "lj_nx": 8 if quick else 32}


class Contenders:
    """The imported contenders: mods[who] (None if it cannot run, why[who]
    says why), plus their synchronisation and host <-> device helpers."""

    def __init__(self):
        self.mods, self.why, self.notes = {}, {}, []
        self._pkc()
        self._cupy()
        self._numba()

    def _pkc(self):
        os.environ["PKC_BACKEND"] = "openmp" if SIM else (
            "hip" if os.environ.get("PKC_BACKEND") == "hip" else "cuda")
        os.environ["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + os.environ["PATH"]
        shim = os.path.join(ROOT, "runtime-shim", "python")
        if shim not in sys.path:
            sys.path.insert(0, shim)
        try:
            import pykokkos as pk
            import pk_kernels
            self.pk, self.mods["pkc"] = pk, pk_kernels
        except Exception as e:   # noqa: BLE001 (any import failure makes the column n/a)
            self.why["pkc"] = f"import failed: {type(e).__name__}: {e}"

    def _cupy(self):
        try:
            import cupy as cp
            cp.cuda.runtime.getDeviceCount()
            import gpu_kernels
            self.cp, self.mods["cupy"] = cp, gpu_kernels.cupy_kernels(cp)
        except Exception as e:   # noqa: BLE001
            self.why["cupy"] = f"import failed: {type(e).__name__}: {str(e)[:200]}"

    def _numba(self):
        note = numba_numpy_fix()
        if note:
            self.notes.append(note)
        if SIM:
            os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
        try:
            import numba
            from numba import cuda
            if not cuda.is_available():
                raise RuntimeError("numba.cuda.is_available() is False")
            import gpu_kernels
            self.cuda, self.mods["numba"] = cuda, gpu_kernels.numba_kernels()
            self.numba_version = numba.__version__
        except Exception as e:   # noqa: BLE001
            self.why["numba"] = f"import failed: {type(e).__name__}: {str(e)[:200]}"

    def sync(self, who):
        if who == "pkc":
            self.pk.fence()
        elif who == "cupy":
            self.cp.cuda.Device().synchronize()
        else:
            self.cuda.synchronize()

    def to_dev(self, who, a, dtype=None):
        """A device copy of numpy array a: pk.View, cupy array, numba device array."""
        if who == "pkc":
            pk = self.pk
            v = pk.View(list(a.shape), dtype or pk.double)
            v.data = a
            return v
        if who == "cupy":
            return self.cp.asarray(a)
        return self.cuda.to_device(a)

    def to_host(self, who, x):
        import numpy as np
        if who == "pkc":
            return np.array(x, copy=True)
        if who == "cupy":
            return self.cp.asnumpy(x)
        return x.copy_to_host()

    def describe(self):
        parts = []
        try:
            if "cupy" in self.mods:
                p = self.cp.cuda.runtime.getDeviceProperties(0)
                parts.append(p["name"].decode() if isinstance(p["name"], bytes) else p["name"])
            elif "numba" in self.mods:
                parts.append(str(self.cuda.get_current_device().name))
        except Exception:   # noqa: BLE001
            pass
        if "cupy" in self.mods:
            parts.append(f"CuPy {self.cp.__version__}")
        if "numba" in self.mods:
            parts.append(f"Numba {self.numba_version}" + (" (CUDA simulator)" if SIM else ""))
        parts.append(f"pkc backend {os.environ['PKC_BACKEND']}, Kokkos_ROOT="
                     f"{os.environ.get('Kokkos_ROOT', '(default)')}")
        return "; ".join(parts)


# --- the cases: setup(who) -> (run, result) on that contender's own arrays -------

def stream_case(C, kind, n):
    import numpy as np
    moved = {"nstream": 4, "copy": 2, "mul": 2, "add": 3, "triad": 3, "dot": 2}[kind]
    name = "nstream (A += B + s*C)" if kind == "nstream" else f"BabelStream {kind}"
    c = Case(name, f"N=2^{n.bit_length() - 1}", nbytes=moved * 8 * n,
             rtol={"dot": 1e-10, "nstream": 1e-12}.get(kind, 1e-15))
    i = np.arange(n, dtype=np.float64)
    if kind == "nstream":
        a0, b0, c0, s = np.zeros(n), np.full(n, 2.0), i % 97, 3.0
    else:
        a0, b0, c0, s = 0.1 + (i % 7) * 0.01, 0.2 + (i % 5) * 0.01, np.full(n, 0.3), 0.4
        if kind in ("copy", "add"):
            c0 = np.zeros(n)
    args = {"nstream": lambda a, b, cc: (a, b, cc, s), "copy": lambda a, b, cc: (a, cc),
            "mul": lambda a, b, cc: (b, cc, s), "add": lambda a, b, cc: (a, b, cc),
            "triad": lambda a, b, cc: (a, b, cc, s), "dot": lambda a, b, cc: (a, b)}[kind]
    out = {"nstream": 0, "copy": 2, "mul": 1, "add": 2, "triad": 0}.get(kind)
    ref = {"nstream": lambda k: a0 + k * (b0 + s * c0), "copy": lambda k: a0,
           "mul": lambda k: s * c0, "add": lambda k: a0 + b0, "triad": lambda k: b0 + s * c0,
           "dot": lambda k: np.array([np.dot(a0, b0)])}[kind]
    c.ref = ref

    def setup(who, form):
        arrs = [C.to_dev(who, x) for x in (a0, b0, c0)]
        f = launcher(C, who, kind, form)
        extra = (C.cuda.to_device(np.zeros(1)),) if who == "numba" and kind == "dot" else ()
        if kind == "dot":
            last = {}

            def run():
                last["v"] = f(*args(*arrs), *extra)
            return run, lambda: np.array([last["v"]])
        return (lambda: f(*args(*arrs))), lambda: C.to_host(who, arrs[out])
    c.setup = setup
    return c


def launcher(C, who, kind, form):
    if who == "pkc":
        return getattr(C.mods["pkc"], "run_" + kind)
    if who == "cupy":
        return C.mods["cupy"][(kind, form)]
    return C.mods["numba"][kind]


def stencil_case(C, n):
    import numpy as np
    c = Case("stencil 2D 5-point (pkc: no tile)", f"{n}x{n}", nbytes=2 * 8 * (n - 2) ** 2,
             rtol=1e-13)
    i = np.arange(n, dtype=np.float64)
    inp0 = np.sin(i)[:, None] * 2.0 + np.cos(i)[None, :]
    want = np.zeros((n, n))
    want[1:-1, 1:-1] = 0.5 * inp0[1:-1, 1:-1] + 0.125 * (inp0[:-2, 1:-1] + inp0[2:, 1:-1]
                                                        + inp0[1:-1, :-2] + inp0[1:-1, 2:])
    c.ref = lambda k: want

    def setup(who, form):
        inp, out = C.to_dev(who, inp0), C.to_dev(who, np.zeros((n, n)))
        f = C.mods["pkc"].run_stencil5_default if who == "pkc" else launcher(C, who, "stencil5", form)
        return (lambda: f(inp, out)), lambda: C.to_host(who, out)
    c.setup = setup
    return c


def transpose_case(C, n):
    import numpy as np
    c = Case("transpose (B += A^T; A += 1) (pkc: no tile)", f"{n}x{n}", nbytes=4 * 8 * n * n)
    A0 = np.arange(n * n, dtype=np.float64).reshape(n, n)
    # after k runs: B = k A0^T + k(k-1)/2, A = A0 + k (integers below 2^53: exact)
    c.ref = lambda k: k * A0.T + k * (k - 1) / 2

    def setup(who, form):
        A, B = C.to_dev(who, A0), C.to_dev(who, np.zeros((n, n)))
        f = (C.mods["pkc"].run_transpose_default if who == "pkc"
             else launcher(C, who, "transpose", form))
        return (lambda: f(A, B)), lambda: C.to_host(who, B)
    c.setup = setup
    return c


def gather_case(C, n):
    import numpy as np
    c = Case("gather y[i] = x[idx[i]]", f"N=2^{n.bit_length() - 1}, random idx", nbytes=3 * 8 * n)
    rng = np.random.default_rng(12)
    idx0, x0 = rng.integers(0, n, n, dtype=np.int64), rng.random(n)
    want = x0[idx0]
    c.ref = lambda k: want

    def setup(who, form):
        x = C.to_dev(who, x0)
        idx = C.to_dev(who, idx0, C.pk.int64 if who == "pkc" else None)
        y = C.to_dev(who, np.zeros(n))
        f = launcher(C, who, "gather", form)
        return (lambda: f(x, idx, y)), lambda: C.to_host(who, y)
    c.setup = setup
    return c


def yAx_case(C, N, M):
    import numpy as np
    c = Case("yAx = y^T A x (pkc: TeamPolicy)", f"{N}x{M}", nbytes=8 * (N * M + N + M), rtol=1e-10)
    i, j = np.arange(N), np.arange(M)
    y0, x0 = 1.0 + (i % 7) * 0.5, (j % 5) - 1.5
    A0 = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    want = np.array([y0 @ (A0 @ x0)])
    c.ref = lambda k: want

    def setup(who, form):
        y, x, A = (C.to_dev(who, a) for a in (y0, x0, A0))
        last = {}
        if who == "pkc":
            run = (lambda: last.__setitem__("v", C.mods["pkc"].run_yAx(M, y, x, A)))
        else:
            f = launcher(C, who, "yAx", form)
            extra = (C.cuda.to_device(np.zeros(1)),) if who == "numba" else ()
            run = (lambda: last.__setitem__("v", f(y, x, A, *extra)))
        return run, lambda: np.array([last["v"]])
    c.setup = setup
    return c


def lj_case(C, nx):
    import numpy as np
    from lj_system import lj_system
    from np_kernels import lj_force
    x0, L, num0, neigh0 = lj_system(nx)
    n, rc2 = len(x0), 2.5 * 2.5
    c = Case("Lennard-Jones force (neighbour list)", f"{n} atoms, {int(num0.mean())} neigh/atom",
             rtol=1e-10)
    c.atol_scale = True
    want = np.zeros((n, 3))
    lj_force(L, rc2, x0, num0, neigh0, want)
    c.ref = lambda k: want
    c.pairs = int(num0.sum())

    def setup(who, form):
        i32 = C.pk.int32 if who == "pkc" else None
        x, num, neigh = C.to_dev(who, x0), C.to_dev(who, num0, i32), C.to_dev(who, neigh0, i32)
        f_ = C.to_dev(who, np.zeros((n, 3)))
        f = launcher(C, who, "lj_force", form)
        return (lambda: f(L, rc2, x, num, neigh, f_)), lambda: C.to_host(who, f_)
    c.setup = setup
    return c


# --- timing -----------------------------------------------------------------------

def forms(C, who, kernel):
    if who != "cupy":
        return [None]
    return [f for f in ("kernel", "array") if (kernel, f) in C.mods["cupy"]]


CUPY_KERNEL = {"nstream (A += B + s*C)": "nstream", "stencil 2D": "stencil5", "transpose": "transpose",
               "gather": "gather", "yAx": "yAx", "Lennard-Jones": "lj_force"}


def kernel_of(case):
    if case.name.startswith("BabelStream "):
        return case.name.split()[1]
    return next(v for k, v in CUPY_KERNEL.items() if case.name.startswith(k))


def time_case(C, case, repeats, warmup, failures):
    """{key: [seconds]} for each contender key ("pkc", "numba", "cupy:kernel",
    "cupy:array") that set up, ran and checked; failures gets (who, reason)."""
    runs, results, count = {}, {}, {}
    for who in WHO:
        if who not in C.mods:
            continue
        for form in forms(C, who, kernel_of(case)):
            key = who if form is None else f"{who}:{form}"
            try:
                run, res = case.setup(who, form)
            except Exception as e:   # noqa: BLE001
                failures.append((case.name, key, f"setup: {type(e).__name__}: {str(e)[:300]}"))
                continue

            def timed(run=run, who=who, key=key):
                t0 = time.perf_counter()
                run()
                C.sync(who)
                count[key] += 1
                return time.perf_counter() - t0
            runs[key], results[key], count[key] = timed, res, 0

    refs = {}   # k -> NumPy's result after k runs (the contenders ran equally often)

    def check_all(when):
        for key in list(runs):
            try:
                k = count[key]
                if k not in refs:
                    refs.clear()
                    refs[k] = case.ref(k)
                check(case, key, results[key](), refs[k], when)
            except Exception as e:   # noqa: BLE001 (a wrong result or a failed copy)
                failures.append((case.name, key, f"{type(e).__name__}: {str(e)[:300]}"))
                del runs[key]

    def each(keys, f):
        for key in keys:
            if key in runs:
                try:
                    f(key)
                except Exception as e:   # noqa: BLE001
                    failures.append((case.name, key, f"{type(e).__name__}: {str(e)[:300]}"))
                    del runs[key]
                    if key == "pkc" and "pkc build" in str(e):   # no module: the next rows neither
                        C.mods.pop("pkc", None)
                        C.why["pkc"] = f"its module did not build: {str(e)[:300]}"
    each(list(runs), lambda k: runs[k]())
    check_all("after the first run")
    t0 = time.perf_counter()
    for _ in range(warmup):
        each(list(runs), lambda k: runs[k]())
    per_rep = (time.perf_counter() - t0) / max(warmup, 1)
    if not SIM:
        repeats = max(repeats, min(51, int(REP_SECONDS / max(per_rep, 1e-6))))
    case.repeats = repeats
    times = {k: [] for k in runs}
    for r in range(repeats):
        order = list(runs)
        k = r % max(len(order), 1)
        each(order[k:] + order[:k], lambda key: times[key].append(runs[key]()))
    check_all(f"after {1 + warmup + repeats} runs")
    return {k: t for k, t in times.items() if k in runs and len(t) == repeats}


# --- report ----------------------------------------------------------------------

def row_of(case, times):
    """(cells, per-rep ratios, cupy form, forms text) of one case."""
    med = {k: statistics.median(t) for k, t in times.items()}
    cupy = [k for k in med if k.startswith("cupy:")]
    best = min(cupy, key=lambda k: med[k]) if cupy else None
    pick = {"pkc": "pkc" if "pkc" in med else None, "cupy": best,
            "numba": "numba" if "numba" in med else None}
    forms_text = ", ".join(f"{k.split(':')[1]} {fmt_t(med[k], 'ms')}" for k in sorted(cupy))
    return pick, med, forms_text


def rate(case, s):
    if s is None:
        return "n/a"
    if case.nbytes:
        return f"{case.nbytes / s / 1e9:.0f} GB/s"
    if getattr(case, "pairs", None):
        return f"{case.pairs / s / 1e9:.2f} Gpair/s"
    return ""


def table(C, rows, failures):
    """The markdown table of rows [(case, pick, med, times, forms text)]."""
    head = ("| kernel | size | pkc ms | CuPy ms (form) | Numba-CUDA ms | pkc/CuPy | pkc/CuPy per rep "
            "| pkc/Numba-CUDA | pkc/Numba-CUDA per rep | pkc rate | CuPy rate | Numba-CUDA rate "
            "| CuPy forms (ms) |")
    lines = [head, "|" + "---|" * 13]
    for case, pick, med, times, forms_text in rows:
        m = {w: med[k] if k else None for w, k in pick.items()}
        failed = {key.split(":")[0] for name, key, _ in failures if name == case.name}
        cell = {w: fmt_t(v, "ms") if v is not None else
                "n/a (not imported)" if w in C.why and w not in failed else
                "n/a (failed: see below)" if w in failed else "n/a" for w, v in m.items()}
        if pick["cupy"]:
            cell["cupy"] += f" ({pick['cupy'].split(':')[1]})"

        def ratio(o):
            return f"{m['pkc'] / m[o]:.2f}" if m["pkc"] and m[o] else "n/a"

        def per_rep(o):
            return (paired(times[pick["pkc"]], times[pick[o]]) or "n/a") if m["pkc"] and m[o] else "n/a"
        lines.append(f"| {case.name} | {case.size}; {case.repeats} reps | {cell['pkc']} | {cell['cupy']} "
                     f"| {cell['numba']} | {ratio('cupy')} | {per_rep('cupy')} | {ratio('numba')} "
                     f"| {per_rep('numba')} | {rate(case, m['pkc'])} | {rate(case, m['cupy'])} "
                     f"| {rate(case, m['numba'])} | {forms_text or 'n/a'} |")
    return "\n".join(lines)


def report(C, rows, failures, repeats, warmup, seconds, done):
    """The machine line, the table and the notes; done: False while rows are still to come."""
    notes = [f"Medians of at least {repeats} timed repetitions after {warmup} warm-ups (short "
             "kernels up to 51, about 1 s a row), contenders in rotated order; each timed call "
             "ends with the device's synchronisation (pk.fence(), cp.cuda.Device().synchronize(), "
             "numba.cuda.synchronize()); reductions include reading the value back. pkc/other < 1: "
             "pkc faster; \"per rep\": median (quartiles) of the ratio within each repetition. "
             "CuPy: the faster of its forms (kernel: ElementwiseKernel/ReductionKernel; array: "
             "whole-array code with its temporaries), both in the last column. pkc's 2-D kernels "
             "give no tile. Results compared with NumPy in full after the first and the last run."]
    notes += C.notes
    notes += [f"{NAMES[w]}: n/a, {why}" for w, why in C.why.items()]
    notes += [f"FAILED {name}: {key}: {why}" for name, key, why in failures]
    notes.append(f"Whole run {seconds:.0f} s." + ("" if done else " UNFINISHED: rows still running.")
                 + (" SIMULATED (PEERS_GPU_SIMULATE=1): pkc on OpenMP, Numba's CUDA simulator; "
                    "not for numbers." if SIM else ""))
    return f"{C.describe()}\n\n{table(C, rows, failures)}\n\n" + "\n\n".join(notes)


def write_md(md, text):
    if md:
        with open(md, "w") as f:
            f.write(f"# bench/peers --gpu: pkc vs CuPy vs Numba-CUDA\n\n`run.py {' '.join(sys.argv[1:])}` "
                    f"on {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}\n\n{text}\n")


def main(args):
    if not SIM and not gpu_present():
        print("bench/peers GPU mode: skipped, no NVIDIA GPU on this machine "
              "(no /dev/nvidiactl, nvidia-smi -L fails)")
        return 0
    repeats, warmup = (3, 0 if SIM else 1) if args.quick else (args.repeats, args.warmup)
    only = [s for s in args.only.split(",") if s]
    want = (lambda name: not only or any(o in name for o in only))
    md = args.md if args.md is not None else os.path.join(HERE, "last_run_gpu.md")
    C = Contenders()
    for who, why in C.why.items():
        log(f"# {NAMES[who]}: {why}")
    S = sizes(args.quick)
    builders = [(k, (lambda k: lambda: stream_case(C, k, S["stream"]))(k))
                for k in ("nstream", "copy", "mul", "add", "triad", "dot")]
    builders += [("stencil", lambda: stencil_case(C, S["grid"])),
                 ("transpose", lambda: transpose_case(C, S["grid"])),
                 ("gather", lambda: gather_case(C, S["gather"])),
                 ("yAx", lambda: yAx_case(C, *S["yAx"])),
                 ("Lennard-Jones", lambda: lj_case(C, S["lj_nx"]))]
    t_start = time.perf_counter()
    rows, failures = [], []
    for name, build in builders:
        if not want(name):
            continue
        t0 = time.perf_counter()
        case = build()
        times = time_case(C, case, repeats, warmup, failures)
        pick, med, forms_text = row_of(case, times)
        rows.append((case, pick, med, times, forms_text))
        log(f"# {case.name}: " + ", ".join(f"{k} {fmt_t(v, 'ms')} ms" for k, v in med.items())
            + f" ({time.perf_counter() - t0:.1f} s)")
        # the table so far (a run stopped by a time limit still leaves its rows)
        write_md(md, report(C, rows, failures, repeats, warmup, time.perf_counter() - t_start, False))
        del case
        gc.collect()
        if "cupy" in C.mods:
            C.cp.get_default_memory_pool().free_all_blocks()
    text = report(C, rows, failures, repeats, warmup, time.perf_counter() - t_start, True)
    print()
    print(text)
    write_md(md, text)
    if md:
        log(f"# wrote {md}")
    return 1 if failures else 0
