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
from .._errors import PkcArgumentError, PkcValueError
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


def _result(name, xs, ops, who=None):
    """numpy's result dtype of ufunc `name` for operands xs (TypeError as
    numpy, naming pk.<who>)."""
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
            raise PkcArgumentError(f"pk.{who or name}: {e}") from None
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
        raise PkcArgumentError(f"pk.{name}: cannot cast the result from {want.np_dtype} "
                               f"to the out dtype {dst.dtype} (casting='same_kind')")
    dst[...] = L.host_array(res)
    return out


def _check_out(name, out, shape):
    if out is None:
        return None
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    np = _numpy()
    if not isinstance(out, (View, np.ndarray)):
        raise PkcArgumentError(f"pk.{name}: out must be a View or numpy array, "
                               f"got {type(out).__name__}")
    if tuple(out.shape) != tuple(shape):
        raise PkcValueError(f"pk.{name}: out has shape {tuple(out.shape)}, the "
                            f"result has shape {tuple(shape)}")
    return out


def _target(out, shape, dt, ops):
    """Where the kernel writes: out itself when it has dtype dt, else a new View."""
    if out is not None and L.np_dtype(out) == dt.np_dtype:
        return out
    return L.new_view(shape, dt, [o for o in ops if o.ndim])


def apart(ops, res):
    """ops with every operand that overlaps res in memory, other than
    element for element (the same address for each element), replaced by
    a copy: as numpy, the result is as if the inputs were read before any
    element of res was written."""
    np = _numpy()
    r = res._a if isinstance(res, View) else res
    out = []
    for o in ops:
        a = o._a if isinstance(o, View) else o
        if a is not r and a.ndim and a.size and np.may_share_memory(a, r) and not (
                a.shape == r.shape and a.strides == r.strides and
                a.__array_interface__["data"][0] == r.__array_interface__["data"][0]) \
                and np.shares_memory(a, r):
            o = np.array(L.host_array(o))
        out.append(o)
    return out


def run(public, module, family, dt, op, ops, res, names=None):
    """L.run_elementwise for pk.<public>: operands that overlap the result
    are read apart first, and errors name pk.<public> and its operands
    (names: see L.user_message), not the library's kernel and parameters."""
    ops = apart(ops, res)
    try:
        L.run_elementwise(module, family, dt, op, ops, res)
    except (RuntimeError, TypeError, ValueError) as e:
        raise type(e)(L.user_message(e, public, module, family, dt, names)) from None


# Integer divisions whose MIN // -1 traps in C++ (SIGFPE; int8/int16 wrap
# silently) where numpy wraps with an overflow warning: such operands are
# computed by numpy.
_TRAPPING = ("floor_divide", "remainder", "fmod")


def _min_by_minus_one(ops, dt):
    """True if some element pair is (dtype minimum, -1) (operands broadcast)."""
    np = _numpy()
    a, b = (L.host_array(o) for o in ops)
    lo = np.iinfo(dt.np_dtype).min
    hit = (b == -1) if a.ndim == 0 else (a == lo)
    if not hit.any():
        return False
    return bool(np.any((a == lo) & (b == -1)))


def _any_negative(o):
    """True if some element of operand o is below zero (read on the host)."""
    return bool((L.host_array(o) < 0).any())


def _on_host(name, ops, res):
    """numpy's ufunc `name` of ops into res, on the host (numpy's values
    and RuntimeWarning, e.g. overflow for INT64_MIN // -1)."""
    np = _numpy()
    a, b = (L.host_array(o) for o in ops)
    L.host_array(res, True)[...] = getattr(np, name)(a, b)


def binary(name, x1, x2, out=None, public=None):
    """numpy's ufunc `name` of x1 and x2 (see the module docstring);
    public: the pk function the user called (for messages)."""
    np = _numpy()
    who = public or name
    ops = [L.as_operand(x1), L.as_operand(x2)]
    try:
        shape = np.broadcast_shapes(ops[0].shape, ops[1].shape)
    except ValueError:
        raise PkcValueError(f"pk.{who}: operands could not be broadcast together "
                            f"with shapes {tuple(ops[0].shape)} {tuple(ops[1].shape)}") from None
    out = _check_out(who, out, shape)
    rdt = _result(name, (x1, x2), ops, who)
    scalars = all(o.ndim == 0 and not isinstance(o, View) for o in ops)
    if name in O.COMPARE:
        cdt = L.pk_dtype(_common((x1, x2), ops))
        family, op, module, odt = "compare", O.COMPARE[name], "_kernels_elementwise", L.pk_dtype(rdt)
    else:
        cdt = L.pk_dtype(rdt)
        odt = cdt
        if cdt.name == "bool":
            if name not in _BOOL_AS:
                raise PkcArgumentError(f"pk.{who}: not supported for bool operands")
            family, op, module = "compare", O.COMPARE[_BOOL_AS[name]], "_kernels_elementwise"
        else:
            family, module = "binary", "_kernels_elementwise"
            op, kinds = O.BINARY[_CANON_BINARY.get(name, name)]
            if L.KIND[cdt.name] not in kinds:
                raise PkcArgumentError(f"pk.{who}: not supported for {cdt.name} operands")
    if name == "power" and L.KIND[cdt.name] == "s" and _any_negative(ops[1]):
        raise PkcValueError(f"pk.{who}: integers to negative integer powers are not allowed "
                            f"(numpy's ValueError; the kernel would give 0): use "
                            f"pk.float_power or floating-point operands")
    ops = [L.converted(o, cdt) for o in ops]
    res = _target(out, shape, odt, ops)
    if name in _TRAPPING and L.KIND[cdt.name] == "s" and _min_by_minus_one(ops, cdt):
        _on_host(name, ops, res)
    else:
        run(who, module, family, cdt, op, ops, res)
    return _finish(who, res, rdt, out, scalars)


def unary(name, x, out=None, public=None):
    """numpy's ufunc `name` of x (see the module docstring); public: the pk
    function the user called (for messages)."""
    who = public or name
    a = L.as_operand(x)
    shape = tuple(a.shape)
    out = _check_out(who, out, shape)
    rdt = _result(name, (x,), [a], who)
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
            raise PkcArgumentError(f"pk.{who}: not supported for {cdt.name} operands")
    a = L.converted(a, cdt)
    res = _target(out, shape, odt, [a])
    run(who, "_kernels_unary", family, cdt, op, [a], res)
    return _finish(who, res, rdt, out, scalars)


_CANON_BINARY = {"float_power": "power"}
_CANON_UNARY = {"fabs": "absolute"}   # numpy.fabs: absolute of floats


# PyKokkos' keyword spellings of the operands (pk.add(viewA=a, viewB=b),
# pk.sqrt(view=v), pk.subtract(viewA=a, valB=2), pk.equal(view1=a, view2=b))
# besides numpy's (x1, x2, x); profiler_name= (a Kokkos profiling label) is
# accepted and not used.
_SPELLINGS = ({"x1", "viewA", "view1", "valA"}, {"x2", "viewB", "view2", "valB"})
_UNARY_SPELLINGS = ({"x", "view"},)


def operands(name, args, kw, spellings):
    """The operands of pk.<name> from positional args and the keyword
    spellings of each; TypeError naming pk.<name> for a missing, repeated
    or unknown argument. A str after the operands is PyKokkos'
    profiler_name, ignored. Returns (operands, out)."""
    kw = dict(kw)
    kw.pop("profiler_name", None)
    out = kw.pop("out", None)
    args = list(args)
    n = len(spellings)
    if len(args) > n and isinstance(args[-1], str):
        args.pop()                 # profiler_name given positionally
    if len(args) == n + 1 and out is None:
        out = args.pop()           # numpy: out may be positional
    if len(args) > n:
        raise PkcArgumentError(f"pk.{name}: takes {n} operand(s), got {len(args)} "
                               "positional arguments")
    ops = args + [None] * (n - len(args))
    given = [k < len(args) for k in range(n)]
    for key in list(kw):
        for k, names in enumerate(spellings):
            if key in names:
                if given[k]:
                    raise PkcArgumentError(f"pk.{name}: operand {k + 1} given twice "
                                           f"(positionally or as {key!r})")
                ops[k], given[k] = kw.pop(key), True
                break
    if kw:
        raise PkcArgumentError(f"pk.{name}: unexpected keyword argument(s) "
                               f"{', '.join(sorted(kw))} (operands: "
                               + ", ".join("/".join(sorted(s)) for s in spellings) + ", out=)")
    if not all(given):
        raise PkcArgumentError(f"pk.{name}: missing operand {given.index(False) + 1} ("
                               + "/".join(sorted(spellings[given.index(False)])) + ")")
    return ops, out


def _make_binary(name, numpy_name=None):
    np_name = numpy_name or name

    def f(*args, **kw):
        (x1, x2), out = operands(name, args, kw, _SPELLINGS)
        return binary(np_name, x1, x2, out=out, public=name)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"pk.{name}(x1, x2, out=None): numpy.{np_name} element-wise "
                 "with broadcasting; a new View (or out). PyKokkos' keywords "
                 "viewA=/viewB= name the operands too.")
    return f


def _make_unary(name, numpy_name=None):
    np_name = numpy_name or name

    def f(*args, **kw):
        (x,), out = operands(name, args, kw, _UNARY_SPELLINGS)
        return unary(np_name, x, out=out, public=name)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"pk.{name}(x, out=None): numpy.{np_name} element-wise; a new "
                 "View (or out). PyKokkos' keyword view= names the operand too.")
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


@L.accepts(x=("view",))
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
        run("round", "_kernels_unary", "unary", dt, O.UNARY["positive"][0], [a], res)
        return _finish("round", res, rdt, out, a.ndim == 0 and not isinstance(a, View))
    if decimals == 0:
        return unary("rint", a, out=out)
    scale = 10.0 ** decimals
    y = unary("rint", binary("multiply", a, scale))
    return binary("true_divide", y, scale, out=out)


around = round

__all__ = sorted(list(BINARY_NAMES) + list(UNARY_NAMES) + ["round", "around"])
