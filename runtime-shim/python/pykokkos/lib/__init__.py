"""The array library (PyKokkos' pykokkos.lib): element-wise functions
(pykokkos.lib.ufuncs), reductions and utilities (pykokkos.lib.util) and
matmul (pykokkos.linalg) over Views, run as kernels that pkc builds from
pykokkos/lib/_kernels_*.py. `import pykokkos` reads NAMES only; the
functions load on first use."""
from ._ops import BINARY, COMPARE, UNARY, PREDICATE

# Every public name, as `pk.<name>` and `pykokkos.lib.<name>` (kept in step
# with ufuncs.BINARY_NAMES / UNARY_NAMES and util.__all__ by tests/api).
NAMES = tuple(sorted(set(BINARY) | set(COMPARE) | set(UNARY) | set(PREDICATE) | {
    "divide", "mod", "pow", "float_power", "atan2", "bitwise_left_shift",
    "bitwise_right_shift", "abs", "fabs", "bitwise_not", "bitwise_invert", "fix",
    "asin", "acos", "atan", "asinh", "acosh", "atanh", "radians", "degrees",
    "round", "around",
    "sum", "prod", "max", "min", "amax", "amin", "find_max", "find_min",
    "count_nonzero", "all", "any", "mean", "var", "std", "cumsum",
    "searchsorted", "copyto", "clip", "isclose", "allclose", "transpose",
    "matmul", "dgemm",
    # pykokkos.lib.host (kept in step with host.__all__ by tests/api)
    "unique", "hstack", "vstack", "concatenate", "argmax", "argmin", "where",
    "sort", "argsort", "isin", "in1d", "index", "col", "average",
    "broadcast_view", "dot", "np_matmul", "findMax", "add_num", "mul_num",
    "divide_num", "power_num"}))

__all__ = list(NAMES)


def __getattr__(name):
    """Loads the array library's functions on first use."""
    if name in NAMES:
        from . import ufuncs, util, host
        from .. import linalg
        for mod in (ufuncs, util, linalg, host):
            if hasattr(mod, name):
                v = getattr(mod, name)
                globals()[name] = v
                return v
    raise AttributeError(f"module 'pykokkos.lib' has no attribute {name!r}")
