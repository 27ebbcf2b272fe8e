"""pykokkos.lib.constants (PyKokkos' module path): e, pi, inf and nan, Python
floats as math's."""
import math

e = math.e
pi = math.pi
inf = math.inf
nan = math.nan

__all__ = ["e", "pi", "inf", "nan"]
