"""Workloads: pk.execute(space, instance) runs a @pk.workload's @pk.main
through the module's PKC_PATTERN_MAIN kernel (entity = the class name),
passing every member the descriptor lists (Views, scalars, pools) by name
from the instance, copies scalar members main wrote back onto it, then calls
its @pk.callback methods in definition order (as PyKokkos' run_workload)."""
import os
import sys

from ._errors import PkcArgumentError, PkcKernelError
from . import _dispatch as D


def _main_function(cls):
    """The @pk.main function of cls (unwrapped), or None."""
    for c in cls.__mro__:
        for v in vars(c).values():
            if getattr(v, "_pk_main", None):
                return getattr(v, "__wrapped__", v)
    return None


def _source_of(cls, main):
    code = getattr(main, "__code__", None)
    if code is not None:
        return os.path.abspath(code.co_filename)
    mod = sys.modules.get(cls.__module__)
    f = getattr(mod, "__file__", None)
    if not f:
        raise PkcArgumentError(f"pk.execute: cannot find the source file of workload "
                               f"'{cls.__name__}'")
    return os.path.abspath(f)


def _make_main_plan(cls):
    from . import _abi
    main = _main_function(cls)
    if main is None and not getattr(cls, "_pk_workload", None):
        raise PkcArgumentError(f"pk.execute: '{cls.__name__}' is not a @pk.workload "
                               "(it has no @pk.main method)")
    mod = D.RUNTIME.module_for(_source_of(cls, main))
    entity = cls.__name__
    k = None
    if main is not None:
        k = mod.kernel(entity, main.__name__)
    if k is None:
        d = mod.desc
        for i in range(d.nkernels):
            kd = d.kernels[i]
            if kd.pattern == _abi.PATTERN_MAIN and (kd.entity or b"").decode() == entity:
                k = kd
                break
    why, diag = mod.omitted.get(entity, (None, None))
    if k is None and why == "rejected":
        raise PkcKernelError(f"pk.execute: workload '{entity}' was not built because pkc "
                             f"rejected it: {diag}")
    if k is None or k.pattern != _abi.PATTERN_MAIN:
        raise PkcKernelError(f"pk.execute: {mod.so} has no @pk.main for workload "
                             f"'{entity}' (decorate the class with @pk.workload and "
                             f"exactly one method with @pk.main)")
    kname = f"{entity}.{k.name.decode()}"
    plan = D.Plan(kname, k, mod)
    import sys
    plan.glob = getattr(sys.modules.get(cls.__module__), "__dict__", {})  # globals main reads
    from ._constants import stale   # module constants another module rebound: refused
    stale(kname, [getattr(v, "__wrapped__", v) for v in vars(cls).values() if callable(v)],
          plan.glob, D._global_params(plan))
    run = D._gen_run(plan, True)
    D._plans[D.MAIN][cls] = run
    return run


def _callbacks(cls):
    """Names of cls's @pk.callback methods, base classes first, each in
    definition order (cached on the class)."""
    got = cls.__dict__.get("_pk_callback_names")
    if got is not None:
        return got
    names = []
    for c in reversed(cls.__mro__):
        for n, v in vars(c).items():
            if getattr(v, "_pk_callback", None) and n not in names:
                names.append(n)
    try:
        setattr(cls, "_pk_callback_names", tuple(names))
    except (AttributeError, TypeError):
        pass
    return tuple(names)


def execute(space, instance, callbacks=True):
    """Runs instance's @pk.main (compiled to host C++), copies the scalar
    members it wrote back onto instance, then (callbacks=True, PyKokkos'
    pk.execute) calls each @pk.callback method with no arguments, in
    definition order. space (an execution space or instance): pk.Serial
    while OpenMP runs (or the reverse) runs the workload from that backend's
    module, as PyKokkos runs it in that space; other spaces run on the
    backend (PKC_BACKEND / pk.set_default_space)."""
    from ._fusion import flush
    flush()   # launches held back for fusion run first
    b = D.other_host_backend(space) if D.RUNTIME.policy_backend is None else None
    if b is not None:
        with D.InBackend(b):      # pk.execute(pk.ExecutionSpace.Serial, w) under OpenMP
            _run_main(instance)
    else:
        _run_main(instance)
    if callbacks:
        for n in _callbacks(type(instance)):
            getattr(instance, n)()
    return None


def _run_main(instance):
    cls = type(instance)
    run = D._plans[D.MAIN].get(cls) or _make_main_plan(cls)
    kw = getattr(instance, "__dict__", None)
    if kw is not None:
        run(None, kw)
        return None
    names = run.plan.names
    kw = {n: getattr(instance, n) for n in names if hasattr(instance, n)}
    run(None, kw)
    for n in names:
        if n in kw:
            setattr(instance, n, kw[n])
    return None
