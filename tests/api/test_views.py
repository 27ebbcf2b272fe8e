"""PyKokkos host API, items 1, 2 and 5: View attributes (size, dtype, shape,
ndim, len), printing, astype, the View constructor forms, and host element
access (chained A[e][j][i] and tuple A[e, j, i]) against numpy."""
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
import pykokkos as pk  # noqa: E402

NAMES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "bool"]


def filled(shape, name, layout=None):
    """A View and the numpy array with the same values."""
    a = (np.arange(int(np.prod(shape))) % 7).reshape(shape).astype(name)
    v = pk.View(list(shape), getattr(pk, name), **({"layout": layout} if layout else {}))
    v.data[...] = a
    return v, a


class Allocation(unittest.TestCase):
    """A View's host memory is zeroed and aligned to 64 bytes, as Kokkos'
    HostSpace aligns (numpy's own arrays are 16-byte aligned); also after
    pk.resize and for a View of a classtype's fields."""

    def test_aligned_and_zeroed(self):
        for shape in [(1,), (5,), (3, 4), (2, 3, 5), (1 << 18,)]:
            for name in ("int8", "int32", "float32", "float64"):
                for layout in (pk.LayoutRight, pk.LayoutLeft):
                    v = pk.View(list(shape), getattr(pk, name), layout=layout)
                    a = np.asarray(v)
                    self.assertEqual(a.ctypes.data % 64, 0, (shape, name, layout))
                    self.assertEqual(a.shape, shape)
                    self.assertTrue(a.flags.f_contiguous if layout is pk.LayoutLeft
                                    else a.flags.c_contiguous)
                    self.assertFalse(a.any())
        v = pk.View([3, 5], pk.float64)
        np.asarray(v)[...] = np.arange(15.0).reshape(3, 5)
        pk.resize(v, 4, 7)
        a = np.asarray(v)
        self.assertEqual(a.ctypes.data % 64, 0)
        want = np.zeros((4, 7))
        want[:3, :5] = np.arange(15.0).reshape(3, 5)
        np.testing.assert_array_equal(a, want)


class Attributes(unittest.TestCase):
    def test_size_dtype_shape_ndim_len(self):
        for shape in [(5,), (3, 4), (2, 3, 4), (0,), (2, 0, 3)]:
            for name in NAMES:
                v, a = filled(shape, name)
                self.assertEqual(v.size, a.size)
                self.assertEqual(v.shape, a.shape)
                self.assertIsInstance(v.shape, tuple)
                self.assertEqual(v.ndim, a.ndim)
                self.assertEqual(len(v), len(a))
                self.assertIs(v.dtype, getattr(pk, name))
                self.assertEqual(v.dtype, a.dtype)
                self.assertEqual(v.nbytes, a.nbytes)
                np.testing.assert_array_equal(np.asarray(v), a)

    def test_extent_and_truth(self):
        v, a = filled((3, 4), "float64")
        self.assertEqual([v.extent(0), v.extent(np.int64(1))], [3, 4])
        for k in (2, -1):
            with self.assertRaisesRegex(ValueError, r"a View of rank 2 has dimensions 0\.\.1"):
                v.extent(k)
        # one element: its truth, as numpy (a larger View: true unless empty)
        for x in (0.0, 2.5):
            one = pk.View([1], pk.double)
            one[0] = x
            self.assertEqual(bool(one), bool(x))
        self.assertTrue(bool(v))
        self.assertFalse(bool(pk.View([0], pk.double)))

    def test_print_like_numpy(self):
        for shape in [(4,), (2, 3), (2, 2, 2)]:
            for name in ("int32", "float64", "float32", "bool", "uint8"):
                v, a = filled(shape, name)
                self.assertEqual(str(v), str(a))
                self.assertEqual(f"{v}", str(a))
                r = repr(v)
                self.assertTrue(r.startswith("View(["), r)
                self.assertIn(f"dtype={name},", r)
                self.assertIn(f"shape={a.shape}", r)
                # the values as numpy's repr writes them
                body = np.array2string(a, separator=", ", prefix="View(")
                self.assertIn(body, r)

    def test_astype_matches_numpy(self):
        v, a = filled((3, 4), "float64")
        v.data[...] = a * 1.75 - 3.0
        for name in NAMES:
            w = v.astype(getattr(pk, name))
            self.assertIs(w.dtype, getattr(pk, name))
            np.testing.assert_array_equal(np.asarray(w), (a * 1.75 - 3.0).astype(name))
            w2 = pk.astype(v, getattr(pk, name))
            np.testing.assert_array_equal(np.asarray(w2), np.asarray(w))
        w = v.astype(np.int64)
        w[0, 0] = 99                                    # a copy
        self.assertNotEqual(v[0, 0], 99)
        with self.assertRaisesRegex(TypeError, "unsupported dtype"):
            v.astype(np.complex64)
        left, la = filled((3, 2), "int32", pk.LayoutLeft)
        self.assertEqual(left.astype(pk.float32).layout, pk.LayoutLeft)
        left.set_precision(pk.float64)
        self.assertIs(left.dtype, pk.float64)
        np.testing.assert_array_equal(np.asarray(left), la.astype(np.float64))


class ArrayProtocol(unittest.TestCase):
    def test_copy_argument_is_honoured(self):
        # NumPy 2's np.array(v) calls v.__array__(copy=True) and trusts the
        # result to be a copy: a snapshot must not change with the View
        v = pk.View([5], pk.double)
        v.fill(1.0)
        snap = v.__array__(copy=True)
        v[0] = 7.0
        self.assertEqual(snap[0], 1.0)
        same = v.__array__()
        same[1] = 3.0
        self.assertEqual(v[1], 3.0)                        # no copy asked: shared
        self.assertEqual(np.array(v)[0], 7.0)
        f = v.__array__(dtype=np.float32)
        self.assertEqual(f.dtype, np.float32)
        with self.assertRaises(ValueError):
            v.__array__(dtype=np.float32, copy=False)


class Constructor(unittest.TestCase):
    def test_forms(self):
        for shape in ([3, 4], (3, 4)):
            v = pk.View(shape, pk.int32)
            self.assertEqual((v.shape, v.dtype), ((3, 4), pk.int32))
        self.assertEqual(pk.View(5).shape, (5,))
        self.assertIs(pk.View([2]).dtype, pk.float64)              # default double
        self.assertIs(pk.View([2], dtype=pk.uint8).dtype, pk.uint8)
        self.assertIs(pk.View([2], pk.DataType.int64).dtype, pk.int64)
        v = pk.View([3, 2], pk.double, layout=pk.Layout.LayoutLeft)
        self.assertTrue(v.data.flags.f_contiguous and not v.data.flags.c_contiguous)
        v = pk.View([3, 2], dtype=pk.float, space=pk.MemorySpace.HostSpace,
                    layout=pk.LayoutRight, trait=pk.Trait.RandomAccess)
        self.assertEqual((v.space, v.layout, v.trait, v.dtype),
                         (pk.HostSpace, pk.LayoutRight, pk.RandomAccess, pk.float32))
        a = np.arange(6.0)
        u = pk.View(a.shape, pk.double, trait=pk.Trait.Unmanaged, array=a)
        u[0] = 42.0
        self.assertEqual(a[0], 42.0)                               # zero-copy
        np.testing.assert_array_equal(np.asarray(pk.View((2, 3, 4), pk.int16)),
                                      np.zeros((2, 3, 4), np.int16))

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "negative extent -1"):
            pk.View([3, -1])
        with self.assertRaisesRegex(TypeError, "extents must be ints"):
            pk.View([2.5])
        with self.assertRaisesRegex(TypeError, "shape must be an int or a list"):
            pk.View(None)
        with self.assertRaisesRegex(ValueError, "rank must be 0..8"):
            pk.View([1] * 9)
        with self.assertRaisesRegex(ValueError, "unsupported layout"):
            pk.View([2], layout=pk.Layout.LayoutStride)


class HostIndexing(unittest.TestCase):
    def test_chained_and_tuple_access(self):
        v, a = filled((3, 4, 5), "float64")
        for e in range(3):
            for j in range(4):
                for i in range(5):
                    v[e][j][i] = e * 100 + j * 10 + i
                    a[e][j][i] = e * 100 + j * 10 + i
        np.testing.assert_array_equal(np.asarray(v), a)
        for e, j, i in [(0, 0, 0), (2, 3, 4), (1, 2, 3), (-1, -1, -1)]:
            self.assertEqual(v[e, j, i], a[e, j, i])
            self.assertEqual(v[e][j][i], a[e][j][i])
            v[e, j, i] = -7.5
            a[e, j, i] = -7.5
        np.testing.assert_array_equal(np.asarray(v), a)
        row = v[1]                       # a numpy array sharing v's memory (PyKokkos)
        self.assertIsInstance(row, np.ndarray)
        row[0, 0] = 123.0
        self.assertEqual(v[1, 0, 0], 123.0)
        self.assertIsInstance(v[1, 2], np.ndarray)
        self.assertEqual(type(v[1, 2, 3]), type(a[1, 2, 3]))

    def test_slices_are_views_sharing_memory(self):
        v, a = filled((4, 5), "int32")
        s = v[1:3]
        self.assertIsInstance(s, pk.View)
        self.assertEqual((s.shape, s.dtype), ((2, 5), pk.int32))
        s[0, 0] = 77
        self.assertEqual(v[1, 0], 77)
        c = v[:, 2]
        self.assertIsInstance(c, pk.View)
        self.assertEqual(c.layout, pk.Layout.LayoutStride)
        e = v[..., 1]
        self.assertIsInstance(e, pk.View)
        self.assertIsInstance(v[np.int64(2), 1:], pk.View)
        adv = v[[0, 2]]                  # advanced indexing: a numpy copy
        self.assertIsInstance(adv, np.ndarray)
        adv[0, 0] = -1
        self.assertNotEqual(v[0, 0], -1)
        np.testing.assert_array_equal(v[np.array([True, False, True, False])],
                                      np.asarray(v)[[0, 2]])
        sub = pk.subview(v, 2)
        self.assertIsInstance(sub, pk.View)
        self.assertEqual(sub.shape, (5,))

    def test_errors(self):
        v = pk.View([3, 4])
        with self.assertRaises(IndexError):
            v[3, 0]
        with self.assertRaises(IndexError):
            v[0][9] = 1.0
        with self.assertRaises(IndexError):
            v[0, 0, 0]
        with self.assertRaises(ValueError):
            v[0, 0] = "abc"

    def test_values_via_views_and_iteration(self):
        v, a = filled((3, 2), "int64")
        self.assertEqual([list(r) for r in v], a.tolist())
        w = pk.View([3, 2], pk.int64)
        w[0] = v[2]
        w[1:] = np.asarray(v)[:2]
        np.testing.assert_array_equal(np.asarray(w), np.concatenate([a[2:], a[:2]]))


if __name__ == "__main__":
    unittest.main()
