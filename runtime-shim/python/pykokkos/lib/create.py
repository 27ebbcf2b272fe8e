"""pykokkos.lib.create (PyKokkos' module path): the View-creating functions,
the same objects as pk.zeros, pk.ones, ... (pykokkos._array)."""
from .._array import (arange, empty, empty_like, full, full_like, linspace, logspace,  # noqa: F401
                      ones, ones_like, zeros, zeros_like)

__all__ = ["zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like",
           "empty_like", "arange", "linspace", "logspace"]
