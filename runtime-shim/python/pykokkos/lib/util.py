"""Reductions and utilities of the array library (PyKokkos' pykokkos.lib.util):
pk.sum/prod/max/min/find_max/find_min/mean/var/std/all/any/count_nonzero
(axis=None or an axis), pk.cumsum, pk.searchsorted, pk.copyto, pk.clip,
pk.isclose/allclose, pk.transpose, over Views, numpy arrays and array-likes.

Dtypes follow numpy: sum/prod/cumsum of small signed integers and bool give
int64, of unsigned integers uint64, of floats their own type; max/min keep
the dtype; mean/var/std give float64 for integers. Full reductions return a
numpy scalar, axis reductions a new View. Reducing an empty array to a
max/min raises ValueError, as numpy. Full reductions run as per-chunk
partial results in a kernel (reduce_<dtype>), combined on the host."""
import builtins as _builtins

from .._errors import PkcArgumentError, PkcValueError
from .. import _types as T
from .._view import View, numpy as _numpy
from . import _ops as O
from . import _launch as L
from . import ufuncs as U

_BIG = 1 << 62     # "no bound" for the reduce kernels' position check
_VIEW = ("view", "viewA")   # PyKokkos' keyword spellings of the operand


def _with_out(f):
    """Decorator: reduction f also takes numpy's out= (a View or numpy array
    of the result's shape; the result is stored there as pk.copyto does,
    and out returned)."""
    import functools

    @functools.wraps(f)
    def g(*args, out=None, **kw):
        r = f(*args, **kw)
        if out is None:
            return r
        np = _numpy()
        if tuple(np.shape(out)) != tuple(np.shape(r)):
            raise PkcValueError(f"pk.{f.__name__}: out has shape {tuple(np.shape(out))}, "
                                f"the result has shape {tuple(np.shape(r))}")
        copyto(out, r)
        return out
    return g


def _acc_dtype(dt):
    return getattr(T, O.ACCUMULATOR.get(L.KIND[dt.name], dt.name))


def _axis_of(axis, ndim, name):
    if axis is None:
        return None
    axes = axis if isinstance(axis, tuple) else (axis,)
    norm = []
    for ax in axes:
        if not hasattr(ax, "__index__") or not -ndim <= ax.__index__() < ndim:
            raise PkcValueError(f"pk.{name}: axis {axis} is out of bounds for an "
                                f"array of rank {ndim}")
        norm.append(ax.__index__() % ndim)
    if sorted(set(norm)) == list(range(ndim)):
        return None
    if len(norm) != 1:
        raise NotImplementedError(f"pk.{name}: reduce over one axis or all of them")
    return norm[0]


def _launch_reduce(op, dt, flat, outer, inner, k, n, count):
    """out[o] for o < count: op over flat[o*outer + j*inner], j < k, < n."""
    from .._dispatch import parallel_for
    part = L.new_view((count,), _acc_dtype(dt))
    parallel_for(count, L.kernel("_kernels_reduce", "reduce", dt.name), op=op, k=k,
                 a=flat.data, a_outer=outer, a_inner=inner, n=n, out=part)
    return part


def _combine(op, part):
    np = _numpy()
    h = L.host_array(part)
    if op in (O.REDUCE["sum"], O.REDUCE["count_nonzero"]):
        return h.sum(dtype=h.dtype)
    if op == O.REDUCE["prod"]:
        return h.prod(dtype=h.dtype)
    return np.max(h) if op == O.REDUCE["max"] else np.min(h)


def _reduce_all(op, a, dt):
    """Reduces every element of operand a (size > 0)."""
    np = _numpy()
    if L.on_gpu():
        L.load("_kernels_reduce")
        a = L.device_operand(a)
    h = a._a if isinstance(a, View) else a
    n = h.size
    if h.flags.c_contiguous or h.flags.f_contiguous:
        flat = L.flatten(a)
        if L.on_gpu():     # interleaved chunks: neighbouring threads, neighbouring elements
            m = _builtins.min(n, 8192)
            k = -(-n // m)
            return _combine(op, _launch_reduce(op, dt, flat, 1, m, k, n, m))
        k = -(-n // _builtins.min(n, 1024))
        m = -(-n // k)
        return _combine(op, _launch_reduce(op, dt, flat, k, 1, k, n, m))
    if h.ndim != 2:   # a strided 1-D slice (v[::2], M[:, j]) or a 3-D one: a copy
        return _reduce_all(op, np.ascontiguousarray(h), dt)
    rows = _reduce_axis(op, a, dt, h.ndim - 1)
    return _combine(op, rows)


def _reduce_axis(op, a, dt, axis):
    """Reduces operand a (rank >= 1, size > 0) over axis: a View of the
    accumulator dtype and a's shape without that axis."""
    np = _numpy()
    if L.on_gpu():
        L.load("_kernels_reduce")
        a = L.device_operand(a)
    shape = tuple(a.shape)
    if len(shape) > 2:
        h = np.ascontiguousarray(np.moveaxis(L.host_array(a), axis, -1))
        rest = h.shape[:-1]
        part = _reduce_axis(op, L.device_operand(h.reshape(-1, h.shape[-1])), dt, 1)
        return View(rest, part._dt, array=L.host_array(part).reshape(rest))
    flat = L.flatten(a)
    strides = flat.strides if len(flat.strides) == len(shape) else (1,) * len(shape)
    if len(shape) == 1:
        return _reduce_1d(op, a, dt)
    other = 1 - axis
    return _launch_reduce(op, dt, flat, strides[other], strides[axis], shape[axis],
                          _BIG, shape[other])


def _reduce_1d(op, a, dt):
    part = View((1,), _acc_dtype(dt))
    L.host_array(part, True)[0] = _reduce_all(op, a, dt)
    return part


def _reduce(name, op, x, axis=None, keepdims=False, dtype_out=None):
    """Reduction `op` of x (see the module docstring); dtype_out: 'acc' for
    the accumulator dtype, 'same' for x's dtype."""
    np = _numpy()
    a = L.as_operand(x)
    dt = L.pk_dtype(L.np_dtype(a))
    if dt.name == "bool" and op in (O.REDUCE["max"], O.REDUCE["min"]):
        a, dt = L.converted(a, T.uint8), T.uint8
        res_dt = np.dtype(bool)
    else:
        res_dt = (_acc_dtype(dt).np_dtype if dtype_out == "acc" else
                  np.dtype(np.int64) if dtype_out == "count" else L.np_dtype(a))
    ax = _axis_of(axis, a.ndim, name)
    shape = tuple(a.shape)
    extrema = op in (O.REDUCE["max"], O.REDUCE["min"])
    if ax is None:
        if a.size == 0:
            if extrema:
                raise PkcValueError(f"pk.{name}: zero-size array to a reduction "
                                    "operation that has no identity")
            r = res_dt.type(1 if op == O.REDUCE["prod"] else 0)
        else:
            r = np.asarray(_reduce_all(op, a, dt)).astype(res_dt)[()]
        if keepdims:
            return View((1,) * len(shape), T.dtype_of_numpy(res_dt),
                        array=np.full((1,) * len(shape), r, dtype=res_dt))
        return r
    out_shape = shape[:ax] + shape[ax + 1:]
    if a.size == 0:
        if extrema and shape[ax] == 0:
            raise PkcValueError(f"pk.{name}: zero-size array to a reduction "
                                "operation that has no identity")
        h = np.full(out_shape, 1 if op == O.REDUCE["prod"] else 0, dtype=res_dt)
    else:
        part = _reduce_axis(op, a, dt, ax)
        h = L.host_array(part)
        if h.dtype != res_dt:
            h = h.astype(res_dt)
    if len(out_shape) == 0:
        return h.reshape(())[()]
    if keepdims:
        h = np.expand_dims(h, ax)
    return View(h.shape, T.dtype_of_numpy(res_dt), array=np.ascontiguousarray(h))


@L.accepts(x=_VIEW)
@_with_out
def sum(x, axis=None, keepdims=False):  # noqa: A001
    """pk.sum(x, axis=None): numpy.sum (accumulator dtype as numpy)."""
    return _reduce("sum", O.REDUCE["sum"], x, axis, keepdims, "acc")


@L.accepts(x=_VIEW)
@_with_out
def prod(x, axis=None, keepdims=False):
    """pk.prod(x, axis=None): numpy.prod."""
    return _reduce("prod", O.REDUCE["prod"], x, axis, keepdims, "acc")


@L.accepts(x=_VIEW)
@_with_out
def max(x, axis=None, keepdims=False):  # noqa: A001
    """pk.max(x, axis=None): numpy.max (NaN wins, as numpy)."""
    return _reduce("max", O.REDUCE["max"], x, axis, keepdims, "same")


@L.accepts(x=_VIEW)
@_with_out
def min(x, axis=None, keepdims=False):  # noqa: A001
    """pk.min(x, axis=None): numpy.min (NaN wins, as numpy)."""
    return _reduce("min", O.REDUCE["min"], x, axis, keepdims, "same")


amax, amin = max, min


@L.accepts(x=_VIEW)
def find_max(x, axis=None):
    """pk.find_max(view): the largest element (PyKokkos; numpy.max)."""
    return max(x, axis)


@L.accepts(x=_VIEW)
def find_min(x, axis=None):
    """pk.find_min(view): the smallest element (numpy.min)."""
    return min(x, axis)


@L.accepts(x=_VIEW)
def count_nonzero(x, axis=None, keepdims=False):
    """pk.count_nonzero(x, axis=None): numpy.count_nonzero (int64)."""
    return _reduce("count_nonzero", O.REDUCE["count_nonzero"], x, axis, keepdims, "count")


@L.accepts(x=_VIEW)
@_with_out
def all(x, axis=None, keepdims=False):  # noqa: A001
    """pk.all(x, axis=None): True where every element is nonzero (numpy.all)."""
    a = L.as_operand(x)
    ax = _axis_of(axis, a.ndim, "all")
    c = count_nonzero(a, axis, keepdims)
    n = a.size if ax is None else a.shape[ax]
    return U.equal(c, n) if isinstance(c, View) else _numpy().bool_(c == n)


@L.accepts(x=_VIEW)
@_with_out
def any(x, axis=None, keepdims=False):  # noqa: A001
    """pk.any(x, axis=None): True where some element is nonzero (numpy.any)."""
    c = count_nonzero(x, axis, keepdims)
    return U.greater(c, 0) if isinstance(c, View) else _numpy().bool_(c > 0)


@L.accepts(x=_VIEW)
@_with_out
def mean(x, axis=None, keepdims=False):
    """pk.mean(x, axis=None): numpy.mean (float64 for integer and bool input)."""
    np = _numpy()
    a = L.as_operand(x)
    ax = _axis_of(axis, a.ndim, "mean")
    n = a.size if ax is None else a.shape[ax]
    rdt = np.mean(np.ones(1, L.np_dtype(a))).dtype
    s = sum(a, axis, keepdims)
    if isinstance(s, View):
        return U.true_divide(s, n)
    with np.errstate(all="ignore"):
        return rdt.type(rdt.type(s) / rdt.type(n))


@L.accepts(x=_VIEW)
@_with_out
def var(x, axis=None, ddof=0, keepdims=False):
    """pk.var(x, axis=None, ddof=0): numpy.var, as mean((x - mean(x))**2)
    over n - ddof."""
    np = _numpy()
    a = L.as_operand(x)
    ax = _axis_of(axis, a.ndim, "var")
    n = a.size if ax is None else a.shape[ax]
    m = mean(a, axis, keepdims=True)
    d = U.subtract(a, m)
    s = sum(U.multiply(d, d), axis, keepdims)
    rdt = np.var(np.ones(2, L.np_dtype(a))).dtype
    if isinstance(s, View):
        return U.true_divide(s, float(_builtins.max(n - ddof, 0)))
    with np.errstate(all="ignore"):
        return rdt.type(rdt.type(s) / rdt.type(_builtins.max(n - ddof, 0)))


@L.accepts(x=_VIEW)
@_with_out
def std(x, axis=None, ddof=0, keepdims=False):
    """pk.std(x, axis=None, ddof=0): numpy.std, the square root of pk.var."""
    v = var(x, axis, ddof, keepdims)
    if isinstance(v, View):
        return U.sqrt(v)
    np = _numpy()
    with np.errstate(all="ignore"):
        return v.dtype.type(np.sqrt(v))


@L.accepts(x=_VIEW)
@_with_out
def cumsum(x, axis=None):
    """pk.cumsum(x, axis=None): numpy.cumsum (a new 1-D View for axis=None,
    C order; accumulator dtype as numpy's sum) through a parallel scan."""
    np = _numpy()
    a = L.as_operand(x)
    if axis is not None and a.ndim > 1:
        ax = _axis_of(axis, a.ndim, "cumsum")
        h = np.moveaxis(L.host_array(a), ax, -1)
        rows = [L.host_array(cumsum(np.ascontiguousarray(r))) for r in h.reshape(-1, h.shape[-1])]
        res = np.moveaxis(np.array(rows).reshape(h.shape), -1, ax)
        return View(res.shape, T.dtype_of_numpy(res.dtype), array=np.ascontiguousarray(res))
    dt = L.pk_dtype(L.np_dtype(a))
    acc = _acc_dtype(dt)
    n = a.size
    out = L.new_view((n,), acc)
    if n == 0:
        return out
    h = L.host_array(a)
    if not (isinstance(a, View) and a.ndim == 1 and h.flags.c_contiguous):
        a = L.device_operand(np.ascontiguousarray(h).reshape(-1))   # C order
    if L.on_gpu():
        L.load("_kernels_reduce")
    flat = L.flatten(a)
    from .._dispatch import parallel_scan
    parallel_scan(n, L.kernel("_kernels_reduce", "cumsum", dt.name), a=flat.data, out=out)
    return out


@L.accepts(view=("viewA", "x"), values=("ele", "v", "viewB"))
def searchsorted(view, values, side="left"):
    """pk.searchsorted(view, values, side='left'): numpy.searchsorted on a
    sorted 1-D view; an int for a scalar value, else an int64 View of
    values' shape."""
    np = _numpy()
    if side not in ("left", "right"):
        raise PkcValueError(f"pk.searchsorted: side must be 'left' or 'right', got {side!r}")
    a, v = L.as_operand(view), L.as_operand(values)
    if a.ndim != 1:
        raise PkcValueError(f"pk.searchsorted: the sorted array must be 1-D, got rank {a.ndim}")
    cdt = L.pk_dtype(np.result_type(L.np_dtype(a), _probe(values, v)))
    if cdt.name == "bool":
        cdt = T.int8
    a = L.converted(a, cdt)
    h = L.host_array(a)
    if h.strides and h.strides[0] != h.itemsize:
        a = np.ascontiguousarray(h)
    vh = np.ascontiguousarray(L.host_array(L.converted(v, cdt))).reshape(-1)
    out = L.new_view((vh.size,), T.int64)
    if vh.size and a.size:
        if L.on_gpu():
            L.load("_kernels_reduce")
        fa = L.flatten(L.device_operand(a))
        fv = L.flatten(L.device_operand(vh))
        from .._dispatch import parallel_for
        parallel_for(vh.size, L.kernel("_kernels_reduce", "searchsorted", cdt.name),
                     right=side == "right", a=fa.data, n=a.size, v=fv.data, out=out)
    res = L.host_array(out)
    if v.ndim == 0:
        return int(res[0])
    return View(tuple(v.shape), T.int64, array=res.reshape(v.shape))


def _probe(x, op):
    if op.ndim == 0 and not isinstance(x, (View, _numpy().ndarray)):
        return x
    return L.np_dtype(op)


@L.accepts(dst=("viewA",), src=("viewB",))
def copyto(dst, src, casting="same_kind"):
    """pk.copyto(dst, src): numpy.copyto into View (or array) dst, src
    broadcast to dst's shape; TypeError where numpy's `casting` rule
    refuses the conversion."""
    np = _numpy()
    s = L.as_operand(src)
    if not isinstance(dst, (View, np.ndarray)):
        raise PkcArgumentError(f"pk.copyto: dst must be a View or numpy array, got "
                               f"{type(dst).__name__}")
    ddt = L.pk_dtype(L.np_dtype(dst))
    if not np.can_cast(_probe(src, s), ddt.np_dtype, casting):
        raise PkcArgumentError(f"pk.copyto: cannot cast from {L.np_dtype(s)} to "
                               f"{ddt.np_dtype} with casting={casting!r}")
    try:
        np.broadcast_shapes(tuple(s.shape), tuple(dst.shape))
        if np.broadcast_shapes(tuple(s.shape), tuple(dst.shape)) != tuple(dst.shape):
            raise ValueError
    except ValueError:
        raise PkcValueError(f"pk.copyto: could not broadcast src of shape "
                            f"{tuple(s.shape)} to dst of shape {tuple(dst.shape)}") from None
    s = L.converted(s, ddt)
    U.run("copyto", "_kernels_unary", "unary", ddt, O.UNARY["positive"][0], [s], dst,
          {"a": "src", "out": "dst"})


@L.accepts(x=_VIEW)
def clip(x, a_min=None, a_max=None, out=None):
    """pk.clip(x, a_min, a_max): numpy.clip (either bound may be None)."""
    r = x
    if a_min is not None:
        r = U.maximum(r, a_min)
    if a_max is not None:
        r = U.minimum(r, a_max, out=out)
    elif out is not None:
        copyto(out, r)
        r = out
    return r


@L.accepts(a=("viewA",), b=("viewB",))
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """pk.isclose(a, b): numpy.isclose, |a - b| <= atol + rtol * |b| where
    both are finite, a == b elsewhere (NaNs equal with equal_nan)."""
    np = _numpy()
    x, y = L.as_operand(a), L.as_operand(b)
    ft = np.result_type(L.np_dtype(x), L.np_dtype(y), np.float64 if
                        L.np_dtype(x).kind in "biu" and L.np_dtype(y).kind in "biu"
                        else np.float32)
    x, y = L.converted(x, L.pk_dtype(ft)), L.converted(y, L.pk_dtype(ft))
    close = U.less_equal(U.absolute(U.subtract(x, y)),
                         U.add(atol, U.multiply(rtol, U.absolute(y))))
    fin = U.logical_and(U.isfinite(x), U.isfinite(y))
    r = U.logical_or(U.logical_and(fin, close), U.equal(x, y))
    if equal_nan:
        r = U.logical_or(r, U.logical_and(U.isnan(x), U.isnan(y)))
    return r


@L.accepts(a=("viewA",), b=("viewB",))
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """pk.allclose(a, b): numpy.allclose (a bool)."""
    return bool(all(isclose(a, b, rtol, atol, equal_nan)))


@L.accepts(x=_VIEW)
def transpose(x):
    """pk.transpose(x): a new View holding x with its axes reversed (rank <= 2
    through a kernel; numpy.transpose's values for every rank)."""
    np = _numpy()
    a = L.as_operand(x)
    if a.ndim < 2:
        return View(tuple(a.shape), L.pk_dtype(L.np_dtype(a)),
                    array=np.array(L.host_array(a)))
    dt = L.pk_dtype(L.np_dtype(a))
    h = L.host_array(a)
    src = np.ascontiguousarray(h).T if L.on_gpu() or a.ndim > 2 else h.T
    out = L.new_view(tuple(reversed(a.shape)), dt)
    U.run("transpose", "_kernels_unary", "unary", dt, O.UNARY["positive"][0], [src], out)
    return out


__all__ = ["sum", "prod", "max", "min", "amax", "amin", "find_max", "find_min",
           "count_nonzero", "all", "any", "mean", "var", "std", "cumsum",
           "searchsorted", "copyto", "clip", "isclose", "allclose", "transpose"]
