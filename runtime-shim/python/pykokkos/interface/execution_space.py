"""PyKokkos' pykokkos.interface.execution_space."""
from .._types import ExecutionSpace
from .._spaces import ExecutionSpaceInstance, is_host_execution_space, DeviceExecutionSpace

__all__ = ["ExecutionSpace", "ExecutionSpaceInstance", "is_host_execution_space",
           "DeviceExecutionSpace"]
