"""Tests of libpkcrt and the pykokkos shim against a hand-written module.

Run: /usr/bin/python3 tests/shim/test_shim.py   (from the repo root or anywhere)
Builds build/lib/libpkcrt.so, build/tests/c_host (make) and the fake module
(tests/shim/CMakeLists.txt -> build/shim) if missing, lays the module out like
a pkc-built one (<tmp>/fake.py + <tmp>/fake.pk/fake.openmp.so/.key) and checks
results against numpy, error messages, staleness and clean exit.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import timeit
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
PKG = os.path.join(REPO, "runtime-shim", "python")
SHIM_BUILD = os.path.join(REPO, "build", "shim")
FAKE_SO = os.path.join(SHIM_BUILD, "fake.openmp.so")
BAD_SO = os.path.join(SHIM_BUILD, "fake_badabi.so")
C_HOST = os.path.join(REPO, "build", "tests", "c_host")
KOKKOS = os.environ.get("Kokkos_ROOT", os.path.join(REPO, ".deps", "kokkos-openmp"))
PY = sys.executable
sys.path.insert(0, PKG)


def build_prerequisites():
    subprocess.check_call(["make", "-s", "-C", REPO, "build/lib/libpkcrt.so",
                           "build/tests/c_host"])
    if not (os.path.isfile(FAKE_SO) and os.path.isfile(BAD_SO)
            and os.path.getmtime(FAKE_SO) > os.path.getmtime(os.path.join(HERE, "fake.py"))):
        subprocess.check_call(["cmake", "-S", HERE, "-B", SHIM_BUILD, f"-DKokkos_ROOT={KOKKOS}",
                               "-DCMAKE_BUILD_TYPE=Release"], stdout=subprocess.DEVNULL)
        subprocess.check_call(["cmake", "--build", SHIM_BUILD, "-j2"], stdout=subprocess.DEVNULL)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def layout(dirname, so=FAKE_SO, source_extra="", key_sha=None):
    """<dir>/fake.py (+extra text) and <dir>/fake.pk/fake.openmp.{so,key}."""
    os.makedirs(os.path.join(dirname, "fake.pk"), exist_ok=True)
    src = os.path.join(dirname, "fake.py")
    with open(os.path.join(HERE, "fake.py")) as f:
        text = f.read()
    with open(src, "w") as f:
        f.write(text + source_extra)
    shutil.copy(so, os.path.join(dirname, "fake.pk", "fake.openmp.so"))
    with open(os.path.join(dirname, "fake.pk", "fake.openmp.key"), "w") as f:
        f.write("fakekey\n" + (key_sha or sha256(os.path.join(HERE, "fake.py"))) + "\n")
    return src


def import_from(dirname, modname="fake"):
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        f"{modname}_{abs(hash(dirname))}", os.path.join(dirname, "fake.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_py(code, env_extra=None, cwd=None):
    env = dict(os.environ, PYTHONPATH=PKG, **(env_extra or {}))
    return subprocess.run([PY, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=120)


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build_prerequisites()
        cls.tmp = tempfile.mkdtemp(prefix="pkshim")
        layout(cls.tmp)
        cls.fake = import_from(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)


class TestCHost(Base):
    def test_c_host_runs_nstream(self):
        r = subprocess.run([C_HOST, FAKE_SO, "1000"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "c_host: ok")

    def test_c_host_abi_mismatch(self):
        r = subprocess.run([C_HOST, BAD_SO], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("ABI version 999", r.stderr)
        self.assertIn("ABI version 1", r.stderr)

    def test_abi_struct_layout_matches_ctypes(self):
        from pykokkos import _abi
        structs = {"DLTensor": ["data", "device", "ndim", "dtype", "shape", "strides",
                                "byte_offset"],
                   "pkc_param_desc": ["name", "kind", "dtype_code", "dtype_bits", "rank",
                                      "layout", "access"],
                   "pkc_policy": ["kind", "rank", "begin", "end", "tile", "league_size",
                                  "team_size", "vector_length", "scratch_team",
                                  "scratch_thread"],
                   "pkc_kernel_desc": [f for f, _ in _abi.pkc_kernel_desc._fields_],
                   "pkc_module_desc": [f for f, _ in _abi.pkc_module_desc._fields_]}
        body = "".join(f'printf("{s} %zu\\n", sizeof({s}));' +
                       "".join(f'printf("{s}.{f} %zu\\n", offsetof({s}, {f}));' for f in fs)
                       for s, fs in structs.items())
        src = os.path.join(self.tmp, "layout.c")
        with open(src, "w") as f:
            f.write("#include <stdio.h>\n#include <stddef.h>\n#include \"pkc_abi.h\"\n"
                    f"int main(void){{{body}return 0;}}\n")
        exe = os.path.join(self.tmp, "layout")
        subprocess.check_call(["cc", "-I", os.path.join(REPO, "runtime-shim"), src, "-o", exe])
        out = subprocess.check_output([exe], text=True).split("\n")
        for line in filter(None, out):
            key, val = line.split()
            s, _, f = key.partition(".")
            cls = getattr(_abi, s)
            got = getattr(cls, f).offset if f else ctypes.sizeof(cls)
            self.assertEqual(got, int(val), key)


class TestViewAPI(unittest.TestCase):
    def test_view_basics(self):
        import numpy as np
        import pykokkos as pk
        v = pk.View([3, 4], pk.double)
        self.assertEqual(v.shape, (3, 4))
        self.assertEqual((len(v), v.extent(1)), (3, 4))
        v[1][2] = 5.0
        v[2, 3] = 7.0
        self.assertEqual((v[1, 2], v[2][3]), (5.0, 7.0))
        v.fill(1.5)
        self.assertTrue(np.all(np.asarray(v) == 1.5))
        self.assertIs(v.to_numpy(), v.data)
        self.assertTrue(np.all(np.from_dlpack(v) == 1.5))
        self.assertTrue(v.data.flags.c_contiguous)
        left = pk.View([3, 4], pk.float32, layout=pk.LayoutLeft)
        self.assertTrue(left.data.flags.f_contiguous)
        self.assertEqual(left.data.dtype, np.float32)

    def test_dtypes(self):
        import numpy as np
        import pykokkos as pk
        self.assertEqual(pk.View([2], int).data.dtype, np.int32)
        self.assertEqual(pk.View([2], float).data.dtype, np.float64)
        self.assertIs(pk.View([2], int).dtype, pk.int32)
        self.assertIs(pk.float, pk.float32)
        self.assertIs(pk.double, pk.float64)
        self.assertEqual((pk.uint16.code, pk.uint16.bits), (1, 16))
        self.assertEqual(pk.View([2], np.uint8).data.dtype, np.uint8)
        self.assertEqual(pk.View([2], pk.bool).data.dtype, np.bool_)

    def test_annotations_and_host_api(self):
        import pykokkos as pk
        self.assertIn("View1D", repr(pk.View1D[pk.double]))
        pk.Acc[pk.double], pk.ScratchView2D[pk.int32], pk.View8D[int]

        @pk.workunit(tag=1)
        def k(i: int, x: pk.View1D[pk.double]):
            pass
        self.assertTrue(callable(k))
        t = pk.Timer()
        self.assertGreaterEqual(t.seconds(), 0.0)
        t.reset()
        with self.assertRaisesRegex(NotImplementedError, "workloads are not supported yet"):
            pk.execute(pk.OpenMP, object())
        pk.set_default_space(pk.OpenMP)
        self.assertIs(pk.get_default_space(), pk.ExecutionSpace.OpenMP)


class TestKernels(Base):
    def test_nstream_views_and_numpy(self):
        import numpy as np
        import pykokkos as pk
        n = 1000
        A, B, C = pk.View([n]), pk.View([n]), pk.View([n])
        A.data[:] = np.arange(n)
        B.fill(2.0)
        C.data[:] = np.linspace(0, 1, n)
        ref = A.data + B.data + 3.0 * C.data
        pk.parallel_for("nstream", n, self.fake.nstream, A=A, B=B, C=C, scalar=3.0)
        np.testing.assert_allclose(A.data, ref)
        a = np.ones(n)
        pk.parallel_for(pk.RangePolicy(pk.OpenMP, 0, n), self.fake.nstream,
                        A=a, B=B, C=C.data, scalar=1)
        np.testing.assert_allclose(a, 1 + 2 + C.data)
        pk.parallel_for(pk.RangePolicy(10, 20), self.fake.nstream, A=a, B=B, C=C, scalar=0.0)
        np.testing.assert_allclose(a[10:20], 5 + C.data[10:20])
        np.testing.assert_allclose(a[20:], 3 + C.data[20:])

    def test_reduce_and_scan(self):
        import numpy as np
        import pykokkos as pk
        x = np.random.default_rng(1).random(777)
        r = pk.parallel_reduce(len(x), self.fake.dot_sum, x=x)
        self.assertIsInstance(r, float)
        self.assertAlmostEqual(r, float(x.sum()), places=9)
        v = pk.View([7], int)
        v.data[:] = [1, -2, 3, 0, 5, 6, -7]
        c = pk.parallel_reduce(7, self.fake.count_pos, v=v)
        self.assertIsInstance(c, int)
        self.assertEqual(c, 4)
        out = np.zeros(777)
        total = pk.parallel_scan(777, self.fake.prefix, x=x, out=out)
        np.testing.assert_allclose(out, np.cumsum(x))
        self.assertAlmostEqual(total, float(x.sum()), places=9)

    def test_functor_and_2d(self):
        import numpy as np
        import pykokkos as pk
        x, y = pk.View([50]), pk.View([50])
        x.data[:] = np.arange(50)
        y.fill(1.0)
        f = self.fake.Axpy(2.0, x, y)
        pk.parallel_for(50, f.run)
        pk.parallel_for(50, f.run)
        np.testing.assert_allclose(y.data, 1 + 4 * np.arange(50))
        M = pk.View([3, 4])
        pk.parallel_for(3, self.fake.fill2d, M=M, k=7)
        np.testing.assert_allclose(M.data, np.add.outer(np.arange(3) * 10, np.arange(4)) + 7)

    def test_argument_errors_name_kernel_and_argument(self):
        import numpy as np
        import pykokkos as pk
        f = self.fake
        A, B, C = pk.View([4]), pk.View([4]), pk.View([4])
        with self.assertRaises(TypeError) as cm:
            pk.parallel_for(4, f.nstream, A=np.zeros((2, 2), np.int32), B=B, C=C, scalar=1.0)
        self.assertEqual(str(cm.exception),
                         "nstream: argument 'A': expected float64 View1D, "
                         "got int32 array of rank 2")
        with self.assertRaisesRegex(TypeError, r"nstream: argument 'B': expected float64 "
                                               r"View1D, got int32 View1D"):
            pk.parallel_for(4, f.nstream, A=A, B=pk.View([4], int), C=C, scalar=1.0)
        with self.assertRaisesRegex(TypeError, "nstream: missing keyword argument 'C'"):
            pk.parallel_for(4, f.nstream, A=A, B=B, scalar=1.0)
        with self.assertRaisesRegex(TypeError, "nstream: unexpected keyword argument 'D'"):
            pk.parallel_for(4, f.nstream, A=A, B=B, C=C, D=C, scalar=1.0)
        with self.assertRaisesRegex(TypeError, "noop: unexpected keyword argument 'x'"):
            pk.parallel_for(4, f.noop, x=1)
        with self.assertRaisesRegex(TypeError, "nstream: argument 'scalar': expected "
                                               "float64 scalar, got str"):
            pk.parallel_for(4, f.nstream, A=A, B=B, C=C, scalar="x")
        with self.assertRaisesRegex(TypeError, "fill2d: argument 'k': expected int64 "
                                               "scalar, got float"):
            pk.parallel_for(3, f.fill2d, M=pk.View([3, 4]), k=1.5)
        with self.assertRaisesRegex(TypeError, "nstream: a parallel_for kernel cannot be "
                                               "run with parallel_reduce"):
            pk.parallel_reduce(4, f.nstream, A=A, B=B, C=C, scalar=1.0)
        # the wrapper's own checks come back as exceptions naming the argument
        with self.assertRaisesRegex(RuntimeError, "fill2d: argument 'M'"):
            pk.parallel_for(3, f.fill2d, M=pk.View([3, 4], layout=pk.LayoutLeft), k=1)
        with self.assertRaisesRegex(NotImplementedError, "not supported yet"):
            pk.parallel_for(pk.MDRangePolicy([0, 0], [2, 2]), f.noop)
        # a good call still works after errors (cached plan intact)
        A.fill(0)
        B.fill(1)
        pk.parallel_for(4, f.nstream, A=A, B=B, C=C, scalar=1.0)
        np.testing.assert_allclose(A.data, 1.0)

    def test_call_overhead(self):
        import pykokkos as pk
        f = self.fake
        A, B, C = pk.View([1]), pk.View([1]), pk.View([1])
        ax = f.Axpy(1.0, A, B)
        for name, kern, kw in (("noop", f.noop, {}),
                               ("nstream", f.nstream, dict(A=A, B=B, C=C, scalar=1.0)),
                               ("Axpy.run (functor)", ax.run, {})):
            pk.parallel_for(1, kern, **kw)
            ts = sorted(timeit.timeit(lambda: pk.parallel_for(1, kern, **kw), number=10000)
                        / 10000 for _ in range(5))
            print(f"\n  per-call overhead {name} N=1: {ts[2] * 1e6:.2f} us (median of 5)",
                  file=sys.stderr)


class TestModuleLoading(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build_prerequisites()

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pkshim")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _call_nstream(self, env=None):
        return run_py("""
            import sys, importlib.util
            import numpy as np, pykokkos as pk
            spec = importlib.util.spec_from_file_location("fake", "fake.py")
            fake = importlib.util.module_from_spec(spec); spec.loader.exec_module(fake)
            a = np.zeros(3)
            pk.parallel_for(3, fake.nstream, A=a, B=np.ones(3), C=np.ones(3), scalar=2.0)
            print(a.tolist())
            """, env, cwd=self.tmp)

    def test_stale_module_refused_without_pkc(self):
        layout(self.tmp, source_extra="\n# edited\n")
        r = self._call_nstream({"PKC": "", "PATH": "/usr/bin:/bin"})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("RuntimeError", r.stderr)
        self.assertIn("missing or stale", r.stderr)
        self.assertIn("run `pkc build", r.stderr)
        self.assertIn("fake.py", r.stderr)

    def test_missing_module_jit_builds_with_pkc(self):
        layout(self.tmp)
        os.remove(os.path.join(self.tmp, "fake.pk", "fake.openmp.so"))
        fakepkc = os.path.join(self.tmp, "fakepkc")
        with open(fakepkc, "w") as f:
            f.write(f"#!/bin/sh\n# args: build FILE --backend B\n"
                    f"cp {FAKE_SO} \"$(dirname $2)/fake.pk/fake.$4.so\"\n")
        os.chmod(fakepkc, 0o755)
        r = self._call_nstream({"PKC": fakepkc})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "[3.0, 3.0, 3.0]")
        src = os.path.join(self.tmp, "fake.py")
        self.assertEqual(r.stderr.strip(), f"pykokkos: building {src} for openmp with pkc "
                                           "(module missing or stale)")

    def test_descriptor_hash_checked_after_load(self):
        edited = "\n# edited\n"
        with open(os.path.join(HERE, "fake.py"), "rb") as f:
            sha = hashlib.sha256(f.read() + edited.encode()).hexdigest()
        layout(self.tmp, source_extra=edited, key_sha=sha)   # key lies: claims fresh
        r = self._call_nstream({"PKC": "", "PATH": "/usr/bin:/bin"})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("was built from a different version", r.stderr)

    def test_abi_mismatch_message(self):
        layout(self.tmp, so=BAD_SO)
        r = self._call_nstream()
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("ABI version 999 but this runtime implements ABI version 1", r.stderr)

    def test_view_alive_at_exit_exits_cleanly(self):
        layout(self.tmp)
        r = run_py("""
            import importlib.util, pykokkos as pk
            spec = importlib.util.spec_from_file_location("fake", "fake.py")
            fake = importlib.util.module_from_spec(spec); spec.loader.exec_module(fake)
            A, B, C = pk.View([10]), pk.View([10]), pk.View([10])
            B.fill(1)
            pk.parallel_for(10, fake.nstream, A=A, B=B, C=C, scalar=1.0)
            GLOBAL_VIEW = A
            print(float(A[3]))
            """, {"FAKE_TRACE_FINALIZE": "1"}, cwd=self.tmp)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "1.0")
        self.assertIn("fake: Kokkos::finalize", r.stderr)   # finalized exactly once at exit
        self.assertEqual(r.stderr.count("Kokkos::finalize"), 1)

    def test_import_time(self):
        ts = []
        for _ in range(5):
            r = run_py("import time; t = time.perf_counter(); import pykokkos; "
                       "print(time.perf_counter() - t)")
            ts.append(float(r.stdout))
        code = "import pykokkos"
        whole = sorted(timeit.repeat(lambda: run_py(code), number=1, repeat=5))[2]
        bare = sorted(timeit.repeat(lambda: run_py("pass"), number=1, repeat=5))[2]
        print(f"\n  import pykokkos: {sorted(ts)[2] * 1e3:.1f} ms in-process; process with "
              f"import {whole * 1e3:.1f} ms vs bare interpreter {bare * 1e3:.1f} ms",
              file=sys.stderr)
        r = run_py("import sys, pykokkos; print('numpy' in sys.modules, 'ctypes' in sys.modules)")
        self.assertEqual(r.stdout.strip(), "False False")


if __name__ == "__main__":
    unittest.main(verbosity=2)
