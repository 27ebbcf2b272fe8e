"""Workunits launched with an MDRangePolicy from another file than their
own (upstream PyKokkos takes the policy from the launch): annotated and
unannotated, rank 2 and 3, parallel_for and parallel_reduce, each equal to
numpy; the same kernel module's range kernel with an int parameter stays a
range kernel. (The shim builds `kernel[R](...)` specializations: the first R
integer parameters are the work indices.)"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
import numpy as np  # noqa: E402
import pykokkos as pk  # noqa: E402
import mdrange_kernels as mk  # noqa: E402


class CrossFileMDRange(unittest.TestCase):
    def test_annotated_rank2_for_and_reduce(self):
        a = pk.View([4, 3], pk.double)
        pk.parallel_for(pk.MDRangePolicy([0, 0], [4, 3]), mk.fill, a=a, ny=3)
        want = np.arange(12.0).reshape(4, 3)
        self.assertTrue(np.array_equal(np.asarray(a), want))
        s = pk.parallel_reduce(pk.MDRangePolicy([1, 0], [4, 2]), mk.total, a=a)
        self.assertEqual(s, want[1:4, 0:2].sum())

    def test_unannotated_rank3(self):
        n = 3
        a = pk.View([n, n, n], pk.double)
        pk.parallel_for(pk.MDRangePolicy([0, 0, 0], [n, n, n]), mk.fill3, a=a, n=n)
        self.assertTrue(np.array_equal(np.asarray(a), np.arange(27.0).reshape(n, n, n)))

    def test_range_kernel_with_int_parameter_stays_range(self):
        a = pk.View([5], pk.double)
        pk.parallel_for(5, mk.scaled, n=2, a=a)
        self.assertEqual(list(np.asarray(a)), [0.0, 2.0, 4.0, 6.0, 8.0])


if __name__ == "__main__":
    unittest.main()
