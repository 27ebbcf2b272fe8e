"""pykokkos.lib.info (PyKokkos' module path): pk.iinfo and pk.finfo, a
dtype's limits (pykokkos._array)."""
from .._array import finfo, iinfo  # noqa: F401

__all__ = ["iinfo", "finfo"]
