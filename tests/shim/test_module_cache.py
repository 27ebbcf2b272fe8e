"""The module cache under concurrency and damage (issue 11): many processes
starting one program on a missing or stale module (one builds, all run), a
truncated or overwritten module (rebuilt by the shim and by `pkc build`,
never loaded), and a changed toolchain (CXXFLAGS: `pkc build` decides, the
module is rebuilt and the key file records the new environment)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PKC = os.path.join(ROOT, "build", "bin", "pkc")

PROGRAM = '''import numpy as np
import pykokkos as pk

@pk.workunit
def scale(i: int, y: pk.View1D[float], x: pk.View1D[float], a: float):
    y[i] = a * x[i]

if __name__ == "__main__":
    x = np.arange(1000, dtype=np.float64)
    y = np.zeros(1000)
    pk.parallel_for(1000, scale, y=y, x=x, a=3.0)
    assert np.array_equal(y, 3.0 * x), "wrong result"
    print("OK")
'''


def env(**extra):
    e = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"),
             OMP_NUM_THREADS="1", PKC_BACKEND="openmp")
    e["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + e.get("PATH", "")
    e.pop("PKC", None)
    e.update(extra)
    return e


class ModuleCache(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="pkcache")
        self.src = os.path.join(self.tmp.name, "scale.py")
        self.write_source()
        self.so = os.path.join(self.tmp.name, "scale.pk", "scale.openmp.so")
        self.key = os.path.join(self.tmp.name, "scale.pk", "scale.openmp.key")

    def tearDown(self):
        self.tmp.cleanup()

    def write_source(self, comment=""):
        with open(self.src, "w") as f:
            f.write(PROGRAM + comment)

    def run_program(self, **extra):
        return subprocess.run([sys.executable, self.src], capture_output=True, text=True,
                              env=env(**extra), timeout=300)

    def test_concurrent_processes_build_once_and_all_run(self):
        """8 processes at once, 20 rounds; the source changes in 3 of them, so
        those rounds start on a stale module."""
        for rnd in range(20):
            if rnd in (0, 7, 14):
                self.write_source(f"# round {rnd}\n")
            procs = [subprocess.Popen([sys.executable, self.src], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env())
                     for _ in range(8)]
            for p in procs:
                out, err = p.communicate(timeout=600)
                self.assertEqual((p.returncode, out.strip()), (0, "OK"),
                                 f"round {rnd}: {err}")
        leftovers = [n for n in os.listdir(os.path.dirname(self.so)) if n.endswith(".tmp")]
        self.assertEqual(leftovers, [])

    def test_damaged_module_is_rebuilt_not_loaded(self):
        r = self.run_program()
        self.assertEqual(r.stdout.strip(), "OK", r.stderr)
        size = os.path.getsize(self.so)
        os.truncate(self.so, size // 3)                     # truncated: the shim rebuilds
        r = self.run_program()
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "OK"), r.stderr)
        self.assertIn("damaged", r.stderr)
        self.assertEqual(os.path.getsize(self.so), size)
        with open(self.so, "r+b") as f:                     # overwritten in place, same size
            f.seek(size // 2)
            f.write(b"\xde\xad" * 2048)
        b = subprocess.run([PKC, "build", self.src], capture_output=True, text=True, env=env())
        self.assertEqual(b.returncode, 0, b.stderr)
        r = self.run_program(PKC="/nonexistent/pkc")        # must not need a rebuild now
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "OK"), r.stderr)

    def test_damaged_module_without_pkc_is_refused(self):
        self.assertEqual(self.run_program().stdout.strip(), "OK")
        os.truncate(self.so, 4096)
        r = self.run_program(PKC="", PATH="/usr/bin:/bin")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("PkcBuildError", r.stderr)   # a RuntimeError (issue 27)
        self.assertIn(f"pkc build {self.src}", r.stderr)

    def test_up_to_date_module_in_read_only_directory(self):
        """Issue 22 item 14: `pkc build` of an up-to-date module in a
        directory it cannot write succeeds (it checks before taking the
        lock, which needs a file there) and the program runs there. As root
        the checks run as nobody, whom the mode bits do stop."""
        self.assertEqual(self.run_program().stdout.strip(), "OK")
        before = os.path.getmtime(self.so)
        for d, _, names in os.walk(self.tmp.name):
            for n in names:
                os.chmod(os.path.join(d, n), 0o444)
            os.chmod(d, 0o555)
        self.addCleanup(lambda: [os.chmod(d, 0o755) for d, _, _ in os.walk(self.tmp.name)])
        drop = (["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
                if os.geteuid() == 0 else [])
        e = env(HOME=self.tmp.name)
        if drop and subprocess.run(drop + [sys.executable, "-c", "import os, sys; "
                                   "os.listdir(sys.argv[1])", os.path.join(ROOT, ".deps")],
                                   capture_output=True, env=e, timeout=60).returncode != 0:
            self.skipTest("nobody cannot reach this checkout (a parent directory is private, "
                          "as mktemp -d makes it): the check needs another user than root")
        b = subprocess.run(drop + [PKC, "build", self.src], capture_output=True, text=True,
                           env=e, timeout=300)
        self.assertEqual((b.returncode, b.stderr), (0, ""))
        r = subprocess.run(drop + [sys.executable, self.src], capture_output=True, text=True,
                           env=e, timeout=300)
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "OK"), r.stderr)
        self.assertEqual(os.path.getmtime(self.so), before)

    def test_kokkos_root_flag_then_environment_no_rebuild(self):
        """Issue 22 item 17: a module built by `pkc build --kokkos-root K
        file.py` (a relative path) is fresh for a run under Kokkos_ROOT=K
        spelled otherwise (the key records the resolved install; the shim
        resolves Kokkos_ROOT alike) and is not rebuilt by it (an assert's
        message names the file as #line does, not as the command spelled it)."""
        with open(self.src, "w") as f:
            f.write(PROGRAM.replace("    y[i] = a * x[i]\n",
                                    "    assert x[i] >= 0.0, 'x must be non-negative'\n"
                                    "    y[i] = a * x[i]\n"))
        kroot = os.path.join(ROOT, ".deps", "kokkos-openmp")
        b = subprocess.run([PKC, "build", "--kokkos-root", kroot, "scale.py"], cwd=self.tmp.name,
                           capture_output=True, text=True, env=env(), timeout=300)
        self.assertEqual(b.returncode, 0, b.stderr)
        before = os.path.getmtime(self.so)
        spelled = os.path.join(ROOT, ".deps", ".", "kokkos-openmp") + "/"
        probe = ("import hashlib, sys; from pykokkos import _loader as L; "
                 "sha = hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest(); "
                 "print(L.freshness(sys.argv[2], sys.argv[3], sha))")
        r = subprocess.run([sys.executable, "-c", probe, self.src, self.so, self.key],
                           capture_output=True, text=True, env=env(Kokkos_ROOT=spelled))
        self.assertEqual(r.stdout.strip(), "fresh", r.stderr)
        r = self.run_program(Kokkos_ROOT=spelled)
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "OK"), r.stderr)
        self.assertEqual(os.path.getmtime(self.so), before, "rebuilt: " + r.stderr)

    def test_changed_cxxflags_rebuild(self):
        self.assertEqual(self.run_program().stdout.strip(), "OK")
        before = os.path.getmtime(self.so)
        r = self.run_program(CXXFLAGS="-DPKC_CACHE_TEST=1")
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "OK"), r.stderr)
        self.assertGreater(os.path.getmtime(self.so), before, "not rebuilt for new CXXFLAGS")
        with open(self.key) as f:
            self.assertIn("CXXFLAGS=-DPKC_CACHE_TEST=1", f.read())
        log = os.path.join(self.tmp.name, "scale.pk", "build-openmp", "pkc-build.log")
        with open(log) as f:   # the compile command the build ran carries the flag
            self.assertIn("-DPKC_CACHE_TEST=1", f.read())


if __name__ == "__main__":
    unittest.main()
