"""pykokkos.interface: PyKokkos' host API by module, as in PyKokkos
(`from pykokkos.interface import View, DataType, DataTypeClass, ...`).
Every name is the same object as in `pykokkos` itself."""
from .data_types import (DataType, DataTypeClass, int8, int16, int32, int64, uint8,
                         uint16, uint32, uint64, float32, float64, double, real)
from .data_types import int, float, bool  # noqa: A004
from .views import (View, ViewType, View1D, View2D, View3D, View4D, View5D, View6D,
                    View7D, View8D, ScratchView1D, ScratchView2D, ScratchView3D,
                    ViewTypeInfo, from_numpy, from_cupy, array, asarray, astype,
                    subview, deep_copy, resize)
from .execution_space import (ExecutionSpace, ExecutionSpaceInstance,
                              is_host_execution_space, DeviceExecutionSpace)
from .memory_space import MemorySpace
from .layout import Layout
from .decorators import (workunit, functor, function, workload, main, callback,
                         classtype, Trait)
from .execution_policy import (RangePolicy, MDRangePolicy, TeamPolicy, Iterate,
                               TeamThreadRange, ThreadVectorRange, TeamVectorRange,
                               TeamThreadMDRange, ThreadVectorMDRange,
                               TeamVectorMDRange, ExecutionPolicy)
from .hierarchical import AUTO, TeamMember, PerTeam, PerThread, single
from .parallel_dispatch import (parallel_for, parallel_reduce, parallel_scan, fence,
                                convert_arrays)
from .accumulator import Acc
from .._types import Sum, Prod, Max, Min, MaxLoc, MinLoc
from .._random import Random_XorShift64_Pool, Random_XorShift1024_Pool

__all__ = (["Acc", "Sum", "Prod", "Max", "Min", "MaxLoc", "MinLoc",
            "Random_XorShift64_Pool", "Random_XorShift1024_Pool", "ExecutionPolicy"]
           + data_types.__all__ + views.__all__ + execution_space.__all__
           + memory_space.__all__ + layout.__all__ + decorators.__all__
           + execution_policy.__all__ + hierarchical.__all__
           + parallel_dispatch.__all__)
