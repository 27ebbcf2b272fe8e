"""PyKokkos' pykokkos.interface.parallel_dispatch."""
from .._errors import PkcArgumentError
from .._dispatch import parallel_for, parallel_reduce, parallel_scan
from .._spaces import fence
from .. import _types as T

__all__ = ["parallel_for", "parallel_reduce", "parallel_scan", "fence", "convert_arrays"]


def convert_arrays(kwargs, workunit, space=None):
    """PyKokkos' helper: replaces, in place, every numpy array among a call's
    keyword arguments by a View over the same memory. A parameter annotated
    pk.ViewND[T] must get an array of dtype T (TypeError "expects a View with
    dtype T" otherwise, as PyKokkos); an unannotated one keeps the array's dtype.
    space: kept for PyKokkos code (the View lives where the backend runs)."""
    import numpy
    from .._view import View, from_numpy
    ann = getattr(workunit, "__annotations__", {}) or {}
    for name, value in list(kwargs.items()):
        if not isinstance(value, numpy.ndarray) or isinstance(value, View):
            continue
        want = ann.get(name)
        got = T.dtype_of_numpy(value.dtype)
        if want.__class__ is T._Annot and want.args:
            dt = T.as_dtype(want.args[0])
            if got is not dt:
                raise PkcArgumentError(f"{getattr(workunit, '__name__', 'kernel')}: argument "
                                       f"'{name}' expects a View with dtype {dt.name}, got a numpy "
                                       f"array of {value.dtype.name}")
        if got is None:
            raise PkcArgumentError(f"argument '{name}': numpy dtype {value.dtype.name} has no "
                                   "pk dtype (int8..uint64, float32, float64, bool)")
        kwargs[name] = from_numpy(value)
    return kwargs
