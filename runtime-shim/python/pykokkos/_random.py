"""Random pools: pk.Random_XorShift64_Pool(seed) / pk.Random_XorShift1024_Pool(seed).

A pool is a Python object holding a seed; the Kokkos pool behind it is created
lazily, once per loaded module, through the module's descriptor pool_create on
the first launch that passes it (a PKC_PARAM_POOL argument: pkc_value.u = the
handle). Every handle is destroyed (pool_destroy) by a Python atexit hook:
Python's atexit runs inside interpreter finalization, before the C atexit
handler of libpkcrt that finalizes Kokkos, so pools never outlive Kokkos.
"""
import atexit
from ._errors import PkcArgumentError, PkcRuntimeError

_live = []           # [WeakSet of pools holding a handle], made on first use
_finalizing = [False]


class _Pool:
    __slots__ = ("seed", "_handles", "__weakref__")
    bits = 0

    def __init__(self, seed=0):
        if isinstance(seed, bool) or not hasattr(seed, "__index__"):
            raise PkcArgumentError(f"pk.{type(self).__name__}(seed): seed must be an int, "
                                   f"got {type(seed).__name__}")
        self.seed = seed.__index__() & 0xFFFFFFFFFFFFFFFF
        self._handles = {}   # Module -> (handle, destroy fn)

    def handle(self, module):
        """The pool's handle in module (created on first use)."""
        h = self._handles.get(module)
        if h is not None:
            return h[0]
        if _finalizing[0]:
            raise PkcRuntimeError("pykokkos: random pools cannot be created at exit")
        import ctypes
        from . import _abi
        d = module.desc
        if not d.pool_create or not d.pool_destroy:
            raise PkcRuntimeError(f"pykokkos: module {module.so} cannot create random pools "
                                  "(no pool_create in its descriptor)")
        create = _abi.POOL_CREATE_FN(d.pool_create)
        destroy = _abi.POOL_DESTROY_FN(d.pool_destroy)
        err = ctypes.create_string_buffer(512)
        p = create(self.bits, self.seed, err, len(err))
        if not p:
            raise PkcRuntimeError(f"pk.{type(self).__name__}({self.seed}): "
                                  + err.value.decode(errors="replace"))
        self._handles[module] = (p, destroy)
        if not _live:
            import weakref   # lazily: keeps `import pykokkos` fast
            _live.append(weakref.WeakSet())
        _live[0].add(self)
        return p

    def destroy(self):
        """Destroys the Kokkos pools behind this object (it can be used again)."""
        hs, self._handles = self._handles, {}
        if hs and not _finalizing[0]:
            from ._dispatch import forget
            forget(self)   # cached call plans must not keep the old handle
        for p, destroy in hs.values():
            destroy(self.bits, p)

    def __del__(self):
        if not _finalizing[0]:
            try:
                self.destroy()
            except Exception:
                pass

    def __repr__(self):
        return f"pk.{type(self).__name__}({self.seed})"


class Random_XorShift64_Pool(_Pool):
    """Kokkos::Random_XorShift64_Pool in the module's execution space."""
    __slots__ = ()
    bits = 64


class Random_XorShift1024_Pool(_Pool):
    """Kokkos::Random_XorShift1024_Pool in the module's execution space."""
    __slots__ = ()
    bits = 1024


class Random_XorShift64:
    """The state pool.get_state() gives a kernel (Kokkos' generator type of
    Random_XorShift64_Pool): only an annotation, e.g. of a @pk.function
    parameter `state: pk.Random_XorShift64`, which draws through the caller's
    state (by reference)."""
    __slots__ = ()

    def __init__(self, *a, **k):
        raise PkcArgumentError("pk.Random_XorShift64 is a kernel annotation (a pool's state); "
                               "create a pk.Random_XorShift64_Pool(seed) and call get_state() "
                               "in a kernel")


class Random_XorShift1024(Random_XorShift64):
    """The state of a Random_XorShift1024_Pool (see Random_XorShift64)."""
    __slots__ = ()


def destroy_all():
    """Destroys every live pool handle (the atexit hook; also for tests)."""
    for pool in list(_live[0]) if _live else ():
        pool.destroy()


def _at_exit():
    destroy_all()
    _finalizing[0] = True


atexit.register(_at_exit)
