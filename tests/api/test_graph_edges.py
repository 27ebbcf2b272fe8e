"""pk.Graph's edges (issue 25): a launch of a step waits only for the
earlier launches and halo exchanges whose reads and writes overlap its own
(pkc's footprint of each kernel and the launch bounds), so that a captured
CUDA graph runs the others as parallel branches. Checked here from the
plan the host backends make from the second step, the same way a CUDA
capture does (scripts/gpu/graphs_cuda.sh runs these tests on CUDA), with
the numbers of the steps against numpy."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import pykokkos as pk  # noqa: E402
import kern_graph as K  # noqa: E402
import kern_graph_edges as E  # noqa: E402


class Edges(unittest.TestCase):
    def test_parts_of_views(self):
        x, y, z = (pk.View([20], pk.double) for _ in range(3))
        g = pk.Graph(E.parts, x, y, z)
        self.assertIsNone(g.edges())
        g.replay(2)     # made by the second step (the first placed the Views)
        self.assertEqual(g.edges(), [
            ("fill", []),        # x[0..9]
            ("fill", []),        # x[10..19]: other elements of x
            ("fill", []),        # y: another View
            ("shift", [0, 2]),   # reads x[1..9], writes y[0..8]; not x[10..19]
            ("team_fill", [1, 3]),   # a TeamPolicy: after everything (0, 2 through 3)
            ("fill", [4]),       # and everything after it
            ("copy", [5]),       # reads y: after its last writer
        ])
        a, b = E.numbers()
        self.assertTrue(np.array_equal(np.array(x), a))
        self.assertTrue(np.array_equal(np.array(y), b))
        self.assertTrue(np.array_equal(np.array(z), b))

    def test_workunit_typed_per_call(self):
        x = pk.View([20], pk.double)
        x[:] = 1.0
        g = pk.Graph(E.halves, x)
        g.replay(3)
        self.assertEqual(g.edges(), [("scale", []), ("scale", [])])
        self.assertEqual(list(np.array(x)), [8.0] * 10 + [27.0] * 10)

    def test_jacobi_step_is_a_chain(self):
        g = pk.Graph(K.step, *K.make(12, 9))
        g.replay(2)
        self.assertEqual(g.edges(), [("jacobi", []), ("residual", [0]), ("copy_back", [1])])

    def test_overlapped_exchange_and_rim(self):
        """start(), the inner cells, finish(), the four rim strips, residual,
        copy back, on one rank: the inner cells and the rim strips are
        branches, finish waits for start only."""
        from mpi4py import MPI
        from pykokkos.mpi import Halo
        cart = MPI.COMM_WORLD.Create_cart([1, 1], periods=[False, False])
        u, unew, res, count = K.make(12, 9)
        ref = np.array(u)
        g = pk.Graph(K.step_overlap, u, unew, res, count, Halo(cart, u, width=1))
        g.replay(3)
        labels = [e[0] for e in g.edges()]
        self.assertEqual(labels, ["Halo.start", "jacobi", "Halo.finish"] + ["jacobi"] * 4
                         + ["residual", "copy_back"])
        w = [e[1] for e in g.edges()]
        self.assertEqual(w[:7], [[], [], [0], [], [], [], []])
        self.assertEqual(w[7], [1, 3, 4, 5, 6])      # the writers of unew
        self.assertEqual(w[8], [7])     # start reads no face (no neighbour); others through 7
        # urgent: start and finish; with no neighbour no rim strip waits for
        # finish, and the inner cells never do
        self.assertEqual(g.urgent(), [0, 2])
        # the first kernel beside the start (launched after its blocks began
        # with PKC_GRAPH_LAUNCH_ORDER=1)
        self.assertEqual(g.after_start(), [(1, [0])])
        for _ in range(3):
            ref[1:-1, 1:-1] = 0.25 * (ref[:-2, 1:-1] + ref[2:, 1:-1] + ref[1:-1, :-2]
                                      + ref[1:-1, 2:])
        self.assertTrue(np.array_equal(np.array(u), ref))

    def test_steps_per_graph_overlap_across_steps(self):
        """Two steps planned as one graph (steps_per_graph=2), one rank
        periodic (its own neighbour: start reads the four faces, finish
        writes the four ghost strips), the copy back split as the scaling
        bench splits it: the second step's start waits for the copies of
        the planes it sends, not for the deep copy, which runs beside it;
        the second step's inner update waits for every copy; urgency comes
        from a step's own halo only. Five steps against numpy."""
        from mpi4py import MPI
        from pykokkos.mpi import Halo
        cart = MPI.COMM_WORLD.Create_cart([1, 1], periods=[True, True])
        u, unew, _, _ = K.make(12, 9)
        ref = np.array(u)
        g = pk.Graph(K.step_overlap_split, u, unew, Halo(cart, u, width=1), steps_per_graph=2)
        g.replay(5)      # step 1 plain, steps 2-3 and 4-5 planned two at a time
        labels = [e[0] for e in g.edges()]
        one = ["Halo.start", "jacobi", "Halo.finish"] + ["jacobi"] * 4 + ["copy_back"] * 5
        self.assertEqual(labels, one + one)
        w = [e[1] for e in g.edges()]
        self.assertEqual(w[7], [1])                  # the deep copy: after the inner cells
        self.assertEqual(w[12], [8, 9, 10, 11])      # step 2's start: the planes it sends
        self.assertEqual(w[13], [7, 8, 9, 10, 11])   # step 2's inner cells: every copy
        self.assertEqual(w[14], [12])
        urgent = g.urgent()
        self.assertEqual([k for k in urgent if k < 12], [0, 2, 3, 4, 5, 6, 8, 9, 10, 11])
        self.assertEqual([k - 12 for k in urgent if k >= 12],
                         [k for k in urgent if k < 12])
        # each step's inner cells after its own start's blocks began
        self.assertEqual(g.after_start(), [(1, [0]), (13, [12])])
        for _ in range(5):
            ref[0, :], ref[-1, :] = ref[-2, :], ref[1, :]      # periodic ghosts
            ref[:, 0], ref[:, -1] = ref[:, -2], ref[:, 1]
            ref[1:-1, 1:-1] = 0.25 * (ref[:-2, 1:-1] + ref[2:, 1:-1] + ref[1:-1, :-2]
                                      + ref[1:-1, 2:])
        self.assertTrue(np.array_equal(np.array(u)[1:-1, 1:-1], ref[1:-1, 1:-1]))

    def test_steps_per_graph_refused(self):
        for bad in (0, -1, 2.0, True, "2"):
            with self.assertRaisesRegex(pk.PkcArgumentError, "steps_per_graph must be an int"):
                pk.Graph(K.step, *K.make(4, 4), steps_per_graph=bad)

    def test_turned_off(self):
        os.environ["PKC_GRAPH_BRANCHES"] = "0"
        try:
            g = pk.Graph(K.step, *K.make(6, 6))
            g.replay(2)
            self.assertIsNone(g.edges())
        finally:
            del os.environ["PKC_GRAPH_BRANCHES"]


if __name__ == "__main__":
    unittest.main()
