"""Paths are data, never commands (issue 22 item 1, issue 27): `pkc build` of
a program in a directory whose name holds ', ", $( ), backquotes, spaces,
;, a newline and non-ASCII letters builds (pkc spawns the compiler and the
linker with argument vectors, no shell), runs none of the commands written
in the name (no INJECTED file appears anywhere under the test's directory,
the cache directory included, nor in the current directory), and the
program then runs through the shim with the right numbers and no rebuild."""
import os
import shutil
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
def axpy(i: int, y: pk.View1D[float], x: pk.View1D[float], a: float):
    y[i] = a * x[i] + y[i]

if __name__ == "__main__":
    x = np.arange(100, dtype=np.float64)
    y = np.ones(100)
    pk.parallel_for(100, axpy, y=y, x=x, a=2.5)
    print("OK" if np.array_equal(y, 2.5 * np.arange(100.0) + 1.0) else f"BAD {y[:4]}")
'''

# every character a shell would act on, each spelling a command that leaves a file
NASTY = ("x'; touch INJECTED1; ' \"q\"; touch INJECTED2 $(touch INJECTED3) "
         "`touch INJECTED4` sp ace;touch INJECTED5;\nnl \u00e9t\u00e9 \u03bb")


class NastyPath(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pkc-paths-")
        self.dir = os.path.join(self.tmp, NASTY)
        os.makedirs(self.dir)
        self.src = os.path.join(self.dir, "prog.py")
        with open(self.src, "w") as f:
            f.write(PROGRAM)
        self.env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"),
                        OMP_NUM_THREADS="2", PKC_BACKEND="openmp",
                        PKC_CACHE_DIR=os.path.join(self.tmp, "cache"))
        self.env["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + self.env["PATH"]
        self.env.pop("PKC", None)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def injected(self):
        """Files named INJECTED<n> (what the commands in NASTY create)."""
        return [os.path.join(d, n) for d, _, names in os.walk(self.tmp) for n in names
                if n.startswith("INJECTED")]

    def test_build_and_run_in_directory_named_with_shell_syntax(self):
        cwd = os.path.join(self.tmp, "cwd")
        os.makedirs(cwd)
        b = subprocess.run([PKC, "build", self.src], capture_output=True, text=True,
                           env=self.env, cwd=cwd, timeout=600)
        self.assertEqual(self.injected(), [], "a command in the path ran")
        self.assertEqual(b.returncode, 0, b.stderr[-3000:])
        so = os.path.join(self.dir, "prog.pk", "prog.openmp.so")
        self.assertTrue(os.path.isfile(so))
        before = os.path.getmtime(so)
        r = subprocess.run([sys.executable, self.src], capture_output=True, text=True,
                           env=self.env, cwd=cwd, timeout=300)
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "OK"), r.stderr[-3000:])
        self.assertNotIn("building", r.stderr)          # the module pkc built, not a rebuild
        self.assertEqual(os.path.getmtime(so), before)
        self.assertEqual(self.injected(), [])


if __name__ == "__main__":
    unittest.main()
