"""The C fast path for launches (runtime-shim/fastcall.c, issue 12): where it
is built the plans of host range kernels are Launchers; they give the same
results as the Python plans, keep the policy mirror and the View cache of
the Python path true when both run in turn, and every error still comes
from the Python path (overflow, extents, a new array, a missing argument). A
pk.View and a numpy array passed in turn for one parameter each get their
own memory (the Python path used to reuse the array's binding for the View).

Run: /usr/bin/python3 tests/shim/test_fastcall.py
"""
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
sys.path.insert(0, HERE)
os.environ["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + os.environ.get("PATH", "")
os.environ["PKC_FUSION"] = "0"
import pykokkos as pk  # noqa: E402
from kernel_program import ProgramCase  # noqa: E402
from pykokkos import _dispatch  # noqa: E402

PROGRAM = '''import pykokkos as pk

@pk.workunit
def axpy(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double], a: float):
    y[i] = y[i] + a * x[i]

@pk.workunit
def count_big(i: int, acc: pk.Acc[pk.int64], x: pk.View1D[pk.double], limit: pk.int32):
    if x[i] > limit:
        acc += 1

@pk.workunit
def total(i: int, acc: pk.Acc[pk.double], x: pk.View1D[pk.double], flip: bool):
    acc += -x[i] if flip else x[i]
'''


@unittest.skipIf(_dispatch._fastcall() is None, "pykokkos._fastcall not built (python3-dev)")
class FastCall(ProgramCase):
    PROGRAM = PROGRAM
    NAME = "fastk"

    def test_plans_are_launchers_with_python_results(self):
        x = pk.View([100], pk.double)
        x[:] = np.arange(100.0)
        self.assertEqual(pk.parallel_reduce(100, self.k.count_big, x=x, limit=49), 50)
        self.assertEqual(pk.parallel_reduce(100, self.k.total, x=x, flip=True), -4950.0)
        run = _dispatch._plans[1][self.k.count_big]
        self.assertEqual(type(run).__name__, "Launcher")
        self.assertEqual(run.plan.kname, "count_big")
        r = pk.parallel_reduce(100, self.k.count_big, x=x, limit=10)
        self.assertIs(type(r), int)
        self.assertEqual(r, 89)

    def test_ranges_and_views_alternate_with_the_python_path(self):
        n = 1000
        y, x = pk.View([n], pk.double), pk.View([n], pk.double)
        y.fill(0.0)
        x.fill(1.0)
        a = np.zeros(n)
        want = np.zeros(n)
        for step in range(6):
            m = n if step % 2 else n // 2
            pk.parallel_for(m, self.k.axpy, y=y, x=x, a=1.0)          # fast: same Views
            pk.parallel_for(pk.RangePolicy(0, m), self.k.axpy, y=a, x=x, a=2.0)  # Python
            want[:m] += 1.0
            np.testing.assert_array_equal(np.asarray(y), want)
            np.testing.assert_array_equal(a, 2.0 * want)

    def test_errors_come_from_the_python_path(self):
        y, x = pk.View([10], pk.double), pk.View([8], pk.double)
        with self.assertRaisesRegex(ValueError, "axpy: View 'x' has extent 8"):
            pk.parallel_for(10, self.k.axpy, y=y, x=x, a=1.0)
        with self.assertRaisesRegex(OverflowError, "count_big: argument 'limit'"):
            pk.parallel_reduce(8, self.k.count_big, x=x, limit=2**40)
        with self.assertRaisesRegex(TypeError, "axpy"):
            pk.parallel_for(8, self.k.axpy, y=x, x=x)
        with self.assertRaisesRegex(OverflowError, "the range"):
            pk.parallel_for(2**63, self.k.axpy, y=x, x=x, a=1.0)

    def test_same_results_without_the_fast_path(self):
        import subprocess
        code = ("import sys, importlib.util, numpy as np, pykokkos as pk\n"
                f"spec = importlib.util.spec_from_file_location('fastk', {os.path.join(self.tmp, 'fastk.py')!r})\n"
                "k = importlib.util.module_from_spec(spec); spec.loader.exec_module(k)\n"
                "x = pk.View([64], pk.double); x[:] = np.sin(np.arange(64.0))\n"
                "y = pk.View([64], pk.double); y.fill(0.5)\n"
                "for s in range(5): pk.parallel_for(64 - s, k.axpy, y=y, x=x, a=0.25 * s)\n"
                "print(repr(float(pk.parallel_reduce(64, k.total, x=y, flip=False))), "
                "pk.parallel_reduce(64, k.count_big, x=y, limit=0))\n")
        outs = []
        for fc in ("1", "0"):
            env = dict(os.environ, PKC_FASTCALL=fc, PKC_FUSION="0", OMP_NUM_THREADS="1",
                       PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"))
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               env=env, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            outs.append(r.stdout.strip())
        self.assertEqual(outs[0], outs[1])


if __name__ == "__main__":
    unittest.main()
