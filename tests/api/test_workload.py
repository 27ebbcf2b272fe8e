"""PyKokkos host API, item 3: pk.execute(space, workload) runs @pk.main
(compiled by pkc) and then the workload's @pk.callback methods, which see
the members main wrote; checked against numpy."""
import contextlib
import io
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
sys.path.insert(0, HERE)
import pykokkos as pk  # noqa: E402
import kern_api as K  # noqa: E402


def run_captured(f, *args):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        f(*args)
    return [l for l in buf.getvalue().splitlines() if l.strip()]


class Callbacks(unittest.TestCase):
    def test_execute_runs_callbacks_after_main(self):
        x = np.linspace(-2.0, 3.0, 41)
        w = K.Stats(pk.array(x))
        lines = run_captured(pk.execute, pk.ExecutionSpace.Default, w)
        total, sumsq = float(x.sum()), float((x * x).sum())
        self.assertEqual(len(lines), 2, lines)
        self.assertEqual(lines[0], f"total {w.total!r}")
        self.assertAlmostEqual(w.total, total, places=12)
        self.assertAlmostEqual(w.sumsq, sumsq, places=11)
        self.assertEqual(lines[1], f"sumsq {w.sumsq!r} sq[-1] {float(x[-1] ** 2)!r}")
        np.testing.assert_allclose(np.asarray(w.sq), x * x)

    def test_each_execute_runs_them_once(self):
        w = K.Stats(pk.ones(5))
        self.assertEqual(len(run_captured(pk.execute, pk.OpenMP, w)), 2)
        self.assertEqual(len(run_captured(pk.execute, pk.ExecutionSpaceInstance(), w)), 2)

    def test_calling_main_runs_no_callbacks(self):
        w = K.Stats(pk.arange(4.0))
        self.assertEqual(run_captured(w.run), [])
        self.assertEqual(w.total, 6.0)

    def test_callback_order_and_inheritance(self):
        calls = []

        class Sub(K.Stats):
            @pk.callback
            def report_total(self):           # overrides: runs in the base's slot
                calls.append(("total", self.total))

            @pk.callback
            def extra(self):
                calls.append(("extra", self.sumsq))

        w = K.Stats(pk.array(np.array([1.0, 2.0])))
        lines = run_captured(pk.execute, pk.Default, w)
        self.assertEqual(lines, ["total 3.0", "sumsq 5.0 sq[-1] 4.0"])
        from pykokkos import _workload
        self.assertEqual(_workload._callbacks(Sub),
                         ("report_total", "report_sumsq", "extra"))

    def test_callback_errors_propagate(self):
        w = K.Stats(pk.ones(2))

        def boom():
            raise ValueError("from the callback")
        w.report_sumsq = boom                  # instance attribute wins, as in Python
        with self.assertRaisesRegex(ValueError, "from the callback"):
            run_captured(pk.execute, pk.Default, w)


if __name__ == "__main__":
    unittest.main()
