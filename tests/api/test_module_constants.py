"""A module-level constant that another module rebinds before the kernels
run (`kernels.SCALE = 2.0`, a driver configuring its kernel module): pkc
built the old value into the kernels, so the launch raises ValueError naming
the constant and both values instead of computing with the stale one
(hardening: no silent wrong numbers); after a kernel ran, rebinding it raises
at the assignment. Unchanged constants, and names the kernel module rebinds
itself through `global` (read at each call), run."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime-shim", "python"))
import numpy as np  # noqa: E402
import pykokkos as pk  # noqa: E402
import constants_kernels as kernels  # noqa: E402


class ModuleConstants(unittest.TestCase):
    def tearDown(self):
        kernels.__dict__.update(SCALE=1.0, GAIN=0.5, ROWS=3)   # past the guard

    def test_rebound_constant_refused_then_run_when_restored(self):
        a = pk.View([4], pk.double)
        kernels.GAIN = 2.0   # before any kernel reading GAIN ran
        with self.assertRaisesRegex(ValueError, r"gained: the module constant 'GAIN' is 2\.0 "
                                                r"now, but pkc built the kernel with 0\.5"):
            pk.parallel_for(4, kernels.gained, a=a)
        self.assertEqual(list(np.asarray(a)), [0.0] * 4)   # nothing ran
        kernels.GAIN = 0.5
        pk.parallel_for(4, kernels.gained, a=a)
        self.assertEqual(list(np.asarray(a)), [0.0, 0.5, 1.0, 1.5])

    def test_rebinding_after_the_first_launch_raises_at_the_assignment(self):
        a = pk.View([2], pk.double)
        pk.parallel_for(2, kernels.scaled, a=a)
        with self.assertRaisesRegex(ValueError, r"scaled: the module constant 'SCALE' is 3\.0 "
                                                r"now, but pkc built the kernel with 1\.0"):
            kernels.SCALE = 3.0
        self.assertEqual(kernels.SCALE, 1.0)
        kernels.SCALE = 1.0   # the built value: fine
        kernels.UNRELATED = 5   # other names: as Python does
        self.assertEqual(kernels.UNRELATED, 5)

    def test_global_rebound_in_its_module_is_read_at_each_call(self):
        a = pk.View([3], pk.double)
        kernels.configure(10.0)
        pk.parallel_for(3, kernels.scaled, a=a)
        self.assertEqual(list(np.asarray(a)), [10.0, 11.0, 12.0])
        kernels.configure(0.0)

    def test_workload_constant(self):
        m = np.arange(12.0).reshape(4, 3)
        kernels.ROWS = 4   # before the workload ran
        with self.assertRaisesRegex(ValueError, r"the module constant 'ROWS' is 4 now, but "
                                                r"pkc built the kernel with 3"):
            pk.execute(pk.ExecutionSpace.Default, kernels.RowSums(pk.array(m)))
        kernels.ROWS = 3
        w = kernels.RowSums(pk.array(m))
        pk.execute(pk.ExecutionSpace.Default, w)
        self.assertEqual(w.total, m[:3].sum())

if __name__ == "__main__":
    unittest.main()
