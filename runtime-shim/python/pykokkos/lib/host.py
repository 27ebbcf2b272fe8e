"""Host-side array functions of PyKokkos programs that numpy computes:
pk.unique, pk.hstack/vstack/concatenate, pk.argmax/argmin, pk.where,
pk.sort/argsort, pk.in1d/isin, pk.index, pk.col, pk.average,
pk.broadcast_view, and PyKokkos' spellings of the array library (pk.dot,
pk.np_matmul, pk.findMax, pk.add_num/mul_num/divide_num/power_num).

Operands are Views, numpy arrays or array-likes; a View is read through its
host mirror. Results are new Views holding numpy's values and dtype (a
scalar where numpy gives one); dtypes pk Views cannot hold raise TypeError."""
from .._errors import PkcArgumentError, PkcValueError
from .._view import View, numpy as _numpy
from . import _launch as L
from . import ufuncs as U


def _host(x):
    """x as a numpy array (a View's host mirror, no copy)."""
    return L.host_array(x) if isinstance(x, View) else _numpy().asarray(x)


def _view(a, what):
    """numpy result a as a new View (a numpy scalar stays a scalar)."""
    np = _numpy()
    if not isinstance(a, np.ndarray):
        return a
    from .._array import _wrap, _check_np_dtype
    _check_np_dtype(a, f"pk.{what}")
    return _wrap(np.array(a, order="C"))


def _arrays(arrays, more, what):
    """PyKokkos' hstack(a, b) or numpy's hstack((a, b)): the operands."""
    if more:
        return [arrays, *more]
    if isinstance(arrays, (View, _numpy().ndarray)):
        raise PkcArgumentError(f"pk.{what}: expected a sequence of arrays, got one array")
    return list(arrays)


def unique(x, return_counts=False, return_index=False, return_inverse=False):
    """pk.unique(x): the sorted distinct values of x (numpy.unique), a View;
    with return_* a tuple as numpy's."""
    r = _numpy().unique(_host(x), return_index=return_index,
                        return_inverse=return_inverse, return_counts=return_counts)
    if isinstance(r, tuple):
        return tuple(_view(a, "unique") for a in r)
    return _view(r, "unique")


def hstack(arrays, *more):
    """pk.hstack((a, b, ...)) or PyKokkos' pk.hstack(a, b): numpy.hstack."""
    return _view(_numpy().hstack([_host(a) for a in _arrays(arrays, more, "hstack")]),
                 "hstack")


def vstack(arrays, *more):
    """pk.vstack((a, b, ...)) or pk.vstack(a, b): numpy.vstack."""
    return _view(_numpy().vstack([_host(a) for a in _arrays(arrays, more, "vstack")]),
                 "vstack")


def concatenate(arrays, axis=0):
    """pk.concatenate((a, b, ...), axis=0): numpy.concatenate."""
    return _view(_numpy().concatenate([_host(a) for a in _arrays(arrays, (), "concatenate")],
                                      axis=axis), "concatenate")


@L.accepts(x=("view", "viewA"))
def argmax(x, axis=None):
    """pk.argmax(x, axis=None): numpy.argmax (an int64 scalar for axis=None,
    else an int64 View)."""
    return _view(_numpy().argmax(_host(x), axis=axis), "argmax")


@L.accepts(x=("view", "viewA"))
def argmin(x, axis=None):
    """pk.argmin(x, axis=None): numpy.argmin."""
    return _view(_numpy().argmin(_host(x), axis=axis), "argmin")


def where(condition, x=None, y=None):
    """pk.where(cond, x, y): numpy.where, a View; pk.where(cond): a tuple of
    int64 Views of the nonzero positions."""
    np = _numpy()
    if x is None and y is None:
        return tuple(_view(a, "where") for a in np.where(_host(condition)))
    if x is None or y is None:
        raise PkcValueError("pk.where: give both x and y, or neither")
    return _view(np.asarray(np.where(_host(condition), _host(x), _host(y))), "where")


@L.accepts(x=("view", "viewA"))
def sort(x, axis=-1):
    """pk.sort(x, axis=-1): numpy.sort, a new View (axis=None: flattened)."""
    return _view(_numpy().sort(_host(x), axis=axis), "sort")


@L.accepts(x=("view", "viewA"))
def argsort(x, axis=-1):
    """pk.argsort(x, axis=-1): numpy.argsort (stable), an int64 View."""
    return _view(_numpy().argsort(_host(x), axis=axis, kind="stable"), "argsort")


@L.accepts(a=("viewA", "element"), b=("viewB", "test_elements"))
def isin(a, b):
    """pk.isin(a, b): numpy.isin, a bool View of a's shape."""
    return _view(_numpy().isin(_host(a), _host(b)), "isin")


@L.accepts(a=("viewA",), b=("viewB",))
def in1d(a, b):
    """pk.in1d(a, b) (PyKokkos): for each element of a (flattened), whether
    it is in b; a bool View."""
    np = _numpy()
    return _view(np.isin(np.ravel(_host(a)), _host(b)), "in1d")


@L.accepts(a=("viewA",), idx=("viewB",))
def index(a, idx):
    """pk.index(a, idx) (PyKokkos): a[idx] for an integer array idx, a new
    View (numpy.take along the first axis)."""
    return _view(_numpy().take(_host(a), _host(idx), axis=0), "index")


@L.accepts(x=("view",))
def col(x, c):
    """pk.col(view, c) (PyKokkos): column c of a rank-2 view, a new View."""
    a = _host(x)
    if a.ndim != 2:
        raise PkcValueError(f"pk.col: expected a rank-2 view, got rank {a.ndim}")
    return _view(a[:, c], "col")


@L.accepts(x=("view", "viewA"))
def average(x, axis=None, weights=None):
    """pk.average(x, axis=None, weights=None): numpy.average."""
    w = None if weights is None else _host(weights)
    return _view(_numpy().average(_host(x), axis=axis, weights=w), "average")


def broadcast_view(val, view):
    """pk.broadcast_view(val, view) (PyKokkos): val (scalar or View)
    broadcast to view's shape, a new View of view's dtype."""
    np = _numpy()
    target = _host(view)
    a = np.broadcast_to(np.asarray(_host(val), dtype=target.dtype), target.shape)
    return _view(a, "broadcast_view")


@L.accepts(x1=("viewA",), x2=("viewB",))
def dot(x1, x2):
    """pk.dot(a, b): numpy.dot; ranks 1 and 2 run pk.matmul's kernel (1-D .
    1-D is a scalar), scalars multiply."""
    from ..linalg import matmul
    a, b = L.as_operand(x1), L.as_operand(x2)
    if a.ndim == 0 or b.ndim == 0:
        return U.multiply(x1, x2)
    if a.ndim <= 2 and b.ndim <= 2:
        return matmul(a, b)
    return _view(_numpy().dot(_host(a), _host(b)), "dot")


def np_matmul(viewA, viewB):
    """pk.np_matmul(viewA, viewB) (PyKokkos): numpy.matmul of rank-1/2
    operands, as pk.matmul; operands whose inner dimensions differ raise
    RuntimeError (and ValueError) with PyKokkos' text."""
    from ..linalg import matmul
    from ..linalg.l3_blas import CoreDimensionError
    sa, sb = tuple(getattr(viewA, "shape", ())), tuple(getattr(viewB, "shape", ()))
    if sa and sb and sa[-1] != sb[0]:
        raise CoreDimensionError(f"Matrix dimensions are not compatible for multiplication: "
                                 f"{viewA.shape} and {viewB.shape}")
    return matmul(viewA, viewB)


def findMax(view):  # noqa: N802 (PyKokkos' name)
    """pk.findMax(view) (PyKokkos): the largest element, as pk.find_max."""
    from .util import max as _max
    return _max(view)


def _num(name, npname):
    def f(view, num):
        return U.binary(npname, view, num, public=name)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"pk.{name}(view, num) (PyKokkos): pk.{npname}(view, num)."
    return f


add_num = _num("add_num", "add")
mul_num = _num("mul_num", "multiply")
divide_num = _num("divide_num", "true_divide")
power_num = _num("power_num", "power")

__all__ = ["unique", "hstack", "vstack", "concatenate", "argmax", "argmin", "where",
           "sort", "argsort", "isin", "in1d", "index", "col", "average",
           "broadcast_view", "dot", "np_matmul", "findMax", "add_num", "mul_num",
           "divide_num", "power_num"]
