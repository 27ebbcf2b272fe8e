"""Finding, checking (staleness), building (JIT fallback) and loading the
module pkc built for a Python source file, through libpkcrt."""
import os
import sys

from ._errors import PkcBuildError, PkcRuntimeError, PkcValueError
from . import _types as T


class Runtime:
    """Process-wide loader state: backend choice, libpkcrt, open modules."""

    def __init__(self):
        self.default_backend = None   # set by pk.set_default_space
        self.policy_backend = None    # a policy's own host space (_dispatch.InBackend)
        self.lib = None               # ctypes.CDLL of libpkcrt
        self.modules = {}             # (abs source path, backend) -> Module
        self.spec_modules = {}        # (source, backend, signature) -> Module

    def backend(self):
        if self.policy_backend:
            return self.policy_backend
        b = os.environ.get("PKC_BACKEND") or self.default_backend or "openmp"
        if b not in T.BACKENDS:
            raise PkcValueError(f"pykokkos: unknown backend {b!r} "
                                "(PKC_BACKEND: serial|openmp|cuda|hip)")
        return b

    def on_gpu(self):
        """True when kernels run on a GPU backend (raises for a bad PKC_BACKEND)."""
        return T.is_gpu_backend(self.backend())

    def runtime_lib(self):
        if self.lib is None:
            import ctypes
            from . import _abi
            path = find_runtime_lib()
            try:
                self.lib = _abi.bind_runtime(ctypes.CDLL(path))
            except OSError as e:
                raise PkcRuntimeError(f"pykokkos: cannot load the runtime library "
                                      f"{path}: {e}") from None
        return self.lib

    def module_for(self, source, hints=None):
        """The loaded Module for a Python source path (built if needed; hints:
        a function giving the run-time signatures to build with it)."""
        key = (source, self.backend())
        m = self.modules.get(key)
        if m is None:
            m = self.modules[key] = load_module(self, source, key[1], hints=hints)
        elif m.source_changed():   # edited since it was loaded (PyKokkos rebuilds: test_recompile)
            m = self.modules[key] = load_module(self, source, key[1], reopen=True)
        return m


RUNTIME = Runtime()


try:   # the CPUs of the process before Kokkos starts (call_pkc)
    _START_CPUS = os.sched_getaffinity(0)
except (AttributeError, OSError):
    _START_CPUS = None


def call_pkc(argv, **kw):
    """subprocess.call(argv, **kw) for a pkc command, run on the CPUs this
    process had when pykokkos was imported: Kokkos started with OMP_PROC_BIND
    binds the main thread to one core, and pkc (which compiles in parallel)
    would inherit that one core from it."""
    import subprocess
    bound = None
    if _START_CPUS:
        try:
            now = os.sched_getaffinity(0)
            if now != _START_CPUS:
                os.sched_setaffinity(0, _START_CPUS)
                bound = now
        except OSError:
            pass
    try:
        return subprocess.call(argv, **kw)
    finally:
        if bound is not None:
            try:
                os.sched_setaffinity(0, bound)
            except OSError:
                pass


def pkc_executable():
    """Path of pkc (env PKC overrides), or None if not found."""
    exe = os.environ.get("PKC")
    if exe:
        return exe
    import shutil
    return shutil.which("pkc")


def find_runtime_lib():
    """libpkcrt.so: env PKC_RUNTIME_LIB > <repo>/build/lib > beside an installed
    shim (<prefix>/lib/python3.X/dist-packages/pykokkos -> <prefix>/lib) >
    <pkc bindir>/../lib."""
    env = os.environ.get("PKC_RUNTIME_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    cands = [os.path.join(here, "..", "..", "..", "build", "lib", "libpkcrt.so"),
             os.path.join(here, "..", "..", "lib", "libpkcrt.so"),
             os.path.join(here, "..", "..", "..", "libpkcrt.so")]
    exe = pkc_executable()
    if exe:
        exe = os.path.realpath(exe)
        cands.append(os.path.join(os.path.dirname(exe), "..", "lib", "libpkcrt.so"))
    for c in cands:
        if os.path.isfile(c):
            return os.path.normpath(c)
    raise PkcRuntimeError("pykokkos: cannot find libpkcrt.so; build it with "
                          "`make build/lib/libpkcrt.so` or set PKC_RUNTIME_LIB")


def module_name(source):
    """The module name pkc gives a source file (ir.c, pki_module_name): the
    file name up to its first '.', each non-ASCII character 'u%04x', other
    characters than [A-Za-z0-9_] (and undecodable bytes) '_', and 'm_' in front
    of a leading digit ('01.py' -> 'm_01', 'my-app.py' -> 'my_app',
    'ñandú.py' -> 'u00f1andu00fa')."""
    base = os.path.basename(os.fsdecode(source))
    stem = base.split(".", 1)[0] or base

    def one(ch):
        if ch.isascii():
            return ch if ch.isalnum() or ch == "_" else "_"
        return "_" if 0xDC80 <= ord(ch) <= 0xDCFF else f"u{ord(ch):04x}"
    name = "".join(one(ch) for ch in stem)
    return "m_" + name if name[:1].isdigit() else name


def module_paths(source, backend):
    """(module .so, .key) of source: <dir>/<file minus .py>.pk/<module_name>.<backend>.so,
    where `pkc build source` writes them."""
    d, base = os.path.split(source)
    stem = base[:-3] if base.endswith(".py") else base
    out = os.path.join(d, stem + ".pk")
    name = module_name(source)
    return (os.path.join(out, f"{name}.{backend}.so"),
            os.path.join(out, f"{name}.{backend}.key"))


def source_sha256(source):
    import hashlib
    try:
        with open(source, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        raise PkcRuntimeError(f"pykokkos: cannot read kernel source {source}: {e}") from None


def build_inputs():
    """The environment a module's cache key depends on, as `pkc build`
    records it in line 3 of the key file (backends/cmake.c, key_text), or
    None when pkc is not available (then the recorded one is trusted).
    checks=bounds: PKC_BOUNDS_CHECK=1 asks for a module built with
    --bounds-check (and its absence for one without)."""
    exe = pkc_executable()
    if not exe:
        return None
    import shutil
    path = shutil.which(exe) or exe
    try:
        path = os.path.realpath(path)
        st = os.stat(path)
    except OSError:
        return None
    env = "\t".join(f"{k}={os.environ.get(k, '')}" for k in ("CXX", "CXXFLAGS"))
    checks = "bounds" if "--bounds-check" in T.pkc_build_args() else ""
    return (f"inputs pkc={path}|{st.st_size}|{st.st_mtime_ns}\t{env}\t"
            f"Kokkos_ROOT={kokkos_root()}\tcpu={_cpu_id()[:16]}\tchecks={checks}")


def kokkos_root():
    """$Kokkos_ROOT resolved as pkc resolves it (realpath where it exists), or
    '' when unset: then any Kokkos the module was built against will do (pkc
    records the install it used, from --kokkos-root, Kokkos_ROOT or its default)."""
    root = os.environ.get("Kokkos_ROOT", "")
    if root and os.path.exists(root):
        return os.path.realpath(root)
    return root


def inputs_match(recorded, now):
    """Does key line 3 (recorded) hold for the environment now (build_inputs)?
    Field by field; an empty Kokkos_ROOT now accepts the recorded one."""
    rec = dict(f.partition("=")[::2] for f in recorded.split("\t"))
    cur = dict(f.partition("=")[::2] for f in now.split("\t"))
    if cur.get("Kokkos_ROOT") == "":
        rec.pop("Kokkos_ROOT", None)
        cur.pop("Kokkos_ROOT")
    return rec == cur


def _cpu_id():
    """SHA-256 of the first CPU's model name and flags lines (backends/cache.c,
    pkb_cpu_id): host modules are built for the CPU (-march=native)."""
    import hashlib
    text, want = "", ("model name", "flags")
    try:
        with open("/proc/cpuinfo") as f:
            lines = f.read().split("\n")
    except OSError:
        lines = []
    for k in want:
        line = next((l for l in lines if l.startswith(k)), None)
        if line is not None:
            text += line + "\n"
    return hashlib.sha256(text.encode()).hexdigest()


def _module_intact(so, line):
    """Does the module file match key line 4, "so <size> <sha256>"?"""
    import hashlib
    parts = line.split()
    try:
        if len(parts) != 3 or os.path.getsize(so) != int(parts[1]):
            return False
        with open(so, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest() == parts[2]
    except (OSError, ValueError):
        return False


def freshness(so, keyf, sha):
    """'fresh'; 'stale' (missing, source hash differs, module damaged, or a key
    that cannot prove the module intact: an old or damaged key without its
    source hash or "so <size> <sha256>" line); 'recheck' (built with another
    pkc, compiler, CXXFLAGS or Kokkos root than now: `pkc build` decides)."""
    if not os.path.isfile(so) or not os.path.isfile(keyf):
        return "stale"
    try:
        with open(keyf) as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return "stale"
    if len(lines) < 4 or lines[1] != sha or not _module_intact(so, lines[3]):
        return "stale"
    now = build_inputs()
    return "recheck" if now is not None and not inputs_match(lines[2], now) else "fresh"


def jit_build(source, backend, recheck=False, sigs=()):
    """Runs `pkc build source --backend b` if pkc is available; else raises.
    recheck: only the toolchain changed; pkc says whether anything is rebuilt.
    sigs: run-time signatures pkc builds beside the module (--with-signature),
    in the same command and in parallel, where their workunits are typed at
    run time."""
    exe = pkc_executable()
    if not exe:
        raise PkcBuildError(
            f"pykokkos: the module for {source} ({backend}) is missing, stale or damaged "
            f"and pkc is not on PATH; run `pkc build {source} --backend {backend}`")
    if not recheck:
        extra = (f", with {len(sigs)} run-time specialization{'s' if len(sigs) > 1 else ''} "
                 "predicted from this call" if sigs else "")
        print(f"pykokkos: building {source} for {backend} with pkc "
              f"(module missing, stale or damaged){extra}", file=sys.stderr, flush=True)
    try:   # pkc's output to stderr (fd 2 where sys.stderr is not a file: notebooks, tests)
        out = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        out = 2
    try:
        with_sigs = [a for sig in sigs for a in ("--with-signature", sig)]
        rc = call_pkc([exe, "build", source, "--backend", backend] + T.pkc_build_args()
                      + with_sigs, stdout=out)
    except OSError as e:
        raise PkcBuildError(f"pykokkos: cannot run pkc ({exe}): {e}") from None
    if rc == 1:
        return   # some entities were rejected: the module holds the others
    if rc != 0:
        raise PkcBuildError(f"pykokkos: `pkc build {source} --backend {backend}` "
                            f"failed (exit {rc}); see the messages above")


def launched_ranks():
    """The number of ranks the MPI launcher started (its environment), or 1."""
    for k in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"):
        try:
            return int(os.environ[k])
        except (KeyError, ValueError):
            pass
    return 1


class Module:
    """An opened module: libpkcrt handle, descriptor, kernels by (entity, name)."""

    def __init__(self, rt, handle, desc, so):
        self.rt, self.handle, self.desc, self.so = rt, handle, desc, so
        self.source = None
        self.sha = (desc.source_sha256 or b"").decode()
        self.stamp = None   # (mtime_ns, size) of the source when it was loaded
        self.omitted = {}   # entity -> (why, "file:line:col: message")
        for line in (desc.omitted or b"").decode(errors="replace").splitlines():
            parts = line.split("\t", 2)
            if len(parts) == 3:
                self.omitted[parts[0]] = (parts[1], parts[2])

    def kernel(self, entity, name):
        k = self.rt.lib.pkr_find_kernel(self.handle, entity.encode(), name.encode())
        return k.contents if k else None

    def fence(self):
        self.rt.lib.pkr_fence(self.handle)

    def source_changed(self):
        """Whether the source file differs from the one this module was built
        from (a stat first; the hash only when the stat moved)."""
        try:
            st = os.stat(self.source)
        except OSError:
            return False
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self.stamp:
            return False
        if source_sha256(self.source) == self.sha:
            self.stamp = stamp
            return False
        return True


_PRELOADED = []


def _preload_libstdcxx():
    """Puts libstdc++ into the process' global symbol scope before the first
    module is dlopen'ed. Without it, libkokkoscore (loaded as the module's
    dependency) binds its std:: references (e.g. ostream::_M_insert<long>)
    to weak copies exported by the module itself (nvcc-built CUDA modules
    carry such instantiations), whose facet ids libstdc++ never registered:
    Kokkos::initialize then segfaults (seen on the H200, Python loads numpy's
    libstdc++ RTLD_LOCAL only)."""
    if _PRELOADED:
        return
    _PRELOADED.append(True)
    import ctypes
    try:
        _PRELOADED.append(ctypes.CDLL("libstdc++.so.6", mode=ctypes.RTLD_GLOBAL))
    except OSError:
        pass


def load_module(rt, source, backend, paths=None, build=None, reopen=False, hints=None):
    """Opens the module built for source (paths: its (.so, .key), default the
    file's module; build: how to rebuild it when missing or stale; reopen: the
    process already opened a module at that path, so the rebuilt one is opened
    through a copy named after its source hash: dlopen would return the old;
    hints: a function giving run-time signatures to build with the module)."""
    st = os.stat(source) if os.path.exists(source) else None
    sha = source_sha256(source)
    so, keyf = paths or module_paths(source, backend)
    state = freshness(so, keyf, sha)
    if state in ("stale", "recheck"):
        (build or (lambda: jit_build(source, backend, state == "recheck",
                                     hints() if hints and state == "stale" else ())))()
        state = freshness(so, keyf, sha)
        if state in ("stale", "recheck"):
            raise PkcBuildError(f"pykokkos: pkc did not produce a fresh {so} "
                                f"for {source}")
    lib = rt.runtime_lib()
    import ctypes
    _preload_libstdcxx()
    err = ctypes.create_string_buffer(1024)
    nthreads = int(os.environ.get("PKC_NUM_THREADS", "0") or 0)
    if not rt.modules and not rt.spec_modules:   # Kokkos starts with this module
        from ._spaces import bind_rank
        nthreads = nthreads or bind_rank(T.is_gpu_backend(backend))
        if launched_ranks() > 1:   # a failing rank ends the job (pykokkos.mpi)
            from .mpi import abort_on_failure
            abort_on_failure()
    opened = so
    if reopen:
        import shutil
        opened = f"{so[:-3]}.{sha[:16]}.so"
        if not os.path.exists(opened):
            shutil.copyfile(so, opened + ".tmp")
            os.replace(opened + ".tmp", opened)
    h = lib.pkr_open(opened.encode(), nthreads, err, len(err))
    if not h:
        raise PkcRuntimeError("pykokkos: " + err.value.decode(errors="replace"))
    desc = lib.pkr_descriptor(h).contents
    got = (desc.source_sha256 or b"").decode()
    if got != sha:
        raise PkcRuntimeError(
            f"pykokkos: {so} was built from a different version of {source} "
            f"(source sha256 {got[:12]}..., file has {sha[:12]}...); "
            f"run `pkc build {source} --backend {backend}` and restart")
    dback = (desc.backend or b"").decode()
    if dback != backend:
        raise PkcRuntimeError(f"pykokkos: {so} is a {dback!r} module, expected {backend!r}")
    m = Module(rt, h, desc, so)
    m.source = source
    m.stamp = (st.st_mtime_ns, st.st_size) if st else None
    return m
