"""The shim's choice among fused kernels of host-code chains (pykokkos/_fusion.py):
on host backends a chain that runs once over fewer than HOST_MIN_POINTS points
runs unfused (PKC_FUSION=all fuses it anyway), larger ones run fused, and the
fused kernel's remembered arguments (bound Views, Views found apart) never
hide a change: new Views that overlap are refused, and results match numpy."""
import contextlib
import io
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
sys.path.insert(0, HERE)
os.environ["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + os.environ.get("PATH", "")
import pykokkos as pk  # noqa: E402
from kernel_program import ProgramCase  # noqa: E402
from pykokkos import _fusion  # noqa: E402

PROGRAM = '''import pykokkos as pk

@pk.workunit
def scale(i: int, y: pk.View1D[pk.double], a: float):
    y[i] = a * y[i]

@pk.workunit
def shift(i: int, y: pk.View1D[pk.double], x: pk.View1D[pk.double]):
    y[i] = y[i] + x[i]

@pk.workunit
def square(i: int, z: pk.View1D[pk.double], y: pk.View1D[pk.double]):
    z[i] = y[i] * y[i]

def step(n, x, y, z):
    pk.parallel_for(n, scale, y=y, a=0.5)
    pk.parallel_for(n, shift, y=y, x=x)
    pk.parallel_for(n, square, z=z, y=y)
'''


class FusionQueue(ProgramCase):
    PROGRAM = PROGRAM
    NAME = "fuseq"

    def run_step(self, mode, n, x=None, y=None, z=None):
        """Runs the chain with PKC_FUSION=mode; returns (x, y, z, the verbose log)."""
        x = x if x is not None else pk.View([n], pk.double)
        y = y if y is not None else pk.View([n], pk.double)
        z = z if z is not None else pk.View([n], pk.double)
        log = io.StringIO()
        saved = {k: os.environ.get(k) for k in ("PKC_FUSION", "PKC_FUSION_VERBOSE")}
        os.environ.update(PKC_FUSION=mode, PKC_FUSION_VERBOSE="1")
        try:
            with contextlib.redirect_stderr(log):
                self.k.step(n, x, y, z)
                pk.fence()
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        return x, y, z, log.getvalue()

    def expect(self, x, y0, y, z):
        want = 0.5 * y0 + np.asarray(x)
        np.testing.assert_array_equal(np.asarray(y), want)
        np.testing.assert_array_equal(np.asarray(z), want * want)

    def fresh(self, n):
        x, y = pk.View([n], pk.double), pk.View([n], pk.double)
        x[:] = np.arange(n, dtype=np.float64)
        y[:] = 1.0 + np.arange(n, dtype=np.float64) % 5
        return x, y, np.array(y)

    def test_small_chain_runs_unfused_on_host(self):
        n = 1000
        self.assertLess(n, _fusion.HOST_MIN_POINTS)
        x, y, y0 = self.fresh(n)
        x, y, z, log = self.run_step("1", n, x, y)
        self.expect(x, y0, y, z)
        self.assertNotIn("fused", log)

    def test_small_chain_fused_with_all(self):
        n = 1000
        x, y, y0 = self.fresh(n)
        x, y, z, log = self.run_step("all", n, x, y)
        self.expect(x, y0, y, z)
        self.assertIn("(scale+shift+square): fused", log)

    def test_large_chain_fused_and_rebound(self):
        n = _fusion.HOST_MIN_POINTS
        x, y, y0 = self.fresh(n)
        x, y, z, log = self.run_step("1", n, x, y)
        self.expect(x, y0, y, z)
        self.assertIn("(scale+shift+square): fused", log)
        # the same Views again, after host writes: the remembered binding sees them
        x[:] = 2.0
        y0 = np.array(y)
        x, y, z, log = self.run_step("1", n, x, y, z)
        self.expect(x, y0, y, z)
        self.assertIn("fused", log)
        # other Views, z the same memory as x: found overlapping, run unfused
        x2, y2, y0 = self.fresh(n)
        x2, y2, z2, log = self.run_step("1", n, x2, y2, x2)
        self.assertIn("not fused at run time: 'z' (written) and 'x' overlap", log)
        want_y = 0.5 * y0 + np.arange(n, dtype=np.float64)
        np.testing.assert_array_equal(np.asarray(y2), want_y)
        np.testing.assert_array_equal(np.asarray(x2), want_y * want_y)


if __name__ == "__main__":
    unittest.main()
