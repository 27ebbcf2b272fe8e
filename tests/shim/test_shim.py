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
    newest = max(os.path.getmtime(os.path.join(HERE, f))
                 for f in ("fake.py", "fake_module.cpp", "CMakeLists.txt"))
    newest = max(newest, os.path.getmtime(os.path.join(REPO, "runtime-shim", "pkc_abi.h")))
    if not (os.path.isfile(FAKE_SO) and os.path.isfile(BAD_SO)
            and os.path.getmtime(FAKE_SO) > newest):
        subprocess.check_call(["cmake", "-S", HERE, "-B", SHIM_BUILD, f"-DKokkos_ROOT={KOKKOS}",
                               "-DCMAKE_BUILD_TYPE=Release"], stdout=subprocess.DEVNULL)
        subprocess.check_call(["cmake", "--build", SHIM_BUILD, "-j2"], stdout=subprocess.DEVNULL)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def key_inputs(env_extra=None):
    """Line 3 of a key file as the shim computes it under env_extra."""
    from pykokkos import _loader
    saved = dict(os.environ)
    os.environ.update(env_extra or {})
    try:
        return _loader.build_inputs() or "inputs"
    finally:
        os.environ.clear()
        os.environ.update(saved)


def layout(dirname, so=FAKE_SO, source_extra="", key_sha=None, env_extra=None):
    """<dir>/fake.py (+extra text) and <dir>/fake.pk/fake.openmp.{so,key}
    (the key as pkc build writes it, for the environment env_extra adds)."""
    os.makedirs(os.path.join(dirname, "fake.pk"), exist_ok=True)
    src = os.path.join(dirname, "fake.py")
    with open(os.path.join(HERE, "fake.py")) as f:
        text = f.read()
    with open(src, "w") as f:
        f.write(text + source_extra)
    shutil.copy(so, os.path.join(dirname, "fake.pk", "fake.openmp.so"))
    with open(os.path.join(dirname, "fake.pk", "fake.openmp.key"), "w") as f:
        f.write("fakekey\n" + (key_sha or sha256(os.path.join(HERE, "fake.py"))) + "\n" +
                key_inputs(env_extra) + "\n" + f"so {os.path.getsize(so)} {sha256(so)}\n")
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
        from pykokkos._abiconst import ABI_VERSION
        self.assertIn("ABI version 999", r.stderr)
        self.assertIn(f"ABI version {ABI_VERSION}", r.stderr)

    def test_abi_struct_layout_matches_ctypes(self):
        from pykokkos import _abi
        structs = {"DLTensor": ["data", "device", "ndim", "dtype", "shape", "strides",
                                "byte_offset"],
                   "pkc_param_desc": ["name", "kind", "dtype_code", "dtype_bits", "rank",
                                      "layout", "access"],
                   "pkc_policy": ["kind", "rank", "begin", "end", "tile", "league_size",
                                  "team_size", "vector_length", "scratch_team",
                                  "scratch_thread", "iterate", "reserved", "gate"],
                   "pkc_gate": ["counter", "target", "scope", "head", "tail"],
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
        with self.assertRaisesRegex(TypeError, "'object' is not a @pk.workload"):
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
                         "got int32 array of rank 2 (the kernel expects a View with "
                         "dtype float64)")
        with self.assertRaisesRegex(TypeError, r"nstream: argument 'B': expected float64 "
                                               r"View1D, got int32 View1D"):
            pk.parallel_for(4, f.nstream, A=A, B=pk.View([4], int), C=C, scalar=1.0)
        with self.assertRaisesRegex(TypeError, "nstream: missing keyword argument 'C'"):
            pk.parallel_for(4, f.nstream, A=A, B=B, scalar=1.0)
        with self.assertRaisesRegex(TypeError, "nstream: unexpected keyword argument 'D'"):
            pk.parallel_for(4, f.nstream, A=A, B=B, C=C, D=C, scalar=1.0)
        with self.assertRaises(TypeError) as cm:   # misspelled: both names (issue 27)
            pk.parallel_for(4, f.nstream, A=A, B=B, Cc=C, scalar=1.0)
        self.assertEqual(str(cm.exception), "nstream: unexpected keyword argument 'Cc' (did you "
                         "mean 'C'?) and missing keyword argument 'C' (the kernel takes A, B, "
                         "C, scalar)")
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
        # a layout mismatch is a TypeError (a kernel typed per call specializes on it)
        with self.assertRaisesRegex(TypeError, "fill2d: argument 'M': expected a LayoutRight"):
            pk.parallel_for(3, f.fill2d, M=pk.View([3, 4], layout=pk.LayoutLeft), k=1)
        # a strided array (the module's wrapper refuses one) is no error: the shim
        # passes a contiguous copy and copies what the kernel wrote back
        M = np.zeros((3, 8))
        pk.parallel_for(3, f.fill2d, M=M[:, ::2], k=1)
        np.testing.assert_array_equal(M[:, ::2], np.arange(3)[:, None] * 10 + np.arange(4) + 1)
        np.testing.assert_array_equal(M[:, 1::2], 0.0)
        with self.assertRaisesRegex(TypeError, "range kernel 'noop' needs an int or a "
                                               "pk.RangePolicy, got MDRangePolicy"):
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
        team = pk.TeamPolicy(1, pk.AUTO)
        md = pk.MDRangePolicy([0, 0], [1, 1])
        pool = pk.Random_XorShift64_Pool(1)
        for name, pol, kern, kw in (
                ("noop", 1, f.noop, {}),
                ("nstream", 1, f.nstream, dict(A=A, B=B, C=C, scalar=1.0)),
                ("Axpy.run (functor)", 1, ax.run, {}),
                ("noop_raw (shim only, no Kokkos)", 1, f.noop_raw, {}),
                ("team_raw, TeamPolicy (shim only)", team, f.team_raw, {}),
                ("md_raw, MDRangePolicy (shim only)", md, f.md_raw, {}),
                ("rand_fill (pool + view)", 1, f.rand_fill, dict(pool=pool, out=A))):
            pk.parallel_for(pol, kern, **kw)
            ts = sorted(timeit.timeit(lambda: pk.parallel_for(pol, kern, **kw), number=10000)
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
        self.assertIn("PkcBuildError", r.stderr)   # a RuntimeError (issue 27)
        self.assertIn("missing, stale or damaged", r.stderr)
        self.assertIn("run `pkc build", r.stderr)
        self.assertIn("fake.py", r.stderr)

    def test_old_key_cannot_vouch_for_truncated_module(self):
        """Issue 22 item 13: a key of one line (no source hash, no "so" line)
        beside a truncated module means stale: refused with the pkc build
        advice when pkc is absent, never loaded (that died with SIGBUS)."""
        layout(self.tmp)
        mod = os.path.join(self.tmp, "fake.pk", "fake.openmp.so")
        os.truncate(mod, os.path.getsize(mod) // 2)
        with open(os.path.join(self.tmp, "fake.pk", "fake.openmp.key"), "w") as f:
            f.write("fakekey\n")
        r = self._call_nstream({"PKC": "", "PATH": "/usr/bin:/bin"})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("PkcBuildError", r.stderr)   # a RuntimeError (issue 27)
        self.assertIn("missing, stale or damaged", r.stderr)

    def test_missing_module_jit_builds_with_pkc(self):
        fakepkc = os.path.join(self.tmp, "fakepkc")
        with open(fakepkc, "w") as f:
            f.write(f"#!/bin/sh\n# args: build FILE --backend B\n"
                    f"cp {FAKE_SO} \"$(dirname $2)/fake.pk/fake.$4.so\"\n")
        os.chmod(fakepkc, 0o755)
        layout(self.tmp, env_extra={"PKC": fakepkc})
        os.remove(os.path.join(self.tmp, "fake.pk", "fake.openmp.so"))
        r = self._call_nstream({"PKC": fakepkc})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "[3.0, 3.0, 3.0]")
        src = os.path.join(self.tmp, "fake.py")
        self.assertEqual(r.stderr.strip(), f"pykokkos: building {src} for openmp with pkc "
                                           "(module missing, stale or damaged)")

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
        from pykokkos._abiconst import ABI_VERSION
        self.assertIn(f"ABI version 999 but this runtime implements ABI version {ABI_VERSION}",
                      r.stderr)

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


class TestDialectHost(unittest.TestCase):
    """Host-side dialect objects that need no module (policies, reducers, View API)."""

    def test_team_policy(self):
        import ctypes
        import pykokkos as pk
        from pykokkos import _abi
        p = pk.TeamPolicy(pk.OpenMP, 8, pk.AUTO)
        self.assertEqual((p.league_size, p.team_size, p.vector_length), (8, 0, 0))
        self.assertEqual(pk.TeamPolicy(8, "auto", 4).team_size, 0)
        old = pk.TeamPolicy(8, "auto", 32, pk.OpenMP)   # older PyKokkos: the space last
        self.assertEqual((old.space, old.league_size, old.team_size, old.vector_length),
                         (pk.OpenMP, 8, 0, 32))
        q = pk.TeamPolicy(8, 4, 2)
        self.assertIs(q.set_scratch_size(0, pk.PerTeam(100)), q)
        q.set_scratch_size(1, pk.PerTeam(64), pk.PerThread(16))
        c = _abi.pkc_policy.from_address(q.c_addr())
        self.assertEqual((c.kind, c.league_size, c.team_size, c.vector_length),
                         (_abi.POLICY_TEAM, 8, 4, 2))
        self.assertEqual((list(c.scratch_team), list(c.scratch_thread)), ([100, 64], [0, 16]))
        q.set_scratch_size(0, pk.PerThread(8))          # rebuilds the struct
        c = _abi.pkc_policy.from_address(q.c_addr())
        self.assertEqual(list(c.scratch_thread), [8, 16])
        self.assertEqual(c.gate, None)       # no gate: pk.Graph sets one only on CUDA
        self.assertEqual(ctypes.sizeof(c),
                         _abi.pkc_policy.gate.offset + ctypes.sizeof(ctypes.c_void_p))
        with self.assertRaisesRegex(ValueError, "level must be 0 or 1"):
            q.set_scratch_size(2, pk.PerTeam(1))
        with self.assertRaisesRegex(TypeError, r"expected pk.PerTeam\(bytes\)"):
            q.set_scratch_size(0, 100)
        with self.assertRaisesRegex(TypeError, "team_size .an int or pk.AUTO"):
            pk.TeamPolicy(8, 2.5)
        self.assertEqual(repr(pk.PerTeam(3)), "pk.PerTeam(3)")

    def test_mdrange_policy(self):
        import pykokkos as pk
        from pykokkos import _abi
        p = pk.MDRangePolicy(pk.OpenMP, [1, 2, 3], [4, 5, 6], [2, 2, 2],
                             iterate=pk.Iterate.Left)
        c = _abi.pkc_policy.from_address(p.c_addr())
        self.assertEqual((c.kind, c.rank, c.iterate), (_abi.POLICY_MDRANGE, 3, 2))
        self.assertEqual((list(c.begin)[:3], list(c.end)[:3], list(c.tile)[:3]),
                         ([1, 2, 3], [4, 5, 6], [2, 2, 2]))
        self.assertEqual(pk.MDRangePolicy([0] * 6, [2] * 6).rank, 6)
        self.assertEqual(pk.MDRangePolicy([0, 0], [2, 2], iterate=pk.Iterate.Right).iterate, 1)
        with self.assertRaisesRegex(ValueError, "rank must be 2..6, got 7"):
            pk.MDRangePolicy([0] * 7, [1] * 7)
        with self.assertRaisesRegex(ValueError, "rank must be 2..6, got 1"):
            pk.MDRangePolicy([0], [1])
        with self.assertRaisesRegex(ValueError, r"differ in length \(2, 3, 2\)"):
            pk.MDRangePolicy([0, 0], [1, 1, 1])

    def test_reducers_scratch_and_real(self):
        import pykokkos as pk
        self.assertEqual(repr(pk.Max[pk.double]), "pk.Max[pk.float64]")
        pk.Min[int], pk.Prod[pk.float32], pk.Sum[pk.int64]
        # an annotation evaluates (the file imports; pkc rejects that kernel only)
        self.assertEqual(repr(pk.MaxLoc[pk.double]), "pk.MaxLoc[pk.float64]")
        with self.assertRaisesRegex(NotImplementedError, "pk.MinLoc is a reducer marker"):
            pk.MinLoc(1)
        # Kokkos::View::shmem_size = span + sizeof(value_type)
        self.assertEqual(pk.ScratchView1D.shmem_size(10), 88)
        self.assertEqual(pk.ScratchView2D.shmem_size(3, 4, dtype=pk.int32), 52)
        self.assertEqual(pk.ScratchView3D.shmem_size(2, 2, 2, dtype=pk.float32), 36)
        with self.assertRaisesRegex(TypeError, "takes 2 extent"):
            pk.ScratchView2D.shmem_size(3)
        self.assertIs(pk.real, pk.float64)
        r = run_py("import pykokkos as pk; from pykokkos import _types as T; "
                   "print(pk.real, T.pkc_build_args())", {"PKC_REAL": "float32"})
        self.assertEqual(r.stdout.strip(), "<class 'pykokkos.interface.data_types.float32'> "
                         "['--real=float32']", r.stderr)
        r = run_py("import pykokkos", {"PKC_REAL": "float16"})
        self.assertIn("PKC_REAL must be float32 or float64, got 'float16'", r.stderr)

    def test_view_api(self):
        import numpy as np
        import pykokkos as pk
        v = pk.View([4, 5], pk.double)
        v.data[:] = np.arange(20).reshape(4, 5)
        self.assertEqual((v.rank, v.rank(), len(v), v.extent(1)), (2, 2, 4, 5))
        blk = v[1:3, :]
        self.assertIsInstance(blk, pk.View)
        self.assertEqual(blk.shape, (2, 5))
        blk[0, 0] = -1.0                      # shares memory with v
        self.assertEqual(v[1, 0], -1.0)
        col = pk.subview(v, pk.ALL, 2)
        self.assertEqual((col.rank(), col.layout), (1, pk.Layout.LayoutStride))
        np.testing.assert_array_equal(np.asarray(col), [2, 7, 12, 17])
        row = pk.subview(v, 3, (1, 4))
        np.testing.assert_array_equal(row.to_numpy(), [16, 17, 18])
        c = v.copy()
        c[0, 0] = 99.0
        self.assertEqual((v[0, 0], c[0, 0]), (0.0, 99.0))
        pk.deep_copy(v, c)
        self.assertEqual(v[0, 0], 99.0)
        pk.deep_copy(c, 2.5)
        self.assertTrue(np.all(c.data == 2.5))
        with self.assertRaisesRegex(ValueError, r"extents differ: destination \[4, 5\], "
                                                r"source \[2, 5\]"):
            pk.deep_copy(v, blk)
        pk.resize(v, 5, 3)
        self.assertEqual(v.shape, (5, 3))
        np.testing.assert_array_equal(v.data[:4], [[99, 1, 2], [-1, 6, 7], [10, 11, 12],
                                                   [15, 16, 17]])
        self.assertTrue(np.all(v.data[4] == 0))
        v.resize(1, 1)
        self.assertEqual(v.shape, (5, 1))
        with self.assertRaisesRegex(ValueError, "has rank 2, got 1 extent"):
            pk.resize(v, 3)
        a = np.ones((3, 2), order="F")
        fv = pk.from_numpy(a)
        self.assertEqual(fv.layout, pk.LayoutLeft)
        fv[0, 0] = 7
        self.assertEqual(a[0, 0], 7)
        self.assertEqual(pk.View([2] * 8, pk.int8).rank(), 8)
        self.assertIs(pk.Trait.Atomic, pk.Atomic)
        info = pk.ViewTypeInfo(layout=pk.LayoutLeft, trait=pk.RandomAccess)
        self.assertIs(info.trait, pk.RandomAccess)


class TestDialectKernels(Base):
    """Team, MDRange, reducers, random pools and workloads through the fake module."""

    def test_team_reduce(self):
        import numpy as np
        import pykokkos as pk
        x = np.random.default_rng(3).random((37, 53))
        need = pk.ScratchView1D.shmem_size(1)
        for pol in (pk.TeamPolicy(37, pk.AUTO), pk.TeamPolicy(pk.OpenMP, 37, 2, 1),
                    pk.TeamPolicy(37, "auto")):
            r = pk.parallel_reduce(pol.set_scratch_size(0, pk.PerTeam(need)),
                                   self.fake.team_sum, x=x)
            self.assertAlmostEqual(r, float(x.sum()), places=9)
        r = pk.parallel_reduce(pk.TeamPolicy(10, 1).set_scratch_size(0, pk.PerTeam(need)),
                               self.fake.team_sum, x=x)      # first 10 rows only
        self.assertAlmostEqual(r, float(x[:10].sum()), places=9)
        with self.assertRaisesRegex(ValueError, "team_sum: uses team scratch level 0 but "
                                                  "the policy sets no scratch size"):
            pk.parallel_reduce(pk.TeamPolicy(37, pk.AUTO), self.fake.team_sum, x=x)

    def test_policy_kind_must_match_kernel(self):
        import numpy as np
        import pykokkos as pk
        f = self.fake
        M = np.zeros((2, 2))
        with self.assertRaisesRegex(TypeError, "^team kernel 'team_sum' needs a "
                                               "pk.TeamPolicy, got RangePolicy$"):
            pk.parallel_reduce(pk.RangePolicy(0, 4), f.team_sum, x=M)
        with self.assertRaisesRegex(TypeError, "team kernel 'team_sum' needs a "
                                               "pk.TeamPolicy, got int"):
            pk.parallel_reduce(4, f.team_sum, x=M)
        with self.assertRaisesRegex(TypeError, "mdrange kernel 'md_fill' needs a "
                                               "pk.MDRangePolicy, got TeamPolicy"):
            pk.parallel_for(pk.TeamPolicy(2, 2), f.md_fill, M=M)
        with self.assertRaisesRegex(TypeError, "range kernel 'noop' needs an int or a "
                                               "pk.RangePolicy, got TeamPolicy"):
            pk.parallel_for(pk.TeamPolicy(2, 2), f.noop)
        with self.assertRaisesRegex(RuntimeError, "md_fill: the kernel takes 2 indices "
                                                  "but the MDRangePolicy has rank 3"):
            pk.parallel_for(pk.MDRangePolicy([0, 0, 0], [2, 2, 2]), f.md_fill, M=M)

    def test_mdrange(self):
        import numpy as np
        import pykokkos as pk
        ref = np.add.outer(np.arange(30) * 100, np.arange(17)).astype(float)
        for it in (pk.Iterate.Right, pk.Iterate.Left, None):
            for tiles in ([], [[4, 4]], [[1, 16]]):
                M = pk.View([30, 17])
                pk.parallel_for(pk.MDRangePolicy([0, 0], [30, 17], *tiles, iterate=it),
                                self.fake.md_fill, M=M)
                np.testing.assert_array_equal(M.data, ref)
        M = pk.View([30, 17])
        pk.parallel_for(pk.MDRangePolicy([2, 3], [5, 7]), self.fake.md_fill, M=M)
        self.assertEqual(np.count_nonzero(M.data), 12)
        np.testing.assert_array_equal(M.data[2:5, 3:7], ref[2:5, 3:7])
        T3 = pk.View([4, 5, 6], int)
        pk.parallel_for(pk.MDRangePolicy([0, 0, 0], [4, 5, 6], [2, 2, 2]),
                        self.fake.md_fill3, T=T3)
        i, j, k = np.indices((4, 5, 6))
        np.testing.assert_array_equal(T3.data, i * 100 + j * 10 + k)
        x = np.random.default_rng(5).random((9, 11))
        r = pk.parallel_reduce(pk.MDRangePolicy([0, 0], [9, 11]), self.fake.md_max, M=x)
        self.assertEqual(r, float(x.max()))

    def test_random_pool(self):
        import numpy as np
        import pykokkos as pk
        f = self.fake
        pool = pk.Random_XorShift64_Pool(2024)
        out = pk.View([5000])
        pk.parallel_for(5000, f.rand_fill, pool=pool, out=out)
        a = out.data.copy()
        self.assertTrue(np.all((a >= 0) & (a < 1)))
        self.assertAlmostEqual(float(a.mean()), 0.5, delta=0.05)
        self.assertGreater(len(np.unique(a)), 4900)
        self.assertEqual(len(pool._handles), 1)          # one Kokkos pool per module
        h = next(iter(pool._handles.values()))[0]
        pk.parallel_for(5000, f.rand_fill, pool=pool, out=out)
        self.assertEqual(next(iter(pool._handles.values()))[0], h)
        self.assertFalse(np.array_equal(a, out.data))     # the states advanced
        pool.destroy()                                    # usable again afterwards
        pk.parallel_for(10, f.rand_fill, pool=pool, out=out)
        self.assertEqual(len(pool._handles), 1)
        with self.assertRaisesRegex(TypeError, "rand_fill: argument 'pool': expected "
                                               "pk.Random_XorShift64_Pool, got "
                                               "Random_XorShift1024_Pool"):
            pk.parallel_for(10, f.rand_fill, pool=pk.Random_XorShift1024_Pool(1), out=out)
        with self.assertRaisesRegex(TypeError, "seed must be an int"):
            pk.Random_XorShift64_Pool(1.5)

    def test_workload_execute(self):
        import numpy as np
        import pykokkos as pk
        w = self.fake.Work(100)
        self.assertIsNone(pk.execute(pk.ExecutionSpace.Default, w))
        np.testing.assert_array_equal(w.x.data, np.arange(100))
        self.assertEqual(w.report(), (4950.0, 1, True))
        self.assertIsInstance(w.total, float)
        self.assertIsInstance(w.iters, int)
        self.assertIs(w.done, True)
        w.n = 10
        w.run()                                   # the @pk.main called directly
        self.assertEqual(w.report(), (45.0, 2, True))
        self.assertEqual(self.fake.Work.run.__name__, "run")
        with self.assertRaisesRegex(TypeError, "run: a @pk.main method takes no arguments"):
            w.run(1)
        del w.x
        with self.assertRaisesRegex(TypeError, "Work.run: workload has no member 'x'"):
            pk.execute(pk.OpenMP, w)

    def test_resized_view_is_rebound(self):
        import numpy as np
        import pykokkos as pk
        x = pk.View([10])
        x.fill(1.0)
        self.assertEqual(pk.parallel_reduce(10, self.fake.dot_sum, x=x), 10.0)
        pk.resize(x, 20)
        x.data[10:] = 2.0
        self.assertEqual(pk.parallel_reduce(20, self.fake.dot_sum, x=x), 30.0)
        blk = x[5:15]
        self.assertEqual(pk.parallel_reduce(10, self.fake.dot_sum, x=blk), 15.0)
        self.assertEqual(float(np.asarray(x).sum()), 30.0)


class TestPoolsAtExit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build_prerequisites()

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pkshim")
        layout(self.tmp)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_pools_destroyed_before_finalize(self):
        r = run_py("""
            import importlib.util, pykokkos as pk
            spec = importlib.util.spec_from_file_location("fake", "fake.py")
            fake = importlib.util.module_from_spec(spec); spec.loader.exec_module(fake)
            P1, P2 = pk.Random_XorShift64_Pool(1), pk.Random_XorShift64_Pool(2)
            out = pk.View([100])
            for p in (P1, P2, P1):
                pk.parallel_for(100, fake.rand_fill, pool=p, out=out)
            print("ok")
            """, {"FAKE_TRACE_FINALIZE": "1"}, cwd=self.tmp)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "ok")
        lines = r.stderr.strip().splitlines()
        self.assertEqual(lines, ["fake: pool_create 64"] * 2 + ["fake: pool_destroy 64"] * 2
                         + ["fake: Kokkos::finalize"])

    def test_register_cleanup_runs_before_finalize(self):
        r = run_py("""
            import ctypes, importlib.util, sys, pykokkos as pk
            from pykokkos import _loader
            spec = importlib.util.spec_from_file_location("fake", "fake.py")
            fake = importlib.util.module_from_spec(spec); spec.loader.exec_module(fake)
            pk.parallel_for(1, fake.noop)
            lib = _loader.RUNTIME.runtime_lib()
            CB = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
            cbs = [CB(lambda ctx, k=k: print("cleanup", k, file=sys.stderr, flush=True))
                   for k in (1, 2)]
            for cb in cbs:
                assert lib.pkr_register_cleanup(cb, None) == 0
            assert lib.pkr_register_cleanup(None, None) == -1
            lib.pkr_finalize()
            lib.pkr_finalize()
            """, {"FAKE_TRACE_FINALIZE": "1"}, cwd=self.tmp)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(),
                         ["cleanup 2", "cleanup 1", "fake: Kokkos::finalize"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
