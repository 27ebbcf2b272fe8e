"""pk.View: a Kokkos-style multidimensional array backed by numpy on host
backends (LayoutRight = C order, LayoutLeft = Fortran order)."""
from . import _types as T

_np = None


def numpy():
    """The numpy module, imported on first use (keeps `import pykokkos` fast)."""
    global _np
    if _np is None:
        import numpy as np
        _np = np
    return _np


class DLHolder:
    """A DLTensor describing a numpy array, with the arrays it points into."""

    __slots__ = ("tensor", "addr", "shape", "strides", "array")

    def __init__(self, arr, code, bits):
        from . import _abi
        from ctypes import addressof, c_int64
        n = arr.ndim
        isz = arr.itemsize
        self.array = arr
        self.shape = (c_int64 * max(n, 1))(*arr.shape)
        self.strides = (c_int64 * max(n, 1))(*[s // isz for s in arr.strides])
        t = _abi.DLTensor()
        t.data = arr.__array_interface__["data"][0] or None
        t.device.device_type = _abi.kDLCPU
        t.ndim = n
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, 1
        t.shape = self.shape
        t.strides = self.strides
        self.tensor = t
        self.addr = addressof(t)


def _shape_tuple(shape):
    if isinstance(shape, int) or hasattr(shape, "__index__"):
        return (int(shape),)
    return tuple(int(s) for s in shape)


class View:
    """View(shape, dtype=pk.float64, space=..., layout=..., trait=...).

    Host memory is a numpy array (zero-initialized, like Kokkos). Indexing,
    `len`, `shape`, `extent(k)`, `fill`, numpy interop (`np.asarray(v)`,
    `v.data`, `to_numpy()`) and DLPack (`__dlpack__`) all view that array."""

    __slots__ = ("_a", "_dt", "_dl", "layout", "space", "trait", "__weakref__")

    def __init__(self, shape, dtype=T.float64, space=T.MemorySpace.MemorySpaceDefault,
                 layout=T.Layout.LayoutDefault, trait=T.Trait.TraitDefault,
                 array=None):
        self._dt = T.as_dtype(dtype)
        if layout is None or layout is T.Layout.LayoutDefault:
            layout = T.Layout.LayoutRight
        if layout not in (T.Layout.LayoutRight, T.Layout.LayoutLeft):
            raise ValueError(f"pk.View: unsupported layout {layout!r}")
        self.layout, self.space, self.trait = layout, space, trait
        np = numpy()
        order = "F" if layout is T.Layout.LayoutLeft else "C"
        if array is None:
            shp = _shape_tuple(shape)
            if not 1 <= len(shp) <= 8:
                raise ValueError(f"pk.View: rank must be 1..8, got shape {shp}")
            array = np.zeros(shp, dtype=self._dt.np_dtype, order=order)
        self._a = array
        self._dl = None

    # -- kernel argument support (see _dispatch) --
    def _dlpack_addr(self):
        dl = self._dl
        if dl is None:
            dl = self._dl = DLHolder(self._a, self._dt.code, self._dt.bits)
        return dl.addr

    # -- shape --
    @property
    def shape(self):
        return self._a.shape

    @property
    def dtype(self):
        return self._dt

    @property
    def rank(self):
        return self._a.ndim

    def extent(self, k):
        return self._a.shape[k]

    def __len__(self):
        return self._a.shape[0]

    # -- element access --
    def __getitem__(self, idx):
        return self._a[idx]

    def __setitem__(self, idx, value):
        self._a[idx] = value

    def __iter__(self):
        return iter(self._a)

    def fill(self, value):
        self._a.fill(value)

    # -- interop --
    @property
    def data(self):
        return self._a

    def to_numpy(self):
        return self._a

    def __array__(self, dtype=None):
        return self._a if dtype is None else self._a.astype(dtype, copy=False)

    def __dlpack__(self, stream=None):
        return self._a.__dlpack__()

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()

    def __repr__(self):
        return (f"pk.View(shape={list(self._a.shape)}, dtype={self._dt!r}, "
                f"layout={self.layout!r})")


def from_numpy(array, layout=None):
    """Wraps a numpy array as a View without copying."""
    np = numpy()
    a = np.asarray(array)
    dt = T.dtype_of_numpy(a.dtype)
    if dt is None:
        raise TypeError(f"pk.from_numpy: unsupported dtype {a.dtype}")
    if layout is None:
        layout = (T.Layout.LayoutLeft if a.ndim > 1 and a.flags.f_contiguous
                  and not a.flags.c_contiguous else T.Layout.LayoutRight)
    return View(a.shape, dt, layout=layout, array=a)
