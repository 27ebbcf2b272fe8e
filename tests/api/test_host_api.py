"""PyKokkos host API in the shim (issue 21 section 2, issue 22 items 8 and
10): PyKokkos' keyword spellings and names of the array library (view=,
viewA=/viewB=, np_matmul, dot, unique, hstack, argmax, ...), dtype
spelling, int64 element types, pk.asarray of constants, pk.result_type
across kinds, copy/deepcopy of Views, assignable View.data, the list form
of parallel_for, empty Views in kernels, out= overlapping an input, errors
naming the user's function, and INT64_MIN // -1. Values against numpy."""
import copy
import os
import subprocess
import sys
import unittest
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
import pykokkos as pk  # noqa: E402


@pk.workunit
def fill(i, v, x):
    v[i] = x


@pk.workunit
def add_into(i, dst, src):
    dst[i] += src[i]


@pk.workunit
def row_sums(i, m, out):
    s: float = 0.0
    for j in range(m.extent(1)):
        s += m[i][j]
    out[i] = s


def arr(*a, **kw):
    return pk.array(np.array(*a, **kw))


class Spellings(unittest.TestCase):
    """Upstream's keyword spellings of the operands (its tests call
    pk.sqrt(view=v) and pk.add(viewA=a, viewB=b))."""

    def test_unary_view_keyword(self):
        x = np.arange(1, 10, dtype=np.float32)
        for name in ("sqrt", "log", "log2", "log10", "log1p", "exp", "sign", "negative",
                     "positive", "square", "reciprocal", "tanh", "isnan"):
            got = getattr(pk, name)(view=pk.array(x))
            np.testing.assert_allclose(np.asarray(got), getattr(np, name)(x), rtol=2e-7,
                                       err_msg=name)

    def test_binary_viewA_viewB_keywords(self):
        a, b = np.arange(10.0), np.full(10, 5.0)
        for name in ("add", "subtract", "multiply", "divide", "power", "fmod", "greater",
                     "logaddexp", "equal", "maximum"):
            got = getattr(pk, name)(viewA=pk.array(a), viewB=pk.array(b))
            np.testing.assert_allclose(np.asarray(got), getattr(np, name)(a, b), err_msg=name)
        np.testing.assert_array_equal(np.asarray(pk.subtract(viewA=pk.array(a), valB=2.0)),
                                      a - 2.0)
        np.testing.assert_array_equal(np.asarray(pk.equal(view1=pk.array(a), view2=pk.array(b))),
                                      a == b)
        got = pk.add(pk.array(a), pk.array(b), profiler_name="add-label")
        np.testing.assert_array_equal(np.asarray(got), a + b)

    def test_reductions_and_matmul_keywords(self):
        a = np.arange(12.0).reshape(3, 4)
        self.assertEqual(pk.sum(viewA=pk.array(a)), a.sum())
        np.testing.assert_allclose(np.asarray(pk.mean(view=pk.array(a), axis=0)), a.mean(0))
        np.testing.assert_allclose(np.asarray(pk.var(view=pk.array(a), axis=1)), a.var(1))
        self.assertEqual(pk.find_max(viewA=pk.array(a)), a.max())
        m = pk.matmul(viewA=pk.array(a), viewB=pk.array(np.ones((4, 2))))
        np.testing.assert_allclose(np.asarray(m), a @ np.ones((4, 2)))
        dst = pk.View([3, 4], pk.float64)
        pk.copyto(viewA=dst, viewB=pk.array(a))
        np.testing.assert_array_equal(np.asarray(dst), a)

    def test_reductions_take_out(self):
        a = np.arange(12.0).reshape(3, 4)
        o = pk.View([4], pk.float64)
        self.assertIs(pk.sum(pk.array(a), axis=0, out=o), o)
        np.testing.assert_array_equal(np.asarray(o), a.sum(0))
        z = np.zeros(())
        self.assertIs(pk.mean(view=pk.array(a), out=z), z)
        self.assertEqual(float(z), a.mean())
        o = np.zeros(3, np.int64)
        pk.max(pk.array(a.astype(np.int64)), axis=1, out=o)
        np.testing.assert_array_equal(o, a.max(1))
        o = pk.View([4], pk.float64)
        pk.cumsum(pk.array(a[1]), out=o)
        np.testing.assert_array_equal(np.asarray(o), np.cumsum(a[1]))
        with self.assertRaisesRegex(ValueError, r"pk\.var: out has shape \(2,\)"):
            pk.var(pk.array(a), out=np.zeros(2))

    def test_bad_keyword_names_the_function(self):
        a = arr([1.0, 2.0])
        with self.assertRaisesRegex(TypeError, r"pk\.add: unexpected keyword argument\(s\) "
                                               r"viewC"):
            pk.add(a, viewC=a)
        with self.assertRaisesRegex(TypeError, r"pk\.sqrt: missing operand 1"):
            pk.sqrt()
        with self.assertRaisesRegex(TypeError, r"pk\.add: operand 1 given twice"):
            pk.add(a, a, viewA=a)


class UpstreamNames(unittest.TestCase):
    def test_np_matmul_dot_and_num_functions(self):
        a = np.arange(6.0).reshape(2, 3)
        v = np.array([1.0, -2.0, 0.5])
        for x, y in ((a, v), (v, a.T), (a, a.T), (v, v)):
            np.testing.assert_allclose(np.asarray(pk.np_matmul(pk.array(x), pk.array(y))),
                                       np.matmul(x, y))
            np.testing.assert_allclose(np.asarray(pk.dot(pk.array(x), pk.array(y))),
                                       np.dot(x, y))
        self.assertEqual(pk.dot(pk.array(v), pk.array(v)), 5.25)
        self.assertEqual(pk.findMax(pk.array(v)), 1.0)
        for name, f in (("add_num", np.add), ("mul_num", np.multiply),
                        ("divide_num", np.divide), ("power_num", np.power)):
            np.testing.assert_allclose(np.asarray(getattr(pk, name)(pk.array(v), 2)), f(v, 2),
                                       err_msg=name)

    def test_matmul_mismatch_is_upstreams_runtime_error(self):
        # PyKokkos' texts word for word: its tests compare e.args[0]
        a, b = pk.array(np.arange(11.0)), pk.array(np.full((10, 1), 2.0))
        texts = {pk.matmul: "Input operand 1 has a mismatch in its core dimension "
                            "(Size 11 is different from 10)",
                 pk.np_matmul: "Matrix dimensions are not compatible for multiplication: "
                               "(11,) and (10, 1)"}
        for f, text in texts.items():
            with self.assertRaises(RuntimeError) as e:
                f(a, b)
            self.assertEqual(e.exception.args[0], text)
            with self.assertRaises(ValueError):            # numpy's class too
                f(a, b)
        np.testing.assert_allclose(np.asarray(pk.matmul(pk.array(np.arange(10.0)), b)),
                                   np.arange(10.0) @ np.full((10, 1), 2.0))

    def test_every_listed_name_resolves(self):
        from pykokkos import lib
        from pykokkos.lib import host
        self.assertTrue(set(host.__all__) <= set(lib.NAMES))
        for name in lib.NAMES:
            self.assertTrue(callable(getattr(pk, name)), name)
            self.assertIn(name, pk.__all__)


class HostFunctions(unittest.TestCase):
    """What logistic-regression and naive-Bayes programs call on pk arrays."""

    def setUp(self):
        rng = np.random.default_rng(7)
        self.x = rng.integers(0, 5, (6, 4)).astype(np.float64)
        self.y = np.array([2, 0, 2, 1, 0, 2], dtype=np.int64)

    def same(self, got, want):
        g = np.asarray(got)
        self.assertEqual(g.shape, np.shape(want))
        self.assertEqual(g.dtype, np.asarray(want).dtype)
        np.testing.assert_array_equal(g, want)

    def test_unique_sort_argsort(self):
        self.same(pk.unique(pk.array(self.y)), np.unique(self.y))
        vals, counts = pk.unique(pk.array(self.y), return_counts=True)
        self.same(vals, [0, 1, 2])
        self.same(counts, [2, 1, 3])
        self.same(pk.sort(pk.array(self.x)), np.sort(self.x))
        self.same(pk.sort(pk.array(self.x), axis=0), np.sort(self.x, axis=0))
        self.same(pk.argsort(pk.array(self.y)), np.argsort(self.y, kind="stable"))

    def test_stacking(self):
        a, b = pk.array(self.x), pk.array(self.x * 2)
        self.same(pk.hstack((a, b)), np.hstack((self.x, self.x * 2)))
        self.same(pk.hstack(a, b), np.hstack((self.x, self.x * 2)))     # PyKokkos' form
        self.same(pk.vstack([a, b]), np.vstack((self.x, self.x * 2)))
        self.same(pk.concatenate((a, b), axis=1), np.concatenate((self.x, self.x * 2), 1))
        self.same(pk.hstack((pk.array(self.y), self.y[:2])), np.hstack((self.y, self.y[:2])))

    def test_argmax_argmin_where_index(self):
        x = pk.array(self.x)
        self.same(pk.argmax(x, axis=1), np.argmax(self.x, axis=1))
        self.same(pk.argmin(x, axis=0), np.argmin(self.x, axis=0))
        self.assertEqual(pk.argmax(x), np.argmax(self.x))
        self.same(pk.where(pk.greater(x, 2.0), x, -1.0), np.where(self.x > 2, self.x, -1.0))
        rows, cols = pk.where(pk.equal(x, 4.0))
        r, c = np.where(self.x == 4.0)
        self.same(rows, r)
        self.same(cols, c)
        classes = pk.array(np.array([10.0, 20.0, 30.0, 40.0]))
        self.same(pk.index(classes, pk.argmax(x, axis=1)),
                  np.array([10.0, 20.0, 30.0, 40.0])[np.argmax(self.x, axis=1)])
        self.same(pk.col(x, 2), self.x[:, 2])

    def test_in1d_isin_average_broadcast(self):
        self.same(pk.in1d(pk.array(self.y), pk.array(np.array([2, 5]))),
                  np.isin(self.y, [2, 5]))
        self.same(pk.isin(pk.array(self.x), [0.0, 4.0]), np.isin(self.x, [0.0, 4.0]))
        w = np.arange(1.0, 7.0)
        np.testing.assert_allclose(np.asarray(pk.average(pk.array(self.x), axis=0,
                                                         weights=pk.array(w))),
                                   np.average(self.x, axis=0, weights=w))
        self.same(pk.broadcast_view(3.0, pk.array(self.x)), np.full((6, 4), 3.0))
        self.same(pk.broadcast_view(pk.array(self.x[0]), pk.array(self.x)),
                  np.broadcast_to(self.x[0], (6, 4)))


class Dtypes(unittest.TestCase):
    def test_dtype_str_and_repr_as_upstream(self):
        for t, name in ((pk.float64, "float64"), (pk.double, "float64"), (pk.float, "float32"),
                        (pk.int32, "int32"), (pk.uint64, "uint64"), (pk.bool, "bool")):
            s = str(pk.View([2], t).dtype)
            self.assertEqual(s, f"<class 'pykokkos.interface.data_types.{name}'>")
            self.assertEqual(repr(t), s)
            self.assertEqual(s.split(".")[-1][:-2], name)   # upstream's tests read it so
        self.assertIn("dtype=float64,", repr(pk.View([2], pk.float64)))
        self.assertEqual(repr(pk.View1D[pk.int32]), "pk.View1D[pk.int32]")

    def test_int64_element_reads_are_upstreams_types(self):
        # PyKokkos' View.data comes through pybind11's buffer format 'q'/'Q'
        for v in (pk.View([3], pk.int64), pk.array(np.arange(3)), pk.zeros(3, pk.int64)):
            v[1] = -5
            self.assertIs(type(v[1]), np.longlong)
            self.assertEqual(v[1], -5)
        u = pk.View([2, 2], pk.uint64)
        u[1, 1] = 2 ** 64 - 1
        self.assertIs(type(u[1, 1]), np.ulonglong)
        self.assertIs(type(u[1][1]), np.ulonglong)
        self.assertEqual(int(u[1, 1]), 2 ** 64 - 1)
        self.assertIs(type(pk.View([2], pk.int32)[0]), np.int32)

    def test_asarray_constants(self):
        for c in (pk.e, pk.pi, pk.inf, pk.nan):
            for dt, npdt in ((None, np.float64), (pk.float32, np.float32),
                             (pk.float64, np.float64), (pk.double, np.float64)):
                got = pk.asarray(c) if dt is None else pk.asarray(c, dtype=dt)
                want = np.asarray(c, dtype=npdt)
                np.testing.assert_allclose(np.asarray(got), want)
                self.assertEqual(str(got.dtype).split(".")[-1][:-2], want.dtype.name)
        self.assertEqual(pk.asarray(pk.pi, device="cpu").dtype, pk.float64)

    def test_result_type_kinds(self):
        self.assertIs(pk.result_type(pk.uint8, pk.uint16), pk.uint16)
        self.assertIs(pk.result_type(pk.uint64, pk.uint8), pk.uint64)
        self.assertIs(pk.result_type(pk.float32, pk.float64), pk.float64)
        self.assertIs(pk.result_type(pk.int8, pk.int32, pk.int16), pk.int32)
        self.assertIs(pk.result_type(pk.bool, pk.int16), pk.int16)
        self.assertIs(pk.result_type(pk.View([2], pk.float32), 2), pk.float32)
        for a, b in ((pk.uint64, pk.int8), (pk.float32, pk.int64), (pk.int32, pk.float64),
                     (pk.from_numpy(np.array([0])), pk.uint16)):
            with self.assertRaisesRegex(NotImplementedError, "pk.result_type: promotion "
                                        "across kinds"):
                pk.result_type(a, b)


class CopyAndData(unittest.TestCase):
    def test_deepcopy_and_copy_as_upstream(self):
        v = arr([1.0, 2.0])
        self.assertIs(copy.deepcopy(v), v)
        holder = {"x": v, "n": [1, 2]}
        h2 = copy.deepcopy(holder)
        self.assertIs(h2["x"], v)                 # ExaMiniMD deep-copies its System
        self.assertIsNot(h2["n"], holder["n"])
        v = arr([1.0, 2.0, 3.0])                  # copy.copy: shares the memory
        c = copy.copy(v)
        self.assertIsInstance(c, pk.View)
        c[0] = 9.0
        self.assertEqual(v[0], 9.0)
        self.assertEqual(c.dtype, pk.float64)
        self.assertEqual(c.shape, (3,))

    def test_one_element_views_convert_to_scalars(self):
        import math
        v = pk.View([1], pk.float64)
        v[0] = 2.25
        self.assertEqual(math.sqrt(v), 1.5)            # host math on a View, as PyKokkos
        self.assertEqual(float(v), 2.25)
        self.assertEqual(int(pk.asarray(7)), 7)
        self.assertEqual(math.exp(pk.asarray(0.0)), 1.0)
        with self.assertRaisesRegex(TypeError, "single-element"):
            float(pk.View([2], pk.float64))

    def test_data_is_assignable(self):
        v = pk.View([4], pk.int32)
        v.data += 3
        np.testing.assert_array_equal(np.asarray(v), [3, 3, 3, 3])
        v.data[:] = np.arange(4)
        np.testing.assert_array_equal(np.asarray(v), [0, 1, 2, 3])
        v.data = np.array([5, 6, 7, 8])
        np.testing.assert_array_equal(np.asarray(v), [5, 6, 7, 8])
        v.data *= 2
        pk.parallel_for(4, add_into, dst=v, src=pk.array(np.ones(4, np.int32)))
        np.testing.assert_array_equal(np.asarray(v), [11, 13, 15, 17])


class Dispatch(unittest.TestCase):
    def test_list_of_workunits(self):
        v1, v2 = pk.View([6], pk.int32), pk.View([6], pk.float64)
        pk.parallel_for(6, [fill, fill], args_0={"v": v1, "x": 5}, args_1={"v": v2, "x": 2.5})
        np.testing.assert_array_equal(np.asarray(v1), np.full(6, 5))
        np.testing.assert_array_equal(np.asarray(v2), np.full(6, 2.5))
        a = pk.View([4], pk.int32)
        one = pk.array(np.ones(4, np.int32))
        pk.parallel_for(4, [add_into, add_into], args_1={"dst": a, "src": one},
                        args_2={"dst": a, "src": one})       # numbered from 1, too
        np.testing.assert_array_equal(np.asarray(a), [2, 2, 2, 2])
        with self.assertRaisesRegex(TypeError, "args_0=.*args_1="):
            pk.parallel_for(4, [fill, fill], v=a, x=1)

    def test_empty_views_run_no_iteration(self):
        for shape in ((0, 3), (3, 0), (0, 0)):
            m = pk.View(list(shape), pk.float64)
            o = pk.View([shape[0]], pk.float64)
            pk.parallel_for(shape[0], row_sums, m=m, out=o)
            self.assertEqual(np.asarray(o).shape, (shape[0],))
        m = pk.array(np.zeros((0, 3)))          # numpy gives it strides (0, 0)
        pk.parallel_for(0, row_sums, m=m, out=pk.View([0], pk.float64))
        m = pk.array(np.ones((2, 3)))
        o = pk.View([2], pk.float64)
        pk.parallel_for(2, row_sums, m=m, out=o)
        np.testing.assert_array_equal(np.asarray(o), [3.0, 3.0])


class ArrayLibrary(unittest.TestCase):
    def test_out_overlapping_an_input(self):
        for n in (10, 1000):
            base = np.arange(n, dtype=np.float64)
            want = base.copy()
            np.add(want[1:], want[:-1], out=want[1:])
            x = pk.array(base.copy())
            pk.add(x[1:], x[:-1], out=x[1:])
            np.testing.assert_array_equal(np.asarray(x), want)
            want = base.copy()
            np.negative(want[::-1], out=want)
            x = pk.array(base.copy())
            pk.negative(x[::-1], out=x)
            np.testing.assert_array_equal(np.asarray(x), want)
            want = base.copy().reshape(-1, 2)
            np.multiply(want.T[::-1].T, 2.0, out=want)
            x = pk.array(base.copy().reshape(-1, 2))
            pk.multiply(x.data.T[::-1].T, 2.0, out=x)
            np.testing.assert_array_equal(np.asarray(x), want)
        x = pk.array(np.arange(6.0))
        pk.copyto(x[2:], x[:-2])
        np.testing.assert_array_equal(np.asarray(x), [0, 1, 0, 1, 2, 3])

    def test_errors_name_the_users_function(self):
        a = arr([1.0, 2.0, 3.0])
        ro = np.zeros(3)
        ro.setflags(write=False)
        for f, name in ((lambda: pk.add(a, a, out=ro), "pk.add"),
                        (lambda: pk.divide(a, 2.0, out=ro), "pk.divide"),
                        (lambda: pk.sqrt(a, out=ro), "pk.sqrt"),
                        (lambda: pk.copyto(ro, a), "pk.copyto")):
            with self.assertRaises(TypeError) as cm:
                f()
            msg = str(cm.exception)
            self.assertTrue(msg.startswith(name + ": argument '"), msg)
            self.assertNotRegex(msg, r"(binary|unary|compare)_f64")

    def test_int_min_floor_divide_minus_one(self):
        # run apart: the kernel's C++ division traps (SIGFPE) on this operand pair
        code = (
            "import warnings, numpy as np, pykokkos as pk\n"
            "for dt in (np.int64, np.int32, np.int16, np.int8):\n"
            "    lo = np.iinfo(dt).min\n"
            "    a = np.array([lo, 7, lo, -9], dtype=dt)\n"
            "    b = np.array([-1, -1, 3, -1], dtype=dt)\n"
            "    for f in ('floor_divide', 'remainder', 'fmod'):\n"
            "        with warnings.catch_warnings(record=True) as w:\n"
            "            warnings.simplefilter('always')\n"
            "            want = getattr(np, f)(a, b)\n"
            "        nw = [str(x.message) for x in w]\n"
            "        with warnings.catch_warnings(record=True) as w:\n"
            "            warnings.simplefilter('always')\n"
            "            got = np.asarray(getattr(pk, f)(pk.array(a), pk.array(b)))\n"
            "        assert got.dtype == want.dtype and (got == want).all(), (f, got, want)\n"
            "        assert [str(x.message) for x in w] == nw, (f, nw, w)\n"
            "    got = np.asarray(pk.array(np.array([lo, 4], dtype=dt)) // -1)\n"
            "    assert (got == np.array([lo, -4], dtype=dt)).all(), got\n"
            "print('fine')\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [os.path.join(ROOT, "runtime-shim", "python"), env.get("PYTHONPATH", "")])
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=600)
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "fine"), r.stderr[-2000:])


if __name__ == "__main__":
    unittest.main()
