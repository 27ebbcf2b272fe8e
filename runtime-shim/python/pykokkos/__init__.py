"""pykokkos: the pkc runtime shim (pure Python over libpkcrt via ctypes).

Implements the host side of the PyKokkos dialect: Views, dtypes, spaces,
layouts, policies and parallel_for/_reduce/_scan, which run kernels that
`pkc build app.py` compiled into app.pk/app.<backend>.so (built on first use
if missing or stale and pkc is on PATH). numpy and ctypes are imported
lazily so that `import pykokkos` stays fast.
"""
import os as _os
import time as _time

from ._types import (DataType as _DataTypeCls, _DataTypeNamespace as DataType,
                     int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                     float32, float64, double, real, bool_,
                     ExecutionSpace, MemorySpace, Layout, Trait, ViewTypeInfo,
                     workunit, functor, function, workload, main, callback,
                     classtype, Acc, TeamMember, View1D, View2D, View3D, View4D,
                     View5D, View6D, View7D, View8D, ScratchView1D,
                     ScratchView2D, ScratchView3D, Sum, Prod, Max, Min, MaxLoc,
                     MinLoc)
from ._types import float  # noqa: A004  (pk.float is float32, as in PyKokkos)
from ._view import View, from_numpy
from ._view_api import ALL, subview, deep_copy, resize_view as resize
from ._policies import (RangePolicy, MDRangePolicy, TeamPolicy, AUTO, Iterate,
                        PerTeam, PerThread)
from ._random import Random_XorShift64_Pool, Random_XorShift1024_Pool
from ._dispatch import parallel_for, parallel_reduce, parallel_scan, fence
from . import _types, _loader, _dispatch

bool = bool_  # noqa: A001  (pk.bool as a View dtype)
for _n in _types.KERNEL_ONLY:
    globals()[_n] = _types.kernel_only(_n)
del _n

Serial, OpenMP, Cuda, HIP = (ExecutionSpace.Serial, ExecutionSpace.OpenMP,
                             ExecutionSpace.Cuda, ExecutionSpace.HIP)
Default = ExecutionSpace.Default
HostSpace, CudaSpace, CudaUVMSpace, HIPSpace = (
    MemorySpace.HostSpace, MemorySpace.CudaSpace, MemorySpace.CudaUVMSpace,
    MemorySpace.HIPSpace)
LayoutRight, LayoutLeft, LayoutDefault = (Layout.LayoutRight, Layout.LayoutLeft,
                                          Layout.LayoutDefault)
Atomic, RandomAccess, Restrict, Unmanaged = (Trait.Atomic, Trait.RandomAccess,
                                             Trait.Restrict, Trait.Unmanaged)

__version__ = "0.1.0"
_default_space = ExecutionSpace.OpenMP


def set_default_space(space):
    """Chooses the backend whose modules kernels run from (env PKC_BACKEND
    still wins). Changing it drops cached call plans."""
    global _default_space
    name = getattr(space, "name", space)
    backend = _types.BACKEND_OF_SPACE.get(name)
    if backend is None:
        raise ValueError(f"pykokkos: unknown execution space {space!r}")
    _default_space = space
    if _loader.RUNTIME.default_backend != backend:
        _loader.RUNTIME.default_backend = backend
        _dispatch.reset_plans()


def get_default_space():
    """The execution space set by set_default_space (OpenMP by default)."""
    return _default_space


def initialize(*args, **kwargs):
    """Kokkos is initialized when the first module loads; kept for PyKokkos code."""


def finalize(*args, **kwargs):
    """Kokkos is finalized at process exit; kept for PyKokkos code."""


def execute(space, instance):
    """Runs a @pk.workload instance's @pk.main (compiled to host C++ in the
    module built for its file), passing all its members; scalar members that
    main wrote are copied back onto the instance."""
    from ._workload import execute as _execute
    return _execute(space, instance)


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
    return int(_os.environ.get("PKC_NUM_THREADS", "0") or 0)
