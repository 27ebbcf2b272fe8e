"""Host View API of the dialect (item 6) added onto pk.View by install(View),
which _view.py calls once: rank() (also
usable as the `rank` attribute), copy(), resize(dim, n), float(v)/int(v) of
a one-element View (PyKokkos' scalar conversion); plus the functions
pk.subview, pk.deep_copy, pk.resize. Subviews are host views (numpy); on GPU
backends slicing a device-resident View returns the host mirror's slice."""
from ._errors import PkcArgumentError, PkcValueError
from . import _types as T

ALL = slice(None)   # Kokkos::ALL for pk.subview(v, pk.ALL, j)


class _Rank(int):
    """The rank of a View: an int that can also be called (v.rank == v.rank())."""

    __slots__ = ()

    def __call__(self):
        return int(self)


def _np():
    from ._view import numpy
    return numpy()


def _host(v, write):
    h = getattr(v, "_host", None)
    return h(write) if h is not None else v._a


def _unbind(v):
    from . import _dispatch
    _dispatch.forget(v)


def resize_view(v, *extents):
    """Kokkos::resize: new extents (all of them), keeping the overlapping
    contents; v is modified in place (its old memory is released)."""
    np = _np()
    old = _host(v, False)
    if len(extents) == 1 and not hasattr(extents[0], "__index__"):
        extents = tuple(extents[0])
    shp = tuple(int(e) for e in extents)
    if len(shp) != old.ndim:
        raise PkcValueError(f"pk.resize: the View has rank {old.ndim}, got "
                            f"{len(shp)} extent(s) {list(shp)}")
    if any(e < 0 for e in shp):
        raise PkcValueError(f"pk.resize: negative extent in {list(shp)}")
    order = "F" if v.layout is T.Layout.LayoutLeft else "C"
    from ._view import zeroed
    new = zeroed(shp, old.dtype, order)
    common = tuple(slice(0, min(a, b)) for a, b in zip(old.shape, shp))
    new[common] = old[common]
    v._a, v._dl = new, None
    if getattr(v, "_dev", None) is not None:   # GPU: re-allocate on next use
        v._dev, v._hv, v._dv = None, True, False
    _unbind(v)
    return v


def deep_copy(dst, src):
    """Kokkos::deep_copy: copies src (View, array or scalar) into dst (View or
    array); the extents must match exactly."""
    from ._graph import _state, refuse
    if _state["on"] and not _state["exempt"]:
        refuse("pk.deep_copy")
    np = _np()
    if not hasattr(src, "_a") and np.ndim(src) == 0:
        if hasattr(dst, "fill"):
            dst.fill(src)
            return
        raise PkcArgumentError(f"pk.deep_copy: cannot copy into {type(dst).__name__}")
    d = _host(dst, True) if hasattr(dst, "_a") else dst
    s = _host(src, False) if hasattr(src, "_a") else np.asarray(src)
    if not isinstance(d, np.ndarray):
        raise PkcArgumentError(f"pk.deep_copy: destination must be a View or numpy array, "
                               f"got {type(dst).__name__}")
    if tuple(d.shape) != tuple(s.shape):
        raise PkcValueError(f"pk.deep_copy: extents differ: destination "
                            f"{list(d.shape)}, source {list(s.shape)}")
    np.copyto(d, s, casting="same_kind")
    if hasattr(dst, "_a"):
        _unbind(dst)


def create_mirror(src, copy=False):
    """Kokkos::create_mirror: a new host View of src's extents, dtype and
    layout (zeros; src's elements too where copy is true); the host side of a
    pk.deep_copy pair."""
    from ._view import View
    from ._types import MemorySpace
    if not hasattr(src, "_a"):
        raise PkcArgumentError(f"pk.create_mirror: expected a View, got {type(src).__name__}")
    h = View(list(src.shape), src.dtype, space=MemorySpace.HostSpace,
             layout=getattr(src, "layout", None))
    if copy:
        deep_copy(h, src)
    return h


def create_mirror_view(src, copy=False):
    """Kokkos::create_mirror_view: src itself, since every View's elements are
    reachable from Python on the host (a View in device memory is copied
    back when read, as Kokkos' HostMirror would be after a deep_copy)."""
    if not hasattr(src, "_a"):
        raise PkcArgumentError(f"pk.create_mirror_view: expected a View, got "
                               f"{type(src).__name__}")
    return src


def subview(v, *idx):
    """pk.subview(v, i, slice(None), pk.ALL, (b, e), ...): a View of lower or
    equal rank sharing v's memory (ints drop a dimension, (b, e) pairs are
    half-open ranges as in Kokkos::pair)."""
    key = tuple(slice(i[0], i[1]) if isinstance(i, tuple) else i for i in idx)
    r = v[key]
    np = _np()
    if r.__class__ is np.ndarray and getattr(v, "_dev", None) is None \
            and np.may_share_memory(r, v._a):
        from ._view import _sub
        return _sub(v, r, key)
    return r


def _scalar(kind):
    """float(v) / int(v) of a View with one element (rank 0, or rank 1 of
    extent 1, as PyKokkos' View; so math.sqrt(v) works): its value."""
    def conv(self):
        a = _host(self, False)
        if a.ndim > 1 or a.size != 1:
            raise PkcArgumentError(f"only single-element Views can be converted to Python "
                                   f"scalars ({kind.__name__}() of a View of shape {a.shape})")
        return kind(a.reshape(())[()])
    conv.__name__ = f"__{kind.__name__}__"
    return conv


def install(View):
    """Adds the host View API onto View (methods View itself lacks are added;
    View.__getitem__ itself returns Views sharing memory for slices)."""
    View.rank = property(lambda self: _Rank(self._a.ndim),
                         doc="rank (also callable: v.rank())")

    def copy(self):
        """A new View with a copy of the data (same dtype and layout)."""
        a = _host(self, False)
        order = "F" if self.layout is T.Layout.LayoutLeft else "C"
        lay = self.layout if self.layout is not T.Layout.LayoutStride else T.Layout.LayoutRight
        return View(a.shape, self._dt, space=self.space, layout=lay,
                    trait=self.trait, array=_np().array(a, order=order))

    def resize(self, dim, n):
        """Changes extent dim to n, keeping the overlapping contents."""
        shp = list(self._a.shape)
        if not 0 <= dim < len(shp):
            raise IndexError(f"View.resize: dimension {dim} out of range for rank {len(shp)}")
        shp[dim] = n
        resize_view(self, *shp)

    for name, fn in (("copy", copy), ("resize", resize), ("__float__", _scalar(float)),
                     ("__int__", _scalar(int))):
        if name not in View.__dict__:
            setattr(View, name, fn)
    _install_operators(View)
    return View


# Arithmetic operators of Views run the array library's ufuncs (numpy
# broadcasting and result dtypes; a new View). `==` and `!=` with a number,
# a View or a numpy array compare element by element (a bool View), as
# PyKokkos' View.__eq__ does (`pk.sum(labels == k)`); with anything else
# (None, a string) they are identity. Hashing stays by identity (Views are
# dictionary keys in call plans). <, > ...: pk.less, pk.greater.
_BINARY_OPERATORS = {"add": "add", "sub": "subtract", "mul": "multiply",
                     "truediv": "true_divide", "floordiv": "floor_divide",
                     "mod": "remainder", "pow": "power", "matmul": "matmul",
                     "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
                     "lshift": "left_shift", "rshift": "right_shift"}
_UNARY_OPERATORS = {"neg": "negative", "pos": "positive", "abs": "absolute",
                    "invert": "invert"}


def _operator(fname, reflected=False, inplace=False):
    def op(self, other):
        from . import lib
        f = getattr(lib, fname)
        if inplace:
            return f(self, other, out=self)
        return f(other, self) if reflected else f(self, other)
    return op


def _comparison(fname, identity):
    def op(self, other):
        np = _np()
        if not (isinstance(other, (int, float, bool, np.number, np.bool_, np.ndarray)) or
                hasattr(other, "_a")):   # a View
            return NotImplemented
        from . import lib
        return getattr(lib, fname)(self, other)
    op.__name__ = f"__{identity}__"
    return op


def _unary_operator(fname):
    def op(self):
        from . import lib
        return getattr(lib, fname)(self)
    return op


def _install_operators(View):
    for dunder, fname in _BINARY_OPERATORS.items():
        setattr(View, f"__{dunder}__", _operator(fname))
        setattr(View, f"__r{dunder}__", _operator(fname, reflected=True))
        if fname != "matmul":
            setattr(View, f"__i{dunder}__", _operator(fname, inplace=True))
    for dunder, fname in _UNARY_OPERATORS.items():
        setattr(View, f"__{dunder}__", _unary_operator(fname))
    View.__eq__ = _comparison("equal", "eq")
    View.__ne__ = _comparison("not_equal", "ne")
    View.__hash__ = object.__hash__
