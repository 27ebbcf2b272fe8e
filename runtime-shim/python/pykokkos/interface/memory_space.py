"""PyKokkos' pykokkos.interface.memory_space."""
from .._types import MemorySpace

__all__ = ["MemorySpace"]
