"""Array creation and interop (PyKokkos' pk.array / pk.zeros / ... host API).

Every function returns a pk.View (host memory on host backends; on GPU
backends the View moves to the device on its first kernel call, see
pk.View) that the kernel-call path accepts. numpy is imported on first use.
Zero-copy rules, as PyKokkos: pk.array / pk.asarray / pk.from_numpy wrap a
C- or Fortran-contiguous numpy array (or a CPU torch tensor, or anything
with __array_interface__ / __dlpack__ on the host) of a supported dtype
without copying; a CUDA array (CuPy, torch.cuda, anything with
__cuda_array_interface__) becomes a device-resident View over the same
device memory when the backend is a GPU one (copied to the host otherwise).
"""
import math as _math

from ._errors import PkcArgumentError, PkcRuntimeError
from . import _types as T
from ._view import View, numpy as _numpy, from_numpy

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan

_ND = None


def _np():
    return _numpy()


def _dt_or_none(dtype):
    return None if dtype is None else T.as_dtype(dtype)


def _check_np_dtype(a, what):
    dt = T.dtype_of_numpy(a.dtype)
    if dt is None:
        raise PkcArgumentError(f"{what}: unsupported dtype {a.dtype} (pk Views hold "
                               "int8..uint64, float32, float64 or bool)")
    return dt


def _wrap(a, layout=None, space=None, trait=None):
    """A View over numpy array a (no copy)."""
    dt = _check_np_dtype(a, "pk.array")
    if layout is None or layout is T.Layout.LayoutDefault:
        lay = (T.Layout.LayoutLeft if a.ndim > 1 and a.flags.f_contiguous
               and not a.flags.c_contiguous else T.Layout.LayoutRight)
    else:
        lay = layout
    kw = {}
    if space is not None:
        kw["space"] = space
    if trait is not None:
        kw["trait"] = trait
    v = View(a.shape, dt, layout=lay, array=a, **kw)
    v._deflt = layout is None
    return v


def _order(layout):
    return "F" if layout is T.Layout.LayoutLeft else "C"


def _new(a, dtype, layout, space=None, trait=None):
    """A View owning a copy of array-like a, converted to dtype (None: keep
    a's dtype; Python ints become int64 and floats float64, as numpy)."""
    np = _np()
    dt = _dt_or_none(dtype)
    arr = np.array(a, dtype=None if dt is None else dt.np_dtype,
                   order=_order(layout), copy=True)
    return _wrap(arr, layout, space, trait)


# ---- device (CUDA/HIP) arrays ---------------------------------------------

def _cuda_interface(obj):
    try:
        return obj.__cuda_array_interface__
    except Exception:   # AttributeError; torch CPU tensors raise RuntimeError
        return None


def _device_to_numpy(obj):
    """A host numpy copy of a device array (CuPy .get(), torch .cpu())."""
    np = _np()
    get = getattr(obj, "get", None)
    if callable(get):
        return np.asarray(get())
    cpu = getattr(obj, "cpu", None)
    if callable(cpu):
        t = cpu()
        t = t.detach() if hasattr(t, "detach") else t
        return np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    raise PkcArgumentError(f"pk.array: cannot copy a {type(obj).__name__} from the "
                           "device (it has neither .get() nor .cpu())")


class ForeignMem:
    """Device memory owned by another library (a CuPy array, a CUDA torch
    tensor) behind a device-resident View: never freed here; the owner is
    kept alive. Copies go through the loaded GPU module's copy function
    (or the owner's own host copy before any module is loaded)."""

    __slots__ = ("owner", "ptr", "nbytes", "device_type", "_desc", "_copy", "err",
                 "__weakref__")

    def __init__(self, owner, ptr, nbytes, device_type):
        self.owner, self.ptr, self.nbytes, self.device_type = owner, ptr, nbytes, device_type
        self._desc = self._copy = self.err = None

    @property
    def desc(self):
        if self._desc is None:
            from ._view import _device_module
            self._desc = _device_module()
            if self._desc is None:
                class _D:
                    device_type = self.device_type
                return _D
        return self._desc

    def copy(self, dst, dst_dev, src, src_dev, nbytes):
        import ctypes
        d = self.desc
        if getattr(d, "copy", None):
            if self._copy is None:
                c = ctypes
                self._copy = c.CFUNCTYPE(c.c_int, c.c_void_p, c.c_int, c.c_void_p, c.c_int,
                                         c.c_size_t, c.c_char_p, c.c_size_t)(d.copy)
                self.err = ctypes.create_string_buffer(512)
            if self._copy(dst, dst_dev, src, src_dev, nbytes, self.err, len(self.err)):
                raise PkcRuntimeError("pk.View: device copy failed: "
                                      + self.err.value.decode(errors="replace"))
            return
        if dst_dev == 0 and src == self.ptr:      # device -> host, no module yet
            h = _device_to_numpy(self.owner)
            ctypes.memmove(dst, h.ctypes.data, min(nbytes, h.nbytes))
            return
        raise PkcRuntimeError("pk.View: no GPU module is loaded to copy device memory "
                              "with (run a kernel first)")

    def release(self):
        self.ptr, self.owner = None, None


def _device_view(obj, cai, dtype):
    """A device-resident View over a CUDA array's memory (no copy), or None
    when it cannot be shared (dtype conversion asked for, unsupported dtype
    or strides): then the caller copies."""
    np = _np()
    from ._view import DLHolder
    npdt = np.dtype(cai["typestr"])
    dt = T.dtype_of_numpy(npdt)
    if dt is None or (dtype is not None and T.as_dtype(dtype) is not dt):
        return None
    shape = tuple(int(x) for x in cai["shape"])
    host = np.empty(shape, dtype=npdt)
    st = cai.get("strides")
    order = "C"
    if st is not None and tuple(st) != host.strides:
        f = np.empty(shape, dtype=npdt, order="F")
        if tuple(st) != f.strides:
            return None
        host, order = f, "F"
    try:
        t, _ = obj.__dlpack_device__()
    except Exception:
        t = 2
    mem = ForeignMem(obj, cai["data"][0], host.nbytes, int(t))
    lay = T.Layout.LayoutLeft if order == "F" and host.ndim > 1 else T.Layout.LayoutRight
    v = View(shape, dt, layout=lay, array=host)
    v._deflt = False
    v._dev, v._hv, v._dv = mem, False, True
    v._dl = DLHolder(host, dt.code, dt.bits, mem.ptr, int(t))
    return v


def _gpu_backend():
    from ._loader import RUNTIME
    try:
        return RUNTIME.on_gpu()
    except ValueError:
        return False


# ---- pk.array / asarray ---------------------------------------------------

def array(obj, dtype=None, space=None, layout=None, trait=None, copy=None):
    """pk.array(obj[, dtype]): a View of obj (numpy array, list, scalar, View,
    CuPy/torch array). Zero-copy (as PyKokkos) when obj is a contiguous numpy
    array / host array of a supported dtype and no conversion is asked for,
    or a CUDA array on a GPU backend; else a copy (copy=True always copies).
    Unsupported dtypes (float16, complex, object) raise TypeError."""
    np = _np()
    dt = _dt_or_none(dtype)
    if isinstance(obj, View):
        if copy or (dt is not None and dt is not obj._dt):
            return obj.astype(dt or obj._dt)
        return obj
    cai = _cuda_interface(obj)
    if cai is not None and not isinstance(obj, np.ndarray):
        if not copy and _gpu_backend():
            v = _device_view(obj, cai, dt)
            if v is not None:
                return v
        return _new(_device_to_numpy(obj), dt, layout, space, trait)
    if isinstance(obj, np.ndarray):
        a = obj
    elif hasattr(obj, "__array_interface__") or hasattr(obj, "__array__"):
        try:
            a = np.asarray(obj)       # torch CPU tensors: shares memory
        except Exception:
            a = np.from_dlpack(obj) if hasattr(obj, "__dlpack__") else None
            if a is None:
                raise
    elif hasattr(obj, "__dlpack__"):
        a = np.from_dlpack(obj)
    else:
        return _new(obj, dt, layout, space, trait)
    share = (not copy and (dt is None or a.dtype == dt.np_dtype)
             and T.dtype_of_numpy(a.dtype) is not None
             and (a.flags.c_contiguous or a.flags.f_contiguous)
             and (layout is None or layout is T.Layout.LayoutDefault
                  or (layout is T.Layout.LayoutLeft) == (a.ndim > 1 and not a.flags.c_contiguous)))
    if share:
        return _wrap(a, layout, space, trait)
    if dt is None:
        _check_np_dtype(a, "pk.array")
    return _new(a, dt, layout, space, trait)


def asarray(obj, dtype=None, copy=None, device=None):
    """pk.asarray(obj[, dtype]): as pk.array, never copying when obj already
    is a View or shareable array of that dtype (numpy's asarray rule);
    device= is accepted (array API) and the backend decides, as pk.zeros."""
    return array(obj, dtype=dtype, copy=copy)


def from_cupy(obj):
    """PyKokkos' pk.from_cupy: a View sharing a CuPy array's memory (GPU
    backends; a host copy on host backends)."""
    return array(obj)


# ---- creation ---------------------------------------------------------------

def _shape(shape, what):
    from ._view import _shape_tuple
    return _shape_tuple(shape, what)


def _make(shape, dtype, layout, space, what):
    dt = T.float64 if dtype is None else T.as_dtype(dtype)
    kw = {"layout": layout} if layout is not None else {}
    if space is not None:
        kw["space"] = space
    return View(_shape(shape, what), dt, **kw)


def zeros(shape, dtype=None, layout=None, space=None, device=None):
    """pk.zeros(shape, dtype=pk.float64): a new zero-filled View; shape is an
    int, list or tuple (device= is accepted for PyKokkos code and ignored:
    the backend decides where the View lives)."""
    return _make(shape, dtype, layout, space, "pk.zeros")


def empty(shape, dtype=None, layout=None, space=None, device=None):
    """pk.empty(shape, dtype=pk.float64): a new View (zero-filled, as Kokkos
    initializes Views)."""
    return _make(shape, dtype, layout, space, "pk.empty")


def ones(shape, dtype=None, layout=None, space=None, device=None):
    """pk.ones(shape, dtype=pk.float64): a new View filled with 1."""
    v = _make(shape, dtype, layout, space, "pk.ones")
    v._a.fill(1)
    return v


def full(shape, fill_value, dtype=None, layout=None, space=None, device=None):
    """pk.full(shape, fill_value, dtype=None): a new View filled with
    fill_value; dtype None takes numpy's type of fill_value (int -> int64,
    float -> float64, bool -> bool)."""
    if dtype is None:
        dtype = _np().asarray(fill_value).dtype
    v = _make(shape, dtype, layout, space, "pk.full")
    v._a.fill(fill_value)
    return v


def _like_dt(x, dtype):
    if dtype is not None:
        return dtype
    return x.dtype if isinstance(x, View) else _np().asarray(x).dtype


def zeros_like(x, dtype=None):
    """A zero-filled View of x's shape and dtype (or dtype)."""
    return zeros(_np().shape(x), _like_dt(x, dtype))


def ones_like(x, dtype=None):
    """A View of ones of x's shape and dtype (or dtype)."""
    return ones(_np().shape(x), _like_dt(x, dtype))


def empty_like(x, dtype=None):
    """A new (zero-filled) View of x's shape and dtype (or dtype)."""
    return empty(_np().shape(x), _like_dt(x, dtype))


def full_like(x, fill_value, dtype=None):
    """A View of x's shape and dtype (or dtype) filled with fill_value."""
    return full(_np().shape(x), fill_value, _like_dt(x, dtype))


def arange(start, stop=None, step=1, dtype=None):
    """pk.arange([start,] stop[, step], dtype=None): a rank-1 View of evenly
    spaced values, numpy's arange (dtype None: int64 for ints, float64 else)."""
    np = _np()
    dt = _dt_or_none(dtype)
    a = (np.arange(start, dtype=None if dt is None else dt.np_dtype) if stop is None
         else np.arange(start, stop, step, dtype=None if dt is None else dt.np_dtype))
    return _wrap(a)


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    """pk.linspace(start, stop, num=50, endpoint=True, dtype=pk.float64): a
    rank-1 View of num evenly spaced values, numpy's linspace."""
    np = _np()
    dt = _dt_or_none(dtype)
    a = np.linspace(start, stop, num, endpoint=endpoint,
                    dtype=None if dt is None else dt.np_dtype)
    return _wrap(a)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None):
    """pk.logspace(start, stop, num=50, endpoint=True, base=10.0): a rank-1
    View of base**linspace(start, stop), numpy's logspace."""
    np = _np()
    dt = _dt_or_none(dtype)
    a = np.logspace(start, stop, num, endpoint=endpoint, base=base,
                    dtype=None if dt is None else dt.np_dtype)
    return _wrap(a)


# ---- manipulation -----------------------------------------------------------

def _host_of(x, what):
    if isinstance(x, View):
        return x._host(True)
    a = _np().asarray(x)
    _check_np_dtype(a, what)
    return a


def reshape(x, shape, order="C"):
    """pk.reshape(x, shape): a View of x's values with a new shape (-1: one
    extent inferred), sharing x's memory when numpy can (else a copy)."""
    np = _np()
    if hasattr(shape, "__index__"):
        shape = (shape,)
    a = np.reshape(_host_of(x, "pk.reshape"), tuple(shape), order=order)
    return _wrap(a)


def ravel(x, order="C"):
    """pk.ravel(x): a rank-1 View of x's values in C order, sharing memory
    when x is C-contiguous (else a copy)."""
    return _wrap(_np().ravel(_host_of(x, "pk.ravel"), order=order))


def expand_dims(x, axis):
    """pk.expand_dims(x, axis): x with a new extent-1 axis at position axis
    (int or tuple, negative counts from the end), sharing x's memory."""
    a = _np().expand_dims(_host_of(x, "pk.expand_dims"), axis)
    return _wrap(a)


def astype(x, dtype):
    """pk.astype(x, dtype): a new View of x's values converted to dtype."""
    if isinstance(x, View):
        return x.astype(dtype)
    return _new(_np().asarray(x), dtype, None)


# ---- dtype queries ------------------------------------------------------------

def _np_dtype_of(x):
    np = _np()
    if x.__class__ is T._DTypeMeta:
        return x.np_dtype
    if isinstance(x, View):
        return x._dt.np_dtype
    if isinstance(x, (type, str, np.dtype)) and not (
            isinstance(x, type) and issubclass(x, np.ndarray)):
        try:
            return T.as_dtype(x).np_dtype
        except TypeError:
            return np.dtype(x)     # a numpy dtype pk lacks: the result says so
    return x


_KIND_NAMES = {"i": "signed integer", "u": "unsigned integer", "f": "floating-point"}


def _check_kinds(xs):
    """NotImplementedError when the dtypes of xs (Python scalars left out,
    bool mixing with any kind) span more than one kind among signed
    integer, unsigned integer and floating point: PyKokkos' result_type
    does not promote across kinds (numpy's answer, e.g. float64 for uint64
    and int8, would be a guess of what PyKokkos means)."""
    np = _np()
    seen = {}
    for x in xs:
        if isinstance(x, (int, float, bool, complex)):
            continue
        try:
            dt = np.dtype(getattr(x, "dtype", x))
        except TypeError:
            continue
        if dt.kind in _KIND_NAMES:
            seen.setdefault(dt.kind, dt.name)
    if len(seen) > 1:
        raise NotImplementedError(
            "pk.result_type: promotion across kinds (" + ", ".join(
                f"{_KIND_NAMES[k]} {n}" for k, n in seen.items()) + ") is not "
            "implemented, as in PyKokkos; convert an operand with pk.astype first")


def result_type(*arrays_and_dtypes):
    """pk.result_type(*xs): the pk dtype numpy's type promotion gives for
    Views, arrays, pk/numpy dtypes and Python scalars (numpy.result_type)
    whose dtypes are of one kind (signed, unsigned or floating; bool mixes
    with any); NotImplementedError across kinds, as PyKokkos; TypeError if
    the result is not a dtype pk Views can hold."""
    if not arrays_and_dtypes:
        raise PkcArgumentError("pk.result_type: at least one array or dtype is needed")
    np = _np()
    xs = [_np_dtype_of(x) for x in arrays_and_dtypes]
    _check_kinds(xs)
    r = np.result_type(*xs)
    dt = T.dtype_of_numpy(r)
    if dt is None:
        raise PkcArgumentError(f"pk.result_type: the result dtype {r} is not a pk dtype")
    return dt


class iinfo_object:
    """Integer limits (array API iinfo): bits, min, max, dtype."""

    __slots__ = ("bits", "min", "max", "dtype")

    def __init__(self, bits, min, max, dtype):
        self.bits, self.min, self.max, self.dtype = bits, min, max, dtype

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"


class finfo_object:
    """Floating-point limits (array API finfo): bits, eps, max, min,
    smallest_normal, tiny (== smallest_normal), resolution, dtype."""

    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "tiny",
                 "resolution", "dtype")

    def __init__(self, f, dtype):
        self.bits, self.eps, self.max, self.min = (f.bits, float(f.eps), float(f.max),
                                                   float(f.min))
        self.smallest_normal = self.tiny = float(f.tiny)
        self.resolution, self.dtype = float(f.resolution), dtype

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min:.6e}, "
                f"max={self.max:.6e}, dtype={self.dtype.name})")


def _info_dtype(t, what):
    if isinstance(t, View):
        return t._dt
    try:
        return T.as_dtype(t)
    except TypeError:
        raise PkcArgumentError(f"pk.{what}: expected a pk dtype or View, got {t!r}") from None


def iinfo(t):
    """pk.iinfo(dtype or View): bits/min/max of an integer dtype (numpy's
    iinfo values); TypeError for float or bool dtypes."""
    dt = _info_dtype(t, "iinfo")
    if dt.code not in (T.DL_INT, T.DL_UINT):
        raise PkcArgumentError(f"pk.iinfo: pk.{dt.name} is not an integer dtype")
    bits = dt.bits
    if dt.code == T.DL_INT:
        return iinfo_object(bits, -(1 << (bits - 1)), (1 << (bits - 1)) - 1, dt)
    return iinfo_object(bits, 0, (1 << bits) - 1, dt)


def finfo(t):
    """pk.finfo(dtype or View): bits/eps/min/max/smallest_normal of a
    floating-point dtype (numpy's finfo values); TypeError otherwise."""
    dt = _info_dtype(t, "finfo")
    if dt.code != T.DL_FLOAT:
        raise PkcArgumentError(f"pk.finfo: pk.{dt.name} is not a floating-point dtype")
    return finfo_object(_np().finfo(dt.np_dtype), dt)


__all__ = ["array", "asarray", "from_numpy", "from_cupy", "zeros", "ones", "full",
           "empty", "zeros_like", "ones_like", "full_like", "empty_like", "arange",
           "linspace", "logspace", "reshape", "ravel", "expand_dims", "astype",
           "result_type", "iinfo", "finfo", "e", "pi", "inf", "nan"]
