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

    def test_exchange_orders_by_faces(self):
        """Halo.exchange() reads the faces it sends and writes the ghosts:
        one rank periodic along dimension 0, the step exchange, update,
        residual, copy back. The update waits for the exchange (it reads
        ghosts), the copy for the residual (which read unew) and so for the
        exchange, whose faces it writes; on the host no launch is gated.
        Three steps against numpy."""
        from mpi4py import MPI
        from pykokkos.mpi import Halo
        cart = MPI.COMM_WORLD.Create_cart([1, 1], periods=[True, False])
        u, unew, res, count = K.make(12, 9)
        ref = np.array(u)
        g = pk.Graph(K.step, u, unew, res, count, Halo(cart, u, width=1))
        g.replay(3)
        self.assertEqual(g.edges(), [("Halo.exchange", []), ("jacobi", [0]), ("residual", [1]),
                                     ("copy_back", [2])])
        self.assertEqual(g.gated(), [])
        for _ in range(3):
            ref[0, :], ref[-1, :] = ref[-2, :], ref[1, :]
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


class Gates(unittest.TestCase):
    """The planner's gated launches (pykokkos/_graph_branches.py), which only
    a CUDA capture of NVSHMEM exchanges sets up: checked here on the plan
    itself, for a rank's slab of shape (6, 6, 10) cut along dimension 2
    (ghost planes k = 0 and 9) and a 7-point update of the owned cells."""

    SHAPE = (6, 6, 10)

    def key(self, name):
        at = {"u": 0, "unew": 4096}[name]
        return ("mem", at, at, at + 8 * 360, self.SHAPE, (480, 80, 8))

    def exchange(self, plan, counted=(0x1000, 1)):
        """Enters Halo.exchange: reads the owned faces k = 1, 8 and writes
        the ghost planes k = 0, 9 (whole faces)."""
        u = self.key("u")
        face = lambda k: [(0, 5), (0, 5), (k, k)]
        acc = [(("res", "halo"), None, True), (u, face(1), False), (u, face(8), False),
               (u, face(0), True), (u, face(9), True)]
        plan.enter("Halo.exchange", acc, lambda: counted)
        plan.exit()

    def launch(self, plan, label, reads, writes, lo=(1, 1, 1), hi=(5, 5, 9), offsets=1):
        from pykokkos._graph_branches import GateRequest
        dims = [[d, -offsets, offsets] for d in range(3)]
        own = [[d, 0, 0] for d in range(3)]
        box = lambda off: [(a - off, b - 1 + off) for a, b in zip(lo, hi)]
        acc = [(self.key(v), box(offsets), False) for v in reads]
        acc += [(self.key(v), box(0), True) for v in writes]
        req = GateRequest({self.key(v): dims for v in reads} | {self.key(v): own for v in writes},
                          list(lo), list(hi))
        waits = plan.enter(label, acc, req)
        plan.exit()
        return waits

    def plan(self, gating=True):
        from pykokkos._graph_branches import Planner
        return Planner(gating=gating)

    def test_update_gated_on_ghost_planes(self):
        p = self.plan()
        self.exchange(p)
        self.assertEqual(self.launch(p, "update", ["u"], ["unew"]), [])
        # planes k = 1 and 8 read the ghosts; the other 6 of 8 planes do not
        self.assertEqual(p.gates, {1: (0, [1, 1, 2], [5, 5, 8])})
        self.assertFalse(p.urgent[1])
        # the copy writes the faces the exchange reads: it waits for both
        self.assertEqual(self.launch(p, "copy", ["unew"], ["u"], offsets=0), [0, 1])

    def test_not_gated(self):
        cases = {
            "gating off": (False, dict(reads=["u"], writes=["unew"])),
            "writes the View the exchange reads": (True, dict(reads=["u"], writes=["u"])),
            "most points would wait": (True, dict(reads=["u"], writes=["unew"], lo=(1, 1, 1),
                                                  hi=(5, 5, 2))),
        }
        for why, (gating, kw) in cases.items():
            with self.subTest(why):
                p = self.plan(gating)
                self.exchange(p)
                self.assertEqual(self.launch(p, "update", **kw), [0])
                self.assertEqual(p.gates, {})
                self.assertTrue(p.urgent[1])
        with self.subTest("the exchange counts nothing (not NVSHMEM's fused kernel)"):
            p = self.plan()
            self.exchange(p, counted=None)
            self.assertEqual(self.launch(p, "update", ["u"], ["unew"]), [0])
            self.assertEqual(p.gates, {})

    def test_ungated_waits(self):
        """Where the driver cannot add the launch-order edge the launch waits
        for the exchange after all, and what follows sees that."""
        p = self.plan()
        self.exchange(p)
        self.launch(p, "update", ["u"], ["unew"])
        self.assertEqual(p.ungate(1), 0)
        self.assertEqual(p.waits[1], [0])
        self.assertEqual(p.gates, {})
        self.assertEqual(self.launch(p, "copy", ["unew"], ["u"], offsets=0), [1])

    def test_gate_bounds(self):
        from pykokkos._graph_branches import GateRequest, gate_bounds
        u = self.key("u")
        req = GateRequest({u: [[0, -2, 2], [1, 0, 0], [2, -1, 0]]}, [2, 0, 1], [4, 6, 9])
        # a width-2 stencil along dimension 0 against two ghost layers there,
        # and a one-sided one along dimension 2 against the low plane
        pairs = [(u, [(0, 1), (0, 5), (0, 9)]), (u, [(4, 5), (0, 5), (0, 9)]),
                 (u, [(0, 5), (0, 5), (0, 0)])]
        self.assertEqual(gate_bounds(req, pairs), None)   # dimension 0: every point waits
        req = GateRequest({u: [[0, -2, 2], [1, 0, 0], [2, -1, 0]]}, [2, 0, 1], [40, 6, 9])
        self.assertEqual(gate_bounds(req, [(u, [(0, 1), (0, 5), (0, 9)]),
                                           (u, [(0, 5), (0, 5), (0, 0)])]),
                         ([4, 0, 2], [40, 6, 9]))
        # a View dimension no work index walks: any point may read the ghost
        req = GateRequest({u: [None, [1, 0, 0], [2, 0, 0]]}, [0, 0, 0], [6, 6, 10])
        self.assertIsNone(gate_bounds(req, [(u, [(0, 0), (0, 5), (0, 9)])]))


class SendOnly(unittest.TestCase):
    """The planner's send-only exchanges (pykokkos/_graph_branches.py), which
    only a CUDA capture of NVSHMEM's direct exchange sets up: checked on the
    plan of captured steps of exchange(), update, copy back for the slab of
    Gates (shape (6, 6, 10), cut along dimension 2, ghosts k = 0 and 9)."""

    class Source:
        """What mpi.Halo's exchange() tells the planner (mpi._ExchangeSource)."""

        def __init__(self, halo, cut=2):
            self.halo, self.d, self.sends = halo, cut, 0

        def __call__(self):
            return (0x1000, 1)

        def cut(self):
            return self.d

        def send_only(self, n):
            self.sends = n

    key = Gates.key
    SHAPE = Gates.SHAPE
    launch = Gates.launch

    def exchange(self, plan, cut=2):
        u = self.key("u")
        face = lambda k: [(0, 5), (0, 5), (k, k)]
        acc = [(("res", "halo"), None, True), (u, face(1), False), (u, face(8), False),
               (u, face(0), True), (u, face(9), True)]
        src = self.Source("halo", cut)
        plan.enter("Halo.exchange", acc, src)
        plan.exit()
        return src

    def steps(self, n=3, after=None, gating=True, fusing=True, cut=2):
        """A plan of n steps of exchange, update, copy (and after(plan)):
        (plan, the exchanges' sources)."""
        from pykokkos._graph_branches import Planner
        p = Planner(gating=gating)
        p.fusing = fusing and gating
        sources = []
        for s in range(n):
            if s:
                p.next_step()
            sources.append(self.exchange(p, cut))
            self.launch(p, "update", ["u"], ["unew"])
            self.launch(p, "copy", ["unew"], ["u"], offsets=0)
            if after:
                after(p)
        return p, sources

    def test_later_exchanges_only_send(self):
        p, src = self.steps(3)
        # the first exchange stays whole; the next two only send (the first
        # and second such exchange of the capture), and the updates are
        # gated on them all the same
        self.assertEqual(p.send_only, [3, 6])
        self.assertEqual([s.sends for s in src], [0, 1, 2])
        self.assertEqual(sorted(p.gates), [1, 4, 7])
        # a send-only exchange still waits for the copy whose faces it sends
        # and for the update that read the ghosts it overwrites
        self.assertEqual(p.waits[3], [2])

    def test_whole_exchanges(self):
        ungated_reader = lambda p: self.launch(p, "residual", ["u"], ["unew"], offsets=1,
                                               lo=(1, 1, 1), hi=(5, 5, 2))
        cases = {
            "gating off": dict(gating=False),
            "PKC_GRAPH_SEND=0": dict(fusing=False),
            "no single cut (not NVSHMEM's direct exchange)": dict(cut=None),
            "a reader of the ghosts that is not gated": dict(after=ungated_reader),
        }
        for why, kw in cases.items():
            with self.subTest(why):
                p, src = self.steps(3, **kw)
                self.assertEqual(p.send_only, [])
                self.assertEqual([s.sends for s in src], [0, 0, 0])
        with self.subTest("a reader of owned cells only keeps them send-only"):
            owned = lambda p: self.launch(p, "norm", ["u"], ["unew"], offsets=0)
            p, src = self.steps(3, after=owned)
            self.assertEqual(p.send_only, [4, 8])


if __name__ == "__main__":
    unittest.main()
