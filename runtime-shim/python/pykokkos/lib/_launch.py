"""How the array library runs its kernels: operands (Views, numpy arrays,
array-likes, scalars) become flat storage plus element strides over a grid
of at most two dimensions (numpy broadcasting gives stride 0), and one
kernel of pykokkos/lib/_kernels_*.py runs over the grid's elements.

Host backends pass numpy views of the Views' memory (no copies); GPU
backends pass one-dimensional aliases of the Views' device memory. Operands
whose dtype differs from the kernel's are converted first (a copy)."""
import math

from .._errors import PkcArgumentError
from .. import _types as T
from .._view import View, DLHolder, numpy as _numpy, _device_module
from . import _ops as O

SUFFIX = {dt: sfx for dt, sfx, _ in O.DTYPES}
KIND = {dt: kind for dt, _, kind in O.DTYPES}
_kernel_modules = {}


def _module(module):
    """pykokkos.lib.<module>, the Python module of a kernel family file."""
    m = _kernel_modules.get(module)
    if m is None:
        import importlib
        m = _kernel_modules[module] = importlib.import_module("." + module, __package__)
    return m


def kernel(module, family, dtname):
    """The workunit `<family>_<suffix>` of pykokkos.lib.<module>."""
    return getattr(_module(module), f"{family}_{SUFFIX[dtname]}")


def on_gpu():
    """True when kernels run on a GPU backend (PKC_BACKEND / set_default_space)."""
    from .._loader import RUNTIME
    return RUNTIME.on_gpu()


def load(module):
    """Loads the module pkc built from pykokkos.lib.<module> for the current
    backend (so that device memory can be allocated before the first launch)."""
    from .._loader import RUNTIME
    RUNTIME.module_for(_module(module).__file__)


def pk_dtype(npdt):
    """The pk dtype kernels compute in for numpy dtype npdt (float16 -> float32)."""
    np = _numpy()
    if npdt == np.float16:
        return T.float32
    dt = T.dtype_of_numpy(npdt)
    if dt is None:
        raise PkcArgumentError(f"pykokkos: dtype {npdt} is not supported by the array "
                               "library (int8..uint64, float32, float64, bool)")
    return dt


def as_operand(x):
    """x as a View or numpy array (scalars become rank-0 numpy arrays)."""
    if isinstance(x, View):
        return x
    np = _numpy()
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__cuda_array_interface__") and on_gpu():
        from .._array import asarray
        return asarray(x)
    return np.asarray(x)


def np_dtype(x):
    return x._dt.np_dtype if isinstance(x, View) else x.dtype


def host_array(x, write=False):
    return x._host(write) if isinstance(x, View) else x


def converted(x, dt):
    """Operand x with element type dt (x itself when it has it)."""
    if np_dtype(x) == dt.np_dtype:
        return x
    return host_array(x).astype(dt.np_dtype)


def new_view(shape, dt, like=()):
    """A new View for a result: Fortran order when every array operand of
    rank >= 2 is (numpy's order 'K'), else C order on host backends and the
    GPU default (LayoutLeft) on GPU backends."""
    left = len(shape) >= 2 and (
        on_gpu() or (like and all(host_array(a).flags.f_contiguous and
                                  not host_array(a).flags.c_contiguous
                                  for a in like if len(a.shape) >= 2)
                     and any(len(a.shape) >= 2 for a in like)))
    v = View(shape, dt, layout=T.Layout.LayoutLeft if left else T.Layout.LayoutRight)
    v._deflt = True
    return v


class Flat:
    """An operand as the kernels see it: `data` (numpy 1-D view or 1-D View
    alias of the storage) and its element strides per dimension."""

    __slots__ = ("data", "strides", "keep")

    def __init__(self, data, strides, keep=None):
        self.data, self.strides, self.keep = data, strides, keep


def flatten(x, write=False):
    """Flat storage of operand x (View or numpy array); non-contiguous
    arrays with negative strides are copied (write=True: refused, the caller
    writes through a temporary)."""
    np = _numpy()
    if isinstance(x, View) and (x._dev is not None or _device_module() is not None):
        if not _on_device_as_is(x):
            return None if write else _flatten_device(device_operand(x))
        return _flatten_device(x)
    a = host_array(x, write)
    isz = a.itemsize
    strides = tuple(s // isz for s in a.strides)
    if a.size == 0:
        return Flat(np.zeros(1, a.dtype), strides)
    if any(s < 0 for s in strides):
        if write:
            return None
        a = np.ascontiguousarray(a)
        strides = tuple(s // isz for s in a.strides)
    if a.ndim == 0:
        return Flat(a.reshape(1), ())
    span = 1 + sum((n - 1) * s for n, s in zip(a.shape, strides))
    flat = np.lib.stride_tricks.as_strided(a, shape=(span,), strides=(isz,),
                                           writeable=write or a.flags.writeable)
    return Flat(flat, strides, a)


def _flatten_device(v):
    """A 1-D View aliasing v's device memory (v made current there first;
    a subview gets device memory of its own here, as the library reads it whole)."""
    if getattr(v, "_parent", None) is not None and v._dev is None:
        v._parent._host(False)
        v._parent = None
    v._to_device(True)
    a = v._a
    isz = a.itemsize
    strides = tuple(s // isz for s in a.strides)
    flat = a.reshape(-1, order="A" if a.flags.f_contiguous else "C")
    alias = object.__new__(View)
    alias._a, alias._dt, alias.space, alias.trait = flat, v._dt, v.space, v.trait
    alias.layout, alias._deflt = T.Layout.LayoutRight, False
    alias._dev, alias._hv, alias._dv = v._dev, False, True
    alias._dl = DLHolder(flat, v._dt.code, v._dt.bits, v._dev.ptr,
                         v._dev.desc.device_type)
    return Flat(alias, strides, v)


def device_operand(x):
    """On GPU backends: a numpy operand, or a strided host subview, as a
    contiguous View (copied to the device at launch); elsewhere x itself."""
    if not on_gpu() or _on_device_as_is(x):
        return x
    from .._view import from_numpy
    return from_numpy(_numpy().ascontiguousarray(host_array(x)))


def _on_device_as_is(x):
    """A View that can live on the device without being copied apart from
    the View it was sliced from."""
    if not isinstance(x, View):
        return False
    f = x._a.flags
    return x._dev is not None or f.c_contiguous or f.f_contiguous


def broadcast_strides(shape, strides, out_shape):
    """Strides of an operand broadcast to out_shape (numpy rules): 0 for
    missing and length-1 dimensions."""
    r = len(out_shape) - len(shape)
    res = [0] * r
    for n, s, o in zip(shape, strides, out_shape[r:]):
        res.append(0 if n == 1 and o != 1 else s)
    return res


def grid(out_shape, stride_sets):
    """(rows, ncol, [(row_stride, col_stride)] per operand): out_shape merged
    into at most 2 dimensions; None when the strides do not allow it."""
    dims = list(out_shape)
    sets = [list(s) for s in stride_sets]
    # drop length-1 dimensions
    keep = [k for k, n in enumerate(dims) if n != 1]
    dims = [dims[k] for k in keep]
    sets = [[s[k] for k in keep] for s in sets]
    # Fortran-ordered output: walk the dimensions in reverse
    if len(dims) >= 2 and sets and sets[-1][0] < sets[-1][-1]:
        dims.reverse()
        for s in sets:
            s.reverse()
    k = len(dims) - 1
    while len(dims) > 2 and k > 0:
        if all(s[k - 1] == s[k] * dims[k] for s in sets):
            dims[k - 1:k + 1] = [dims[k - 1] * dims[k]]
            for s in sets:
                s[k - 1:k + 1] = [s[k]]
        k -= 1
    if len(dims) > 2:
        return None
    while len(dims) < 2:
        dims.append(1)
        for s in sets:
            s.append(0)
    return dims[0], dims[1], [tuple(s) for s in sets]


def contiguous(rows, ncol, pairs):
    """All operands addressed by the flat index i = row * ncol + col."""
    return all((rows == 1 or r == ncol) and (ncol == 1 or c == 1) for r, c in pairs)


def run_elementwise(module, family, dt, op, inputs, out):
    """Runs <family>_<dt> with `op` over out's elements: inputs (operands
    already of dtype dt, broadcastable to out.shape), out a View or array."""
    np = _numpy()
    shape = tuple(out.shape)
    if math.prod(shape) == 0:
        return out
    if on_gpu():
        load(module)
        inputs = [device_operand(x) for x in inputs]
    flats = [flatten(x) for x in inputs]
    fo = flatten(out, write=True)
    tmp = None
    if fo is None:        # negative-stride output: compute into a copy
        tmp = new_view(shape, T.dtype_of_numpy(np_dtype(out)))
        fo = flatten(tmp, write=True)
    sets = [broadcast_strides(x.shape, f.strides, shape) for x, f in zip(inputs, flats)]
    sets.append(list(fo.strides))
    g = grid(shape, sets)
    if g is None:         # strides that do not merge: use C-ordered copies
        inputs = [np.ascontiguousarray(np.broadcast_to(host_array(x), shape))
                  for x in inputs]
        res = new_view(shape, T.dtype_of_numpy(np_dtype(out)))
        res._a = np.ascontiguousarray(res._a)
        run_elementwise(module, family, dt, op, inputs, res)
        host_array(out, True)[...] = host_array(res)
        return out
    rows, ncol, pairs = g
    kw = {"op": op, "ncol": ncol, "contig": contiguous(rows, ncol, pairs)}
    names = ("a", "b")
    for name, f, (r, c) in zip(names, flats, pairs):
        kw[name], kw[name + "_row"], kw[name + "_col"] = f.data, r, c
    kw["out"], kw["out_row"], kw["out_col"] = fo.data, pairs[-1][0], pairs[-1][1]
    from .._dispatch import parallel_for
    parallel_for(rows * ncol, kernel(module, family, dt.name), **kw)
    if tmp is not None:
        host_array(out, True)[...] = host_array(tmp)
    return out


_OPERANDS = {"binary": ("x1", "x2"), "compare": ("x1", "x2")}


def user_message(e, public, module, family, dt, names=None):
    """The message of error e, raised running <family>_<dt> for pk.<public>,
    with the kernel's name and parameters replaced by the user's function
    and operands (names: kernel parameter -> user's name; default a, b ->
    x1, x2 or x)."""
    msg = str(e)
    kname = f"{family}_{SUFFIX[dt.name]}"
    if names is None:
        names = dict(zip(("a", "b"), _OPERANDS.get(family, ("x",))))
    for param, user in names.items():
        msg = msg.replace(f"argument '{param}'", f"argument '{user}'")
    msg = msg.replace(f"{kname}: ", f"pk.{public}: ", 1)
    return msg.replace(kname, f"pk.{public}")


def accepts(**aliases):
    """Decorator: f also takes PyKokkos' keyword spellings of its parameters
    (accepts(x=("view", "viewA")) lets pk.sum(viewA=v) mean pk.sum(v)) and
    the keyword profiler_name= (a Kokkos profiling label, not used)."""
    import functools
    import inspect

    def deco(f):
        sig = inspect.signature(f)
        names = list(sig.parameters)
        posonly = [n for n, p in sig.parameters.items()
                   if p.kind is inspect.Parameter.POSITIONAL_ONLY]
        rev = {a: p for p, alts in aliases.items() for a in alts}

        @functools.wraps(f)
        def g(*args, **kw):
            kw.pop("profiler_name", None)
            if not any(k in rev or k in posonly for k in kw):
                return f(*args, **kw)
            for k in [k for k in kw if k in rev]:
                p = rev[k]
                if p in kw or names.index(p) < len(args):
                    raise PkcArgumentError(f"pk.{f.__name__}: {p!r} given twice (as {k!r})")
                kw[p] = kw.pop(k)
            args = list(args)
            for p in posonly[len(args):]:
                if p not in kw:
                    break
                args.append(kw.pop(p))
            return f(*args, **kw)
        return g
    return deco
