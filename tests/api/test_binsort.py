"""pk.BinSort / pk.BinOp1D / pk.BinOp3D from host code, checked against bins
computed with numpy (np.argsort of the bin index)."""
import unittest

import numpy as np
import pykokkos as pk


class BinSortTests(unittest.TestCase):
    def test_binop1d_counts_offsets_permutation_and_sort(self):
        rng = np.random.default_rng(7)
        keys = rng.uniform(0.0, 10.0, 200)
        kv = pk.View([200], pk.double)
        kv[:] = keys
        op = pk.BinOp1D(kv, 10, 0.0, 10.0)
        bs = pk.BinSort(kv, op)
        bs.create_permute_vector()
        bins = (10 / 10.0 * (keys - 0.0)).astype(np.int64)
        np.testing.assert_array_equal(np.asarray(bs.get_bin_count()),
                                      np.bincount(bins, minlength=11))
        want_off = np.concatenate(([0], np.cumsum(np.bincount(bins, minlength=11))[:-1]))
        np.testing.assert_array_equal(np.asarray(bs.get_bin_offsets()), want_off)
        perm = np.asarray(bs.get_permute_vector())
        np.testing.assert_array_equal(perm, np.argsort(bins, kind="stable"))
        vals = pk.View([200], pk.int64)
        vals[:] = np.arange(200)
        bs.sort(vals)
        np.testing.assert_array_equal(np.asarray(vals), np.argsort(bins, kind="stable"))
        bs.sort(kv)
        self.assertTrue(np.all(np.diff((np.asarray(kv)).astype(np.int64)) >= 0))

    def test_binop3d_cells(self):
        rng = np.random.default_rng(3)
        pos = rng.uniform(0.0, 4.0, (64, 3))
        pv = pk.View([64, 3], pk.double)
        pv[:] = pos
        op = pk.BinOp3D(pv, [4, 4, 4], [0.0, 0.0, 0.0], [4.0, 4.0, 4.0])
        bs = pk.BinSort(pv, op, True)
        bs.create_permute_vector()
        b = pos.astype(np.int64)
        cell = (b[:, 0] * 4 + b[:, 1]) * 4 + b[:, 2]
        np.testing.assert_array_equal(np.asarray(bs.get_bin_count()),
                                      np.bincount(cell, minlength=64))
        perm = np.asarray(bs.get_permute_vector())
        self.assertTrue(np.all(np.diff(cell[perm]) >= 0))
        self.assertEqual(sorted(perm.tolist()), list(range(64)))

    def test_key_outside_range_raises(self):
        kv = pk.View([3], pk.double)
        kv[:] = [0.0, 5.0, 20.0]
        bs = pk.BinSort(kv, pk.BinOp1D(kv, 4, 0.0, 10.0))
        with self.assertRaisesRegex(ValueError, "outside the bin operator"):
            bs.create_permute_vector()


if __name__ == "__main__":
    unittest.main()
