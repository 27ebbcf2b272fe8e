"""pykokkos: the pkc runtime shim (pure Python over libpkcrt via ctypes).

Implements the host side of the PyKokkos dialect and PyKokkos' host API:
Views, dtypes, spaces, layouts, policies and parallel_for/_reduce/_scan,
which run kernels that `pkc build app.py` compiled into app.pk/app.<backend>.so
(built on first use if missing or stale and pkc is on PATH); array creation
and interop (pk.array, pk.zeros, ...); pk.execute with callbacks; devices
and execution space instances. The module layout follows PyKokkos
(`pykokkos.interface`, `pykokkos.interface.data_types`). numpy and ctypes
are imported lazily so that `import pykokkos` stays fast.
"""
import builtins as _builtins
import os as _os
import time as _time

from ._types import (_DataTypeNamespace as DataType, DataTypeClass,
                     int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                     float32, float64, double, real, bool_,
                     ExecutionSpace, MemorySpace, Layout, Trait, ViewTypeInfo,
                     workunit, functor, function, workload, main, callback,
                     classtype, Acc, TeamMember, View1D, View2D, View3D, View4D,
                     View5D, View6D, View7D, View8D, ScratchView1D,
                     ScratchView2D, ScratchView3D, Sum, Prod, Max, Min, MaxLoc,
                     MinLoc, BAnd, BOr, LAnd, LOr, MinMax, MinMaxLoc, Reducer)
from ._view import View, from_numpy
from ._view_api import (ALL, subview, deep_copy, resize_view as resize, create_mirror,
                        create_mirror_view)
from ._policies import (RangePolicy, MDRangePolicy, TeamPolicy, AUTO, Iterate,
                        PerTeam, PerThread, Rank)
from ._random import (Random_XorShift64_Pool, Random_XorShift1024_Pool, Random_XorShift64,
                      Random_XorShift1024)
from ._dispatch import parallel_for, parallel_reduce, parallel_scan, flush
from ._graph import Graph
from ._spaces import (ExecutionSpaceInstance, set_device_id, get_device_id,
                      fence, is_host_execution_space, DeviceExecutionSpace)
from math import e, pi, inf, nan
from ._errors import (PkcError, PkcArgumentError, PkcValueError, PkcIndexError,
                      PkcZeroDivisionError, PkcOverflowError, PkcRuntimeError,
                      PkcBuildError, PkcKernelError)
from . import _types, _loader, _dispatch

for _n in _types.KERNEL_ONLY:
    globals()[_n] = _types.kernel_only(_n)
del _n

Serial, OpenMP, Cuda, HIP = (ExecutionSpace.Serial, ExecutionSpace.OpenMP,
                             ExecutionSpace.Cuda, ExecutionSpace.HIP)
Default = ExecutionSpace.Default
HostSpace, CudaSpace, CudaUVMSpace, HIPSpace = (
    MemorySpace.HostSpace, MemorySpace.CudaSpace, MemorySpace.CudaUVMSpace,
    MemorySpace.HIPSpace)
AoS, SoA = Layout.AoS, Layout.SoA   # layouts of Views of classtypes (_classview.py)
from ._classview import to_layout  # noqa: E402
LayoutRight, LayoutLeft, LayoutDefault = (Layout.LayoutRight, Layout.LayoutLeft,
                                          Layout.LayoutDefault)
Atomic, RandomAccess, Restrict, Unmanaged = (Trait.Atomic, Trait.RandomAccess,
                                             Trait.Restrict, Trait.Unmanaged)

from ._version import __version__  # noqa: E402  (one place: pykokkos/_version.py)
_default_space = ExecutionSpace.OpenMP


def set_default_space(space):
    """Chooses the backend whose modules kernels run from (env PKC_BACKEND
    still wins). Changing it drops cached call plans."""
    global _default_space
    space = getattr(space, "space", space)   # an ExecutionSpaceInstance
    name = getattr(space, "name", space)
    backend = _types.BACKEND_OF_SPACE.get(name)
    if backend is None:
        raise PkcValueError(f"pykokkos: unknown execution space {space!r}")
    _default_space = space
    if _loader.RUNTIME.default_backend != backend:
        _loader.RUNTIME.default_backend = backend
        _dispatch.reset_plans()


def get_default_space():
    """The execution space kernels run in: set_default_space's (OpenMP by
    default), or PKC_BACKEND's where that names another backend (it wins for
    the launches too)."""
    env = _os.environ.get("PKC_BACKEND")
    if env and _types.BACKEND_OF_SPACE.get(getattr(_default_space, "name", None)) != env:
        space = {"serial": "Serial", "openmp": "OpenMP", "cuda": "Cuda", "hip": "HIP"}.get(env)
        if space is not None:
            return ExecutionSpace[space]
    return _default_space


def get_default_precision():
    """pk.real: the floating-point dtype kernels were built with (PKC_REAL)."""
    return real


def set_default_precision(dtype):
    """PyKokkos: pk.real and the dtype of Views made without one become dtype
    (pk.float32 or pk.float64). pkc builds `pk.real` kernels ahead of time:
    modules loaded before the call keep the precision they were built with
    (a launch with the other precision raises TypeError naming the argument);
    modules built after it use dtype, as PKC_REAL=<dtype> would."""
    global real
    d = _types.as_dtype(dtype)
    if d not in (float32, float64):
        raise PkcValueError(f"pk.set_default_precision: pk.float32 or pk.float64, got {dtype!r}")
    _os.environ["PKC_REAL"] = d.name
    real = _types.real = d


_uvm = [False]


def enable_uvm():
    """PyKokkos: Views in unified memory on CUDA/HIP. pkc's Views already keep
    a host mirror that host code reads and writes through (pykokkos/_view.py:
    copies, not managed memory), so this only records the request."""
    _uvm[0] = True


def disable_uvm():
    """PyKokkos: undoes enable_uvm()."""
    _uvm[0] = False


def is_uvm_enabled():
    """Whether enable_uvm() was called (and not disable_uvm())."""
    return _uvm[0]


def get_default_memory_space(space=None):
    """PyKokkos: the memory space Views of an execution space live in:
    HostSpace for Serial/OpenMP, CudaSpace (CudaUVMSpace after enable_uvm())
    for Cuda, HIPSpace for HIP; space defaults to get_default_space()."""
    space = getattr(space, "space", space) if space is not None else get_default_space()
    name = getattr(space, "name", space)
    if name == "Cuda":
        return MemorySpace.CudaUVMSpace if _uvm[0] else MemorySpace.CudaSpace
    if name == "HIP":
        return MemorySpace.HIPSpace
    if _types.BACKEND_OF_SPACE.get(name) is None:
        raise PkcValueError(f"pykokkos: unknown execution space {space!r}")
    return MemorySpace.HostSpace


def initialize(*args, **kwargs):
    """Kokkos is initialized when the first module loads; kept for PyKokkos code."""


def finalize(*args, **kwargs):
    """Kokkos is finalized at process exit; kept for PyKokkos code."""


def execute(space, workload):
    """pk.execute(space, workload): runs a @pk.workload instance's @pk.main
    (compiled to host C++ in the module built for its file), passing all its
    members; copies the scalar members main wrote back onto the instance,
    then calls its @pk.callback methods (definition order), as PyKokkos."""
    from ._workload import execute as _execute
    return _execute(space, workload)


def printf(fmt, *args):
    """Host-side pk.printf: C-style formatting, no newline added."""
    print(fmt % args if args else fmt, end="")


class Timer:
    """Wall-clock timer (Kokkos::Timer): seconds() since creation/reset()."""

    __slots__ = ("_t0",)

    def __init__(self):
        self._t0 = _time.perf_counter()

    def seconds(self):
        return _time.perf_counter() - self._t0

    def reset(self):
        self._t0 = _time.perf_counter()


def num_threads():
    """Threads requested for Kokkos through env PKC_NUM_THREADS (0: default)."""
    return _builtins.int(_os.environ.get("PKC_NUM_THREADS", "0") or 0)


# Names whose modules load on first use (keeps `import pykokkos` fast).
_LAZY = dict.fromkeys(("array", "asarray", "from_cupy", "zeros", "ones", "full",
                       "empty", "zeros_like", "ones_like", "full_like", "empty_like",
                       "arange", "linspace", "logspace", "reshape", "ravel",
                       "expand_dims", "astype", "result_type", "iinfo", "finfo"),
                      "._array")
_LAZY.update(dict.fromkeys(("BinSort", "BinOp1D", "BinOp3D"), "._binsort"))
# The array library (pykokkos.lib, pykokkos.linalg): its names are listed in
# pykokkos.lib.NAMES (ufuncs, reductions, utilities, matmul).
from .lib import NAMES as _LIB_NAMES
_LAZY.update(dict.fromkeys(_LIB_NAMES, ".lib"))


def __getattr__(name):
    """Loads lazily: the array functions (pykokkos._array) and the
    `pykokkos.interface` subpackage."""
    mod = _LAZY.get(name)
    if mod is not None:
        import importlib
        v = globals()[name] = getattr(importlib.import_module(mod, __name__), name)
        return v
    if name in ("interface", "lib", "linalg"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'pykokkos' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {"interface", "lib", "linalg"})


# Element types named like Python's builtins (PyKokkos: pk.int is int32,
# pk.float is float32, pk.bool is bool); bound last so that the code above
# keeps the builtins, and left out of __all__ so that `from pykokkos import *`
# does not shadow Python's int, float and bool.
int = int32  # noqa: A001
float = float32  # noqa: A001
bool = bool_  # noqa: A001

__all__ = [
    # element types
    "DataType", "DataTypeClass", "int8", "int16", "int32", "int64", "uint8",
    "uint16", "uint32", "uint64", "float32", "float64", "double", "real",
    "result_type", "iinfo", "finfo",
    # spaces, layouts, traits, devices
    "ExecutionSpace", "ExecutionSpaceInstance", "MemorySpace", "Layout", "Trait",
    "Serial", "OpenMP", "Cuda", "HIP", "Default", "HostSpace", "CudaSpace",
    "CudaUVMSpace", "HIPSpace", "LayoutRight", "LayoutLeft", "LayoutDefault", "AoS", "SoA",
    "to_layout",
    "Atomic", "RandomAccess", "Restrict", "Unmanaged", "ViewTypeInfo",
    "set_default_space", "get_default_space", "get_default_precision",
    "set_default_precision", "enable_uvm", "disable_uvm", "is_uvm_enabled",
    "get_default_memory_space",
    "set_device_id", "get_device_id", "is_host_execution_space", "DeviceExecutionSpace",
    "initialize", "finalize",
    # decorators and annotations
    "workunit", "functor", "function", "workload", "main", "callback", "classtype",
    "Acc", "TeamMember", "View1D", "View2D", "View3D", "View4D", "View5D", "View6D",
    "View7D", "View8D", "ScratchView1D", "ScratchView2D", "ScratchView3D",
    "Sum", "Prod", "Max", "Min", "MaxLoc", "MinLoc", "BAnd", "BOr", "LAnd", "LOr",
    "MinMax", "MinMaxLoc", "Reducer",
    # Views and arrays
    "View", "from_numpy", "from_cupy", "array", "asarray", "zeros", "ones", "full",
    "empty", "zeros_like", "ones_like", "full_like", "empty_like", "arange",
    "linspace", "logspace", "reshape", "ravel", "expand_dims", "astype",
    "ALL", "subview", "deep_copy", "resize", "create_mirror", "create_mirror_view", "e", "pi", "inf", "nan",
    # policies and dispatch
    "RangePolicy", "MDRangePolicy", "TeamPolicy", "AUTO", "Iterate", "PerTeam",
    "PerThread", "Rank", "parallel_for", "parallel_reduce", "parallel_scan", "fence", "flush",
    "execute", "printf", "Timer", "num_threads", "Graph",
    "Random_XorShift64_Pool", "Random_XorShift1024_Pool", "Random_XorShift64",
    "Random_XorShift1024",
    "BinSort", "BinOp1D", "BinOp3D",
    # errors (pykokkos._errors)
    "PkcError", "PkcArgumentError", "PkcValueError", "PkcIndexError",
    "PkcZeroDivisionError", "PkcOverflowError", "PkcRuntimeError", "PkcBuildError",
    "PkcKernelError",
    # kernel-only names (_types.KERNEL_ONLY)
    "TeamThreadRange", "ThreadVectorRange", "TeamVectorRange", "TeamThreadMDRange",
    "ThreadVectorMDRange", "TeamVectorMDRange", "single", "atomic_add",
    "atomic_sub", "atomic_increment", "atomic_decrement", "atomic_compare_exchange",
    "atomic_fetch_add", "atomic_fetch_sub", "atomic_fetch_mul", "atomic_fetch_div",
    "atomic_fetch_max", "atomic_fetch_min", "atomic_fetch_mod", "atomic_fetch_and",
    "atomic_fetch_or", "atomic_fetch_xor", "atomic_fetch_lshift",
    "atomic_fetch_rshift", "lower_bound", "upper_bound", "atomic_mul", "atomic_div",
    "atomic_max", "atomic_min", "atomic_mod", "atomic_and", "atomic_or", "atomic_xor",
    "atomic_lshift", "atomic_rshift",
    # the array library (pykokkos.lib.NAMES)
    "abs", "absolute", "acos", "acosh", "add", "add_num", "all", "allclose", "amax",
    "amin", "any", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2",
    "arctanh", "argmax", "argmin", "argsort", "around", "asin", "asinh", "atan",
    "atan2", "atanh", "average", "bitwise_and", "bitwise_invert",
    "bitwise_left_shift", "bitwise_not", "bitwise_or", "bitwise_right_shift",
    "bitwise_xor", "broadcast_view", "cbrt", "ceil", "clip", "col", "concatenate",
    "copysign", "copyto", "cos", "cosh", "count_nonzero", "cumsum", "deg2rad",
    "degrees", "dgemm", "divide", "divide_num", "dot", "equal", "exp", "exp2",
    "expm1", "fabs", "findMax", "find_max", "find_min", "fix", "float_power",
    "floor", "floor_divide", "fmax", "fmin", "fmod", "greater", "greater_equal",
    "hstack", "hypot", "in1d", "index", "invert", "isclose", "isfinite", "isin",
    "isinf", "isnan", "left_shift", "less", "less_equal", "log", "log10", "log1p",
    "log2", "logaddexp", "logaddexp2", "logical_and", "logical_not", "logical_or",
    "logical_xor", "matmul", "max", "maximum", "mean", "min", "minimum", "mod",
    "mul_num", "multiply", "negative", "not_equal", "np_matmul", "positive", "pow",
    "power", "power_num", "prod", "rad2deg", "radians", "reciprocal", "remainder",
    "right_shift", "rint", "round", "searchsorted", "sign", "signbit", "sin",
    "sinh", "sort", "sqrt", "square", "std", "subtract", "sum", "tan", "tanh",
    "transpose", "true_divide", "trunc", "unique", "var", "vstack", "where",
]
