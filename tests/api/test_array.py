"""PyKokkos host API, item 2: pk.array / asarray / from_numpy (zero-copy
rules), zeros/ones/full/empty(+_like), arange/linspace/logspace,
reshape/ravel/expand_dims, host objects with __array_interface__ /
__dlpack__, CUDA arrays (a fake device module stands in for a GPU), and the
resulting Views passed to kernels pkc built (tests/api/kern_api.py). Every
value is checked against numpy."""
import ctypes
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
sys.path.insert(0, HERE)
import pykokkos as pk  # noqa: E402
from pykokkos import _abi, _dispatch as D, _loader  # noqa: E402

NAMES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "bool"]


def shares(v, a):
    return np.shares_memory(np.asarray(v), a)


class ArrayFromHost(unittest.TestCase):
    def test_numpy_zero_copy_every_dtype(self):
        for name in NAMES:
            a = (np.arange(12) % 3).astype(name).reshape(3, 4)
            v = pk.array(a)
            self.assertIsInstance(v, pk.View)
            self.assertIs(v.dtype, getattr(pk, name))
            self.assertTrue(shares(v, a), name)
            np.testing.assert_array_equal(np.asarray(v), a)
            self.assertTrue(shares(pk.asarray(a), a))
            self.assertTrue(shares(pk.from_numpy(a), a))
        a = np.zeros((3, 2), order="F")
        v = pk.array(a)
        self.assertEqual(v.layout, pk.LayoutLeft)
        v[2, 1] = 5.0
        self.assertEqual(a[2, 1], 5.0)

    def test_copies(self):
        a = np.arange(10.0)
        c = pk.array(a, dtype=pk.float32)             # conversion: a copy
        self.assertIs(c.dtype, pk.float32)
        self.assertFalse(shares(c, a))
        np.testing.assert_array_equal(np.asarray(c), a.astype(np.float32))
        self.assertFalse(shares(pk.array(a, copy=True), a))
        s = a[::2]                                     # strided: a contiguous copy
        v = pk.array(s)
        np.testing.assert_array_equal(np.asarray(v), s)
        self.assertTrue(np.asarray(v).flags.c_contiguous)

    def test_lists_scalars_views(self):
        for obj in ([1, 2, 3], [[1.5, 2.5], [3.5, 4.5]], [True, False], 3.25, 7,
                    (1, 2), [[1, 2], [3, 4]]):
            want = np.array(obj)
            v = pk.array(obj)
            self.assertEqual(v.shape, want.shape)
            self.assertEqual(v.dtype, want.dtype)
            np.testing.assert_array_equal(np.asarray(v), want)
            w = pk.array(obj, dtype=pk.int16)
            np.testing.assert_array_equal(np.asarray(w), np.array(obj, dtype=np.int16))
        v = pk.View([3], pk.int32)
        self.assertIs(pk.array(v), v)
        self.assertIs(pk.asarray(v), v)
        self.assertIs(pk.asarray(v, dtype=pk.int32), v)
        w = pk.array(v, dtype=pk.float64)
        self.assertIs(w.dtype, pk.float64)
        self.assertIsNot(pk.array(v, copy=True), v)

    def test_unsupported(self):
        with self.assertRaisesRegex(TypeError, "unsupported dtype float16"):
            pk.array(np.zeros(3, np.float16))
        with self.assertRaisesRegex(TypeError, "unsupported dtype complex128"):
            pk.array([1j, 2])
        with self.assertRaisesRegex(TypeError, "unsupported dtype"):
            pk.array(["a", "b"])

    def test_array_interface_and_dlpack_objects(self):
        a = np.arange(6, dtype=np.int32)

        class AI:                         # e.g. a CPU torch tensor
            __array_interface__ = a.__array_interface__

        v = pk.array(AI())
        self.assertTrue(shares(v, a))
        np.testing.assert_array_equal(np.asarray(v), a)

        class DL:                         # only DLPack
            def __dlpack__(self, stream=None):
                return a.__dlpack__()

            def __dlpack_device__(self):
                return a.__dlpack_device__()

        v = pk.array(DL())
        np.testing.assert_array_equal(np.asarray(v), a)
        self.assertTrue(shares(v, a))


class Creation(unittest.TestCase):
    def test_zeros_ones_full_empty(self):
        for shape in (4, [4], (2, 3), [2, 3, 2], (0,)):
            want_shape = (shape,) if isinstance(shape, int) else tuple(shape)
            for name in NAMES:
                t = getattr(pk, name)
                for f, npf in ((pk.zeros, np.zeros), (pk.ones, np.ones), (pk.empty, np.zeros)):
                    v = f(shape, dtype=t)
                    self.assertIsInstance(v, pk.View)
                    self.assertEqual((v.shape, v.dtype), (want_shape, t))
                    np.testing.assert_array_equal(np.asarray(v), npf(want_shape, name))
                v = pk.full(shape, 3, dtype=t)
                np.testing.assert_array_equal(np.asarray(v), np.full(want_shape, 3, name))
        self.assertIs(pk.zeros(3).dtype, pk.float64)
        self.assertIs(pk.zeros(3, pk.int32).dtype, pk.int32)     # dtype positional too
        self.assertIs(pk.full(2, 7).dtype, pk.int64)              # numpy's inference
        self.assertIs(pk.full(2, 7.5).dtype, pk.float64)
        self.assertIs(pk.full(2, True).dtype, pk.bool)
        self.assertEqual(pk.zeros([2, 3], layout=pk.LayoutLeft).layout, pk.LayoutLeft)
        with self.assertRaisesRegex(ValueError, "pk.zeros: negative extent"):
            pk.zeros([-2])
        with self.assertRaisesRegex(TypeError, "pk.ones: extents must be ints"):
            pk.ones([2.0])

    def test_like(self):
        src = pk.array(np.arange(6, dtype=np.int16).reshape(2, 3))
        for f, npf in ((pk.zeros_like, np.zeros_like), (pk.ones_like, np.ones_like),
                       (pk.empty_like, np.zeros_like)):
            v = f(src)
            self.assertEqual((v.shape, v.dtype), ((2, 3), pk.int16))
            np.testing.assert_array_equal(np.asarray(v), npf(np.asarray(src)))
            self.assertIs(f(src, dtype=pk.float32).dtype, pk.float32)
        np.testing.assert_array_equal(np.asarray(pk.full_like(src, 9)), np.full((2, 3), 9))
        self.assertIs(pk.zeros_like(np.zeros(2, np.uint32)).dtype, pk.uint32)

    def test_ranges(self):
        cases = [((5,), {}), ((2, 9), {}), ((1, 10, 3), {}), ((0.5, 3.0, 0.5), {}),
                 ((10, 0, -2), {}), ((4,), {"dtype": pk.float32}), ((3,), {"dtype": pk.uint8})]
        for args, kw in cases:
            v = pk.arange(*args, **kw)
            nkw = {"dtype": np.dtype(kw["dtype"])} if kw else {}
            want = np.arange(*args, **nkw)
            self.assertEqual(v.dtype, want.dtype)
            np.testing.assert_array_equal(np.asarray(v), want)
        for args, kw in [((0, 1), {}), ((0, 1, 5), {}), ((2, 3, 4), {"endpoint": False}),
                         ((0, 10, 6), {"dtype": pk.int32}), ((1, 2, 0), {})]:
            nkw = dict(kw)
            if "dtype" in nkw:
                nkw["dtype"] = np.dtype(nkw["dtype"])
            np.testing.assert_array_equal(np.asarray(pk.linspace(*args, **kw)),
                                          np.linspace(*args, **nkw))
        np.testing.assert_allclose(np.asarray(pk.logspace(0, 3, 4)), np.logspace(0, 3, 4))
        np.testing.assert_allclose(np.asarray(pk.logspace(0, 3, 4, base=2.0, endpoint=False)),
                                   np.logspace(0, 3, 4, base=2.0, endpoint=False))
        self.assertIs(pk.linspace(0, 1, 3).dtype, pk.float64)

    def test_reshape_ravel_expand_dims(self):
        a = np.arange(24, dtype=np.float32)
        v = pk.array(a)
        for shape in ((4, 6), [2, 3, 4], (-1, 8), 24):
            r = pk.reshape(v, shape)
            self.assertIsInstance(r, pk.View)
            np.testing.assert_array_equal(np.asarray(r), np.reshape(a, shape))
            self.assertTrue(shares(r, a))                  # contiguous: shared
        m = pk.reshape(v, (4, 6))
        np.testing.assert_array_equal(np.asarray(pk.ravel(m)), a)
        self.assertTrue(shares(pk.ravel(m), a))
        t = pk.array(np.asarray(m).T)                      # Fortran order
        np.testing.assert_array_equal(np.asarray(pk.ravel(t)), np.ravel(np.asarray(m).T))
        for axis in (0, 1, -1, (0, 2)):
            e = pk.expand_dims(m, axis)
            np.testing.assert_array_equal(np.asarray(e), np.expand_dims(np.asarray(m), axis))
        with self.assertRaises(ValueError):
            pk.reshape(v, (5, 5))


class ArgumentsKernelsRefuse(unittest.TestCase):
    """Host arrays a kernel must not take as they are (issue 11): each raises
    TypeError naming the kernel and the argument, and nothing is written."""

    @classmethod
    def setUpClass(cls):
        import kern_api
        cls.K = kern_api

    def test_read_only_array_for_a_written_parameter(self):
        y = np.zeros(8)
        y.setflags(write=False)
        with self.assertRaisesRegex(TypeError, r"axpy: argument 'y' is read-only"):
            pk.parallel_for(8, self.K.axpy, y=y, x=np.ones(8), a=1.0)
        self.assertTrue(np.all(y == 0.0))
        frozen = np.frombuffer(bytes(64), dtype=np.float64)   # an array over bytes
        with self.assertRaisesRegex(TypeError, "read-only"):
            pk.parallel_for(8, self.K.axpy, y=frozen, x=np.ones(8), a=1.0)
        x = np.ones(8)
        x.setflags(write=False)                                # read only: fine
        out = np.zeros(8)
        pk.parallel_for(8, self.K.axpy, y=out, x=x, a=2.0)
        np.testing.assert_array_equal(out, np.full(8, 2.0))

    def test_other_byte_order(self):
        x = np.arange(8, dtype=">f8")
        with self.assertRaisesRegex(TypeError, r"axpy: argument 'x': dtype >f8 is not in the "
                                               "machine's byte order"):
            pk.parallel_for(8, self.K.axpy, y=np.zeros(8), x=x, a=1.0)

    def test_dtype_changed_in_place(self):
        y, x = np.zeros(8), np.ones(8)
        pk.parallel_for(8, self.K.axpy, y=y, x=x, a=1.0)
        x.dtype = np.int64                                     # same memory, other dtype
        with self.assertRaisesRegex(TypeError, "axpy: argument 'x'"):
            pk.parallel_for(8, self.K.axpy, y=y, x=x, a=1.0)
        np.testing.assert_array_equal(y, np.ones(8))


class KernelsTakeThem(unittest.TestCase):
    """Views from the array API go through the kernel-call path (pkc build)."""

    @classmethod
    def setUpClass(cls):
        import kern_api
        cls.K = kern_api

    def test_axpy_on_created_views(self):
        K = self.K
        n = 37
        x = pk.linspace(0.0, 1.0, n)
        y = pk.ones(n)
        pk.parallel_for(n, K.axpy, y=y, x=x, a=2.0)
        np.testing.assert_allclose(np.asarray(y), 1.0 + 2.0 * np.linspace(0.0, 1.0, n))
        base = np.arange(n, dtype=np.float64)
        y2 = pk.array(base)                                # zero-copy: base changes
        pk.parallel_for(n, K.axpy, y=y2, x=pk.full(n, 0.5), a=4.0)
        np.testing.assert_allclose(base, np.arange(n) + 2.0)
        self.assertAlmostEqual(pk.parallel_reduce(n, K.total, x=pk.arange(n, dtype=pk.double)),
                               float(np.arange(n).sum()))

    def test_int_and_reshaped(self):
        K = self.K
        v = pk.arange(10, dtype=pk.int32)
        pk.parallel_for(10, K.scale_i32, v=v, k=3)
        np.testing.assert_array_equal(np.asarray(v), np.arange(10) * 3)
        m = pk.reshape(pk.arange(12.0), (3, 4))
        r = pk.zeros(3)
        pk.parallel_for(3, K.rowsum, A=m, r=r)
        np.testing.assert_array_equal(np.asarray(r), np.arange(12.0).reshape(3, 4).sum(1))
        with self.assertRaisesRegex(TypeError, "expected float64 View1D"):
            pk.parallel_for(3, K.rowsum, A=m, r=pk.zeros(3, pk.int32))


# ---- CUDA arrays without a GPU: a fake module whose "device" is host memory --

libc = ctypes.CDLL(None)
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
COPY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                        ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _copy(d, dd, s, sd, n, e, el):
    ctypes.memmove(d, s, n)
    return 0


CBS = [ALLOC(lambda n, e, el: libc.malloc(n)), COPY(_copy), FREE(lambda p: libc.free(p))]


def _kernel(args, pol, res, err, errlen):
    a = ctypes.cast(args, ctypes.POINTER(ctypes.c_void_p))
    t = _abi.DLTensor.from_address(a[0])
    buf = (ctypes.c_double * t.shape[0]).from_address(t.data)
    for i in range(t.shape[0]):
        buf[i] *= 2.0
    return 0


KFN = _abi.KERNEL_FN(_kernel)


class FakeModule:
    def __init__(self):
        d = self.desc = _abi.pkc_module_desc()
        d.device_type, d.backend = 2, b"cuda"
        d.allocate, d.copy, d.deallocate = (ctypes.cast(c, ctypes.c_void_p).value for c in CBS)
        self.so = "fake.cuda.so"


class FakeCupy:
    """A CUDA array stand-in: __cuda_array_interface__ over host memory, .get()."""

    def __init__(self, arr):
        self.arr = arr

    @property
    def __cuda_array_interface__(self):
        a = self.arr
        return {"shape": a.shape, "typestr": a.dtype.str, "version": 3,
                "data": (a.ctypes.data, False),
                "strides": None if a.flags.c_contiguous else a.strides}

    def __dlpack_device__(self):
        return (2, 0)

    def get(self):
        return self.arr.copy()


class DeviceArrays(unittest.TestCase):
    def test_host_backend_copies(self):
        a = np.arange(5.0)
        v = pk.array(FakeCupy(a))
        self.assertIsNone(v._dev)
        np.testing.assert_array_equal(np.asarray(v), a)
        self.assertFalse(shares(v, a))

    def test_gpu_backend_zero_copy(self):
        p = (_abi.pkc_param_desc * 1)()
        p[0].name, p[0].kind, p[0].dtype_code, p[0].dtype_bits = b"v", 1, 2, 64
        p[0].rank, p[0].access = 1, 3
        k = _abi.pkc_kernel_desc()
        k.name = k.entity = b"dbl"
        k.nparams, k.params = 1, ctypes.cast(p, ctypes.POINTER(_abi.pkc_param_desc))
        k.fn = ctypes.cast(KFN, ctypes.c_void_p).value
        mod = FakeModule()
        run = D._gen_run(D.Plan("dbl", k, mod), False)
        D._plans[0][FakeModule] = run          # host writes unbind cached Views
        os.environ["PKC_BACKEND"] = "cuda"
        try:
            dev = np.arange(6.0)                  # the "device" memory
            v = pk.array(FakeCupy(dev))           # before any module is loaded
            self.assertIsNotNone(v._dev)
            np.testing.assert_array_equal(np.asarray(v), np.arange(6.0))  # via .get()
            _loader.RUNTIME.modules[("fake", "cuda")] = mod
            run(6, {"v": v})                      # the kernel doubles it in place
            np.testing.assert_array_equal(dev, np.arange(6.0) * 2)   # zero-copy
            np.testing.assert_array_equal(np.asarray(v), dev)
            v[0] = 100.0                          # host write reaches the device
            run(6, {"v": v})
            self.assertEqual(dev[0], 200.0)
            self.assertEqual(v.__cuda_array_interface__["data"][0], dev.ctypes.data)
            w = pk.array(FakeCupy(np.arange(3, dtype=np.int32)), dtype=pk.float64)
            self.assertIsNone(w._dev)             # conversion asked: a host copy
            np.testing.assert_array_equal(np.asarray(w), [0.0, 1.0, 2.0])
            f = np.asfortranarray(np.arange(6.0).reshape(2, 3))
            fv = pk.array(FakeCupy(f))
            self.assertEqual(fv.layout, pk.LayoutLeft)
            np.testing.assert_array_equal(np.asarray(fv), f)
        finally:
            _loader.RUNTIME.modules.pop(("fake", "cuda"), None)
            D._plans[0].pop(FakeModule, None)
            os.environ.pop("PKC_BACKEND")


if __name__ == "__main__":
    unittest.main()
