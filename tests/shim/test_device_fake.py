"""The shim's GPU argument path without a GPU: a fake CUDA module whose
allocate/copy are host malloc/memmove and whose kernel (a ctypes callback)
adds 1 to a float64 1-D tensor. Checks staging of host numpy arrays (copied
in and back), zero-copy __cuda_array_interface__ / __dlpack__ arrays, errors
naming kernel and argument, device-resident pk.View coherence, and the
fields of a device-resident View of a classtype handed out zero-copy through
__cuda_array_interface__ (issue 26) with the View's coherence.

Run: /usr/bin/python3 tests/shim/test_device_fake.py
"""
import ctypes
import os
import sys
import unittest
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
import numpy as np  # noqa: E402
import pykokkos as pk  # noqa: E402
from pykokkos import _abi, _dispatch as D, _loader  # noqa: E402

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
SEEN = []


def _kernel(args, pol, res, err, errlen):
    a = ctypes.cast(args, ctypes.POINTER(ctypes.c_void_p))
    t = _abi.DLTensor.from_address(a[0])
    n = t.shape[0]
    SEEN.append(t.device.device_type)
    buf = (ctypes.c_double * n).from_address(t.data)
    for i in range(n):
        buf[i] += 1.0
    return 0


KFN = _abi.KERNEL_FN(_kernel)


class FakeModule:
    def __init__(self):
        d = self.desc = _abi.pkc_module_desc()
        d.device_type, d.backend = 2, b"cuda"
        d.allocate, d.copy, d.deallocate = (ctypes.cast(c, ctypes.c_void_p).value for c in CBS)
        self.so = "fake.cuda.so"

    def fence(self):
        pass


def make_run():
    p = (_abi.pkc_param_desc * 1)()
    p[0].name, p[0].kind, p[0].dtype_code, p[0].dtype_bits = b"v", 1, 2, 64
    p[0].rank, p[0].access = 1, 3
    k = _abi.pkc_kernel_desc()
    k.name = k.entity = b"inc"
    k.nparams, k.params = 1, ctypes.cast(p, ctypes.POINTER(_abi.pkc_param_desc))
    k.fn = ctypes.cast(KFN, ctypes.c_void_p).value
    mod = FakeModule()
    plan = D.Plan("inc", k, mod)
    run = D._gen_run(plan, False)
    D._plans[0][make_run] = run
    run._keep = (p, k)
    return run, mod


def make_run2(layout, name):
    """A fake kernel `name` of one rank-2 float64 View parameter of layout
    (_abiconst LAYOUT_*) that does nothing."""
    p = (_abi.pkc_param_desc * 1)()
    p[0].name, p[0].kind, p[0].dtype_code, p[0].dtype_bits = b"v", 1, 2, 64
    p[0].rank, p[0].access, p[0].layout = 2, 3, layout
    k = _abi.pkc_kernel_desc()
    k.name = k.entity = name.encode()
    k.nparams, k.params = 1, ctypes.cast(p, ctypes.POINTER(_abi.pkc_param_desc))
    k.fn = ctypes.cast(KFN0, ctypes.c_void_p).value
    mod = FakeModule()
    run = D._gen_run(D.Plan(name, k, mod), False)
    run._keep = (p, k)
    return run, mod


KFN0 = _abi.KERNEL_FN(lambda args, pol, res, err, errlen: 0)


class CAI:
    """A fake CUDA array (host memory behind __cuda_array_interface__)."""

    def __init__(self, arr, dev=0):
        self.arr, self.dev = arr, dev

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.arr.shape, "typestr": self.arr.dtype.str, "version": 3,
                "data": (self.arr.ctypes.data, False), "strides": None}

    def __dlpack_device__(self):
        return (2, self.dev)


class DeviceArgs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        run, cls.mod = make_run()
        cls.krun = staticmethod(run)

    def test_numpy_staged_in_and_back(self):
        x = np.zeros(5)
        self.krun(5, {"v": x})
        self.krun(5, {"v": x})
        self.assertEqual(x.tolist(), [2.0] * 5)
        self.assertEqual(SEEN[-1], 2)
        xs = np.zeros(10)[::2]
        self.krun(5, {"v": xs})
        self.assertEqual(xs.tolist(), [1.0] * 5)

    def test_cuda_array_interface_zero_copy(self):
        y = np.zeros(4)
        c = CAI(y)
        self.krun(4, {"v": c})
        self.krun(4, {"v": c})
        self.assertEqual(y.tolist(), [2.0] * 4)

    def test_errors_name_kernel_and_argument(self):
        with self.assertRaisesRegex(TypeError, "inc: argument 'v'.*float32"):
            self.krun(4, {"v": CAI(np.zeros(4, np.float32))})
        with self.assertRaisesRegex(TypeError, "inc: argument 'v'.*list"):
            self.krun(4, {"v": [1.0, 2.0]})
        with self.assertRaisesRegex(ValueError, r"inc: argument 'v'.*device \(2, 1\)"):
            self.krun(4, {"v": CAI(np.zeros(4), dev=1)})

    def test_default_view_keeps_its_order_on_the_device(self):
        """A default-layout View takes the layout of the first kernel that
        puts it on the GPU; a later kernel wanting the other layout gets a
        TypeError naming it (was: the DLTensor went through and the C
        wrapper refused the strides, or a kernel read it transposed)."""
        from pykokkos._abiconst import LAYOUT_DEFAULT, LAYOUT_RIGHT
        os.environ["PKC_BACKEND"] = "cuda"
        right, mod = make_run2(LAYOUT_RIGHT, "right_kernel")
        default, _ = make_run2(LAYOUT_DEFAULT, "default_kernel")
        _loader.RUNTIME.modules[("fake2", "cuda")] = mod
        try:
            v = pk.View([3, 4], pk.double)
            right(3, {"v": v})                      # placed C-ordered
            with self.assertRaisesRegex(TypeError, r"default_kernel: argument 'v': expected a "
                                        r"LayoutLeft View, got a LayoutRight one; .*"
                                        r"\(v=pk.ViewTypeInfo\(layout=pk.LayoutRight\)\)"):
                default(3, {"v": v})
            w = pk.View([3, 4], pk.double)
            default(3, {"v": w})                    # placed as the GPU default: LayoutLeft
            self.assertTrue(np.asarray(w).flags.f_contiguous)
            with self.assertRaisesRegex(TypeError, "right_kernel: argument 'v': expected a "
                                        "LayoutRight View"):
                right(3, {"v": w})
        finally:
            del _loader.RUNTIME.modules[("fake2", "cuda")]
            os.environ.pop("PKC_BACKEND", None)

    def test_subview_follows_its_parent_to_fortran_order(self):
        """A subview made before its parent moved to the GPU's LayoutLeft (a
        functor's slice member beside the whole View, upstream's subviews
        example) keeps aliasing the parent: kernels write the parent through
        it, and it reads the parent's values (it took a copy of its own, so
        writes through it were lost and it read the old values)."""
        from pykokkos._abiconst import LAYOUT_DEFAULT
        os.environ["PKC_BACKEND"] = "cuda"
        default, mod = make_run2(LAYOUT_DEFAULT, "default_kernel")
        _loader.RUNTIME.modules[("fake4", "cuda")] = mod
        try:
            m = pk.View([4, 3], pk.double)
            m[:] = np.arange(12.0).reshape(4, 3)
            col = m[:, 1]                       # strided in the C-ordered host mirror
            sub = m[1:3, :][:, 2]               # a slice of a slice
            default(4, {"v": m})                # m placed LayoutLeft: its mirror moves
            self.assertTrue(np.asarray(m).flags.f_contiguous)
            self.krun(4, {"v": col})            # +1 through the subview, on the "device"
            self.krun(2, {"v": sub})
            want = np.arange(12.0).reshape(4, 3)
            want[:, 1] += 1
            want[1:3, 2] += 1
            np.testing.assert_array_equal(np.asarray(m), want)
            self.assertEqual(list(col), list(want[:, 1]))
            self.assertEqual(list(sub), list(want[1:3, 2]))
            m[0, 1] = -5.0                      # a host write to the parent ...
            self.assertEqual(col[0], -5.0)      # ... read through the subview
            row = pk.View([4, 3], pk.double)
            r = row[1, :]                       # contiguous in C order, strided in F order
            default(4, {"v": row})
            with self.assertRaisesRegex(TypeError, r"inc: argument 'v': a slice of a View that "
                                        r"the GPU keeps in LayoutLeft .*layout=pk.LayoutRight"):
                self.krun(3, {"v": r})
        finally:
            del _loader.RUNTIME.modules[("fake4", "cuda")]
            os.environ.pop("PKC_BACKEND", None)

    def test_view_over_symmetric_memory(self):
        """pykokkos._nvshmem.symmetric_view (the NVSHMEM halo's face buffers):
        a View over device memory it does not own binds zero-copy, reads
        back through the module's copy, and never frees that memory."""
        from pykokkos._nvshmem import symmetric_view
        os.environ["PKC_BACKEND"] = "cuda"
        _loader.RUNTIME.modules[("fake3", "cuda")] = self.mod
        mem = libc.malloc(5 * 8)
        try:
            (ctypes.c_double * 5).from_address(mem)[:] = [0.0, 1.0, 2.0, 3.0, 4.0]
            v = symmetric_view(mem, 5, pk.double)
            self.krun(5, {"v": v})
            device = (ctypes.c_double * 5).from_address(mem)
            self.assertEqual(list(device), [1.0, 2.0, 3.0, 4.0, 5.0])
            self.krun(5, {"v": v})
            self.assertEqual(np.asarray(v).tolist(), [2.0, 3.0, 4.0, 5.0, 6.0])
            v._dev.release()   # a no-op: the memory stays NVSHMEM's (here: ours)
            del v
            self.assertEqual(device[0], 2.0)
        finally:
            libc.free(mem)
            del _loader.RUNTIME.modules[("fake3", "cuda")]
            os.environ.pop("PKC_BACKEND", None)

    def test_view_device_resident(self):
        os.environ["PKC_BACKEND"] = "cuda"
        _loader.RUNTIME.modules[("fake", "cuda")] = self.mod
        try:
            v = pk.View([6], pk.double)
            v.fill(1.0)
            self.krun(6, {"v": v})
            self.krun(6, {"v": v})
            self.assertIsNotNone(v._dev)
            self.assertEqual(np.asarray(v).tolist(), [3.0] * 6)
            v[0] = 10.0
            self.krun(6, {"v": v})
            self.assertEqual((v[0], v[1]), (11.0, 4.0))
            v.fill(0.0)
            self.krun(6, {"v": v})
            self.assertEqual(np.asarray(v).tolist(), [1.0] * 6)
        finally:
            del _loader.RUNTIME.modules[("fake", "cuda")]
            os.environ.pop("PKC_BACKEND")

    def test_buffer_protocol_is_the_current_host_mirror(self):
        # __buffer__ (PEP 688; what mpi4py takes first on Python 3.12): the
        # host mirror made current from the device, and what is written
        # through it reaches the device before the next kernel, so MPI never
        # gets device memory
        os.environ["PKC_BACKEND"] = "cuda"
        _loader.RUNTIME.modules[("fake", "cuda")] = self.mod
        try:
            v = pk.View([5], pk.double)
            v.fill(2.0)
            self.krun(5, {"v": v})   # on the device now: 3.0
            m = v.__buffer__(0)
            self.assertIsInstance(m, memoryview)
            self.assertEqual((m.format, m.shape, m.readonly), ("d", (5,), False))
            self.assertEqual(m.tolist(), [3.0] * 5)
            m[1] = 7.0   # an MPI receive into the buffer
            m.release()
            self.krun(5, {"v": v})
            self.assertEqual(np.asarray(v).tolist(), [4.0, 8.0, 4.0, 4.0, 4.0])
        finally:
            del _loader.RUNTIME.modules[("fake", "cuda")]
            os.environ.pop("PKC_BACKEND")


@pk.classtype
class Pt:
    def __init__(self, x: float, m: pk.float32):
        self.id: pk.int32 = 0
        self.x: float = x
        self.w: List[float] = [0.0, 0.0]
        self.m: pk.float32 = m


def device_array(cai):
    """A numpy array over the (fake) device memory a __cuda_array_interface__ names."""
    dt = np.dtype(cai["typestr"])
    shape = cai["shape"]
    strides = cai["strides"]
    if strides is None:
        strides, acc = [], dt.itemsize
        for e in reversed(shape):
            strides.insert(0, acc)
            acc *= e
    span = sum((e - 1) * st for e, st in zip(shape, strides)) + dt.itemsize
    buf = (ctypes.c_char * span).from_address(cai["data"][0])
    return np.ndarray(shape, dt, buffer=buf, strides=strides)


class ClassViewFieldsOnDevice(unittest.TestCase):
    """p.x of a View of a classtype on a (fake) CUDA device: its
    __cuda_array_interface__ points into the device copy (AoS: strided by the
    struct), reads see device writes after making the device copy current,
    host writes reach the device, and a kernel taking p.x writes p's memory."""

    @classmethod
    def setUpClass(cls):
        run, cls.mod = make_run()
        cls.krun = staticmethod(run)

    def setUp(self):
        os.environ["PKC_BACKEND"] = "cuda"
        _loader.RUNTIME.modules[("fake", "cuda")] = self.mod

    def tearDown(self):
        del _loader.RUNTIME.modules[("fake", "cuda")]
        os.environ.pop("PKC_BACKEND")

    def made(self, lay):
        p = pk.View([6], Pt, layout=lay)
        p.x = np.arange(6.0)
        p.m = 2.0
        p.w = np.arange(12.0).reshape(6, 2)
        return p

    def test_cuda_array_interface_is_the_device_copy(self):
        for lay in (pk.AoS, pk.SoA):
            p = self.made(lay)
            cai = p.x.__cuda_array_interface__        # moves p to the device
            self.assertIsNotNone(p._dev)
            self.assertEqual((cai["version"], cai["stream"], cai["shape"]), (3, None, (6,)))
            self.assertEqual(cai["strides"], (40,) if lay is pk.AoS else None)   # the struct size
            self.assertNotEqual(cai["data"][0], np.asarray(p.x).ctypes.data)
            d = device_array(p.x.__cuda_array_interface__)
            np.testing.assert_array_equal(d, np.arange(6.0))
            self.assertEqual(p.x.__dlpack_device__(), (2, 0))
            d[:] = 7.0                                # a device write (CuPy, a kernel)
            w = device_array(p.w.__cuda_array_interface__)
            np.testing.assert_array_equal(w, np.arange(12.0).reshape(6, 2))
            self.assertEqual(device_array(p.m.__cuda_array_interface__).tolist(), [2.0] * 6)
            np.testing.assert_array_equal(np.asarray(p.x), np.full(6, 7.0))   # copied back
            np.testing.assert_array_equal(np.asarray(p)["m"], np.full(6, 2.0))
            p.x[1] = -1.0                             # a host write ...
            d = device_array(p.x.__cuda_array_interface__)
            self.assertEqual(d[1], -1.0)              # ... reaches the device copy
            d[2] = 5.0
            q = pk.to_layout(p, pk.SoA if lay is pk.AoS else pk.AoS)
            self.assertEqual(np.asarray(q.x).tolist(), [7.0, -1.0, 5.0, 7.0, 7.0, 7.0])

    def test_field_as_kernel_argument_writes_the_view(self):
        p = self.made(pk.SoA)
        x = p.x
        self.krun(6, {"v": x})
        self.krun(6, {"v": p.x})                     # the same FieldView, binding cached
        np.testing.assert_array_equal(np.asarray(p.x), np.arange(6.0) + 2.0)
        p.x[0] = 100.0                                # host write: the next call pushes it
        self.krun(6, {"v": x})
        np.testing.assert_array_equal(np.asarray(p.x), [101.0, 4, 5, 6, 7, 8])
        np.testing.assert_array_equal(np.asarray(p)["m"], np.full(6, 2.0))


if __name__ == "__main__":
    unittest.main()
