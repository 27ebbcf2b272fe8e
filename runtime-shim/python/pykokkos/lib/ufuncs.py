"""Element-wise functions of the array library (PyKokkos' pykokkos.lib.ufuncs,
numpy's ufuncs): pk.add(x1, x2), pk.sqrt(x), ... over Views, numpy arrays,
array-likes and scalars, with numpy broadcasting and numpy's result dtypes.

Each returns a new View (or writes `out=`, a View or numpy array of the
broadcast shape; a result dtype that `out` cannot hold under numpy's
'same_kind' casting raises TypeError); with only scalar operands, a numpy
scalar. The result dtype is numpy's for the same operands (float16 results
are float32: pk Views have no float16); operands of another dtype are
converted first. The work runs in kernels of pykokkos/lib/_kernels_*.py,
which pkc builds like any PyKokkos program."""
from .._view import View, numpy as _numpy
from . import _ops as O
from . import _launch as L

_BOOL_AS = {"add": "logical_or", "maximum": "logical_or", "fmax": "logical_or",
            "bitwise_or": "logical_or", "multiply": "logical_and",
            "minimum": "logical_and", "fmin": "logical_and",
            "bitwise_and": "logical_and", "bitwise_xor": "logical_xor"}
_IDENTITY_UNLESS_FLOAT = ("floor", "ceil", "trunc", "rint")
_probes = {}


def _probe_arg(x, op):
    """What numpy's type resolution sees for operand x: the scalar itself
    (numpy treats Python scalars by value or as weak types), else a
    one-element array of x's dtype."""
    np = _numpy()
    if op.ndim == 0 and not isinstance(x, (View, np.ndarray)):
        return x, None
    dt = L.np_dtype(op)
    return np.ones(1, dt), dt


def _result(name, xs, ops):
    """numpy's result dtype of ufunc `name` for operands xs (TypeError as numpy)."""
    np = _numpy()
    args, key = [], [name]
    for x, op in zip(xs, ops):
        a, dt = _probe_arg(x, op)
        args.append(a)
        key.append(dt)
    key = tuple(key)
    if None not in key[1:]:
        r = _probes.get(key)
        if r is not None:
            return r
    with np.errstate(all="ignore"):
        try:
            r = getattr(np, name)(*args)
        except TypeError as e:
            raise TypeError(f"pk.{name}: {e}") from None
    r = np.asarray(r).dtype
    if None not in key[1:]:
        _probes[key] = r
    return r


def _common(xs, ops):
    np = _numpy()
    return np.result_type(*[_probe_arg(x, op)[0] for x, op in zip(xs, ops)])


def _finish(name, res, rdt, out, scalars):
    """Casts/stores the computed View res into out (numpy 'same_kind')."""
    np = _numpy()
    want = L.pk_dtype(rdt)
    if out is None:
        if scalars:
            return L.host_array(res)[()].astype(rdt)[()]
        return res
    if res is out:
        return out
    dst = L.host_array(out, True)
    if not np.can_cast(want.np_dtype, dst.dtype, "same_kind"):
        raise TypeError(f"pk.{name}: cannot cast the result from {want.np_dtype} "
                        f"to the out dtype {dst.dtype} (casting='same_kind')")
    dst[...] = L.host_array(res)
    return out


def _check_out(name, out, shape):
    if out is None:
        return None
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    np = _numpy()
    if not isinstance(out, (View, np.ndarray)):
        raise TypeError(f"pk.{name}: out must be a View or numpy array, "
                        f"got {type(out).__name__}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"pk.{name}: out has shape {tuple(out.shape)}, the "
                         f"result has shape {tuple(shape)}")
    return out


def _target(out, shape, dt, ops):
    """Where the kernel writes: out itself when it has dtype dt, else a new View."""
    if out is not None and L.np_dtype(out) == dt.np_dtype:
        return out
    return L.new_view(shape, dt, [o for o in ops if o.ndim])


def binary(name, x1, x2, out=None):
    """numpy's ufunc `name` of x1 and x2 (see the module docstring)."""
    np = _numpy()
    ops = [L.as_operand(x1), L.as_operand(x2)]
    try:
        shape = np.broadcast_shapes(ops[0].shape, ops[1].shape)
    except ValueError:
        raise ValueError(f"pk.{name}: operands could not be broadcast together "
                         f"with shapes {tuple(ops[0].shape)} {tuple(ops[1].shape)}") from None
    out = _check_out(name, out, shape)
    rdt = _result(name, (x1, x2), ops)
    scalars = all(o.ndim == 0 and not isinstance(o, View) for o in ops)
    if name in O.COMPARE:
        cdt = L.pk_dtype(_common((x1, x2), ops))
        family, op, module, odt = "compare", O.COMPARE[name], "_kernels_elementwise", L.pk_dtype(rdt)
    else:
        cdt = L.pk_dtype(rdt)
        odt = cdt
        if cdt.name == "bool":
            if name not in _BOOL_AS:
                raise TypeError(f"pk.{name}: not supported for bool operands")
            family, op, module = "compare", O.COMPARE[_BOOL_AS[name]], "_kernels_elementwise"
        else:
            family, module = "binary", "_kernels_elementwise"
            op, kinds = O.BINARY[_CANON_BINARY.get(name, name)]
            if L.KIND[cdt.name] not in kinds:
                raise TypeError(f"pk.{name}: not supported for {cdt.name} operands")
    ops = [L.converted(o, cdt) for o in ops]
    res = _target(out, shape, odt, ops)
    L.run_elementwise(module, family, cdt, op, ops, res)
    return _finish(name, res, rdt, out, scalars)


def unary(name, x, out=None):
    """numpy's ufunc `name` of x (see the module docstring)."""
    a = L.as_operand(x)
    shape = tuple(a.shape)
    out = _check_out(name, out, shape)
    rdt = _result(name, (x,), [a])
    scalars = a.ndim == 0 and not isinstance(a, View)
    if name in O.PREDICATE:
        cdt = L.pk_dtype(L.np_dtype(a))
        family, op, odt = "predicate", O.PREDICATE[name], L.pk_dtype(rdt)
    else:
        cdt = odt = L.pk_dtype(rdt)
        kind = L.KIND[cdt.name]
        canon = _CANON_UNARY.get(name, name)
        if kind != "f" and canon in _IDENTITY_UNLESS_FLOAT or kind == "b" and \
                canon in ("absolute", "square", "reciprocal"):
            canon = "positive"
        op, kinds = O.UNARY[canon]
        family = "unary"
        if kind not in kinds:
            raise TypeError(f"pk.{name}: not supported for {cdt.name} operands")
    a = L.converted(a, cdt)
    res = _target(out, shape, odt, [a])
    L.run_elementwise("_kernels_unary", family, cdt, op, [a], res)
    return _finish(name, res, rdt, out, scalars)


_CANON_BINARY = {"float_power": "power"}
_CANON_UNARY = {"fabs": "absolute"}   # numpy.fabs: absolute of floats


def _make_binary(name, numpy_name=None):
    np_name = numpy_name or name

    def f(x1, x2, /, out=None):
        return binary(np_name, x1, x2, out=out)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"pk.{name}(x1, x2, out=None): numpy.{np_name} element-wise "
                 "with broadcasting; a new View (or out).")
    return f


def _make_unary(name, numpy_name=None):
    np_name = numpy_name or name

    def f(x, /, out=None):
        return unary(np_name, x, out=out)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"pk.{name}(x, out=None): numpy.{np_name} element-wise; a new "
                 "View (or out).")
    return f


# public name -> numpy ufunc it follows
BINARY_NAMES = dict({n: n for n in O.BINARY}, divide="true_divide", mod="remainder",
                    pow="power", float_power="float_power", atan2="arctan2",
                    bitwise_left_shift="left_shift", bitwise_right_shift="right_shift",
                    **{n: n for n in O.COMPARE})
UNARY_NAMES = dict({n: n for n in O.UNARY}, abs="absolute", fabs="fabs",
                   bitwise_not="invert", bitwise_invert="invert", fix="trunc",
                   asin="arcsin", acos="arccos", atan="arctan", asinh="arcsinh",
                   acosh="arccosh", atanh="arctanh", radians="deg2rad",
                   degrees="rad2deg", **{n: n for n in O.PREDICATE})

for _n, _np_name in BINARY_NAMES.items():
    globals()[_n] = _make_binary(_n, _np_name)
for _n, _np_name in UNARY_NAMES.items():
    globals()[_n] = _make_unary(_n, _np_name)
del _n, _np_name


def round(x, decimals=0, out=None):  # noqa: A001 (numpy's name)
    """pk.round(x, decimals=0): numpy.round (halves to even; decimals != 0
    scales by 10**decimals first, as numpy)."""
    a = L.as_operand(x)
    np = _numpy()
    rdt = np.round(np.ones(1, L.np_dtype(a))).dtype
    dt = L.pk_dtype(rdt)
    a = L.converted(a, dt)
    if L.KIND[dt.name] != "f":       # numpy keeps integers as they are
        out = _check_out("round", out, tuple(a.shape))
        res = _target(out, tuple(a.shape), dt, [a])
        L.run_elementwise("_kernels_unary", "unary", dt, O.UNARY["positive"][0], [a], res)
        return _finish("round", res, rdt, out, a.ndim == 0 and not isinstance(a, View))
    if decimals == 0:
        return unary("rint", a, out=out)
    scale = 10.0 ** decimals
    y = unary("rint", binary("multiply", a, scale))
    return binary("true_divide", y, scale, out=out)


around = round

__all__ = sorted(list(BINARY_NAMES) + list(UNARY_NAMES) + ["round", "around"])
