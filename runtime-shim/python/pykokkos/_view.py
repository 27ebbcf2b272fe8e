"""pk.View: a Kokkos-style multidimensional array backed by numpy on host
backends (LayoutRight = C order, LayoutLeft = Fortran order) and by device
memory on GPU backends (cuda, hip), DualView-style: a host mirror (numpy)
plus a device copy with validity flags. See View's docstring."""
from ._abiconst import kDLCPU, kDLCUDA
from ._errors import PkcArgumentError, PkcRuntimeError, PkcValueError
from . import _types as T
from ._fusion import _q as _held, flush as _flush_held
from ._graph import _state as _gstate

_np = None
_ndarray = None   # numpy.ndarray once numpy is imported (View.__getitem__)


def numpy():
    """The numpy module, imported on first use (keeps `import pykokkos` fast)."""
    global _np, _ndarray
    if _np is None:
        import numpy as np
        _np, _ndarray = np, np.ndarray
    return _np


class DLHolder:
    """A DLTensor describing a numpy array, with the arrays it points into."""

    __slots__ = ("tensor", "addr", "shape", "strides", "array", "keep", "cap", "dtype")

    @classmethod
    def raw(cls, owner, data, shape, estrides, code, bits, device_type, device_id):
        """A DLTensor over foreign memory (device arrays): shape, strides in
        elements; owner (and its memory) is kept alive by the holder."""
        from . import _abi
        from ctypes import addressof, c_int64
        self = cls.__new__(cls)
        n = len(shape)
        self.array, self.keep, self.cap, self.dtype = owner, None, None, None
        self.shape = (c_int64 * max(n, 1))(*shape)
        self.strides = (c_int64 * max(n, 1))(*estrides)
        t = _abi.DLTensor()
        t.data = data or None
        t.device.device_type, t.device.device_id = device_type, device_id
        t.ndim = n
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, 1
        t.shape, t.strides = self.shape, self.strides
        self.tensor, self.addr = t, addressof(t)
        return self

    def __init__(self, arr, code, bits, data=None, device_type=None):
        """arr: numpy array giving shape/strides (and data, on the host);
        data/device_type: a device pointer and its DLDeviceType instead."""
        from . import _abi
        from ctypes import addressof, c_int64
        n = arr.ndim
        isz = arr.itemsize
        self.array, self.keep, self.cap, self.dtype = arr, None, None, arr.dtype
        self.shape = (c_int64 * max(n, 1))(*arr.shape)
        est = ([s // isz for s in arr.strides] if arr.size else
               _empty_strides(arr.shape))
        self.strides = (c_int64 * max(n, 1))(*est)
        t = _abi.DLTensor()
        if device_type is None:
            t.data = arr.__array_interface__["data"][0] or None
            t.device.device_type = _abi.kDLCPU
        else:
            t.data = data or None
            t.device.device_type = device_type
        t.ndim = n
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, 1
        t.shape = self.shape
        t.strides = self.strides
        self.tensor = t
        self.addr = addressof(t)


def _empty_strides(shape):
    """Element strides for an array with no elements (numpy may give it any,
    e.g. (0, 0)) that the kernels' layout check accepts for LayoutRight and
    LayoutLeft alike: C strides over the extents after the last zero extent,
    Fortran strides over those before the first; the kernel runs no
    iteration over it."""
    n = len(shape)
    est = [0] * n
    zeros = [k for k, e in enumerate(shape) if e == 0]
    acc = 1
    for k in range(n - 1, zeros[-1], -1):
        est[k], acc = acc, acc * shape[k]
    acc = 1
    for k in range(zeros[0]):
        est[k], acc = acc, acc * shape[k]
    return est


ALIGNMENT = 64   # bytes: Kokkos' HostSpace alignment (Kokkos_MEMORY_ALIGNMENT)


def zeroed(shape, dtype, order="C"):
    """A zeroed array for a View's host memory, its data aligned to ALIGNMENT
    bytes as Kokkos aligns its allocations (numpy's are 16-byte aligned, so a
    64-byte vector store straddles two cache lines: 3-8% on streaming kernels
    with AVX-512). empty + fill, not zeros: numpy backs large empty arrays
    with transparent huge pages (madvise), calloc's zeroed pages not."""
    np = numpy()
    dt = np.dtype(dtype)
    shape = tuple(shape)
    count = 1
    for e in shape:
        count *= e
    if count == 0:
        return np.empty(shape, dtype=dt, order=order)
    raw = np.empty(count * dt.itemsize + ALIGNMENT, dtype=np.uint8)
    skip = -raw.ctypes.data % ALIGNMENT
    a = raw[skip:skip + count * dt.itemsize].view(dt).reshape(shape, order=order)
    a.view(np.uint8).fill(0) if dt.fields is not None else a.fill(0)
    return a


def _shape_tuple(shape, what="pk.View"):
    """shape (an int, or a list/tuple of ints) as a tuple of ints >= 0;
    TypeError/ValueError naming `what` otherwise."""
    if hasattr(shape, "__index__") and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shp = tuple(shape)
    except TypeError:
        raise PkcArgumentError(f"{what}: shape must be an int or a list/tuple of ints, "
                               f"got {type(shape).__name__}") from None
    out = []
    for e in shp:
        if isinstance(e, bool) or not hasattr(e, "__index__"):
            raise PkcArgumentError(f"{what}: extents must be ints, got {e!r} in {list(shp)}")
        e = e.__index__()
        if e < 0:
            raise PkcValueError(f"{what}: negative extent {e} in shape {list(shp)}")
        out.append(e)
    if len(out) > 8:
        raise PkcValueError(f"{what}: rank must be 0..8, got shape {out}")
    return tuple(out)


# Classes of index keys that slice (a numpy view of the same or higher rank).
_SLICING = (slice, type(Ellipsis), type(None))


_LIVE = None          # weakref.WeakSet of live DeviceMem (set on first use)
_CLOSED = [False]     # True once device memory was released at exit


def _in_step(what):
    """Refuses a host access of a View inside a pk.Graph step."""
    if _gstate["on"] and not _gstate["exempt"]:
        from ._graph import refuse
        refuse(what)


def _release_all():
    """atexit (registered after the first GPU module loaded, so it runs before
    the runtime unloads modules / finalizes Kokkos): frees all device memory."""
    for d in list(_LIVE or ()):
        d.release()
    _CLOSED[0] = True


class DeviceMem:
    """Device memory of one View, from a GPU module's allocate/copy (plain
    device allocations through Kokkos' memory space, never managed memory).
    Freed with the View; after Kokkos is finalized freeing does nothing."""

    __slots__ = ("desc", "ptr", "nbytes", "_copy", "_free", "err", "__weakref__")

    def __init__(self, desc, nbytes):
        import ctypes as c
        self._bind(desc, None, nbytes)
        alloc = c.CFUNCTYPE(c.c_void_p, c.c_size_t, c.c_char_p, c.c_size_t)(desc.allocate)
        self._free = c.CFUNCTYPE(None, c.c_void_p)(desc.deallocate)
        p = alloc(max(nbytes, 1), self.err, len(self.err))
        if not p:
            raise MemoryError(f"pk.View: cannot allocate {nbytes} bytes of device "
                              f"memory: {self.err.value.decode(errors='replace')}")
        self.ptr = p
        global _LIVE
        if _LIVE is None:
            import atexit
            import weakref
            _LIVE = weakref.WeakSet()
            atexit.register(_release_all)
        _LIVE.add(self)

    def _bind(self, desc, ptr, nbytes):
        """desc's copy function, the address and size (no allocation)."""
        import ctypes as c
        self.desc, self.ptr, self.nbytes = desc, ptr, nbytes
        self.err = c.create_string_buffer(512)
        self._copy = c.CFUNCTYPE(c.c_int, c.c_void_p, c.c_int, c.c_void_p, c.c_int,
                                 c.c_size_t, c.c_char_p, c.c_size_t)(desc.copy)

    def release(self):
        p, self.ptr = self.ptr, None
        if p and not _CLOSED[0]:
            try:
                self._free(p)
            except Exception:
                pass

    def copy(self, dst, dst_dev, src, src_dev, nbytes):
        if self._copy(dst, dst_dev, src, src_dev, nbytes, self.err, len(self.err)):
            raise PkcRuntimeError("pk.View: device copy failed: "
                                  + self.err.value.decode(errors="replace"))

    def __del__(self):
        self.release()


def _device_module():
    """The descriptor of a loaded module for the current backend if that
    backend runs on a GPU, else None."""
    from ._loader import RUNTIME
    try:
        b = RUNTIME.backend()
    except ValueError:
        return None
    if not T.is_gpu_backend(b):
        return None
    for (src, mb), m in RUNTIME.modules.items():
        if mb == b and m.desc.device_type != kDLCPU and m.desc.allocate:
            return m.desc
    return None


def _unbind(view):
    """Drops cached bindings of view in every call plan (specializations and
    lambda plans included), so that the next kernel call rebinds it (and so
    pushes host writes to the device)."""
    from . import _dispatch
    _dispatch.forget(view)


class View:
    """View(shape, dtype=pk.float64, space=..., layout=..., trait=...).

    Host backends: the memory is a numpy array (zero-initialized, like
    Kokkos). Indexing, `len`, `shape`, `extent(k)`, `fill`, numpy interop
    (`np.asarray(v)`, `v.data`, `to_numpy()`) and DLPack all view that array.

    GPU backends (cuda, hip): the first kernel call that takes the View
    allocates device memory (plain device allocation, not managed memory) and
    copies the host data there; from then on the device copy is the master
    (DualView-like flags `_hv`/`_dv`: host valid, device valid).
    `np.asarray(v)`, `v.data` and `to_numpy()` copy the data back into the
    host mirror and return it; writes into that array reach the device before
    the next kernel (the View is marked host-modified). `v[i]` and `v[i] = x`
    work but copy to/from the device per access: SLOW, use them for a few
    elements only. `fill` writes through to the device. The View exposes
    `__cuda_array_interface__` (CuPy, PyTorch, Numba take it without a copy)
    and `__dlpack__` (through CuPy) while it lives on a CUDA device. A View of
    rank >= 2 whose layout was left to the default is stored LayoutLeft
    (Kokkos' GPU default) once a GPU kernel takes it: its host mirror becomes
    a Fortran-ordered array (same indexing, different strides)."""

    __slots__ = ("_a", "_dt", "_dl", "layout", "space", "trait", "_dev", "_hv",
                 "_dv", "_deflt", "_parent", "_keys", "_mirror", "__weakref__")

    def __new__(cls, shape=None, dtype=None, *args, **kw):
        """pk.View(shape, C, layout=pk.AoS or pk.SoA) of a @pk.classtype C is a
        ClassView (_classview.py); anything else a View."""
        if cls is View and isinstance(dtype, type) and getattr(dtype, "_pk_classtype", None):
            from ._classview import ClassView
            extra = set(kw) - {"layout", "space", "trait"}
            if args or extra:
                raise PkcArgumentError(f"pk.View of classtype {dtype.__name__}: takes shape, the "
                                "classtype and layout= only")
            return ClassView(shape, dtype, kw.get("layout"))
        return object.__new__(cls)

    def __init__(self, shape, dtype=None, space=T.MemorySpace.MemorySpaceDefault,
                 layout=T.Layout.LayoutDefault, trait=T.Trait.TraitDefault,
                 array=None):
        self._dt = T.as_dtype(T.real if dtype is None else dtype)   # pk.set_default_precision
        self._deflt = array is None and (layout is None or layout is T.Layout.LayoutDefault)
        if layout is None or layout is T.Layout.LayoutDefault:
            layout = T.Layout.LayoutRight
        if layout not in (T.Layout.LayoutRight, T.Layout.LayoutLeft):
            raise PkcValueError(f"pk.View: unsupported layout {layout!r}")
        self.layout, self.space, self.trait = layout, space, trait
        np = numpy()
        order = "F" if layout is T.Layout.LayoutLeft else "C"
        if array is None:
            array = zeroed(_shape_tuple(shape), self._dt.np_dtype, order)
        elif array.dtype.char in "lL" and array.dtype == self._dt.np_dtype:
            array = array.view(self._dt.np_dtype)   # int64 as 'q' (np_dtype)
        self._a = array
        self._dl = None
        self._dev = None      # DeviceMem once the View lives on a GPU
        self._hv = True       # host mirror holds the current data
        self._dv = False      # device copy holds the current data

    # -- host/device coherence (GPU backends) --
    def _to_device(self, left=False):
        """Makes the device copy current (allocating it on first use).
        left: the kernel wants LayoutLeft (GPU default layout): a View whose
        layout was left to the default is stored in Fortran order there."""
        d = self._dev
        p = getattr(self, "_parent", None)
        if d is None and p is not None:
            return self._to_device_in(p)
        if d is None:
            desc = _device_module()
            if desc is None:
                return False
            a = self._a
            if left and self._deflt and a.ndim > 1 and not a.flags.f_contiguous:
                self._a = numpy().asfortranarray(a)
                self.layout = T.Layout.LayoutLeft
            elif not (a.flags.c_contiguous or a.flags.f_contiguous):
                self._a = numpy().array(a, order="K")
            d = self._dev = DeviceMem(desc, self._a.nbytes)
            self._dl = DLHolder(self._a, self._dt.code, self._dt.bits, d.ptr,
                                desc.device_type)
            self._dv = False
        if not self._dv:
            d.copy(d.ptr, 1, self._a.ctypes.data, 0, self._a.nbytes)
            self._dv = True
        # kernels may write it from now on: the host mirror is stale until read
        self._hv = False
        return True

    def _to_device_in(self, p):
        """A subview on a GPU: a DLTensor into its parent p's device memory (as a
        Kokkos subview aliases its View), p made current there first; kernels
        may write p through it, so p's host mirror is stale afterwards. False
        (the subview gets a copy of its own) where the slice no longer lies in
        p's host mirror or p is not on the device."""
        desc = _device_module()
        if desc is None:
            return False
        base = p._a
        ok = self._rebase()
        off = self._a.ctypes.data - base.ctypes.data
        if not ok or off < 0 or off + self._a.nbytes > base.nbytes:
            self._parent = None      # not a slice of p's mirror any more: a copy of its own
            return self._to_device()
        p._to_device(False)
        if p._dev is None:
            return False
        isz = self._a.itemsize
        self._dl = DLHolder.raw(p, p._dev.ptr + off, self._a.shape,
                                tuple(st // isz for st in self._a.strides), self._dt.code,
                                self._dt.bits, desc.device_type, 0)
        return True

    def _rebase(self):
        """A subview whose parent's host mirror moved (made Fortran-ordered when
        a GPU kernel took the parent as LayoutLeft) takes its slice of the new
        mirror again (the slicing keys kept by _sub), so that it keeps
        aliasing the parent on host and device. False where it cannot."""
        p = self._parent
        if getattr(self, "_mirror", None) is p._a:   # sliced from the mirror p has now
            return True
        np = numpy()
        if np.shares_memory(self._a, p._a):
            self._mirror = p._a
            return True
        keys = getattr(self, "_keys", None)
        if not keys:
            return False
        a = p._a
        try:
            for k in keys:
                a = a[k]
        except (IndexError, TypeError, ValueError):
            return False
        if a.shape != self._a.shape or not np.shares_memory(a, p._a):
            return False
        self._a, self._dl, self._mirror = a, None, p._a
        self.layout = _slice_layout(a, self.layout)
        return True

    def _host(self, write):
        """The host mirror, current; write=True: the caller may modify it.
        Unbinds the View from cached call plans, so that the next kernel
        call rebinds it (pushing host writes, marking the mirror stale)."""
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("a host read or write of a View")
        if _held:   # launches held back for fusion write it
            _flush_held()
        p = getattr(self, "_parent", None)
        if p is not None and self._dev is None:   # a slice of p's host mirror
            p._host(write)
            self._rebase()
            return self._a
        d = self._dev
        if d is not None:
            if not self._hv:
                d.copy(self._a.ctypes.data, 0, d.ptr, 1, self._a.nbytes)
                self._hv = True
                _unbind(self)
            if write and self._dv:
                self._dv = False
                _unbind(self)
        return self._a

    def _host_overwrite(self):
        """The host mirror for a caller that overwrites all of it (an MPI
        receive): marked current, the device copy stale, nothing copied."""
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("a host write of a View")
        if _held:   # launches held back for fusion
            _flush_held()
        if self._dev is not None:
            self._hv, self._dv = True, False
            _unbind(self)
        return self._a

    # -- kernel argument support (see _dispatch) --
    def _dlpack_addr(self, left=False):
        if self._dev is not None or _device_module() is not None:
            if self._to_device(left):
                return self._dl.addr
        elif self._dl is not None and self._dl.array is not self._a:
            self._dl = None
        dl = self._dl
        if dl is None:
            dl = self._dl = DLHolder(self._a, self._dt.code, self._dt.bits)
        return dl.addr

    # -- shape --
    @property
    def shape(self):
        """The extents, a tuple (as numpy)."""
        return self._a.shape

    @property
    def dtype(self):
        """The element type: a pk dtype (pk.int32, ...; == its numpy dtype)."""
        return self._dt

    @property
    def ndim(self):
        """The rank (number of dimensions), as numpy's ndim."""
        return self._a.ndim

    @property
    def size(self):
        """The number of elements (product of the extents)."""
        return self._a.size

    @property
    def nbytes(self):
        return self._a.nbytes

    def extent(self, k):
        """The extent of dimension k (0 <= k < rank); ValueError otherwise, as
        PyKokkos raises."""
        s = self._a.shape
        try:
            d = k.__index__()
        except AttributeError:
            d = -1
        if not 0 <= d < len(s):
            raise PkcValueError(f"View.extent({k!r}): a View of rank {len(s)} has "
                                f"dimensions 0..{len(s) - 1}")
        return s[d]

    def __len__(self):
        s = self._a.shape
        if not s:
            raise PkcArgumentError("len() of a rank-0 View")
        return s[0]

    def __bool__(self):
        """A View of one element (any rank, rank 0 too) is that element's
        truth, as numpy's and PyKokkos' (`if pk.any(x, axis=0, keepdims=True)`);
        a larger one is true unless its first extent is 0, as before."""
        a = self._a
        if a.size == 1:
            return bool(self[(0,) * a.ndim] if a.ndim else self[()])
        return bool(a.shape[0]) if a.ndim else True

    # -- element access (host) --
    def __getitem__(self, idx):
        """v[i, j] / v[i][j]: an element (numpy scalar); v[i] of a View of
        rank >= 2 is a numpy array sharing v's memory (as PyKokkos' View,
        fast chained indexing); slices give a View sharing v's memory.
        Advanced (array) indexing gives a numpy copy. GPU-resident Views read
        (and for partial indexes, mark host-modified) the host mirror."""
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("View[...] (reading a View on the host)")
        if _held:   # launches held back for fusion write it
            _flush_held()
        if self._dev is None:
            r = self._a[idx]
        else:
            r = self._host(False)[idx]
        if r.__class__ is not _ndarray:
            return r
        c = idx.__class__
        if c is tuple:
            part = True          # only integers: a numpy sub-array
            for k in idx:
                kc = k.__class__
                if kc is not int:
                    if kc in _SLICING:
                        part = False
                    elif not hasattr(k, "__index__"):
                        return r          # advanced indexing: a copy
        elif c is int or (c not in _SLICING and hasattr(idx, "__index__")):
            part = True
        elif c in _SLICING:
            part = False
        else:
            return r                      # advanced indexing: a copy
        if self._dev is not None:         # the caller may write into it
            return self._host(True)[idx]
        return r if part else _sub(self, r, idx)

    def __setitem__(self, idx, value):
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("View[...] = ... (writing a View on the host)")
        if _held:   # launches held back for fusion write it
            _flush_held()
        if self._dev is None:
            self._a[idx] = value
        else:
            self._host(True)[idx] = value

    def __iter__(self):
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("iterating over a View on the host")
        if _held:   # launches held back for fusion write it
            _flush_held()
        return iter(self._host(False))

    def fill(self, value):
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("View.fill")
        if _held:   # launches held back for fusion write it
            _flush_held()
        self._a.fill(value)
        if self._dev is not None:
            self._hv, self._dv = True, False
            _unbind(self)

    # -- interop --
    @property
    def data(self):
        """The host memory as a numpy array (writes reach the View).
        Assigning to it writes through (PyKokkos' View.data is a plain
        attribute: `v.data += k`, `v.data = a` change the View's values)."""
        return self._host(True)

    @data.setter
    def data(self, value):
        a = self._host(True)
        if value is not a:
            numpy().copyto(a, value, casting="unsafe")

    def __copy__(self):
        """copy.copy(v): a View object sharing v's memory (as PyKokkos'
        View, whose copy shares its data array); v itself on a GPU."""
        if self._dev is not None:
            return self
        v = _new(View)
        v._a, v._dt, v._dl, v.layout, v.space, v.trait = (
            self._a, self._dt, None, self.layout, self.space, self.trait)
        v._dev, v._hv, v._dv, v._deflt = None, True, False, self._deflt
        return v

    def __deepcopy__(self, memo):
        """copy.deepcopy(v) is v itself, as PyKokkos' View (ExaMiniMD deep-
        copies objects holding Views and expects them shared)."""
        return self

    def to_numpy(self):
        return self._host(True)

    def __array__(self, dtype=None, copy=None):
        """numpy's array protocol: the View's memory (host backends) or host
        mirror (GPU backends) itself, or a copy where copy=True (NumPy 2's
        np.array(v) asks for one) or dtype needs one; copy=False with a dtype
        that needs a copy raises ValueError, as numpy does."""
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("numpy.array(View) (copying a View to the host)")
        if _held:   # launches held back for fusion write it
            _flush_held()
        a = self._host(True)
        if dtype is not None and numpy().dtype(dtype) != a.dtype:
            if copy is False:
                raise PkcValueError(f"pk.View.__array__: a {a.dtype} View cannot be seen as "
                                    f"{numpy().dtype(dtype)} without a copy")
            return a.astype(dtype)
        return a.copy() if copy else a

    def __buffer__(self, flags):
        """The buffer protocol (PEP 688, Python 3.12+): the host memory of
        __array__ (a GPU View's host mirror, made current; writes through it
        reach the device before the next kernel). mpi4py takes a View through
        it before DLPack, so a GPU View never hands device memory to an MPI
        that is not CUDA-aware (Open MPI segfaulted on an H200 host); pass
        cupy.asarray(v) for a CUDA-aware MPI."""
        return memoryview(self.__array__())

    @property
    def __cuda_array_interface__(self):
        d = self._dev
        if d is None or d.desc.device_type != kDLCUDA:
            raise AttributeError("__cuda_array_interface__: the View is not in "
                                 "CUDA device memory")
        self._to_device()
        a = self._a
        strides = None if a.flags.c_contiguous else a.strides
        return {"shape": a.shape, "typestr": a.dtype.str, "version": 3,
                "data": (d.ptr, False), "strides": strides}

    def __dlpack__(self, stream=None, **kw):
        if _gstate["on"]:   # inside a pk.Graph step
            _in_step("View.__dlpack__ (handing a View to another library)")
        if _held:   # launches held back for fusion write it
            _flush_held()
        if self._dev is None:
            return self._a.__dlpack__()
        import cupy
        return cupy.asarray(self).__dlpack__(stream=stream)

    def __dlpack_device__(self):
        if self._dev is None:
            return self._a.__dlpack_device__()
        return (self._dev.desc.device_type, 0)

    def astype(self, dtype):
        """A new View (a copy) of this View's values converted to dtype (any
        dtype pk.View accepts), with numpy's casting (float->int truncates)."""
        dt = T.as_dtype(dtype)
        a = self._host(False)
        order = "F" if self.layout is T.Layout.LayoutLeft else "C"
        return View(a.shape, dt, space=self.space, layout=self.layout
                    if self.layout is not T.Layout.LayoutStride else T.Layout.LayoutRight,
                    trait=self.trait, array=a.astype(dt.np_dtype, order=order))

    def set_precision(self, dtype):
        """PyKokkos' View.set_precision: converts the View in place to dtype."""
        new = self.astype(dtype)
        self._a, self._dt, self._dl = new._a, new._dt, None
        if self._dev is not None:
            self._dev, self._hv, self._dv = None, True, False
        _unbind(self)

    def __str__(self):
        return str(self._host(False))

    def __repr__(self):
        a = self._host(False)
        body = numpy().array2string(a, separator=", ", prefix="View(")
        lay = ", layout=LayoutLeft" if self.layout is T.Layout.LayoutLeft else ""
        where = "" if self._dev is None else ", device"
        return f"View({body}, dtype={self._dt.name}, shape={a.shape}{lay}{where})"

    def __format__(self, spec):
        return format(str(self), spec)


_new = object.__new__


def _sub(parent, arr, key=None):
    """A View over arr, a numpy view into parent's host memory (slicing with
    key: kept, with the keys of the parent's own slicing, for _rebase)."""
    v = _new(View)
    v._a, v._dt, v._dl, v.space, v.trait = arr, parent._dt, None, parent.space, parent.trait
    v._dev, v._hv, v._dv, v._deflt = None, True, False, False
    sliced = getattr(parent, "_parent", None) is not None
    v._parent = parent._parent if sliced else parent   # its memory, on host and device
    chain = getattr(parent, "_keys", None) if sliced else ()
    v._keys = chain + (key,) if key is not None and chain is not None else None
    v._mirror = getattr(parent, "_mirror", None) if sliced else parent._a
    lay = parent.layout
    v.layout = _slice_layout(arr, T.Layout.LayoutRight if lay is T.Layout.LayoutStride else lay)
    return v


def _slice_layout(arr, one_d):
    """The layout of a slice arr of a View's host mirror: LayoutStride where
    it is not contiguous, its order where it has rank 2 or more, else one_d."""
    f = arr.flags
    if not (f.c_contiguous or f.f_contiguous):
        return T.Layout.LayoutStride
    if arr.ndim > 1:
        return T.Layout.LayoutRight if f.c_contiguous else T.Layout.LayoutLeft
    return one_d


def from_numpy(array, layout=None):
    """Wraps a numpy array as a View without copying (host backends). On GPU
    backends the array is the View's host mirror until a kernel needs the
    View in another layout (rank >= 2, LayoutLeft): then the mirror becomes
    a Fortran-ordered copy; read results through the View, not the array."""
    np = numpy()
    a = np.asarray(array)
    dt = T.dtype_of_numpy(a.dtype)
    if dt is None:
        raise PkcArgumentError(f"pk.from_numpy: unsupported dtype {a.dtype}")
    deflt = layout is None
    if layout is None:
        layout = (T.Layout.LayoutLeft if a.ndim > 1 and a.flags.f_contiguous
                  and not a.flags.c_contiguous else T.Layout.LayoutRight)
    v = View(a.shape, dt, layout=layout, array=a)
    # no layout asked for: on a GPU backend whose kernels want LayoutLeft the
    # device copy (and so the host mirror) may be re-laid out in Fortran order
    v._deflt = deflt
    return v


from ._view_api import install as _install_api; _install_api(View)  # host View API (dialect item 6)
