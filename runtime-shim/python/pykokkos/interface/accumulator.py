"""PyKokkos' pykokkos.interface.accumulator."""
from .._types import Acc

__all__ = ["Acc"]
