#!/usr/bin/env python3
"""Where an overlapped 128^3 Jacobi step loses time, on one GPU (issue 25):
the kernels one slab rank of bench/mpi/jacobi_scaling.py launches per
step, replayed from pk.Graph, with and without the pieces an overlapped
rank adds, against the plain step in the same run.

Shapes (each the step of one rank, N^3 interior cells, default tiles):
  plain      update, copy (what one GPU runs; the baseline)
  split      update, then the copy as jacobi_scaling's copy_back(cut): the
             deep cells, then two planes per side (the graph joins three
             copies before the next update)
  shape      the overlapped rank's kernels without an exchange: inner
             update, the two rim planes, copy_back(cut)
  self       the overlapped step with the exchange, the rank its own
             neighbour along the slab dimension (periodic)
  self-off   the same without overlap (exchange, update, copy)
  shape1, self1  shape and self with the copy in one launch
             (jacobi_scaling.py --copy one)
Each shape is also captured in stream order (chain: PKC_GRAPH_BRANCHES=0),
and the shapes with an exchange with the launch-order edge that lets the
exchange's blocks start before the update beside it (order:
PKC_GRAPH_LAUNCH_ORDER=1) and without gated launches (nogate:
PKC_GRAPH_GATE=0; self-off's update is gated on its exchange otherwise).
Per shape: the median time per step over blocks of replays, and its ratio
to plain. --timeline SHAPE[:VARIANT],...: each named shape's kernels of two steps
(torch.profiler / CUPTI), durations and gaps.

    python3 bench/mpi/step_shapes.py [--n 128] [--steps-per-graph 8]
        [--blocks 9] [--iters 64] [--transport nvshmem] [--timeline shape,self]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class NoHalo:
    """A halo whose exchange does nothing: the kernels of an overlapped
    step without the communication (nbr as the real halo's)."""

    def __init__(self, nbr):
        self.nbr = nbr

    def start(self):
        pass

    def finish(self):
        pass

    def exchange(self):
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=128)
    ap.add_argument("--steps-per-graph", type=int, default=8)
    ap.add_argument("--blocks", type=int, default=9)
    ap.add_argument("--iters", type=int, default=64)
    ap.add_argument("--transport", default="nvshmem")
    ap.add_argument("--shapes", default="plain,split,shape,shape1,self,self1,self-off")
    ap.add_argument("--timeline", default="")
    a = ap.parse_args()
    from mpi4py import MPI
    import numpy as np
    import pykokkos as pk
    from pykokkos.mpi import Halo
    import jacobi_scaling as js
    js.MPI, js.Halo = MPI, Halo

    comm = MPI.COMM_SELF
    n = [a.n] * 3
    slab = 0 if pk.is_host_execution_space(pk.get_default_space()) else 2   # js.decomposition
    periods = [False] * 3
    periods[slab] = True
    flat = js.Grid(comm.Create_cart([1, 1, 1], periods=[False] * 3), n, a.transport)
    ring = js.Grid(comm.Create_cart([1, 1, 1], periods=periods), n, a.transport)
    bare = js.Grid(comm.Create_cart([1, 1, 1], periods=periods), n, a.transport)
    bare.halo = NoHalo(ring.halo.nbr)
    ring1 = js.Grid(comm.Create_cart([1, 1, 1], periods=periods), n, a.transport)
    bare1 = js.Grid(comm.Create_cart([1, 1, 1], periods=periods), n, a.transport)
    bare1.halo = NoHalo(ring.halo.nbr)
    ring1.split_copy = bare1.split_copy = False   # the copy in one launch

    def split_step(g):
        g.update([1] * 3, [x + 1 for x in g.m])
        g.copy_back([slab])

    runs = {
        "shape1": (lambda: bare1.step(True), bare1),
        "self1": (lambda: ring1.step(True), ring1),
        "plain": (lambda: flat.step(True), flat),
        "split": (lambda: split_step(flat), flat),
        "shape": (lambda: bare.step(True), bare),
        "self": (lambda: ring.step(True), ring),
        "self-off": (lambda: ring.step(False), ring),
    }
    U = a.steps_per_graph

    def timed(gr, g):
        gr.replay(4 * U)
        pk.fence()
        times = []
        for _ in range(a.blocks):
            t0 = time.perf_counter()
            gr.replay(a.iters)
            pk.fence()
            times.append((time.perf_counter() - t0) / a.iters)
        return statistics.median(times)

    def graph(fn, variant):
        """fn's steps captured by pk.Graph: as users get them (graph), in
        stream order (chain: PKC_GRAPH_BRANCHES=0), with launch-order edges
        from the exchange (order: PKC_GRAPH_LAUNCH_ORDER=1) or without gated
        launches (nogate: PKC_GRAPH_GATE=0); captured here (one plain step,
        then the capture: the settings are read then)."""
        env = {"chain": ("PKC_GRAPH_BRANCHES", "0"),
               "order": ("PKC_GRAPH_LAUNCH_ORDER", "1"),
               "nogate": ("PKC_GRAPH_GATE", "0")}.get(variant)
        was = os.environ.get(env[0]) if env else None
        if env:
            os.environ[env[0]] = env[1]
        try:
            gr = pk.Graph(fn, steps_per_graph=U)
            gr.replay(1 + U)
            return gr
        finally:
            if env:
                os.environ.pop(env[0], None)
                if was is not None:
                    os.environ[env[0]] = was

    def reset(g):
        start = g.start_state(js.field(g.axes()) * (1.0 / 61.0))
        g.u[...] = start
        g.unew[...] = start

    def verify(fn, g, variant):
        """Cells in which 2U + 2 replayed steps differ from as many plain
        steps from the same state (on CUDA a captured Halo.start takes
        another path than a plain one: the exchange kernel or the copy
        engines against the separate kernels)."""
        reset(g)
        for _ in range(2 * U + 2):
            fn()
        want = np.array(g.u)
        reset(g)
        gr = graph(fn, variant)           # a plain step, one graph of U
        gr.replay(U + 1)                  # another, and one step of the one-step graph
        return int((np.array(g.u) != want).sum())

    for g in (flat, ring, bare, ring1, bare1):
        reset(g)
    base = None
    print(f"# one GPU, {a.n}^3, {U} steps per graph, {a.blocks} blocks of {a.iters} steps, "
          f"transport {a.transport}, slab dimension {slab}", flush=True)
    graphs = {}
    for name in a.shapes.split(","):
        fn, g = runs[name]
        for variant in ("graph", "chain", "order", "nogate"):
            if variant in ("order", "nogate") and not name.startswith("self"):
                continue   # no halo: no launch-order edge to add, no gate
            gr = graph(fn, variant)
            t = timed(gr, g)
            if name == "plain" and variant == "graph":
                base = t
            graphs[(name, variant)] = gr
            ratio = f"{base / t:6.3f}" if base else "   -  "
            print(f"{name:9s} {variant:8s} {t * 1e6:8.2f} us/step  plain/this {ratio}  "
                  f"nodes {gr.nodes}  mode {gr.mode}", flush=True)
            if variant in ("graph", "nogate"):
                bad = verify(fn, g, variant)
                print(f"    replay {'bitwise equal to plain steps' if not bad else f'DIFFERS in {bad} cells'}",
                      flush=True)
                print("    edges: " + "; ".join(f"{i}:{lab}<-{w}" for i, (lab, w) in
                                              enumerate((gr.edges() or [])[:12]))
                      + f"; launched after a start's blocks began: {(gr.after_start() or [])[:2]}"
                      + f"; gated: {(gr.gated() or [])[:2]}", flush=True)
    for name in [x for x in a.timeline.split(",") if x]:
        import graph_timeline as gt
        from torch.profiler import ProfilerActivity, profile
        shape, _, variant = name.partition(":")   # e.g. self-off:free
        gr = graphs[(shape, variant or "graph")]
        gr.replay(4 * U)
        pk.fence()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            gr.replay(4 * U)
            pk.fence()
        path = f"/tmp/step_shapes_{name}.json"
        prof.export_chrome_trace(path)
        ks = gt.kernels(path)
        print(f"## timeline {name}")
        print("\n".join(gt.summary(0, ks, 4 * U)))
        per = len(ks) // (4 * U)
        mid = 2 * U * per
        prev_end = None
        print("  critical gaps (start - latest end before it, us):")
        latest = 0.0
        for s, d, st, nm in ks[mid:mid + 2 * per]:
            if prev_end is not None:
                print(f"    {nm:28s} start {s - ks[mid][0]:8.2f} gap {s - latest:6.2f}")
            latest = max(latest, s + d)
            prev_end = s + d
    return 0


if __name__ == "__main__":
    sys.exit(main())
