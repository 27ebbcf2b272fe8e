"""PyKokkos host API, item 4: pk.set_device_id / get_device_id (before and
after Kokkos starts, in fresh processes) and pk.ExecutionSpaceInstance
objects passed to policies, pk.fence and pk.execute (serialized on the
default instance); results checked against numpy."""
import os
import subprocess
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(HERE, "..", "..", "runtime-shim", "python")
sys.path.insert(0, SHIM)
sys.path.insert(0, HERE)
import pykokkos as pk  # noqa: E402
import kern_api as K  # noqa: E402


def run_py(code, env=None):
    e = dict(os.environ)
    e["PYTHONPATH"] = SHIM + os.pathsep + HERE
    e.pop("KOKKOS_DEVICE_ID", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], env=e, capture_output=True,
                          text=True, timeout=300)


class DeviceId(unittest.TestCase):
    def test_before_and_after_first_kernel(self):
        code = r"""
import os, numpy as np, pykokkos as pk, kern_api as K
assert pk.get_device_id() == 0
pk.set_device_id(0)
assert os.environ["KOKKOS_DEVICE_ID"] == "0" and pk.get_device_id() == 0
y = pk.zeros(4)
pk.parallel_for(4, K.axpy, y=y, x=pk.ones(4), a=3.0)
assert np.asarray(y).tolist() == [3.0] * 4
pk.set_device_id(0)            # the device in use: accepted
try:
    pk.set_device_id(1)
    print("no error")
except RuntimeError as e:
    print("ERR", e)
"""
        r = run_py(code)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("ERR pk.set_device_id(1): Kokkos is already running on device 0",
                      r.stdout)
        self.assertIn("use one process per device", r.stdout)

    def test_switch_before_start_and_errors(self):
        r = run_py("import os, pykokkos as pk; pk.set_device_id(1); pk.set_device_id(0); "
                   "pk.set_device_id(3); print(pk.get_device_id(), os.environ['KOKKOS_DEVICE_ID'])")
        self.assertEqual(r.stdout.split(), ["3", "3"], r.stderr)
        r = run_py("import pykokkos as pk; print(pk.get_device_id())",
                   {"KOKKOS_DEVICE_ID": "2"})
        self.assertEqual(r.stdout.strip(), "2", r.stderr)
        with self.assertRaisesRegex(ValueError, "must be >= 0"):
            pk.set_device_id(-1)
        with self.assertRaisesRegex(TypeError, "must be an int"):
            pk.set_device_id("0")
        with self.assertRaisesRegex(TypeError, "must be an int"):
            pk.set_device_id(True)


class Instances(unittest.TestCase):
    def test_policies_take_instances(self):
        inst = pk.ExecutionSpaceInstance(pk.ExecutionSpace.OpenMP)
        self.assertIs(inst.space, pk.OpenMP)
        self.assertTrue(pk.is_host_execution_space(inst))
        stream_inst = pk.ExecutionSpaceInstance(pk.Cuda, stream=object())
        self.assertFalse(pk.is_host_execution_space(stream_inst))
        n = 50
        x = pk.arange(n, dtype=pk.double)
        y = pk.zeros(n)
        for i in (inst, stream_inst):
            pk.parallel_for(pk.RangePolicy(i, 0, n), K.axpy, y=y, x=x, a=1.0)
        np.testing.assert_array_equal(np.asarray(y), 2.0 * np.arange(n))
        self.assertEqual(pk.parallel_reduce(pk.RangePolicy(inst, 0, n), K.total, x=x),
                         float(np.arange(n).sum()))
        A = pk.zeros([6, 7])
        K.run_md_fill(inst, A)
        want = 100.0 * np.arange(6)[:, None] + np.arange(7)[None, :]
        np.testing.assert_array_equal(np.asarray(A), want)
        r = pk.zeros(6)
        pk.parallel_for(pk.TeamPolicy(inst, 6, pk.AUTO), K.team_rows, A=A, r=r)
        np.testing.assert_array_equal(np.asarray(r), want.sum(1))
        pk.fence(inst)
        inst.fence()
        pk.fence()
        self.assertIn("ExecutionSpaceInstance", repr(stream_inst))
        with self.assertRaisesRegex(TypeError, "expected a pk.ExecutionSpace"):
            pk.ExecutionSpaceInstance(3)


if __name__ == "__main__":
    unittest.main()
