"""PyKokkos host API, item 3: the array library (pykokkos.lib.ufuncs,
pykokkos.lib.util, pykokkos.linalg). Every function is run for every
dtype and compared with numpy's own result for the same operands: values
(exact for integers and bool, to a few ulps for floats), result dtype
(numpy's, float16 read as float32), broadcasting, empty arrays, `out=`,
non-contiguous and Fortran-ordered operands and numpy's errors."""
import os
import subprocess
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
import pykokkos as pk  # noqa: E402
from pykokkos.lib import ufuncs as U, util, _ops as O  # noqa: E402

DTYPES = [d for d, _, _ in O.DTYPES]


def data(dt, shape, seed, lo=-5, hi=6):
    """Small values of dtype dt (halves for floats, zeros included)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind == "u":
        lo = 0
    if dt.kind == "f":
        return (rng.integers(2 * lo, 2 * hi, shape) / 2).astype(dt)
    return rng.integers(lo, hi, shape).astype(dt)


def want_dtype(npdt):
    return np.dtype(np.float32) if npdt == np.float16 else np.dtype(npdt)


class Compare:
    def same(self, got, want, what):
        """got (View, numpy array or scalar) equals numpy's want."""
        g = np.asarray(got)
        w = np.asarray(want)
        self.assertEqual(g.shape, w.shape, what)
        self.assertEqual(g.dtype, want_dtype(w.dtype), what)
        if w.dtype.kind in "f":
            tol = 2e-3 if w.dtype == np.float16 else 2e-6 if w.dtype == np.float32 else 1e-12
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64),
                                       rtol=tol, atol=tol, equal_nan=True, err_msg=what)
        else:
            np.testing.assert_array_equal(g, w, err_msg=what)

    def check(self, f, npf, *args, what="", **kw):
        """f(*args) against npf(*numpy args): same values and dtype, or the
        same exception class."""
        nargs = [np.asarray(a) if isinstance(a, pk.View) else a for a in args]
        with np.errstate(all="ignore"):
            try:
                want = npf(*nargs, **kw)
            except (TypeError, ValueError, OverflowError) as e:
                with self.assertRaises(TypeError if isinstance(e, TypeError) else
                                       type(e) if isinstance(e, OverflowError)
                                       else ValueError, msg=what):
                    f(*args, **kw)
                return
        with np.errstate(all="ignore"):
            got = f(*args, **kw)
        self.same(got, want, what)


def binary_operands(name, dt):
    a = data(dt, (7,), 1)
    b = data(dt, (7,), 2)
    if name in ("power", "pow", "float_power"):
        b = np.abs(b.astype(np.int64)).astype(dt) if np.dtype(dt).kind != "f" else b
        if np.dtype(dt).kind in "iu":
            b = (b % 4).astype(dt)
    if name in ("left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift"):
        b = (np.abs(b.astype(np.int64)) % 8).astype(dt)
    return a, b


class Ufuncs(Compare, unittest.TestCase):
    def test_binary_every_name_and_dtype(self):
        for name, np_name in U.BINARY_NAMES.items():
            for dt in DTYPES:
                a, b = binary_operands(np_name, dt)
                self.check(getattr(pk, name), getattr(np, np_name), pk.array(a),
                           pk.array(b), what=f"pk.{name} {dt}")

    def test_unary_every_name_and_dtype(self):
        for name, np_name in U.UNARY_NAMES.items():
            for dt in DTYPES:
                a = data(dt, (9,), 3)
                if name in ("arccosh", "acosh"):
                    a = np.abs(a) + (a.dtype.kind == "f")
                self.check(getattr(pk, name), getattr(np, np_name), pk.array(a),
                           what=f"pk.{name} {dt}")

    def test_integer_power_of_negative_exponents(self):
        """numpy refuses integers to negative integer powers (ValueError);
        the kernel's C++ would give 0 (2 ** -1); floats give reciprocals."""
        for dt in ("int8", "int32", "int64", "float32", "float64"):
            a = np.array([1, 2, 3, 4], dtype=dt)
            b = np.array([2, -1, 0, 1], dtype=dt)
            for name in ("power", "pow"):
                self.check(getattr(pk, name), np.power, pk.array(a), pk.array(b),
                           what=f"pk.{name} {dt} negative exponent")
            self.check(pk.power, np.power, pk.array(a), -2, what=f"pk.power {dt} scalar -2")
        with self.assertRaisesRegex(ValueError, "pk.power: integers to negative integer "
                                                "powers are not allowed"):
            pk.power(pk.array(np.arange(3)), pk.array(np.array([1, -1, 2])))

    def test_round(self):
        for dt in DTYPES:
            a = data(dt, (9,), 4)
            self.check(pk.round, np.round, pk.array(a), what=f"pk.round {dt}")
        x = np.array([1.25, -2.35, 0.125, 2.5, 3.5])
        self.check(pk.round, np.round, x, 1, what="pk.round decimals=1")

    def test_special_floats(self):
        sp = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, np.nan, np.inf, -np.inf, 1e30]
        for dt in ("float32", "float64"):
            x = np.array(sp, dtype=dt)
            y = np.array(sp[::-1], dtype=dt)
            for name in ("isnan", "isinf", "isfinite", "signbit", "sign", "absolute",
                         "floor", "ceil", "trunc", "rint", "sqrt", "exp", "log",
                         "negative", "logical_not"):
                self.check(getattr(pk, name), getattr(np, name), x, what=f"{name} {dt}")
            for name in ("add", "multiply", "maximum", "minimum", "fmax", "fmin",
                         "copysign", "logaddexp", "equal", "less", "greater_equal",
                         "logical_and", "logical_xor"):
                self.check(getattr(pk, name), getattr(np, name), x, y, what=f"{name} {dt}")

    def test_mixed_dtypes_and_scalars(self):
        cases = [(data("int8", (5,), 1), data("float32", (5,), 2)),
                 (data("int32", (5,), 1), data("uint32", (5,), 2)),
                 (data("int64", (5,), 1), data("uint64", (5,), 2)),
                 (data("bool", (5,), 1), data("int16", (5,), 2)),
                 (data("float32", (5,), 1), 2.5), (data("int8", (5,), 1), 3),
                 (data("uint8", (5,), 1), 300), (7, data("int16", (5,), 1)),
                 (data("float32", (5,), 1), np.float64(2.0)), (2, 3), (2.0, 5)]
        for a, b in cases:
            for name in ("add", "subtract", "multiply", "true_divide", "maximum",
                         "less", "logical_or"):
                pa = pk.array(a) if isinstance(a, np.ndarray) else a
                pb = pk.array(b) if isinstance(b, np.ndarray) else b
                self.check(getattr(pk, name), getattr(np, name), pa, pb,
                           what=f"{name} {np.asarray(a).dtype} {np.asarray(b).dtype}")

    def test_broadcasting_shapes(self):
        shapes = [((3, 1), (1, 4)), ((2, 3), (3,)), ((4,), ()), ((), (2, 2)),
                  ((2, 1, 3), (4, 1)), ((2, 3, 4), (2, 3, 4)), ((2, 3, 4, 5), (5,)),
                  ((1,), (6,)), ((0,), ()), ((0, 3), (3,)), ((2, 0), (2, 1)),
                  ((3, 4), (3, 4))]
        for sa, sb in shapes:
            for dt in ("float64", "int32", "bool"):
                a, b = data(dt, sa, 5), data(dt, sb, 6)
                for name in ("add", "multiply", "less", "maximum"):
                    self.check(getattr(pk, name), getattr(np, name), pk.array(a),
                               pk.array(b), what=f"{name} {dt} {sa} {sb}")
        with self.assertRaisesRegex(ValueError, "pk.add: operands could not be broadcast"):
            pk.add(np.ones(3), np.ones(4))

    def test_layouts_and_strides(self):
        base = data("float64", (6, 8), 7)
        f = np.asfortranarray(base)
        cases = [(f, f), (f, base), (base[::2, 1::3], base[1::2, ::3]),
                 (base[::-1], base), (base.T, base.T), (base[:, 2], base[1])]
        for a, b in cases:
            self.check(pk.subtract, np.subtract, pk.array(a), pk.array(b))
            self.check(pk.sin, np.sin, pk.array(a))
        r = pk.add(pk.array(f), pk.array(f))
        self.assertTrue(np.asarray(r).flags.f_contiguous)   # numpy's order 'K'
        v = pk.View([6, 8], pk.double)
        sub = v[1:5, 2:6]
        pk.multiply(sub, 0, out=sub)   # an out= subview with strides
        pk.add(pk.array(base[1:5, 2:6]), 1.0, out=sub)
        w = np.zeros((6, 8))
        w[1:5, 2:6] = base[1:5, 2:6] + 1
        self.same(v, w, "out= into a strided subview")

    def test_out(self):
        a, b = data("float64", (3, 4), 8), data("float64", (4,), 9)
        out = pk.View([3, 4], pk.double)
        r = pk.add(a, b, out=out)
        self.assertIs(r, out)
        self.same(out, a + b, "out=")
        o32 = pk.View([3, 4], pk.float32)
        pk.multiply(a, b, out=o32)     # float64 -> float32 is same_kind
        self.same(o32, (a * b).astype(np.float32), "out= float32")
        oi = pk.View([3, 4], pk.int32)
        with self.assertRaisesRegex(TypeError, "cannot cast"):
            pk.multiply(a, b, out=oi)
        with self.assertRaisesRegex(ValueError, "out has shape"):
            pk.add(a, b, out=pk.View([4, 3], pk.double))

    def test_view_operators(self):
        a = pk.array(data("float64", (3, 4), 10))
        b = pk.array(data("float64", (4,), 11))
        na, nb = np.asarray(a).copy(), np.asarray(b).copy()
        self.same(a + b, na + nb, "+")
        self.same(2 - a, 2 - na, "r-")
        self.same(a * 3, na * 3, "*")
        self.same(a / 2, na / 2, "/")
        self.same(-a, -na, "neg")
        self.same(abs(a), abs(na), "abs")
        self.same(a ** 2, na ** 2, "**")
        self.same(a @ np.ones((4, 2)), na @ np.ones((4, 2)), "@")
        c = a.copy()
        c += b
        self.same(c, na + nb, "+=")
        i = pk.array(data("int32", (5,), 12))
        self.same(i // 2, np.asarray(i) // 2, "//")
        self.same(i % 3, np.asarray(i) % 3, "%")
        self.same(i & 6, np.asarray(i) & 6, "&")


class Reductions(Compare, unittest.TestCase):
    FUNCS = ("sum", "prod", "max", "min", "count_nonzero", "mean", "var", "std",
             "all", "any")

    def npf(self, name):
        return {"count_nonzero": lambda x, axis=None, keepdims=False:
                np.count_nonzero(x, axis=axis, keepdims=keepdims)}.get(name, getattr(np, name))

    def test_every_dtype_and_axis(self):
        for dt in DTYPES:
            base = data(dt, (6, 5), 20, lo=-3, hi=4)
            for a in (base, np.asfortranarray(base), base[::2, 1:], base[:, 3],
                      data(dt, (3, 2, 4), 21, lo=-2, hi=3), data(dt, (2000,), 22, -2, 3)):
                for name in self.FUNCS:
                    for axis in (None, 0, -1):
                        if name in ("var", "std") and dt == "bool":
                            continue   # numpy refuses bool arithmetic there too
                        self.check(getattr(pk, name), self.npf(name), pk.array(a),
                                   axis=axis, what=f"{name} {dt} {a.shape} axis={axis}")

    def test_slices_of_views(self):
        # a column or a stepped slice of a View is a strided 1-D View (these
        # once recursed without end when reduced whole)
        for dt in ("float64", "int32"):
            base = data(dt, (6, 5), 23, lo=-3, hi=4)
            v = pk.array(base)
            for got, want in ((v[:, 2], base[:, 2]), (v[::2, 1], base[::2, 1]),
                              (v[1][::2], base[1][::2])):
                for name in ("sum", "max", "min", "mean"):
                    self.check(getattr(pk, name), self.npf(name), got, what=f"{name} {dt}")
                    self.assertEqual(np.asarray(getattr(pk, name)(got)).item(),
                                     getattr(np, name)(want).item())

    def test_large_float_sum(self):
        x = np.random.default_rng(3).random(1_000_003)
        self.assertAlmostEqual(float(pk.sum(x)), float(x.sum()), delta=1e-8 * x.size)
        self.assertEqual(pk.find_max(x), x.max())
        self.assertEqual(pk.find_min(pk.array(x)), x.min())

    def test_nan_and_keepdims(self):
        x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
        for name in ("max", "min", "sum"):
            self.check(getattr(pk, name), getattr(np, name), x, what=name)
            self.check(getattr(pk, name), getattr(np, name), x, axis=1, what=name)
            self.check(getattr(pk, name), getattr(np, name), x, axis=0, keepdims=True)

    def test_empty(self):
        for dt in ("float64", "int32", "bool"):
            e = np.zeros((0,), dt)
            e2 = np.zeros((0, 3), dt)
            for name in ("sum", "prod", "count_nonzero", "all", "any"):
                self.check(getattr(pk, name), self.npf(name), e, what=f"{name} {dt} empty")
                self.check(getattr(pk, name), self.npf(name), e2, axis=0, what=name)
                self.check(getattr(pk, name), self.npf(name), e2, axis=1, what=name)
            with self.assertRaisesRegex(ValueError, "zero-size"):
                pk.max(e)
            with self.assertRaisesRegex(ValueError, "axis 2 is out of bounds"):
                pk.sum(e2, axis=2)

    def test_cumsum(self):
        for dt in DTYPES:
            a = data(dt, (4, 5), 30)
            self.check(pk.cumsum, np.cumsum, pk.array(a), what=f"cumsum {dt}")
            self.check(pk.cumsum, np.cumsum, pk.array(np.asfortranarray(a)))
            self.check(pk.cumsum, np.cumsum, pk.array(a), axis=1, what=f"cumsum {dt} ax1")
        self.check(pk.cumsum, np.cumsum, np.zeros(0))

    def test_searchsorted(self):
        for dt in DTYPES:
            a = np.sort(data(dt, (40,), 31))
            v = data(dt, (3, 4), 32)
            for side in ("left", "right"):
                self.check(pk.searchsorted, np.searchsorted, pk.array(a), pk.array(v),
                           side=side, what=f"searchsorted {dt} {side}")
                self.assertEqual(pk.searchsorted(pk.array(a), v.flat[0], side=side),
                                 np.searchsorted(a, v.flat[0], side=side))
        f = np.array([1.0, 2.0, np.nan])
        self.check(pk.searchsorted, np.searchsorted, f, np.array([np.nan, 1.5, 9.0]))
        self.check(pk.searchsorted, np.searchsorted, np.zeros(0), np.ones(2))
        with self.assertRaisesRegex(ValueError, "side must be"):
            pk.searchsorted(f, 1.0, side="middle")


class Utilities(Compare, unittest.TestCase):
    def test_copyto(self):
        for dt in DTYPES:
            dst = pk.View([3, 4], getattr(pk, dt if dt != "bool" else "bool_"))
            src = data(dt, (4,), 40)
            pk.copyto(dst, pk.array(src))
            self.same(dst, np.broadcast_to(src, (3, 4)), f"copyto {dt}")
        d = pk.zeros((2, 3))
        pk.copyto(d, np.arange(3, dtype=np.int32))
        self.same(d, np.broadcast_to(np.arange(3.0), (2, 3)), "copyto int->float")
        with self.assertRaisesRegex(TypeError, "cannot cast"):
            pk.copyto(pk.zeros((3,), dtype=pk.int32), np.ones(3))
        with self.assertRaisesRegex(ValueError, "could not broadcast"):
            pk.copyto(d, np.ones(4))
        e = pk.zeros((0, 3))
        pk.copyto(e, np.ones(3))
        self.assertEqual(e.shape, (0, 3))

    def test_clip_isclose_transpose(self):
        for dt in DTYPES:
            a = data(dt, (4, 3), 41)
            if dt != "bool":
                self.check(pk.clip, np.clip, pk.array(a), 0, 3, what=f"clip {dt}")
            self.check(pk.transpose, np.transpose, pk.array(a), what=f"transpose {dt}")
        self.check(pk.transpose, np.transpose, data("float64", (2, 3, 4), 42))
        x = np.array([1.0, 1.0 + 1e-9, np.inf, np.nan, 2.0])
        y = np.array([1.0, 1.0, np.inf, np.nan, 2.1])
        self.check(pk.isclose, np.isclose, x, y)
        self.check(pk.isclose, np.isclose, x, y, equal_nan=True)
        self.assertEqual(pk.allclose(x[:3], y[:3]), np.allclose(x[:3], y[:3]))
        self.assertFalse(pk.allclose(x, y))


class LinearAlgebra(Compare, unittest.TestCase):
    def test_matmul_every_dtype_and_rank(self):
        for dt in DTYPES:
            for sa, sb in (((3, 4), (4, 5)), ((4,), (4, 2)), ((3, 4), (4,)),
                           ((4,), (4,)), ((0, 4), (4, 2)), ((3, 0), (0, 2))):
                a, b = data(dt, sa, 50), data(dt, sb, 51)
                self.check(pk.matmul, np.matmul, pk.array(a), pk.array(b),
                           what=f"matmul {dt} {sa} {sb}")
        a = data("float64", (5, 3), 52)
        self.check(pk.matmul, np.matmul, np.asfortranarray(a), a.T)
        with self.assertRaisesRegex(ValueError, "mismatch in its core dimension"):
            pk.matmul(np.ones((2, 3)), np.ones((2, 3)))

    def test_dgemm(self):
        rng = np.random.default_rng(53)
        a, b, c = rng.random((6, 4)), rng.random((4, 7)), rng.random((6, 7))
        r = pk.linalg.dgemm(1.5, pk.array(a), pk.array(b))
        self.same(r, 1.5 * a @ b, "dgemm")
        vc = pk.array(c.copy())
        r = pk.linalg.dgemm(2.0, a, b, 0.5, vc)   # a new View, C read (PyKokkos)
        self.assertIsNot(r, vc)
        self.same(r, 2.0 * a @ b + 0.5 * c, "dgemm beta")
        self.same(vc, c, "dgemm leaves C")
        with self.assertRaisesRegex(ValueError, "Second dimensions shape of a is 4 which does "
                                                "not match first dimension shape of b, 6"):
            pk.linalg.dgemm(1.0, a, c)
        from pykokkos.linalg.l3_blas import dgemm
        self.same(dgemm(1.0, a, b, league_size=4, tile_width=2), a @ b, "l3_blas.dgemm")
        with self.assertRaisesRegex(ValueError, "rank 2"):
            pk.linalg.dgemm(1.0, np.ones(3), np.ones((3, 3)))


class Names(unittest.TestCase):
    def test_names_listed_and_loaded(self):
        from pykokkos import lib, linalg
        for name in lib.NAMES:
            self.assertTrue(callable(getattr(pk, name)), name)
            self.assertIn(name, pk.__all__)
        for name in list(U.BINARY_NAMES) + list(U.UNARY_NAMES) + util.__all__ + linalg.__all__:
            self.assertIn(name, lib.NAMES)

    def test_kernel_modules_up_to_date(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_array_kernels.py"),
                            "--check"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
