"""pykokkos.lib.manipulate (PyKokkos' module path): pk.reshape, pk.ravel and
pk.expand_dims (pykokkos._array)."""
from .._array import expand_dims, ravel, reshape  # noqa: F401

__all__ = ["reshape", "ravel", "expand_dims"]
