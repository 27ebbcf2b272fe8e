"""PyKokkos' pykokkos.interface.layout."""
from .._types import Layout

__all__ = ["Layout"]
