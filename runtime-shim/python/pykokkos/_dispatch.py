"""Policies and parallel_for/_reduce/_scan: kernel lookup and fast calls.

Each kernel gets, on first use, a *call plan*: a small Python function
generated for its parameter list that writes the arguments into a
preallocated `void *args[]` (reusing the DLTensor of a View it saw last time),
sets the policy bounds and calls the kernel's C entry point with fixed
addresses. Plans are cached per (pattern, function) and dropped when the
backend changes.
"""
from collections import namedtuple as _namedtuple

from ._abiconst import (ACCESS_WRITE, KERNEL_INFERRED, LAYOUT_DEFAULT, LAYOUT_LEFT,
                        PARAM_FROM_GLOBAL, PARAM_LAYOUT_DEFAULT, PATTERN_MAIN, POLICY_RANGE,
                        kDLCPU, kDLCUDA, kDLCUDAManaged)
from ._errors import (PkcArgumentError, PkcIndexError, PkcKernelError, PkcOverflowError,
                      PkcRuntimeError, PkcValueError, PkcZeroDivisionError)
from . import _types as T
from ._loader import RUNTIME
from ._view import View, DLHolder, numpy
from ._policies import (RangePolicy, MDRangePolicy, TeamPolicy, AUTO, PerTeam,  # noqa: F401
                        range_of)
from . import _fusion, _graph
from ._graph import _state as _gstate
from ._fusion import _q as _held, flush as _flush_held, ChainRun as _Chain

class _C:
    def m(self):
        pass


_Method = type(_C().m)
_Function = type(_C.m)
FOR, REDUCE, SCAN, MAIN = 0, 1, 2, 3
_PATTERN_WORD = ("parallel_for", "parallel_reduce", "parallel_scan", "pk.execute")
_plans = ({}, {}, {}, {})   # per pattern: python function (class) -> run(policy, kw)


# Results of the reducers whose accumulator has fields (Kokkos' ValLocScalar,
# MinMaxScalar, MinMaxLocScalar): attributes as PyKokkos', and tuples, so that
# `val, loc = pk.parallel_reduce(...)` unpacks them.
ValLoc = _namedtuple("ValLoc", "val loc")                 # pk.MaxLoc / pk.MinLoc
MinMax = _namedtuple("MinMax", "min_val max_val")         # pk.MinMax
MinMaxLoc = _namedtuple("MinMaxLoc", "min_val min_loc max_val max_loc")   # pk.MinMaxLoc


# A View slot bound to nothing reusable: every argument (None included) is
# bound afresh, never skipped as "the same object as last time".
UNBOUND = object()


_plans_of_backend = {}   # backend -> its _plans, for policies on another host space


def reset_plans():
    for d in _plans:
        d.clear()
    for ps in _plans_of_backend.values():
        for d in ps:
            d.clear()


def other_host_backend(space):
    """The host backend a policy's (or pk.execute's) space names when it is not
    the one running: pk.Serial while OpenMP runs, or pk.OpenMP while Serial runs
    (PyKokkos runs such a kernel in that space: ExaMiniMD fills its lattice
    with a Serial reduction whose accumulator is a running index). None
    otherwise: other spaces run on the backend (GPU policies on a host build
    run on the host, as before)."""
    if space is None:
        return None
    sp = getattr(space, "space", space)          # a pk.ExecutionSpaceInstance
    want = {"Serial": "serial", "OpenMP": "openmp"}.get(getattr(sp, "name", None))
    cur = RUNTIME.backend()
    if want is None or want == cur or cur not in ("serial", "openmp"):
        return None
    return want


class InBackend:
    """with InBackend(b): kernels run from the module built for host backend b,
    with their own call plans (both host modules share one Kokkos in one process)."""

    def __init__(self, backend):
        self.backend = backend

    def __enter__(self):
        global _plans
        if _held:
            _flush_held()
        self.saved = (_plans, RUNTIME.policy_backend)
        _plans = _plans_of_backend.setdefault(self.backend, ({}, {}, {}, {}))
        RUNTIME.policy_backend = self.backend

    def __exit__(self, *exc):
        global _plans
        _plans, RUNTIME.policy_backend = self.saved
        return False


def forget(obj):
    """Drops obj (a View after resize, a destroyed pool) from every plan's
    argument cache, so the next call binds it afresh."""
    for d in _plans:
        for run in d.values():
            for r in (run.all_runs() if hasattr(run, "all_runs") else (run,)):
                last = getattr(getattr(r, "plan", None), "last", None) or ()
                for i, o in enumerate(last):
                    if o is obj:
                        last[i] = UNBOUND


# ---- policies (see _policies) ---------------------------------------------

_POLICY_WORD = ("range", "mdrange", "team")
_POLICY_NEED = ("an int or a pk.RangePolicy", "a pk.MDRangePolicy", "a pk.TeamPolicy")
_POLICY_CLS = (RangePolicy, MDRangePolicy, TeamPolicy)


# ---- argument checks (slow paths) -----------------------------------------

def _int_range(code, bits):
    """(lowest, highest) value of a DLPack integer dtype."""
    return (0, (1 << bits) - 1) if code == T.DL_UINT else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def _dtname(code, bits):
    if code == T.DL_BOOL or (code, bits) == (T.DL_BOOL, 8):
        return "bool"
    return {T.DL_INT: "int", T.DL_UINT: "uint", T.DL_FLOAT: "float"}.get(
        code, f"code{code}_") + str(bits)


def _as_array(v):
    """A numpy view of a kernel argument (View, ndarray, DLPack, array interface)."""
    np = numpy()
    if isinstance(v, np.ndarray):
        return v
    if hasattr(v, "__array_interface__") or hasattr(v, "__array__"):
        return np.asarray(v)
    if hasattr(v, "__dlpack__"):
        return np.from_dlpack(v)
    return None


class Plan:
    """Static facts about one kernel plus its preallocated ctypes buffers."""

    def __init__(self, kname, kdesc, module):
        import ctypes
        from . import _abi
        self.kname, self.kdesc, self.module = kname, kdesc, module
        self.glob = {}     # the kernel's module globals (PKC_PARAM_FROM_GLOBAL params)
        n = kdesc.nparams
        self.params = [kdesc.params[i] for i in range(n)]
        self.names = [p.name.decode() for p in self.params]
        self.args = (ctypes.c_void_p * max(n, 1))()
        self.last = [UNBOUND] * n       # the View each View slot holds
        self.arrs = [None] * n          # DLHolder for raw arrays, per slot
        self.slots = [None] * n         # ctypes scalar per scalar slot
        for i, p in enumerate(self.params):
            if p.kind not in (_abi.PARAM_VIEW, _abi.PARAM_CLASS_VIEW):   # a pkc_value slot
                v = _abi.pkc_value()
                c = p.dtype_code
                typ = (ctypes.c_uint64 if p.kind == _abi.PARAM_POOL else
                       ctypes.c_double if c == T.DL_FLOAT else
                       ctypes.c_uint64 if c == T.DL_UINT else ctypes.c_int64)
                self.slots[i] = typ.from_buffer(v)   # keeps v alive
                self.args[i] = ctypes.addressof(v)
        self.policy = _abi.pkc_policy()
        self.policy.kind = _abi.POLICY_RANGE
        self.policy.rank = 1
        off_b = _abi.pkc_policy.begin.offset
        off_e = _abi.pkc_policy.end.offset
        self.pbegin = ctypes.c_int64.from_buffer(self.policy, off_b)
        self.pend = ctypes.c_int64.from_buffer(self.policy, off_e)
        # MaxLoc/MinLoc: value, location; MinMax: min, max; MinMaxLoc: min,
        # its location, max, its location (pkc_abi.h's pkc_reducer)
        self.result = (_abi.pkc_value * 4)()
        size = ctypes.sizeof(_abi.pkc_value)
        rc = kdesc.result_code
        rtyp = (ctypes.c_double if rc == T.DL_FLOAT else
                ctypes.c_uint64 if rc == T.DL_UINT else ctypes.c_int64)
        self.rslots = [rtyp.from_buffer(self.result, k * size) for k in range(4)]   # values
        self.rlocs = [ctypes.c_int64.from_buffer(self.result, k * size) for k in range(4)]
        self.rslot, self.rloc = self.rslots[0], self.rlocs[1]   # the value, MaxLoc's location
        self.rbool = rc == T.DL_BOOL
        self.err = ctypes.create_string_buffer(1024)
        self.dev = module.desc.device_type != _abi.kDLCPU   # GPU module
        self.post = []       # (host array, staging, DeviceMem) to copy back after a call
        self.stage = [None] * n   # per slot: reusable device staging memory
        self.fn = _abi.KERNEL_FN(kdesc.fn)
        A = ctypes.addressof
        self.fixed = (A(self.args), A(self.policy), A(self.result), A(self.err),
                      len(self.err))

    def expected(self, p):
        return f"{_dtname(p.dtype_code, p.dtype_bits)} View{p.rank}D"

    def _rebind_slice(self, i, v):
        """A slice of a View that a GPU kernel moved to LayoutLeft follows its
        parent's new host mirror (View._rebase); a slice contiguous before
        and strided now (a row of a column-major View) would need a copy,
        which could not alias the parent: refused with the layout to ask for."""
        was = v._a.flags.c_contiguous or v._a.flags.f_contiguous
        if v._rebase() and was and not (v._a.flags.c_contiguous or v._a.flags.f_contiguous):
            raise PkcArgumentError(
                f"{self.kname}: argument '{self.names[i]}': a slice of a View that the GPU "
                f"keeps in LayoutLeft (column-major) order, which makes this slice strided; "
                f"give the parent View layout=pk.LayoutRight (pk.View(shape, dtype, "
                f"layout=pk.LayoutRight), or pk.ViewTypeInfo(layout=pk.LayoutRight) on the "
                f"decorator) so that its rows stay contiguous")

    def bind(self, i, v):
        """Points View slot i at v's DLTensor after checking dtype and rank."""
        p = self.params[i]
        if p.kind == 3:   # _abi.PARAM_CLASS_VIEW
            return self.bind_class_view(i, p, v)
        if v.__class__ is View or isinstance(v, View):
            dt = v._dt
            if not _dtype_ok(p, dt.code, dt.bits) or v._a.ndim != p.rank:
                self._bad_view(i, f"{dt.name} View{v._a.ndim}D")
            want_left = p.layout == LAYOUT_LEFT or (self.dev and p.layout == LAYOUT_DEFAULT)
            # a View of the default layout takes the kernel's at its first use on
            # a GPU; once there (or a slice of a View there) it keeps its order
            if self.dev and getattr(v, "_parent", None) is not None:
                self._rebind_slice(i, v)
            if not (v._a.flags.c_contiguous or v._a.flags.f_contiguous):
                # a strided slice or an AoS field: generated Views are contiguous
                return self._bind_strided(i, p, v._host(p.access & ACCESS_WRITE)
                                          if self.dev else v._a)
            placed = not (self.dev and v._deflt and v._dev is None)
            if p.rank > 1 and placed and _other_order(v._a, want_left):
                # TypeError: a kernel typed per call builds a specialization for it
                have = "LayoutRight" if want_left else "LayoutLeft"
                raise (LayoutMismatch if p.flags & PARAM_LAYOUT_DEFAULT else PkcArgumentError)(
                    f"{self.kname}: argument '{self.names[i]}': expected a "
                    + ("LayoutLeft" if want_left else "LayoutRight")
                    + f" View, got a {have} one; declare the layout on the "
                    f"@pk.workunit, @pk.functor or @pk.workload decorator "
                    f"({self.names[i]}=pk.ViewTypeInfo(layout=pk.{have}))")
            self.args[i] = v._dlpack_addr(self.dev and _want_left(p, True))
            # a subview on a GPU points into its parent's device memory: bound
            # afresh at each call, so the parent is made current first
            self.last[i] = UNBOUND if self.dev and getattr(v, "_parent", None) else v
            return
        if self.dev:
            return self.bind_device(i, v)
        a = _as_array(v)
        if a is None:
            self._bad_view(i, type(v).__name__)
        h = self.arrs[i]
        if (h is not None and h.array is a and a.shape == tuple(h.shape[:a.ndim])
                and a.dtype == h.dtype):   # the dtype seen at binding (x.dtype = ... changes it)
            self.args[i] = h.addr
            self.last[i] = UNBOUND   # the slot no longer holds the View bound before
            return
        self._check_host_array(i, p, a)
        dt = T.dtype_of_numpy(a.dtype)
        if dt is None or not _dtype_ok(p, dt.code, dt.bits) or a.ndim != p.rank:
            self._bad_view(i, f"{a.dtype} array of rank {a.ndim}")
        if a.ndim > 1 and a.size > 1 and _other_order(a, p.layout == LAYOUT_LEFT):
            # TypeError: a kernel typed per call builds a specialization for it
            left = p.layout == LAYOUT_LEFT
            raise (LayoutMismatch if p.flags & PARAM_LAYOUT_DEFAULT else PkcArgumentError)(
                f"{self.kname}: argument '{self.names[i]}': expected a "
                + ("Fortran-ordered (LayoutLeft)" if left else "C-ordered (LayoutRight)")
                + f" array; pass np.{'asfortranarray' if left else 'ascontiguousarray'}"
                f"(...) of it, or declare {self.names[i]}=pk.ViewTypeInfo(layout=pk."
                f"{'LayoutRight' if left else 'LayoutLeft'}) on the kernel's decorator")
        if a.itemsize and any(s % a.itemsize for s in a.strides):
            raise PkcValueError(f"{self.kname}: argument '{self.names[i]}': strides "
                                "are not a multiple of the element size")
        if not (a.flags.c_contiguous or a.flags.f_contiguous):
            return self._bind_strided(i, p, a)
        h = self.arrs[i] = DLHolder(a, p.dtype_code, p.dtype_bits)
        self.args[i] = h.addr
        self.last[i] = UNBOUND

    def _bind_strided(self, i, p, a):
        """Slot i for a strided host array a (a column or block slice, as
        PyKokkos' subviews): the kernel gets a contiguous copy, copied back
        into a after the call if the kernel writes the parameter."""
        if self.dev:
            self.args[i] = self._stage(i, p, a)
        else:
            s = (numpy().asfortranarray(a) if p.layout == LAYOUT_LEFT and a.ndim > 1
                 else numpy().ascontiguousarray(a))
            h = self.arrs[i] = DLHolder(s, p.dtype_code, p.dtype_bits)
            self.args[i] = h.addr
            if p.access & ACCESS_WRITE and s.size:
                self.post.append((a, s, None))
        self.last[i] = UNBOUND

    def bind_class_view(self, i, p, v):
        """Points slot i at v's pkc_class_view (a View of classtype values; the
        kernel checks its fields and picks the instantiation of its layout)."""
        from ._classview import ClassView
        from . import _abi
        if not isinstance(v, ClassView):
            raise PkcArgumentError(f"{self.kname}: argument '{self.names[i]}': expected a View of "
                            f"a @pk.classtype (pk.View(shape, C, layout=pk.AoS or pk.SoA)), "
                            f"got {type(v).__name__}")
        want = {_abi.LAYOUT_AOS: T.Layout.AoS, _abi.LAYOUT_SOA: T.Layout.SoA}.get(p.layout)
        if want is not None and v.layout is not want:
            raise PkcArgumentError(f"{self.kname}: argument '{self.names[i]}': expected a "
                            f"{want.name} View, got {v.layout.name}; pk.to_layout converts")
        self.args[i] = (v._device_addr(self.module.desc) if self.dev else
                        v._class_view_addr())
        self.last[i] = v

    def _check_host_array(self, i, p, a):
        """Host arrays a kernel cannot take as they are: another byte order
        (the kernel would read garbage), or read-only memory the kernel writes
        (numpy's setflags(write=False), arrays over bytes, read-only memmaps)."""
        from . import _abi
        if not a.dtype.isnative:
            raise PkcArgumentError(f"{self.kname}: argument '{self.names[i]}': dtype {a.dtype.str} "
                                   "is not in the machine's byte order; pass "
                                   "a.astype(a.dtype.newbyteorder('='))")
        if p.access & _abi.ACCESS_WRITE and not a.flags.writeable:
            raise PkcArgumentError(f"{self.kname}: argument '{self.names[i]}' is read-only but the "
                                   "kernel writes it; pass a writable array (np.array(x) copies)")

    # -- GPU modules: device arrays zero-copy, host arrays staged ----------
    def bind_device(self, i, v):
        """Slot i of a GPU kernel: CUDA arrays (__cuda_array_interface__,
        else __dlpack__ on the device) pass zero-copy; host arrays are copied
        into device staging memory and back after the call if written."""
        p = self.params[i]
        h = self.arrs[i]
        if h is not None and h.array is v and h.keep is None:
            self.args[i] = h.addr   # same device array as last call
            self.last[i] = UNBOUND
            return
        self.last[i] = UNBOUND
        dev = _device_of(v)
        if dev is not None and dev[0] != kDLCPU:     # not on the host
            h = self.arrs[i] = self._device_holder(i, v, dev)
            self.args[i] = h.addr
            return
        a = _host_array(v)
        if a is None:
            self._bad_view(i, type(v).__name__ + " (neither a host array nor "
                           "an array on this module's device)")
        self._check_host_array(i, p, a)
        dt = T.dtype_of_numpy(a.dtype)
        if dt is None or not _dtype_ok(p, dt.code, dt.bits) or a.ndim != p.rank:
            self._bad_view(i, f"{a.dtype} array of rank {a.ndim}")
        self.args[i] = self._stage(i, p, a)

    def _device_holder(self, i, v, dev):
        p, desc = self.params[i], self.module.desc
        if dev[0] not in (desc.device_type, kDLCUDAManaged if desc.device_type == kDLCUDA else -1) \
                or dev[1] != 0:
            raise PkcValueError(f"{self.kname}: argument '{self.names[i]}': the array "
                                f"is on device {dev} (DLPack type, id), but this "
                                f"{(desc.backend or b'').decode()} module runs on "
                                f"device ({desc.device_type}, 0)")
        try:
            cai = v.__cuda_array_interface__
        except Exception:   # AttributeError; torch: RuntimeError (requires_grad)
            cai = None
        if cai is not None:
            np = numpy()
            dt = np.dtype(cai["typestr"])
            shape = tuple(int(x) for x in cai["shape"])
            st = cai.get("strides")
            if st is None:
                est, acc = [0] * len(shape), 1
                for k in range(len(shape) - 1, -1, -1):
                    est[k] = acc
                    acc *= shape[k]
            else:
                if any(x % dt.itemsize for x in st):
                    raise PkcValueError(f"{self.kname}: argument '{self.names[i]}': "
                                        "strides are not a multiple of the element size")
                est = [x // dt.itemsize for x in st]
            t = T.dtype_of_numpy(dt)
            if t is None or not _dtype_ok(p, t.code, t.bits) or len(shape) != p.rank:
                self._bad_view(i, f"{dt} device array of rank {len(shape)}")
            return DLHolder.raw(v, cai["data"][0], shape, est, p.dtype_code,
                                p.dtype_bits, desc.device_type, 0)
        if not hasattr(v, "__dlpack__"):
            self._bad_view(i, type(v).__name__)
        h, cap = _from_dlpack_capsule(v)
        t = h.tensor
        code, bits = t.dtype.code, t.dtype.bits
        if not _dtype_ok(p, code, bits) or t.ndim != p.rank:
            self._bad_view(i, f"{_dtname(code, bits)} device array of rank {t.ndim}")
        h.array = v
        return h

    def _stage(self, i, p, a):
        """Copies host array a into slot i's device staging memory (reused
        while large enough); queues the copy back if the kernel writes it."""
        from ._view import DeviceMem
        np = numpy()
        left = _want_left(p, True) and a.ndim > 1
        s = np.asfortranarray(a) if left else np.ascontiguousarray(a)
        d = self.stage[i]
        if d is None or d.ptr is None or d.nbytes < s.nbytes:
            d = self.stage[i] = DeviceMem(self.module.desc, s.nbytes)
        if s.nbytes:
            d.copy(d.ptr, 1, s.ctypes.data, 0, s.nbytes)
        h = DLHolder(s, p.dtype_code, p.dtype_bits, d.ptr, self.module.desc.device_type)
        h.keep = d
        self.arrs[i] = h
        if p.access & ACCESS_WRITE and s.nbytes:
            self.post.append((a, s, d))
        return h.addr

    def copy_back(self):
        """After a call: copies staged host arrays (GPU) and contiguous copies of
        strided slices that the kernel wrote back into the caller's arrays."""
        post = list(self.post)
        self.post.clear()
        for a, s, d in post:
            if d is not None:
                d.copy(s.ctypes.data, 0, d.ptr, 1, s.nbytes)
            if s is not a:
                a[...] = s

    def bind_pool(self, i, v):
        """Points pool slot i at v's Kokkos pool in this plan's module."""
        from ._random import _Pool
        p = self.params[i]
        if not isinstance(v, _Pool) or v.bits != p.rank:
            raise PkcArgumentError(f"{self.kname}: argument '{self.names[i]}': expected "
                                   f"pk.Random_XorShift{p.rank}_Pool, got {type(v).__name__}")
        self.slots[i].value = v.handle(self.module)
        self.last[i] = v

    def bad_policy(self, policy):
        k = self.kdesc.policy
        got = type(policy).__name__
        if k == 0 and (hasattr(policy, "__index__") and got != "bool"):
            got = "an int outside int64"
        raise PkcArgumentError(f"{_POLICY_WORD[k]} kernel '{self.kname}' needs "
                               f"{_POLICY_NEED[k]}, got {got}")

    def range_of(self, policy):
        try:
            return range_of(policy)
        except TypeError:
            self.bad_policy(policy)
        except OverflowError as e:
            raise PkcOverflowError(f"{self.kname}: {e}") from None

    def _bad_view(self, i, got):
        p = self.params[i]
        raise PkcArgumentError(f"{self.kname}: argument '{self.names[i]}': expected "
                               f"{self.expected(p)}, got {got} (the kernel expects a View with "
                               f"dtype {_dtname(p.dtype_code, p.dtype_bits)})")

    def bad_range(self, n):
        raise PkcOverflowError(f"{self.kname}: the range {n} does not fit a 64-bit "
                               "index (-2**63 <= value < 2**63)")

    def overflow(self, i, v):
        p = self.params[i]
        lo, hi = _int_range(p.dtype_code, p.dtype_bits)
        raise PkcOverflowError(f"{self.kname}: argument '{self.names[i]}': {v} does not fit "
                               f"{_dtname(p.dtype_code, p.dtype_bits)} ({lo}..{hi})")

    def bad_scalar(self, vals):
        for i, s in enumerate(self.slots):
            if s is None:
                continue
            try:
                s.value = vals[i]
            except TypeError:
                p = self.params[i]
                raise PkcArgumentError(
                    f"{self.kname}: argument '{self.names[i]}': expected "
                    f"{_dtname(p.dtype_code, p.dtype_bits)} scalar, got "
                    f"{type(vals[i]).__name__}") from None
        raise PkcArgumentError(f"{self.kname}: bad scalar argument")

    def _global_names(self):
        return [n for n, p in zip(self.names, self.params) if p.flags & PARAM_FROM_GLOBAL]

    def _missing_global(self):
        for n in self._global_names():
            if n not in self.glob:
                raise NameError(f"{self.kname}: the module global '{n}' the kernel reads "
                                "is not defined")

    def bad_kwargs(self, kw):
        self._missing_global()
        gl = self._global_names()
        missing = [n for n in self.names if n not in kw and n not in gl]
        extra = [n for n in kw if n not in self.names or n in gl]
        if not missing and extra == ["acc"] and self._identity_acc(kw["acc"]):
            return   # PyKokkos' `acc=0.0`: the accumulator starts at the identity anyway
        takes = f" (the kernel takes {', '.join(self.names) or 'none'})"
        if missing and extra:   # a misspelled keyword: name it, and what it may mean
            import difflib
            near = difflib.get_close_matches(extra[0], missing, n=1, cutoff=0.5)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            raise PkcArgumentError(f"{self.kname}: unexpected keyword argument '{extra[0]}'"
                                   f"{hint} and missing keyword argument '{missing[0]}'"
                                   + takes)
        if missing:
            raise PkcArgumentError(f"{self.kname}: missing keyword argument '{missing[0]}'"
                                   + takes)
        if extra == ["acc"] and not missing:
            takes += ("; a start value (acc=, or PyKokkos' initial value after the kernel) "
                      "other than the reduction's own, 0 for sums and 1 for products, is not "
                      "supported: add it to the result")
        raise PkcArgumentError(f"{self.kname}: unexpected keyword argument '{extra[0]}'"
                               + takes)

    def _identity_acc(self, v):
        """Whether `acc=v` at a reduction or scan call names the start value the
        reduction has anyway (0 for sums and scans, 1 for products)."""
        from . import _abi
        k = self.kdesc
        if k.pattern == _abi.PATTERN_SCAN or (k.pattern == _abi.PATTERN_REDUCE and
                                              k.reducer == _abi.REDUCER_SUM):
            want = 0
        elif k.pattern == _abi.PATTERN_REDUCE and k.reducer == _abi.REDUCER_PROD:
            want = 1
        else:
            return False
        try:
            return not isinstance(v, bool) and v == want
        except Exception:
            return False

    def missing_attr(self, obj):
        self._missing_global()
        gl = self._global_names()
        for n in (n for n in self.names if n not in gl):
            if n not in obj if isinstance(obj, dict) else not hasattr(obj, n):
                what = "workload" if self.kdesc.pattern == PATTERN_MAIN else "functor"
                raise PkcArgumentError(f"{self.kname}: {what} has no member '{n}'")
        raise PkcArgumentError(f"{self.kname}: cannot read functor members")

    def failed(self, rc=1):
        """Raises the kernel's error: ValueError for PKC_ERROR_VALUE (an
        argument's value, e.g. a range past a View's extent), ZeroDivisionError
        for PKC_ERROR_ZERO_DIVISION, IndexError for PKC_ERROR_INDEX (a
        --bounds-check build), else RuntimeError."""
        from . import _abi
        cls = {_abi.ERROR_VALUE: PkcValueError, _abi.ERROR_INDEX: PkcIndexError,
               _abi.ERROR_ZERO_DIVISION: PkcZeroDivisionError}.get(rc, PkcRuntimeError)
        raise cls(self.err.value.decode(errors="replace"))


def _other_order(a, left):
    """True if array a is contiguous in the order opposite to the one wanted
    (left: Fortran order, else C order): a layout mismatch, not just strides."""
    if a.ndim < 2 or a.size < 2:
        return False
    f = a.flags
    return (f.c_contiguous and not f.f_contiguous) if left else (
        f.f_contiguous and not f.c_contiguous)


def _want_left(p, dev):
    """Does View parameter p need LayoutLeft (explicit, or the GPU default)?"""
    return p.layout == LAYOUT_LEFT or (dev and p.layout == LAYOUT_DEFAULT and p.rank > 1)


def _device_of(v):
    """(DLPack device type, id) of an array object, or None if it says none.
    Never converts the object (no np.asarray on CuPy/torch arrays)."""
    f = getattr(v, "__dlpack_device__", None)
    if f is not None and not isinstance(v, numpy().ndarray):
        try:
            t, i = f()
            return int(t), int(i)
        except Exception:
            pass
    if hasattr(v, "__cuda_array_interface__"):
        d = getattr(v, "device", None)
        return (2, int(getattr(d, "id", getattr(d, "index", 0)) or 0))
    return None


def _host_array(v):
    """A numpy view of a host array argument, or None (not host data)."""
    np = numpy()
    if isinstance(v, np.ndarray):
        return v
    if hasattr(v, "__dlpack_device__"):
        try:
            return np.from_dlpack(v)
        except Exception:
            return None
    if hasattr(v, "__array_interface__"):
        return np.asarray(v)
    return None


def _from_dlpack_capsule(v):
    """A DLHolder over a __dlpack__ capsule's DLTensor (the capsule, kept in
    holder.keep, owns the memory; it is never consumed)."""
    import ctypes
    from . import _abi
    cap = v.__dlpack__()
    api = ctypes.pythonapi
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    ptr = api.PyCapsule_GetPointer(cap, b"dltensor")
    t = _abi.DLTensor.from_address(ptr)   # DLManagedTensor starts with its DLTensor
    n = t.ndim
    shape = [t.shape[k] for k in range(n)]
    if t.strides:
        est = [t.strides[k] for k in range(n)]
    else:
        est, acc = [0] * n, 1
        for k in range(n - 1, -1, -1):
            est[k] = acc
            acc *= shape[k]
    data = (t.data or 0) + t.byte_offset
    h = DLHolder.raw(v, data, shape, est, t.dtype.code, t.dtype.bits,
                     t.device.device_type, t.device.device_id)
    h.cap = cap
    h.tensor.dtype.lanes = t.dtype.lanes
    return h, cap


def _dtype_ok(p, code, bits):
    if p.dtype_code == code and p.dtype_bits == bits:
        return True
    # bool arrays for a module that spells bool as uint8 (DLPack < 0.8)
    return code == T.DL_BOOL and p.dtype_code == T.DL_UINT and p.dtype_bits == 8


def _gen_run(plan, class_sty):
    """Generates run(policy, kw) for the plan (kw: kwargs or the instance dict).
    A main (pk.execute) run writes scalar members it modified back into kw."""
    from . import _abi
    n = len(plan.params)
    kinds = [p.kind for p in plan.params]
    views = [i for i in range(n) if kinds[i] in (_abi.PARAM_VIEW, _abi.PARAM_CLASS_VIEW)]
    pools = [i for i in range(n) if kinds[i] == _abi.PARAM_POOL]
    scal = [i for i in range(n) if kinds[i] == _abi.PARAM_SCALAR]
    pk = plan.kdesc.policy
    L = ["def run(policy, kw):"]
    call = "fn(*fixed)"
    if plan.kdesc.pattern == _abi.PATTERN_MAIN:
        call = "fn(fixed[0], None, fixed[2], fixed[3], fixed[4])"
    elif pk == _abi.POLICY_RANGE:
        # cur mirrors (begin, end) in the struct: unchanged bounds cost no ctypes write
        L += ["    if policy.__class__ is int:",
              "        if cur[1] != policy or cur[0]:",
              "            if not -I64 <= policy < I64: bad_range(policy)",
              "            pend.value = cur[1] = policy; pbegin.value = cur[0] = 0",
              "    else:",
              "        cur[0], cur[1] = b, e = range_of(policy)",
              "        pbegin.value, pend.value = b, e"]
    else:
        L += ["    if policy.__class__ is not polcls: bad_policy(policy)",
              "    pa = policy._a",
              "    if pa is None: pa = policy.c_addr()"]
        call = "fn(fixed[0], pa, fixed[2], fixed[3], fixed[4])"
    glob = [bool(p.flags & _abi.PARAM_FROM_GLOBAL) for p in plan.params]
    if not class_sty:
        L.append(f"    if len(kw) != {n - sum(glob)}: bad_kwargs(kw)")
    if n:   # module globals (PKC_PARAM_FROM_GLOBAL) are read at each call
        names = ", ".join(f"glob[{nm!r}]" if g else f"kw[{nm!r}]"
                          for nm, g in zip(plan.names, glob))
        L += ["    try:", f"        {', '.join(f'v{i}' for i in range(n))}, = ({names},)",
              "    except KeyError:",
              "        " + ("missing_attr(kw)" if class_sty else "bad_kwargs(kw)")]
    for i in views:
        L.append(f"    if v{i} is not last[{i}]: bind({i}, v{i})")
    for i in pools:
        L.append(f"    if v{i} is not last[{i}]: bind_pool({i}, v{i})")
    if scal:
        L.append("    try:")
        L += [f"        s{i}.value = v{i}" for i in scal]
        L += ["    except TypeError:",
              f"        bad_scalar([{', '.join(f'v{i}' for i in range(n))}])"]
    for i in scal:   # ctypes wraps integers silently: check the C type's range
        p = plan.params[i]
        if p.dtype_code in (T.DL_INT, T.DL_UINT):
            lo, hi = _int_range(p.dtype_code, p.dtype_bits)
            L.append(f"    if not {lo} <= v{i} <= {hi}: overflow({i}, v{i})")
    # staged host arrays (GPU) and copies of strided slices go back after the call
    L += [f"    if (rc := {call}):", "        post.clear(); failed(rc)",
          "    if post: copy_back()"]
    if plan.kdesc.pattern == _abi.PATTERN_MAIN:
        for i in scal:
            if plan.params[i].access & _abi.ACCESS_WRITE and not glob[i]:
                conv = "bool" if plan.params[i].dtype_code == T.DL_BOOL else ""
                L.append(f"    kw[{plan.names[i]!r}] = {conv}(s{i}.value)")
    elif plan.kdesc.reducer in (_abi.REDUCER_MAXLOC, _abi.REDUCER_MINLOC) and \
            plan.kdesc.pattern == _abi.PATTERN_REDUCE:
        L.append("    return ValLoc(rslot.value, rloc.value)")
    elif plan.kdesc.reducer == _abi.REDUCER_MINMAX and plan.kdesc.pattern == _abi.PATTERN_REDUCE:
        L.append("    return MinMax(rslots[0].value, rslots[1].value)")
    elif plan.kdesc.reducer == _abi.REDUCER_MINMAXLOC and \
            plan.kdesc.pattern == _abi.PATTERN_REDUCE:
        L.append("    return MinMaxLoc(rslots[0].value, rlocs[1].value, rslots[2].value, "
                 "rlocs[3].value)")
    elif plan.kdesc.pattern != _abi.PATTERN_FOR:
        L.append("    return bool(rslot.value)" if plan.rbool else "    return rslot.value")
    env = {"pend": plan.pend, "pbegin": plan.pbegin, "range_of": plan.range_of,
           "cur": [0, 0],
           "bad_kwargs": plan.bad_kwargs, "missing_attr": plan.missing_attr,
           "last": plan.last, "bind": plan.bind, "bad_scalar": plan.bad_scalar,
           "bind_pool": plan.bind_pool, "bad_policy": plan.bad_policy,
           "polcls": _POLICY_CLS[pk] if 0 <= pk < 3 else None,
           "fn": plan.fn, "fixed": plan.fixed, "failed": plan.failed,
           "rslot": plan.rslot, "post": plan.post, "copy_back": plan.copy_back,
           "glob": plan.glob, "rloc": plan.rloc, "ValLoc": ValLoc,
           "rslots": plan.rslots, "MinMax": MinMax, "MinMaxLoc": MinMaxLoc,
           "rlocs": plan.rlocs,
           "I64": 1 << 63, "bad_range": plan.bad_range, "overflow": plan.overflow}
    for i in scal:
        env[f"s{i}"] = plan.slots[i]
    exec(compile("\n".join(L), f"<pykokkos plan {plan.kname}>", "exec"), env)
    run = env["run"]
    run.plan = plan
    return _fast_launcher(plan, run, env["cur"], class_sty) or run


_FASTCALL = []


def _fastcall():
    """pykokkos._fastcall (runtime-shim/fastcall.c, built beside libpkcrt.so),
    or None: not built, PKC_FASTCALL=0, or another Python."""
    if not _FASTCALL:
        _FASTCALL.append(None)
        import os
        import sysconfig
        if os.environ.get("PKC_FASTCALL", "1") != "0":
            from ._loader import find_runtime_lib
            try:
                d = os.path.dirname(find_runtime_lib())
                path = os.path.join(d, "_fastcall" + sysconfig.get_config_var("EXT_SUFFIX"))
                if os.path.isfile(path):
                    import importlib.machinery
                    import importlib.util
                    loader = importlib.machinery.ExtensionFileLoader("pykokkos._fastcall", path)
                    spec = importlib.util.spec_from_file_location("pykokkos._fastcall", path,
                                                                  loader=loader)
                    mod = importlib.util.module_from_spec(spec)
                    loader.exec_module(mod)
                    from . import _abi
                    if mod.ABI_VERSION == _abi.PKC_ABI_VERSION:
                        _FASTCALL[0] = mod
            except (ImportError, OSError, RuntimeError):
                pass
    return _FASTCALL[0]


def _fast_launcher(plan, run, cur, class_sty):
    """The C launcher of a RangePolicy for/reduce/scan plan (the steady state
    of launch loops, fastcall.c), falling back to run; None where the plan
    needs Python on every call (pools, globals, MaxLoc). On GPUs only Views
    take the fast path: staged host arrays are never "the same View", so
    their calls (and copies back) stay in run."""
    from . import _abi
    k = plan.kdesc
    fc = _fastcall()
    if (fc is None or k.policy != _abi.POLICY_RANGE or
            k.pattern not in (_abi.PATTERN_FOR, _abi.PATTERN_REDUCE, _abi.PATTERN_SCAN) or
            k.reducer in (_abi.REDUCER_MAXLOC, _abi.REDUCER_MINLOC, _abi.REDUCER_MINMAX,
                          _abi.REDUCER_MINMAXLOC)):
        return None
    import ctypes
    kinds, slots, ranges = [], [], []
    for i, p in enumerate(plan.params):
        if p.flags & _abi.PARAM_FROM_GLOBAL or p.kind == _abi.PARAM_POOL:
            return None
        if p.kind in (_abi.PARAM_VIEW, _abi.PARAM_CLASS_VIEW):
            kinds.append(1), slots.append(0), ranges.append(None)
            continue
        slots.append(ctypes.addressof(plan.slots[i]))
        c, bits = p.dtype_code, p.dtype_bits
        if c == T.DL_FLOAT:
            kinds.append(2), ranges.append(None)
        elif c == T.DL_BOOL:
            kinds.append(5), ranges.append(None)
        elif c == T.DL_UINT and bits == 64:
            kinds.append(4), ranges.append(None)
        else:
            kinds.append(3), ranges.append(_int_range(c, bits))
    rc = k.result_code
    res = (0 if k.pattern == _abi.PATTERN_FOR else 4 if plan.rbool else
           1 if rc == T.DL_FLOAT else 3 if rc == T.DL_UINT else 2)
    A = ctypes.addressof
    return fc.Launcher(plan, run, plan.failed, plan.last, cur,
                       ctypes.cast(plan.fn, ctypes.c_void_p).value,
                       A(plan.args), A(plan.policy), A(plan.result), A(plan.err), len(plan.err),
                       tuple(plan.names), tuple(kinds), tuple(slots), tuple(ranges), res,
                       -1 if class_sty else len(plan.params))


def _kernel_run(mod, entity, name, kname, pattern, class_sty, glob=None):
    """The run function of kernel (entity, name) of mod; None if mod lacks it."""
    k = mod.kernel(entity, name)
    if k is None:
        return None
    if k.pattern != pattern:
        raise PkcArgumentError(f"{kname}: a {_PATTERN_WORD[k.pattern]} kernel cannot be "
                               f"run with {_PATTERN_WORD[pattern]}")
    if not 0 <= k.policy <= 2:
        raise PkcRuntimeError(f"{kname}: unknown policy kind {k.policy} in {mod.so}")
    plan = Plan(kname, k, mod)
    plan.glob = glob if glob is not None else {}
    return _gen_run(plan, class_sty)


class _RangeOrMD:
    """The run of a FunctionSty kernel built for a RangePolicy that is also
    launched with MDRangePolicies (from another file than its own): those go
    to its specializations with the policy's rank (`kernel[R](...)`)."""
    __slots__ = ("base", "md", "plan")

    def __init__(self, base, md):
        self.base, self.md, self.plan = base, md, base.plan

    def __call__(self, policy, kw):
        if policy.__class__ is MDRangePolicy:
            return self.md(policy, kw)
        return self.base(policy, kw)

    def all_runs(self):
        return [self.base] + self.md.all_runs()


def _global_params(plan):
    """Names of plan's parameters read from the module at each call."""
    return {n for n, p in zip(plan.names, plan.params) if p.flags & PARAM_FROM_GLOBAL}


def _spec_runner(entity, name, kname, pattern, func):
    """make_run(module, signature) for a Specializer: the run of the kernel in
    the specialization's module."""
    def make_run(smod, sig):
        r = _kernel_run(smod, entity, name, kname, pattern, False, func.__globals__)
        if r is None:
            raise PkcRuntimeError(f"pykokkos: {smod.so} (specialization {sig}) has no "
                                  f"kernel '{kname}'")
        return r
    return make_run


class LayoutMismatch(PkcArgumentError):
    """A View (or numpy array) in the other layout than the one a kernel
    parameter was built for, where only the default decided it (PyKokkos builds
    a variant of the workunit per layout of the Views a call passes)."""


class _LayoutVariants:
    """run(policy, kw) of an annotated @pk.workunit that was called with Views
    of another layout than its build's: the build first, else the variant
    `pkc build --specialize` makes for the call's layouts (its annotated
    parameters keep their types and take the Views' layouts)."""

    def __init__(self, run, func, pattern):
        from ._specialize import Specializer
        self.run, self.plan = run, getattr(run, "plan", None)
        name = func.__name__
        self.spec = Specializer(func, pattern, _spec_runner(name, name, name, pattern, func))

    def __call__(self, policy, kw):
        try:
            return self.run(policy, kw)
        except LayoutMismatch:
            return self.spec(policy, kw)

    def all_runs(self):
        first = self.run.all_runs() if hasattr(self.run, "all_runs") else [self.run]
        return first + self.spec.all_runs()


def _layout_variant(func, pattern, policy, kw):
    """Runs FunctionSty workunit func after its plan refused a View's layout
    (LayoutMismatch): from now on through _LayoutVariants."""
    run = _plans[pattern].get(func)
    if run is None or run.__class__ is _LayoutVariants or func.__class__ is not _Function:
        raise
    run = _plans[pattern][func] = _LayoutVariants(run, func, pattern)
    return run.spec(policy, kw)


class _DecoratorScratch:
    """run(policy, kw) of a workunit decorated @pk.workunit(scratch=[(T, lambda
    p: n[, level]), ...]) (PyKokkos): each entry is a ScratchView1D of n
    elements of T at that level (0 by default), n computed from the launch's
    arguments (p.name); a TeamPolicy that sets no scratch size at a level gets
    the entries' total there (8 bytes per Python int or float element)."""

    def __init__(self, run, entries, kname):
        self.run, self.plan, self.entries, self.kname = run, getattr(run, "plan", None), entries, kname

    def sizes(self, kw):
        from types import SimpleNamespace
        p, out = SimpleNamespace(**kw), [0, 0]
        for e in self.entries:
            if not isinstance(e, (tuple, list)) or len(e) not in (2, 3) or not callable(e[1]):
                raise PkcArgumentError(f"{self.kname}: scratch= entries are (type, lambda p: "
                                       f"count[, level]), got {e!r}")
            level = e[2] if len(e) == 3 else 0
            if level not in (0, 1):
                raise PkcValueError(f"{self.kname}: a scratch level is 0 or 1, got {level!r}")
            dt = T.float64 if e[0] in (int, float) else e[0]
            out[level] += T.ScratchView1D.shmem_size(int(e[1](p)), dtype=dt)
        return out

    def __call__(self, policy, kw):
        if isinstance(policy, TeamPolicy):
            sizes = self.sizes(kw)
            need = [lv for lv in (0, 1) if sizes[lv] and not policy.scratch_team[lv]]
            if need:
                import copy
                policy = copy.copy(policy)
                policy.scratch_team = list(policy.scratch_team)
                policy.scratch_thread = list(policy.scratch_thread)
                for lv in need:
                    policy.set_scratch_size(lv, PerTeam(sizes[lv]))
        return self.run(policy, kw)

    def all_runs(self):
        return self.run.all_runs() if hasattr(self.run, "all_runs") else [self.run]


def _make_plan(func, pattern, class_sty, kw=None, policy=None):
    """Finds func's kernel in the module built for its file; builds its plan.
    A FunctionSty workunit typed per call (omitted as runtime-typed, or with
    inferred parameter types) runs through a Specializer. kw: the launch's
    arguments; where the module must be built first, the specializations
    they (and the file's other launches) predict are built with it."""
    code = getattr(func, "__code__", None)
    if code is None:
        raise PkcArgumentError(f"pykokkos: {_PATTERN_WORD[pattern]}: the kernel must be a "
                               f"@pk.workunit function or a functor's bound method, got "
                               f"{type(func).__name__}")
    name = func.__name__
    qual = func.__qualname__.split(".")
    if not class_sty and len(qual) > 1 and qual[-2] != "<locals>":
        raise PkcArgumentError(f"pykokkos: {_PATTERN_WORD[pattern]}: '{func.__qualname__}' is a "
                               f"method of the functor class {qual[-2]}: launch it on an "
                               f"instance, e.g. {_PATTERN_WORD[pattern]}(n, {qual[-2]}(...)."
                               f"{name})")
    entity = qual[-2] if class_sty else name
    kname = f"{entity}.{name}" if class_sty else name
    import os
    hints = None
    if not class_sty and kw is not None:
        def hints():   # a guess: it never stops the launch
            from ._specialize import first_signatures, md_rank, signature
            try:
                sigs = first_signatures(func, kw)
                rank = md_rank(policy)
                if rank:   # this launch's own with its MDRange rank (kernel[R](...))
                    plain = signature(name, kw)
                    sigs = [signature(name, kw, rank) if s == plain else s for s in sigs]
                return sigs
            except Exception:
                return []
    mod = RUNTIME.module_for(os.path.abspath(code.co_filename), hints)
    run = _kernel_run(mod, entity, name, kname, pattern, class_sty, func.__globals__)
    if run is not None:   # module constants another module rebound since: refused
        from ._constants import stale
        stale(kname, [func], func.__globals__, _global_params(run.plan))
    if run is None:
        why, diag = mod.omitted.get(entity, (None, None))
        if why == "rejected":
            raise PkcKernelError(f"pykokkos: kernel '{kname}' was not built because pkc "
                                 f"rejected it: {diag}")
        if why != "runtime-typed" or class_sty:
            raise PkcKernelError(f"pykokkos: {mod.so} has no kernel '{kname}' "
                                 f"(is it decorated with @pk.workunit?)")
    elif class_sty or not run.plan.kdesc.flags & KERNEL_INFERRED:
        if not class_sty:   # a link of chains pkc fused: launched through the queue
            run = _fusion.wrap(run, mod, name, func)
        from ._specialize import Specializer, md_rank
        if not class_sty and run.plan.kdesc.policy == POLICY_RANGE and md_rank(policy):
            # built as a range kernel (its file never launches it) and launched
            # with an MDRangePolicy: a specialization with that many work indices
            run = _RangeOrMD(run, Specializer(func, pattern, _spec_runner(entity, name, kname,
                                                                          pattern, func)))
        _plans[pattern][func] = run = _with_decorator_scratch(run, func, class_sty, kname)
        return run
    from ._specialize import Specializer
    run = Specializer(func, pattern, _spec_runner(entity, name, kname, pattern, func),
                      fallback=run)
    _plans[pattern][func] = run = _with_decorator_scratch(run, func, class_sty, kname)
    return run


def _with_decorator_scratch(run, func, class_sty, kname):
    deco = getattr(func, "_pk_workunit", None)
    if class_sty or not isinstance(deco, dict) or "scratch" not in deco:
        return run
    return _DecoratorScratch(run, list(deco["scratch"]), kname)


def lambda_name(func):
    """The workunit pkc makes of a host-code lambda: pkc_lambda_L<line>_C<col>,
    line of the lambda and byte column of its body (the leftmost instruction
    position on that line; frontend/host_lambda.c names it the same way)."""
    code = func.__code__
    line = code.co_firstlineno
    cols = [c0 for (l0, _, c0, _) in code.co_positions()
            if l0 == line and c0 is not None and c0 > 0]
    return f"pkc_lambda_L{line}_C{min(cols) if cols else 0}"


def _only_lambda_on_line(mod, line):
    """The one lambda workunit pkc made on `line`, where the instruction
    positions of the running Python name another column than pkc's (Python
    3.12 keeps none for a constant body such as `lambda i: 0`); None if there
    are several or none."""
    prefix = f"pkc_lambda_L{line}_C"
    d = mod.desc
    names = {d.kernels[k].name.decode() for k in range(d.nkernels)} | set(mod.omitted)
    found = [n for n in names if n.startswith(prefix)]
    return found[0] if len(found) == 1 else None


def lambda_captures(func):
    """The host values a lambda reads: its closure cells and the globals its
    code names (modules, classes and functions left out), by name."""
    code, kw = func.__code__, {}
    if func.__closure__:
        for name, cell in zip(code.co_freevars, func.__closure__):
            try:
                kw[name] = cell.cell_contents
            except ValueError:
                pass
    import types
    skip = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType)
    g = func.__globals__
    for name in code.co_names:
        if name in g and name not in kw and not isinstance(g[name], skip):
            kw[name] = g[name]
    return kw


class _LambdaRun:
    """run(policy, kw) of a host-code lambda: the captured values are passed by
    name (only those the kernel declares)."""

    def __init__(self, inner):
        self.inner = inner
        self.plan = getattr(inner, "plan", None)

    def all_runs(self):
        return self.inner.all_runs() if hasattr(self.inner, "all_runs") else [self.inner]

    def __call__(self, policy, kw):
        r = self.inner
        if hasattr(r, "all_runs"):    # Specializer: it picks and filters
            return r(policy, kw)
        names = r.plan.names
        return r(policy, {n: kw[n] for n in names if n in kw})


def _lambda_dispatch(pattern, policy, func, kw):
    code = func.__code__
    run = _plans[pattern].get(code)
    if run is None:
        import os
        from ._specialize import Specializer
        name = lambda_name(func)
        mod = RUNTIME.module_for(os.path.abspath(code.co_filename))
        if mod.kernel(name, name) is None and name not in mod.omitted:
            name = _only_lambda_on_line(mod, code.co_firstlineno) or name
        inner = _kernel_run(mod, name, name, name, pattern, False, func.__globals__)
        why, diag = mod.omitted.get(name, (None, None))
        if inner is None and why == "rejected":
            raise PkcKernelError(f"pykokkos: the lambda at {code.co_filename}:"
                                 f"{code.co_firstlineno} was not built because pkc rejected "
                                 f"it: {diag}")
        if inner is None and why != "runtime-typed":
            raise PkcKernelError(f"pykokkos: {mod.so} has no kernel for the lambda at line "
                                 f"{code.co_firstlineno} ({name}); is it passed directly to "
                                 f"pk.{_PATTERN_WORD[pattern]}?")
        if inner is None or inner.plan.kdesc.flags & KERNEL_INFERRED:
            inner = Specializer(func, pattern, _spec_runner(name, name, name, pattern, func),
                                fallback=inner, name=name, filter_kw=True)
        run = _plans[pattern][code] = _LambdaRun(inner)
    cap = lambda_captures(func)
    cap.update(kw)
    return run(policy, cap)


def _dispatch(pattern, args, kw):
    if RUNTIME.policy_backend is None:
        pol = args[-3] if len(args) >= 3 and args[-2].__class__ is _Function and \
            args[-2].__name__ == "<lambda>" and pattern == FOR else args[-2] if len(args) >= 2 else None
        b = other_host_backend(getattr(pol, "space", None))
        if b is not None:
            with InBackend(b):
                return _dispatch(pattern, args, kw)
    if (pattern == FOR and len(args) in (3, 4) and args[-2].__class__ is _Function
            and args[-2].__name__ == "<lambda>"):
        # parallel_for([name,] policy, lambda i: value, view): view[i] = value
        # (PyKokkos' fill form; pkc gives the kernel the parameter pkc_fill)
        kw = dict(kw, pkc_fill=args[-1])
        args = args[:-1]
    if len(args) == 3:
        args = args[1:]
    elif len(args) != 2:
        raise PkcArgumentError(f"{_PATTERN_WORD[pattern]}([name,] policy, kernel, **args)")
    policy, kernel = args
    if kernel.__class__ is _Function and kernel.__name__ == "<lambda>":
        if _held:
            _flush_held()
        return _lambda_dispatch(pattern, policy, kernel, kw)
    if kernel.__class__ is _Method:
        if kw:
            raise PkcArgumentError(f"{_PATTERN_WORD[pattern]}: a functor's kernel takes no "
                                   "keyword arguments (its members are the arguments)")
        func = kernel.__func__
        obj = kernel.__self__
        kw = getattr(obj, "__dict__", None)
        if kw is None:   # __slots__ functor: read members by name
            kw = {k: getattr(obj, k) for k in getattr(obj, "__slots__", ())}
        run = _plans[pattern].get(func) or _make_plan(func, pattern, True)
    else:
        run = _plans[pattern].get(kernel) or _make_plan(kernel, pattern, False, kw, policy)
    if _held and run.__class__ is not _Chain:
        _flush_held()
    try:
        return run(policy, kw)
    except LayoutMismatch:
        return _layout_variant(kernel, pattern, policy, kw)


def _parallel_for_list(args, kw):
    """PyKokkos' fused form parallel_for([name,] policy, [k0, k1, ...],
    args_0={...}, args_1={...}) (args_1, args_2, ... also, as PyKokkos'
    tests number them from 1): runs each kernel with its arguments, in
    order, over the same policy."""
    kernels = list(args[-1])
    head = args[:-1]
    base = 1 if "args_1" in kw and "args_0" not in kw and f"args_{len(kernels)}" in kw else 0
    names = [f"args_{k + base}" for k in range(len(kernels))]
    extra = sorted(set(kw) - set(names))
    if extra:
        raise PkcArgumentError(f"parallel_for: with a list of {len(kernels)} kernels, pass "
                               f"each kernel's arguments as {', '.join(n + '={...}' for n in names)}"
                               f"; got {', '.join(extra)}")
    for k, name in zip(kernels, names):
        a = kw.get(name) or {}
        if not isinstance(a, dict):
            raise PkcArgumentError(f"parallel_for: {name} must be a dict of kernel "
                                   f"arguments, got {type(a).__name__}")
        parallel_for(*head, k, **a)


def parallel_for(*args, **kw):
    """parallel_for([name,] policy, kernel, **kernel_args); kernel may be
    a list of kernels, whose arguments are args_0={...}, args_1={...}."""
    if _gstate["on"] and not _gstate["launch"]:   # inside a pk.Graph step
        return _graph_launch(args, kw)
    n = len(args)
    if n == 2 or n == 3:
        kernel = args[-1]
        if kernel.__class__ is _Function:
            run = _plans[0].get(kernel)
            if run is not None and getattr(args[-2], "space", None) is None:
                if _held and run.__class__ is not _Chain:   # launches held for fusion
                    _flush_held()                             # run before this one
                try:
                    run(args[-2], kw)
                except LayoutMismatch:
                    _layout_variant(kernel, FOR, args[-2], kw)
                return
        if kernel.__class__ is list or kernel.__class__ is tuple:
            return _parallel_for_list(args, kw)
    _dispatch(FOR, args, kw)


def _graph_launch(args, kw):
    """parallel_for inside a pk.Graph step: the launch is recorded and, where
    the step's edges are planned, is one region of them."""
    from ._graph_branches import ANY
    _graph.record(args, kw)
    label, access, request = "a launch", ANY, None
    if _gstate["branches"] is not None:
        try:
            label, access, request = _launch_access(args, kw)
        except Exception:   # e.g. a policy pk.parallel_for itself refuses: stream order
            pass
    _gstate["launch"] += 1
    try:
        with _graph.region(label, access, request) as r:
            if r.gate is not None:
                policy, gate = _gated_policy(args[-2], r.gate)   # gate: alive for the call
                args = args[:-2] + (policy, args[-1])
            return parallel_for(*args, **kw)
    finally:
        _gstate["launch"] -= 1


def _gated_policy(policy, gate):
    """(a copy of MDRangePolicy `policy` whose pkc_policy carries `gate`,
    the pkc_gate struct): gate is (counter address, target, head, tail[,
    scope]) (scope 1: system-scope loads, other GPUs raise the counter),
    pykokkos/_graph_branches.py. The launch reads the structs while it is
    called (a graph node keeps the kernel's arguments, not the structs)."""
    import ctypes
    from . import _abi
    g = MDRangePolicy.__new__(MDRangePolicy)
    for name in ("space", "begin", "end", "tile", "iterate"):
        setattr(g, name, getattr(policy, name))
    g._c = g._a = None
    g.c_addr()
    counter, target, head, tail = gate[:4]
    c = _abi.pkc_gate()
    c.counter, c.target = counter, target
    if len(gate) > 4:   # the neighbours' GPUs raise the counter (a send-only exchange)
        c.scope = gate[4]
    for d, (h, t) in enumerate(zip(head, tail)):
        c.head[d], c.tail[d] = h, t
    g._c.gate = ctypes.addressof(c)
    return g, c


def _launch_access(args, kw):
    """(label, accesses, gate request) of a launch for pk.Graph's edges
    (pykokkos/_graph_branches.py): the boxes of its Views from pkc's
    footprint of the kernel and the launch bounds; ANY where not known; the
    request (GateRequest) where the kernel can be gated, else None."""
    from ._graph_branches import ANY, GateRequest, memory_key
    kernel = args[-1] if len(args) in (2, 3) else None
    label = getattr(kernel, "__name__", "a launch")
    run = _plans[0].get(kernel) if kernel is not None else None
    if run is None or _held or run.__class__ is _Chain:
        return label, ANY, None
    # a workunit typed per call (Specializer): its specializations share the
    # source, so any of them that pkc could bound gives the footprint
    fp = plan = None
    for r in (run.all_runs() if hasattr(run, "all_runs") else [run]):
        plan = getattr(r, "plan", None)
        if getattr(plan, "module", None) is not None:
            fp = _footprints(plan.module).get(plan.kname)
            if fp:
                break
    bounds = _bounds(args[-2])
    if not fp or bounds is None:
        return label, ANY, None
    lo, hi = bounds
    owner = getattr(kernel, "__self__", None)
    source = kw if owner is None else getattr(owner, "__dict__", {})
    out, keyed = [], {}
    for name, (write, dims) in fp["views"].items():
        v = source.get(name)
        if not isinstance(v, View) or len(dims) != len(v.shape):
            return label, ANY, None
        key = memory_key(v, plan.dev)
        if key is None:
            return label, ANY, None
        box = []
        for d, n in zip(dims, v.shape):
            if d is None:
                box.append((0, n - 1))
            elif d[0] < 0:
                box.append((d[1], d[2]))
            elif d[0] < len(lo):
                box.append((lo[d[0]] + d[1], hi[d[0]] - 1 + d[2]))
            else:
                return label, ANY, None
        out.append((key, box, write))
        keyed[key] = dims
    gated = fp["gate"] and isinstance(args[-2], MDRangePolicy)
    return label, out, GateRequest(keyed, lo, hi) if gated else None


def _bounds(policy):
    """(begin, end) lists of a launch's policy; None for a TeamPolicy."""
    if policy.__class__ is int:
        return [0], [policy]
    if isinstance(policy, RangePolicy):
        return [policy.begin], [policy.end]
    if isinstance(policy, MDRangePolicy):
        return list(policy.begin), list(policy.end)
    return None


def _footprints(module):
    """{kernel name: {"views": {View: (written, dims)}, "gate": bool}} of a
    module's pkc_footprint_v1 (ir/footprint.c, backends/emit_footprint.c),
    parsed once; a kernel pkc could not bound is left out."""
    fp = getattr(module, "_footprint", None)
    if fp is None:
        import ctypes
        import json
        fp = {}
        try:
            fn = ctypes.CDLL(module.so).pkc_footprint_v1
            fn.restype = ctypes.c_char_p
            for line in fn().decode().splitlines():
                d = json.loads(line) if line.strip() else None
                if d and d["views"] is not None:
                    name = d["kernel"] if d["entity"] == d["kernel"] else f"{d['entity']}.{d['kernel']}"
                    fp[name] = {"views": {v: ("w" in x["mode"], x["dims"])
                                          for v, x in d["views"].items()},
                                "gate": bool(d.get("gate"))}
        except AttributeError:   # a module without it (no such kernels)
            pass
        module._footprint = fp
    return fp


def _initial_value(args, kw):
    """PyKokkos' parallel_reduce/parallel_scan(policy, kernel, initial_value):
    the trailing number becomes acc=initial_value, which the call accepts
    where it is the reduction's start value anyway (0 for sums and scans, 1
    for products) and refuses otherwise. (args, kw)."""
    if len(args) >= 3 and args[-1].__class__ in (int, float) and callable(args[-2]) and \
            not callable(args[-3]) and "acc" not in kw:
        return args[:-1], dict(kw, acc=args[-1])
    return args, kw


def parallel_reduce(*args, **kw):
    """parallel_reduce([name,] policy, kernel[, initial_value], **kernel_args) ->
    the result (float for floating-point accumulators, int for integer ones);
    initial_value (PyKokkos' form) as acc=: the reduction's start value only."""
    if _gstate["on"] and not _gstate["exempt"]:
        _graph.refuse(f"pk.parallel_reduce({_kernel_word(args)})",
                      "its result comes back to the host")
    args, kw = _initial_value(args, kw)
    if "reducer" in kw:   # PyKokkos' reducer=pk.Max: pkc built it from the file's launches
        kw = dict(kw)
        _check_reducer(args, kw.pop("reducer"), kw)
    n = len(args)
    if n == 2 or n == 3:
        kernel = args[-1]
        if kernel.__class__ is _Function:
            run = _plans[1].get(kernel)
            if run is not None and getattr(args[-2], "space", None) is None:
                if _held and run.__class__ is not _Chain:   # launches held for fusion
                    _flush_held()                             # run before this one
                try:
                    return run(args[-2], kw)
                except LayoutMismatch:
                    return _layout_variant(kernel, REDUCE, args[-2], kw)
    return _dispatch(REDUCE, args, kw)


_REDUCER_NAMES = ("Sum", "Prod", "Min", "Max", "MaxLoc", "MinLoc", "BAnd", "BOr", "LAnd", "LOr",
                  "MinMax", "MinMaxLoc")


def _check_reducer(args, reducer, kw):
    """reducer= of a parallel_reduce (pk.Sum, pk.Max, ...) must be the one the
    kernel was built with: pkc reads it from the launches in the kernel's file."""
    name = getattr(reducer, "__name__", None)
    if name == "Acc":
        name = "Sum"
    if name not in _REDUCER_NAMES or getattr(T, name, None) is not reducer:
        raise PkcArgumentError(f"parallel_reduce: reducer= takes pk.Sum, pk.Prod, pk.Min, "
                               f"pk.Max, pk.MaxLoc, pk.MinLoc, pk.BAnd, pk.BOr, pk.LAnd, "
                               f"pk.LOr, pk.MinMax or pk.MinMaxLoc, got {reducer!r}")
    kernel = args[-1] if args else None
    func = getattr(kernel, "__func__", kernel)
    run = _plans[1].get(func) or _make_plan(func, REDUCE, hasattr(kernel, "__self__"),
                                            None if hasattr(kernel, "__self__") else kw,
                                            args[-2] if len(args) >= 2 else None)
    built = getattr(getattr(run, "plan", None), "kdesc", None)
    if built is not None and _REDUCER_NAMES[built.reducer] != name:
        raise PkcArgumentError(f"parallel_reduce: '{getattr(func, '__name__', func)}' was "
                               f"built to reduce with pk.{_REDUCER_NAMES[built.reducer]}, "
                               f"not reducer=pk.{name}: pkc takes the reducer from the "
                               f"launches in the kernel's own file (or its accumulator's "
                               f"annotation, e.g. acc: pk.{name}[pk.double])")


def parallel_scan(*args, **kw):
    """parallel_scan([name,] policy, kernel[, initial_value], **kernel_args) ->
    the total (initial_value as in parallel_reduce)."""
    if _gstate["on"] and not _gstate["exempt"]:
        _graph.refuse(f"pk.parallel_scan({_kernel_word(args)})",
                      "its total comes back to the host")
    args, kw = _initial_value(args, kw)
    n = len(args)
    if n == 2 or n == 3:
        kernel = args[-1]
        if kernel.__class__ is _Function:
            run = _plans[2].get(kernel)
            if run is not None and getattr(args[-2], "space", None) is None:
                if _held and run.__class__ is not _Chain:   # launches held for fusion
                    _flush_held()                             # run before this one
                try:
                    return run(args[-2], kw)
                except LayoutMismatch:
                    return _layout_variant(kernel, SCAN, args[-2], kw)
    return _dispatch(SCAN, args, kw)


def _kernel_word(args):
    """'kernel NAME' of a launch's arguments, for messages."""
    k = args[-1] if args else None
    name = getattr(k, "__qualname__", None) or getattr(k, "__name__", None)
    return f"kernel '{name}'" if name else "..."


def flush():
    """pk.flush() (PyKokkos): runs the launches held back for fusion now,
    without waiting for them to finish (pk.fence() also waits)."""
    if _held:
        _flush_held()


def fence():
    """Runs the launches held back for fusion, then waits for all outstanding
    work of every loaded module."""
    if _gstate["on"] and not _gstate["exempt"]:
        _graph.refuse("pk.fence()", "it waits for the device on the host")
    if _held:
        _flush_held()
    for m in list(RUNTIME.modules.values()):
        m.fence()
