"""PyKokkos' pykokkos.interface.parallel_dispatch."""
from .._dispatch import parallel_for, parallel_reduce, parallel_scan
from .._spaces import fence

__all__ = ["parallel_for", "parallel_reduce", "parallel_scan", "fence"]
