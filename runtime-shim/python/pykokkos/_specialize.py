"""Run-time specialization of workunits typed by their arguments (PyKokkos
types unannotated workunit parameters from the actual arguments of a call).

A FunctionSty workunit whose parameter types pkc could not infer ahead of time
is omitted from its file's module ("runtime-typed"); one whose types pkc
inferred from the file's call sites carries PKC_KERNEL_INFERRED. For such a
kernel the shim derives a *signature* from each call's keyword arguments:

    kernel(n: int, x: pk.View1D[pk.float32], A: pk.View2D[pk.float64, pk.LayoutLeft])

(parameters sorted by name; a View gives dtype, rank and an explicit layout;
Python int/float/bool give int/float/bool, i.e. int64/float64/bool; numpy
scalars their dtype), and runs the module `pkc build FILE --specialize SIG`
builds for it into FILE.pk/spec/<kernel>-<first 16 hex of sha256(SIG)>/
(built on first use, printing one line; reused by later runs without pkc;
several signatures of one workunit coexist). With PKC_RECORD_SIGNATURES=1 the
signatures a run uses are appended to <stem>.pkc-signatures beside the file;
`pkc build FILE` builds every recorded signature ahead of time.
"""
from ._abiconst import PARAM_FROM_GLOBAL
import hashlib
import os
import sys

from ._errors import PkcArgumentError, PkcBuildError
from . import _types as T
from ._loader import RUNTIME, call_pkc, module_paths, module_name
from ._view import View, numpy


def _dtype_name(npdt):
    dt = T.dtype_of_numpy(npdt)
    if dt is None:
        return None
    return getattr(dt, "np_name", None) or dt.name


def type_of(kname, pname, v):
    """The signature type of argument v (e.g. 'pk.View1D[pk.float64]');
    raises TypeError naming kernel and argument if v cannot be typed."""
    if v.__class__ is bool:
        return "bool"
    if v.__class__ is int:
        return "int"
    if v.__class__ is float:
        return "float"
    from ._random import Random_XorShift64_Pool, Random_XorShift1024_Pool
    if isinstance(v, (Random_XorShift64_Pool, Random_XorShift1024_Pool)):
        return f"pk.{type(v).__name__}"
    from ._classview import ClassView
    if isinstance(v, ClassView):
        c = v.dtype.__name__
        raise PkcArgumentError(f"{kname}: argument '{pname}' is a View of classtype {c}, which a "
                        f"parameter typed per call cannot take; annotate it "
                        f"({pname}: pk.View1D[{c}])")
    if isinstance(v, View):
        dt, nd = v._dt, v._a.ndim
        name = getattr(dt, "np_name", None) or dt.name
        lay = "" if getattr(v, "_deflt", False) else (
            ", pk.LayoutLeft" if v.layout is T.Layout.LayoutLeft else ", pk.LayoutRight")
        if nd == 1:
            lay = ""
        return f"pk.View{nd}D[pk.{name}{lay}]"
    np = numpy()
    if isinstance(v, np.generic):
        name = _dtype_name(v.dtype)
        if name:
            return f"pk.{name}"
    cai = getattr(v, "__cuda_array_interface__", None) if not isinstance(v, np.ndarray) else None
    if cai is not None:
        name, nd = _dtype_name(np.dtype(cai["typestr"])), len(cai["shape"])
        st = cai.get("strides")
        left = st is not None and nd > 1 and st[0] < st[-1]
        if name and 1 <= nd <= 8:
            return f"pk.View{nd}D[pk.{name}{', pk.LayoutLeft' if left else ''}]"
    a = v if isinstance(v, np.ndarray) else None
    if a is None and (hasattr(v, "__array_interface__") or hasattr(v, "__dlpack__")):
        try:
            a = np.asarray(v) if hasattr(v, "__array_interface__") else np.from_dlpack(v)
        except Exception:
            a = None
    if a is not None and 1 <= a.ndim <= 8:
        name = _dtype_name(a.dtype)
        if name:
            left = a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous
            return f"pk.View{a.ndim}D[pk.{name}{', pk.LayoutLeft' if left else ''}]"
    if isinstance(v, (int, float)):   # int/float subclasses (e.g. numpy.float64 is one)
        return "float" if isinstance(v, float) else "int"
    raise PkcArgumentError(f"{kname}: argument '{pname}': cannot derive a kernel type from a "
                           f"{type(v).__name__} (pass a pk.View, a numpy array or a Python "
                           "int/float/bool, or annotate the parameter)")


def _typeable(v):
    try:
        type_of("", "", v)
        return True
    except TypeError:
        return False


def signature(kname, kw, rank=0):
    """The signature text for a call of FunctionSty workunit kname with kwargs
    kw; rank >= 2: launched with an MDRangePolicy of that rank (`kname[2](...)`:
    its first rank integer parameters are the work indices)."""
    parts = [f"{n}: {type_of(kname, n, kw[n])}" for n in sorted(kw)]
    return f"{kname}{f'[{rank}]' if rank >= 2 else ''}({', '.join(parts)})"


def md_rank(policy):
    """The rank of an MDRangePolicy (>= 2), else 0."""
    from ._policies import MDRangePolicy
    return len(policy.begin) if isinstance(policy, MDRangePolicy) else 0


def spec_paths(source, backend, kernel, sig):
    """(module .so, .key) of a specialization: FILE.pk/spec/<kernel>-<h16>/ (the
    directory naming of pkc's pkb_spec_outdir)."""
    so, _ = module_paths(source, backend)
    h = hashlib.sha256(sig.encode()).hexdigest()[:16]
    d = os.path.join(os.path.dirname(so), "spec", f"{kernel}-{h}")
    name = module_name(source)
    return (os.path.join(d, f"{name}.{backend}.so"), os.path.join(d, f"{name}.{backend}.key"))


def sidecar(source):
    """The recorded-signatures file beside source: <stem>.pkc-signatures."""
    stem = source[:-3] if source.endswith(".py") else source
    return stem + ".pkc-signatures"


def record(source, sig):
    """Appends sig to source's sidecar (PKC_RECORD_SIGNATURES=1), once."""
    path = sidecar(source)
    try:
        with open(path, encoding="utf-8") as f:
            if sig in (line.rstrip("\n") for line in f):
                return
    except OSError:
        pass
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(sig + "\n")
    except OSError as e:
        print(f"pykokkos: cannot record the signature in {path}: {e}", file=sys.stderr)


def _user_frame():
    """The innermost frame outside this package: the code that launched."""
    here = os.path.dirname(os.path.abspath(__file__))
    f = sys._getframe(1)
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(here + os.sep):
        f = f.f_back
    return f


def _untyped(fn, names):
    """Whether some of the keyword names lack an annotation in fn (a fully
    annotated workunit is built with the module: nothing to guess)."""
    ann = getattr(fn, "__annotations__", None) or {}
    return any(n not in ann for n in names)


def _launches(source):
    """(kernel name, [(keyword, ast value)]) of each pk.parallel_for/reduce/scan
    in source whose kernel (last positional argument) is a plain name and whose
    arguments are all keywords (no **kw)."""
    import ast
    try:
        with open(source, encoding="utf-8") as f:
            tree = ast.parse(f.read(), source)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return []
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        fn = node.func
        word = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
        last = node.args[-1]
        if (word in ("parallel_for", "parallel_reduce", "parallel_scan")
                and isinstance(last, ast.Name)
                and all(k.arg is not None for k in node.keywords)):
            out.append((last.id, [(k.arg, k.value) for k in node.keywords]))
    return out


_MISSING = object()


def _value(node, scopes):
    """The value of a launch argument written as a name (looked up in scopes)
    or a literal; _MISSING otherwise."""
    import ast
    if isinstance(node, ast.Constant) and node.value.__class__ in (int, float, bool):
        return node.value
    if isinstance(node, ast.Name):
        for d in scopes:
            if node.id in d:
                return d[node.id]
    return _MISSING


def first_signatures(func, kw):
    """The signatures to build together with func's module on the first launch
    of FunctionSty workunit func (keyword arguments kw): its own, then a guess
    for each other workunit of its file: a launch of it in the file whose
    arguments are literals or names the launching frame holds (its locals,
    then its globals) gives the signature of those values. Only workunits
    with unannotated parameters; pkc builds a signature only for a workunit
    it types at run time, in parallel with the module. A wrong guess costs
    a compile, never a wrong kernel: every launch runs the specialization of
    its own arguments' signature."""
    name = func.__name__
    sigs = []
    try:
        if kw and _untyped(func, kw):
            sigs.append(signature(name, kw))
    except TypeError:
        pass
    frame = _user_frame()
    scopes = [kw] + ([frame.f_locals, frame.f_globals] if frame is not None else [])
    g = func.__globals__
    for kname, args in _launches(os.path.abspath(func.__code__.co_filename)):
        k = g.get(kname)
        if (k is func or not getattr(k, "_pk_workunit", False)
                or getattr(getattr(k, "__code__", None), "co_filename", None)
                != func.__code__.co_filename):
            continue
        vals = {a: _value(v, scopes) for a, v in args}
        if not vals or any(v is _MISSING for v in vals.values()) or not _untyped(k, vals):
            continue
        try:
            sig = signature(k.__name__, vals)
        except TypeError:
            continue
        if sig not in sigs:
            sigs.append(sig)
    return sigs[:16]


def _build_with(exe, source, backend, sigs):
    """One `pkc build FILE --with-signature S...`: the module is up to date;
    the specializations are built in parallel, quietly (a failing one is built
    again by _build, which shows why)."""
    import subprocess
    args = [a for s in sigs for a in ("--with-signature", s)]
    try:
        call_pkc([exe, "build", source, "--backend", backend, "-q"]
                 + T.pkc_build_args() + args,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        pass


def _build(source, backend, sig, others=()):
    """Builds the specialization sig of source; others: signatures predicted
    for the file's other launches, built beside it in the same command."""
    from ._loader import pkc_executable
    exe = pkc_executable()
    if not exe:
        raise PkcBuildError(
            f"pykokkos: {sig} of {source} ({backend}) needs a run-time specialization "
            f"that is not built, and pkc is not on PATH; run `pkc build {source} "
            f"--backend {backend} --specialize '{sig}'` (or record the signatures with "
            "PKC_RECORD_SIGNATURES=1 and run `pkc build` on the file)")
    print(f"pykokkos: building {sig} from {os.path.basename(source)} for {backend} with pkc"
          + (f" (and {len(others)} predicted from this call)" if others else ""),
          file=sys.stderr, flush=True)
    if others:
        from ._loader import freshness, source_sha256
        _build_with(exe, source, backend, [sig] + list(others))
        so, keyf = spec_paths(source, backend, _kernel_of(sig), sig)
        if freshness(so, keyf, source_sha256(source)) == "fresh":
            return
    try:
        rc = call_pkc([exe, "build", source, "--backend", backend, "-q",
                       "--specialize", sig] + T.pkc_build_args(),
                      stdout=sys.stderr.fileno())
    except OSError as e:
        raise PkcBuildError(f"pykokkos: cannot run pkc ({exe}): {e}") from None
    if rc != 0:
        raise PkcBuildError(f"pykokkos: building the specialization {sig} of {source} "
                            f"failed (pkc exit {rc}); see the messages above")


def _unbuilt(source, backend, sigs):
    """The signatures among sigs whose specialization is not fresh on disk."""
    from ._loader import freshness, source_sha256
    sha = source_sha256(source)
    return [s for s in sigs
            if freshness(*spec_paths(source, backend, _kernel_of(s), s), sha) != "fresh"]


def _kernel_of(sig):
    """The kernel name of a signature ('fill' of 'fill[2](a: ...)')."""
    return sig.split("(", 1)[0].split("[", 1)[0]


def module_for(source, kernel, sig, hints=None):
    """The loaded module of one specialization (built first if missing or
    stale; hints: a function giving signatures predicted for the file's other
    launches, built in the same command when they are not built yet)."""
    from ._loader import load_module
    backend = RUNTIME.backend()
    key = (source, backend, sig)
    m = RUNTIME.spec_modules.get(key)
    if m is None:
        so, keyf = spec_paths(source, backend, kernel, sig)

        def build():
            others = [s for s in (hints() if hints else ()) if s != sig]
            _build(source, backend, sig, _unbuilt(source, backend, others) if others else ())
        m = load_module(RUNTIME, source, backend, paths=(so, keyf), build=build)
        RUNTIME.spec_modules[key] = m
    if _recording():
        record(source, sig)
    return m


def _recording():
    """PKC_RECORD_SIGNATURES=1: the run records the signatures it uses."""
    return os.environ.get("PKC_RECORD_SIGNATURES", "") not in ("", "0")


class Specializer:
    """run(policy, kw) of a workunit typed per call: picks (building on first
    use) the specialization for the call's signature and runs its plan."""

    def __init__(self, func, pattern, make_run, fallback=None, name=None, filter_kw=False):
        self.func, self.pattern, self.make_run = func, pattern, make_run
        self.fallback = fallback       # statically inferred plan, tried first
        self.runs = {}                 # signature -> run
        self.name = name or func.__name__
        self.filter_kw = filter_kw     # host lambdas: kw holds every captured value
        self.source = os.path.abspath(func.__code__.co_filename)
        self.plan = _NoPlan()

    def __call__(self, policy, kw):
        fb = self.fallback
        if fb is not None:
            try:
                if self.filter_kw:
                    return fb(policy, {n: kw[n] for n in fb.plan.names if n in kw})
                return fb(policy, kw)
            except TypeError:   # other argument types than inferred: specialize
                explicit = [nm for nm, p in zip(fb.plan.names, fb.plan.params)
                            if not p.flags & PARAM_FROM_GLOBAL]
                if not self.filter_kw and sorted(kw) != sorted(explicit):
                    raise
        if self.filter_kw:   # only values a kernel parameter can take
            kw = {n: v for n, v in kw.items() if _typeable(v)}
        sig = plain = signature(self.name, kw)
        rank = md_rank(policy)
        if rank and sig not in self.runs and _unbuilt(self.source, RUNTIME.backend(), [sig]):
            # an MDRange launch: the rank goes in the signature unless a build
            # without it is there already (recorded before, or from the file's
            # own MDRange launches of the kernel)
            sig = signature(self.name, kw, rank)
        run = self.runs.get(sig)
        if run is None:
            hints = None
            if not self.filter_kw:
                def hints():   # a guess: it never stops the launch
                    try:   # (this launch's own, without its rank, is not built beside)
                        return [s for s in first_signatures(self.func, kw)
                                if s != plain or sig == plain]
                    except Exception:
                        return []
            mod = module_for(self.source, self.name, sig, hints)
            run = self.runs[sig] = self.make_run(mod, sig)
        if self.filter_kw:
            kw = {n: kw[n] for n in run.plan.names if n in kw}
        return run(policy, kw)

    def all_runs(self):
        return ([self.fallback] if self.fallback else []) + list(self.runs.values())


class _NoPlan:
    last = ()
