"""Call forms of PyKokkos programs the shim accepts (issue 21): `acc=0.0` at
a reduction (the start value the reduction has anyway; any other value is
still an error), pykokkos.interface.parallel_dispatch.convert_arrays, and
the dtype mismatch message PyKokkos' tests match ("expects a View with dtype
int32"), pk.DeviceExecutionSpace. Values against numpy."""
import os
import subprocess
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
import pykokkos as pk  # noqa: E402
from pykokkos.interface.parallel_dispatch import convert_arrays  # noqa: E402


@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], v: pk.View1D[pk.double]):
    acc += v[i]


@pk.workunit
def product(i: int, acc: pk.Prod[pk.double], v: pk.View1D[pk.double]):
    acc *= v[i]


@pk.workunit
def twice_int32(i: int, arr: pk.View1D[pk.int32]):
    arr[i] = arr[i] * 2


@pk.workunit
def twice(i: int, arr):
    arr[i] = arr[i] * 2


class AccKeyword(unittest.TestCase):
    def test_identity_start_values_are_accepted(self):
        v = np.arange(1.0, 6.0)
        self.assertEqual(pk.parallel_reduce(5, total, acc=0.0, v=v), 15.0)
        self.assertEqual(pk.parallel_reduce("t", pk.RangePolicy(0, 5), total, acc=0, v=v), 15.0)
        self.assertEqual(pk.parallel_reduce(5, product, acc=1.0, v=v), 120.0)

    def test_initial_value_after_the_kernel(self):
        # PyKokkos' parallel_reduce(policy, workunit, initial_value): the start value
        v = np.arange(1.0, 6.0)
        self.assertEqual(pk.parallel_reduce(5, total, 0.0, v=v), 15.0)
        self.assertEqual(pk.parallel_reduce("t", 5, total, 0, v=v), 15.0)
        self.assertEqual(pk.parallel_reduce(pk.RangePolicy(0, 5), product, 1.0, v=v), 120.0)
        with self.assertRaisesRegex(TypeError, "start value .* add it to the result"):
            pk.parallel_reduce(5, total, 100.0, v=v)

    def test_other_start_values_are_errors(self):
        v = np.arange(1.0, 6.0)
        with self.assertRaisesRegex(TypeError, "unexpected keyword argument 'acc'"):
            pk.parallel_reduce(5, total, acc=2.0, v=v)
        with self.assertRaisesRegex(TypeError, "unexpected keyword argument 'acc'"):
            pk.parallel_reduce(5, product, acc=0.0, v=v)


class ConvertArrays(unittest.TestCase):
    def test_annotated_dtype_kept(self):
        kw = {"arr": np.ones(8, dtype=np.int32)}
        convert_arrays(kw, twice_int32, pk.ExecutionSpace.OpenMP)
        self.assertIs(kw["arr"].dtype, pk.int32)
        pk.parallel_for(8, twice_int32, **kw)
        np.testing.assert_array_equal(np.asarray(kw["arr"]), np.full(8, 2))

    def test_unannotated_takes_the_arrays_dtype(self):
        a = np.arange(8, dtype=np.int64)
        kw = {"arr": a}
        convert_arrays(kw, twice, pk.ExecutionSpace.OpenMP)
        self.assertIs(kw["arr"].dtype, pk.int64)
        pk.parallel_for(8, twice, **kw)
        np.testing.assert_array_equal(a, 2 * np.arange(8))   # the same memory

    def test_mismatch_names_the_dtype(self):
        with self.assertRaisesRegex(TypeError, "expects a View with dtype int32"):
            convert_arrays({"arr": np.ones(8, dtype=np.int64)}, twice_int32)
        with self.assertRaisesRegex(TypeError, "expects a View with dtype int32"):
            pk.parallel_for(8, twice_int32, arr=np.ones(8, dtype=np.int64))
        with self.assertRaisesRegex(TypeError, "expects a View with dtype int32"):
            pk.parallel_for(8, twice_int32, arr=pk.array(np.ones(8, dtype=np.int64)))


class Spaces(unittest.TestCase):
    def test_device_execution_space(self):
        """pk.DeviceExecutionSpace (upstream's graphs example tests membership)."""
        self.assertIn(pk.ExecutionSpace.Cuda, pk.DeviceExecutionSpace)
        self.assertIn(pk.ExecutionSpace.HIP, pk.DeviceExecutionSpace)
        self.assertNotIn(pk.ExecutionSpace.OpenMP, pk.DeviceExecutionSpace)
        self.assertEqual(pk.get_default_space() in pk.DeviceExecutionSpace,
                         os.environ.get("PKC_BACKEND", "openmp") in ("cuda", "hip"))

    def test_default_space_follows_pkc_backend(self):
        """PKC_BACKEND wins over set_default_space for the launches, and
        get_default_space() names the space they run in (no GPU needed)."""
        code = ("import pykokkos as pk; a = pk.get_default_space(); pk.set_default_space(pk.Serial); "
                "print(a.name, pk.get_default_space().name)")
        for backend, want in (("", "OpenMP Serial"), ("serial", "Serial Serial"),
                              ("openmp", "OpenMP OpenMP"), ("cuda", "Cuda Cuda"), ("hip", "HIP HIP")):
            env = dict(os.environ, PKC_BACKEND=backend,
                       PYTHONPATH=os.path.join(HERE, "..", "..", "runtime-shim", "python"))
            r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(r.stdout.strip(), want, (backend, r.stderr[-500:]))


if __name__ == "__main__":
    unittest.main()
