"""PyKokkos' pykokkos.interface.execution_policy: the policies (the nested
ranges are kernel-only names: pkc compiles them)."""
from .._policies import RangePolicy, MDRangePolicy, TeamPolicy, Iterate

ExecutionPolicy = (RangePolicy, MDRangePolicy, TeamPolicy)
from .. import (TeamThreadRange, ThreadVectorRange, TeamVectorRange,  # noqa: E402
                TeamThreadMDRange, ThreadVectorMDRange, TeamVectorMDRange)

__all__ = ["RangePolicy", "MDRangePolicy", "TeamPolicy", "Iterate", "TeamThreadRange",
           "ThreadVectorRange", "TeamVectorRange", "TeamThreadMDRange",
           "ThreadVectorMDRange", "TeamVectorMDRange"]
