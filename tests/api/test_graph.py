"""pk.Graph (issue 25 item 3, CPU side): on the host backends a replayed
step runs as plain calls and gives bitwise the numbers of the same steps
called by hand (a residual reduced into a View on the device included); the
rules that a captured CUDA graph needs are checked on every backend: a
step that fences, reduces to the host, touches a View on the host or
launches differently from step 1 raises, naming the call. libpkcrt's graph
functions report a missing CUDA driver instead of failing."""
import ctypes
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import pykokkos as pk  # noqa: E402
import kern_graph as K  # noqa: E402
import test_mpi  # noqa: E402  (ranks_ok: a program on n ranks)


class Replay(unittest.TestCase):
    def test_replay_equals_plain_steps_bitwise(self):
        a = K.make(30, 20)
        for _ in range(7):
            K.step(*a)
        b = K.make(30, 20)
        g = pk.Graph(K.step, *b)
        from pykokkos._loader import RUNTIME
        cuda = RUNTIME.backend() == "cuda"   # scripts/gpu/graphs_cuda.sh runs it there
        self.assertEqual(g.mode, "cuda-graph" if cuda else "plain")
        g.replay(3)
        g.replay(0)
        g.replay(4)
        self.assertEqual(g.steps, 7)
        self.assertEqual(int(b[3][0]), 7)              # the counter ran once per step
        self.assertTrue(np.array_equal(np.array(a[0]), np.array(b[0])))
        self.assertEqual(float(a[2][0]), float(b[2][0]))  # residual, bitwise
        self.assertGreater(float(b[2][0]), 0.0)
        # and the numbers are Jacobi's: numpy's 7 steps
        ref = np.array(K.make(30, 20)[0])
        for _ in range(7):
            ref[1:-1, 1:-1] = 0.25 * (ref[:-2, 1:-1] + ref[2:, 1:-1] + ref[1:-1, :-2] + ref[1:-1, 2:])
        self.assertTrue(np.array_equal(np.array(b[0]), ref))

    def test_negative_count(self):
        with self.assertRaisesRegex(ValueError, "k must be >= 0"):
            pk.Graph(K.step, *K.make(4, 4)).replay(-1)

    def test_step_must_be_callable(self):
        with self.assertRaisesRegex(TypeError, "step must be callable"):
            pk.Graph(3)


class Rules(unittest.TestCase):
    def assert_refused(self, step, *pattern):
        g = pk.Graph(step)
        with self.assertRaises(RuntimeError) as cm:
            g.replay(2)
        msg = str(cm.exception)
        for p in pattern:
            self.assertIn(p, msg)
        # nothing stays in the step's mode afterwards
        pk.fence()
        v = pk.View([2], pk.double)
        v[0] = 1.0
        self.assertEqual(float(v[0]), 1.0)
        return msg

    def setUp(self):
        self.u, self.unew, self.res, self.count = K.make(6, 5)

    def test_fence(self):
        def step():
            K.step(self.u, self.unew, self.res, self.count)
            pk.fence()
        self.assert_refused(step, "pk.Graph: pk.fence() inside a graph step", "replay()")

    def test_parallel_reduce(self):
        def step():
            pk.parallel_reduce(self.u.shape[0], K.total, x=self.u)
        msg = self.assert_refused(step, "pk.parallel_reduce(kernel 'total')",
                                  "its result comes back to the host")
        self.assertIn("reduce into a View", msg)

    def test_host_read(self):
        def step():
            K.step(self.u, self.unew, self.res, self.count)
            if self.res[0] < 0:
                pass
        self.assert_refused(step, "View[...] (reading a View on the host)")

    def test_host_copy(self):
        def step():
            np.array(self.u)
        self.assert_refused(step, "numpy.array(View)")

    def test_deep_copy(self):
        def step():
            pk.deep_copy(self.unew, self.u)
        self.assert_refused(step, "pk.deep_copy")

    def test_launches_that_change_between_steps(self):
        t = [1.0]

        def step():
            t[0] *= 0.5
            K.scale_all(self.u, t[0])
        self.assert_refused(step, "step 2 made launch 1 of the step with other kernels or "
                                  "arguments than in step 1", "belong in Views")

    def test_launch_count_that_changes(self):
        calls = [0]

        def step():
            calls[0] += 1
            for _ in range(calls[0]):
                K.scale_all(self.u, 1.0)
        self.assert_refused(step, "step 2 made 2 launches where step 1 made 1")

    def test_numpy_argument(self):
        a = np.ones((8, 7))

        def step():
            pk.parallel_for(pk.MDRangePolicy([1, 1], [7, 6]), K.scale, u=a, a=2.0)
        self.assert_refused(step, "a numpy array passed to a kernel", "pass a pk.View")

    def test_same_launch_made_anew_each_step_is_the_same(self):
        # policies and numpy scalars built anew in every step are compared
        # by value, not by identity
        alive = []   # every step's scalar kept: their identities differ

        def step():
            alive.append(np.float32(0.5))
            K.scale_all(self.u, alive[-1])
        g = pk.Graph(step)
        g.replay(3)
        self.assertEqual(g.steps, 3)

    def test_policy_made_once_outside_the_step(self):
        # as applications write it: the policy built once, reused by every
        # step (its C struct, made at the first launch, is not what it is)
        p = pk.MDRangePolicy([1, 1], [7, 6])
        want = np.asarray(self.u).copy()
        want[1:7, 1:6] *= 2.0 ** 5
        g = pk.Graph(lambda: pk.parallel_for(p, K.scale, u=self.u, a=2.0), steps_per_graph=2)
        g.replay(5)
        self.assertEqual(g.steps, 5)
        np.testing.assert_array_equal(np.asarray(self.u), want)

    def test_nested_replay(self):
        inner = pk.Graph(K.step, self.u, self.unew, self.res, self.count)
        self.assert_refused(lambda: inner.replay(1), "replay() inside a graph step")


@unittest.skipIf(shutil.which("mpirun") is None, "mpirun not installed")
class Ranks(unittest.TestCase):
    """A step with Halo.exchange() (tests/api/mpi_graph_prog.py) on 1 and 2
    ranks; a 3-D one cut along its last dimension, four steps per graph
    (tests/api/mpi_graph_send_prog.py: fused sends on GPUs, plain calls
    here), on 1 and 2 ranks."""

    def run_ranks(self, n, prog="mpi_graph_prog.py"):
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"),
                   OMP_NUM_THREADS="1")
        env["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + env.get("PATH", "")
        test_mpi.ranks_ok(self, os.path.join(HERE, prog), n, env)

    def test_one_rank(self):
        self.run_ranks(1)

    def test_two_ranks(self):
        self.run_ranks(2)

    def test_3d_slabs_one_rank(self):
        self.run_ranks(1, "mpi_graph_send_prog.py")

    def test_3d_slabs_two_ranks(self):
        self.run_ranks(2, "mpi_graph_send_prog.py")


class NPBench(unittest.TestCase):
    """bench/graphs/ (issue 25 item 4) at their # test-args sizes: replay
    gives bitwise the plain steps' numbers and numpy's."""

    def test_programs(self):
        import re
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"))
        env["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + env.get("PATH", "")
        for name in ("jacobi_1d", "jacobi_2d", "heat_3d", "fdtd_2d", "adi"):
            path = os.path.join(ROOT, "bench", "graphs", name + ".py")
            with open(path) as f:
                sizes = re.search(r"^# test-args: (.*)$", f.read(), re.M).group(1).split()
            r = subprocess.run([sys.executable, path] + sizes, capture_output=True, text=True,
                               env=env, timeout=600)
            out = r.stdout + r.stderr
            self.assertEqual(r.returncode, 0, out)
            self.assertIn(f"{name}: verification PASSED", out)
            self.assertIn("graph == plain bitwise: yes, numpy: yes", out)


class RuntimeLibrary(unittest.TestCase):
    """libpkcrt's CUDA graph functions without a CUDA driver (this machine)."""

    def setUp(self):
        from pykokkos._loader import RUNTIME
        from pykokkos._graph import _bind
        self.lib = _bind(RUNTIME.runtime_lib())
        self.err = ctypes.create_string_buffer(256)
        try:
            ctypes.CDLL("libcuda.so.1")
            self.skipTest("a CUDA driver is installed here")
        except OSError:
            pass

    def test_reports_no_driver(self):
        self.assertEqual(self.lib.pkr_graph_available(self.err, 256), 0)
        self.assertIn("no CUDA driver (libcuda.so.1", self.err.value.decode())
        self.assertEqual(self.lib.pkr_graph_begin(self.err, 256), -1)
        self.assertIn("no CUDA driver", self.err.value.decode())
        self.assertIsNone(self.lib.pkr_graph_end(self.err, 256))
        self.assertEqual(self.lib.pkr_graph_launch(None, 1, self.err, 256), -1)
        self.assertIn("no graph", self.err.value.decode())
        self.assertEqual(self.lib.pkr_graph_nodes(None), 0)
        self.lib.pkr_graph_destroy(None)


if __name__ == "__main__":
    unittest.main()
