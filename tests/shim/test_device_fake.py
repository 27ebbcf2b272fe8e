"""The shim's GPU argument path without a GPU: a fake CUDA module whose
allocate/copy are host malloc/memmove and whose kernel (a ctypes callback)
adds 1 to a float64 1-D tensor. Checks staging of host numpy arrays (copied
in and back), zero-copy __cuda_array_interface__ / __dlpack__ arrays, errors
naming kernel and argument, and device-resident pk.View coherence.

Run: /usr/bin/python3 tests/shim/test_device_fake.py
"""
import ctypes
import os
import sys
import unittest

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


if __name__ == "__main__":
    unittest.main()
