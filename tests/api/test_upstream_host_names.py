"""Host-API names upstream PyKokkos exports that its applications and tests
call (ExaMiniMD's pk.enable_uvm() on GPUs, test_views' set_default_precision,
MDRangePolicy's keywords tiling=/space=/iter_outer=/iter_inner=/rank=pk.Rank,
pk.flush, pk.get_default_memory_space), the plain atomics refusing to run
in Python, and View == / != element-wise as PyKokkos' View.__eq__. Values against numpy; errors by type and text."""
import math
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
import pykokkos as pk  # noqa: E402


@pk.workunit
def fill(i: int, j: int, a: pk.View2D[pk.double]):
    a[i][j] = 100 * i + j


@pk.workunit
def scale(i: int, v: pk.View1D[pk.double], s: float):
    v[i] *= s


WANT = np.fromfunction(lambda i, j: 100 * i + j, (6, 5))


class MDRangeKeywords(unittest.TestCase):
    def run_policy(self, policy):
        a = pk.View([6, 5], pk.double)
        pk.parallel_for(policy, fill, a=a)
        return np.asarray(a)

    def test_tiling_space_and_orders(self):
        for policy in (pk.MDRangePolicy([0, 0], [6, 5], tiling=[2, 2]),
                       pk.MDRangePolicy([0, 0], [6, 5], space=pk.ExecutionSpace.Default),
                       pk.MDRangePolicy([0, 0], [6, 5], iter_outer=pk.Iterate.Left,
                                        iter_inner=pk.Iterate.Left),
                       pk.MDRangePolicy([0, 0], [6, 5],
                                        rank=pk.Rank(2, pk.Iterate.Right, pk.Iterate.Right))):
            self.assertTrue(np.array_equal(self.run_policy(policy), WANT))

    def test_keywords_set_the_policy(self):
        p = pk.MDRangePolicy([0, 0], [6, 5], tiling=[3, 1], iter_inner=pk.Iterate.Left)
        self.assertEqual((p.tile, p.iterate), ([3, 1], pk.Iterate.Left))
        p = pk.MDRangePolicy([0, 0], [6, 5], rank=pk.Rank(2, pk.Iterate.Right, pk.Iterate.Left))
        self.assertEqual(p.iterate, pk.Iterate.Left)   # the inner order wins
        p = pk.MDRangePolicy([0, 0], [6, 5], iter_outer=pk.Iterate.Right)
        self.assertEqual(p.iterate, pk.Iterate.Right)

    def test_bad_keywords(self):
        with self.assertRaisesRegex(ValueError, r"rank= says 3 dimensions, the bounds have 2"):
            pk.MDRangePolicy([0, 0], [6, 5], rank=pk.Rank(3, pk.Iterate.Left, pk.Iterate.Left))
        with self.assertRaisesRegex(TypeError, r"tiles given twice"):
            pk.MDRangePolicy([0, 0], [6, 5], [2, 2], tiling=[2, 2])
        with self.assertRaisesRegex(ValueError, r"iter_inner must be pk.Iterate"):
            pk.MDRangePolicy([0, 0], [6, 5], iter_inner="Left")


class Precision(unittest.TestCase):
    def tearDown(self):
        pk.set_default_precision(pk.float64)
        os.environ.pop("PKC_REAL", None)

    def test_views_without_a_dtype_follow_it(self):
        pk.set_default_precision(pk.float32)
        self.assertIs(pk.real, pk.float32)
        self.assertIs(pk.get_default_precision(), pk.float32)
        self.assertIs(pk.View([4]).dtype, pk.float32)
        self.assertIs(pk.View([4], pk.int32).dtype, pk.int32)
        pk.set_default_precision(pk.float64)
        self.assertIs(pk.View([4]).dtype, pk.float64)
        with self.assertRaisesRegex(ValueError, r"pk.float32 or pk.float64"):
            pk.set_default_precision(pk.int32)


class ViewComparisons(unittest.TestCase):
    def test_eq_ne_element_wise_hash_by_identity(self):
        labels = pk.array(np.array([0, 2, 1, 2, 2, 0], dtype=np.int64))
        self.assertEqual(np.asarray(labels == 2).tolist(), [False, True, False, True, True, False])
        self.assertEqual(int(pk.sum(labels == 2)), 3)            # a k-means cluster count
        other = pk.array(np.array([0, 1, 1, 2, 0, 0], dtype=np.int64))
        self.assertEqual(np.asarray(labels != other).tolist(), [False, True, False, False, True,
                                                                False])
        self.assertEqual(np.asarray(labels == np.zeros(6)).tolist(),
                         [True, False, False, False, False, True])
        self.assertFalse(labels == None)   # noqa: E711  (identity with anything else)
        self.assertTrue(labels != "labels")
        plans = {labels: 1, other: 2}                             # hashable, by identity
        self.assertEqual((plans[labels], plans[other]), (1, 2))


class Spaces(unittest.TestCase):
    def tearDown(self):
        pk.disable_uvm()

    def test_uvm_flag_and_memory_spaces(self):
        self.assertFalse(pk.is_uvm_enabled())
        self.assertIs(pk.get_default_memory_space(pk.ExecutionSpace.OpenMP), pk.HostSpace)
        self.assertIs(pk.get_default_memory_space(pk.ExecutionSpace.Cuda), pk.CudaSpace)
        pk.enable_uvm()
        self.assertTrue(pk.is_uvm_enabled())
        self.assertIs(pk.get_default_memory_space(pk.ExecutionSpace.Cuda), pk.CudaUVMSpace)
        self.assertIs(pk.get_default_memory_space(pk.ExecutionSpace.HIP), pk.HIPSpace)
        self.assertIn(pk.get_default_memory_space(), (pk.HostSpace, pk.CudaSpace,
                                                      pk.CudaUVMSpace, pk.HIPSpace))
        pk.disable_uvm()
        self.assertFalse(pk.is_uvm_enabled())

    def test_flush_then_results(self):
        v = pk.View([8], pk.double)
        v[:] = np.arange(8.0)
        pk.parallel_for(8, scale, v=v, s=3.0)
        pk.flush()
        pk.fence()
        self.assertEqual(np.asarray(v).tolist(), (np.arange(8.0) * 3).tolist())

    def test_plain_atomics_only_in_kernels(self):
        v = pk.View([1], pk.double)
        for name in ("atomic_max", "atomic_min", "atomic_mul", "atomic_or", "atomic_rshift"):
            with self.assertRaisesRegex(RuntimeError, rf"pk.{name} can only be used inside"):
                getattr(pk, name)(v, [0], 1.0)


class LibModulePaths(unittest.TestCase):
    """PyKokkos' pykokkos.lib.create / manipulate / info / constants modules
    (`from pykokkos.lib.create import zeros`): the same functions as pk.*."""

    def test_modules_and_their_names(self):
        from pykokkos.lib import constants, create, info, manipulate
        self.assertIs(create.zeros, pk.zeros)
        self.assertIs(manipulate.reshape, pk.reshape)
        v = create.ones((2, 3), dtype=pk.int32)
        self.assertEqual(np.asarray(manipulate.reshape(v, (3, 2))).tolist(), [[1, 1]] * 3)
        self.assertEqual(np.asarray(manipulate.ravel(create.full((2, 2), 3.0))).tolist(),
                         [3.0] * 4)
        self.assertEqual((info.iinfo(pk.int16).min, info.iinfo(pk.int16).max), (-32768, 32767))
        self.assertEqual(info.finfo(pk.float32).bits, 32)
        self.assertEqual((constants.e, constants.pi), (math.e, math.pi))
        self.assertTrue(math.isinf(constants.inf) and math.isnan(constants.nan))


class Mirrors(unittest.TestCase):
    """Kokkos' create_mirror / create_mirror_view with pk.deep_copy both ways."""

    def test_mirror_round_trip(self):
        v = pk.View([5, 3], pk.int32, layout=pk.LayoutLeft)
        v[:] = np.arange(15).reshape(5, 3)
        self.assertIs(pk.create_mirror_view(v), v)
        h = pk.create_mirror(v)
        self.assertEqual((tuple(h.shape), h.layout), ((5, 3), pk.LayoutLeft))
        self.assertEqual(int(np.asarray(h).sum()), 0)
        pk.deep_copy(h, v)
        np.testing.assert_array_equal(np.asarray(h), np.arange(15).reshape(5, 3))
        np.asarray(h)[:] = 7
        pk.deep_copy(v, h)
        self.assertEqual(int(np.asarray(v).sum()), 105)
        self.assertEqual(int(np.asarray(pk.create_mirror(v, copy=True)).sum()), 105)
        with self.assertRaises(TypeError):
            pk.create_mirror(np.zeros(3))


if __name__ == "__main__":
    unittest.main()
