#!/usr/bin/env python3
"""The GPU timeline of a replayed Jacobi step (issue 25): where the time of
one 3-D step goes on each rank, kernel by kernel, from CUPTI through
torch.profiler (the GPU image has torch; pkc's kernels run in the same CUDA
context, so CUPTI records them, graph nodes included).

One rank per GPU, each with a 3-D block of N^3 interior cells
(bench/mpi/jacobi_scaling.py's Grid, step and Halo, default tiles); the step
(with or without overlap) is captured by pk.Graph and checked bitwise
against plain steps, replayed WARM times, then STEPS times under the
profiler. Per rank it prints: the time per step (the kernels' span over the
profiled steps), each kernel's count and median duration, the share of the
span in which no kernel runs, and the kernels of two steps in the middle
with start offsets, durations and streams. Chrome traces go to OUT.

    mpirun -np P python3 bench/mpi/graph_timeline.py [--n 128] [--overlap on|off]
        [--transport nvshmem|nccl|auto] [--steps 40] [--warm 20] [--out DIR] [--periodic]
        [--slabs] [--steps-per-graph U]

(PKC_GRAPH_URGENT=0 captures the step without kernel priorities, for A/B.)

Needs PKC_BACKEND=cuda, modules built for capture (CXXFLAGS='--default-stream
per-thread' with Kokkos' nvcc_wrapper, as scripts/gpu/nvshmem_halo_cuda.sh
GRAPH=1 builds them) and torch."""
import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def short(name):
    """A kernel's short name: the workunit for pkc's kernels, else the
    function's name."""
    m = re.search(r"pkc_\w+?::(\w+)", name)
    if m:
        return m.group(1)
    # a mangled template in a static name (the NVSHMEM halo's kernels): the
    # last <length><identifier> before its template arguments
    ids = [x.group(2)[:int(x.group(1))] for x in re.finditer(r"(?=(\d+)([A-Za-z_]\w*))", name)
           if len(x.group(2)) > int(x.group(1)) and x.group(2)[int(x.group(1))] == "I"]
    if ids:
        return ids[-1]
    name = name.replace("(anonymous namespace)::", "").replace("void ", "")
    base = re.sub(r"<.*", "", name).split("(")[0]
    return base.split("::")[-1][:40]


def kernels(trace_path):
    """[(start us, duration us, stream, short name)] of the GPU activity;
    starts on the trace's clock (its baseTimeNanoseconds added, where it
    has one: the ranks' traces then share one clock)."""
    with open(trace_path) as f:
        ev = json.load(f)
    base = ev.get("baseTimeNanoseconds", 0) / 1e3 if isinstance(ev, dict) else 0.0
    ev = ev["traceEvents"] if isinstance(ev, dict) else ev
    out = []
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            out.append((base + float(e["ts"]), float(e["dur"]), e.get("args", {}).get("stream", "?"),
                        short(e.get("name", "?"))))
    return sorted(out)


def aligned(per_rank, steps, name="exchange"):
    """Every rank's kernels of two steps in the middle on one clock (offsets
    from the earliest of them): where a halo kernel (name contains `name`)
    waits for a neighbour, its start and end against the neighbours' show it."""
    ks = [k for k in per_rank if k]
    if len(ks) < 2:
        return []
    mids = []
    for k in ks:
        per = len(k) // steps
        mids.append(k[(steps // 2) * per:(steps // 2) * per + 2 * per])
    w0 = min(m[0][0] for m in mids if m)
    rows = sorted((s - w0, d, r, n) for r, m in enumerate(mids) for s, d, _, n in m)
    lines = [f"all ranks on one clock, two steps (offset us, end us, rank, kernel; "
             f"* marks {name}):"]
    for s, d, r, n in rows:
        lines.append(f"  {s:8.2f} {s + d:8.2f}  r{r} {'*' if name in n else ' '} {n}")
    return lines


def summary(rank, ks, steps):
    lines = [f"== rank {rank}: {len(ks)} GPU activities over {steps} steps"]
    if not ks:
        return lines
    t0, t1 = ks[0][0], max(s + d for s, d, _, _ in ks)
    once = {}
    for s, _, _, n in ks:
        once.setdefault(n, []).append(s)
    once = [v for v in once.values() if len(v) == steps]
    if once:   # robust to a stray activity recorded far from the steps
        gaps = [b - a for a, b in zip(once[0], once[0][1:])]
        lines.append(f"time per step {statistics.median(gaps):.2f} us (median start to start "
                     f"of a kernel run once per step)")
    else:
        lines.append(f"time per step {((t1 - t0) / steps):.2f} us (kernels' span / steps)")
    busy, end = 0.0, t0
    for s, d, _, _ in ks:   # the union of the intervals
        if s + d > end:
            busy += s + d - max(s, end)
            end = s + d
    lines.append(f"no kernel running: {100 * (1 - busy / (t1 - t0)):.1f}% of the span")
    names = {}
    for s, d, st, n in ks:
        names.setdefault(n, []).append(d)
    for n, ds in sorted(names.items(), key=lambda x: -sum(x[1])):
        lines.append(f"  {n:40s} x{len(ds) / steps:4.1f}/step  median {statistics.median(ds):7.2f} us")
    per = len(ks) // steps
    mid = (steps // 2) * per
    lines.append(f"two steps from activity {mid} (offset us, duration us, stream, kernel):")
    w0 = ks[mid][0]
    for s, d, st, n in ks[mid:mid + 2 * per]:
        lines.append(f"  {s - w0:8.2f} {d:7.2f}  s{st:<4} {n}")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=128, help="interior cells per dimension per rank")
    ap.add_argument("--overlap", default="on", choices=("on", "off"))
    ap.add_argument("--transport", default="nvshmem")
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--warm", type=int, default=20)
    ap.add_argument("--out", default="graph-timeline")
    ap.add_argument("--slabs", action="store_true",
                    help="every rank along one dimension (jacobi_scaling.py --slabs)")
    ap.add_argument("--steps-per-graph", type=int, default=1,
                    help="steps captured into one graph (pk.Graph's steps_per_graph)")
    ap.add_argument("--periodic", action="store_true",
                    help="periodic in every dimension (one rank is then its own neighbour)")
    a = ap.parse_args()
    from mpi4py import MPI
    import pykokkos as pk
    from pykokkos.mpi import Halo
    import jacobi_scaling as js
    js.MPI, js.Halo = MPI, Halo
    import torch
    from torch.profiler import ProfilerActivity, profile

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    torch.cuda.set_device(rank % torch.cuda.device_count())
    dims = js.decomposition(size, 3, a.slabs)
    cart = comm.Create_cart(dims, periods=[a.periodic] * 3)
    g = js.Grid(cart, [a.n * dims[d] for d in range(3)], a.transport)
    overlap = a.overlap == "on"
    gr, err = g.check_graph(overlap, a.steps_per_graph)
    errs = cart.allgather(err)
    if any(errs):
        raise SystemExit(f"graph_timeline: {errs}")
    gr.replay(a.warm)
    pk.fence()
    cart.Barrier()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        gr.replay(a.steps)
        pk.fence()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"rank{rank}.json")
    prof.export_chrome_trace(path)
    ks = kernels(path)
    lines = summary(rank, ks, a.steps)
    lines.insert(0, f"# {size} rank(s), dims {dims}{' periodic' if a.periodic else ''}, "
                    f"{a.n}^3 per rank, overlap {a.overlap}, {a.transport}, "
                    f"{gr.per_graph} step(s) per graph, graph nodes "
                    f"{gr.nodes}, mode {gr.mode}, urgent regions {gr.urgent()} of "
                    f"{[e[0] for e in gr.edges() or []]}")
    everything = cart.gather("\n".join(lines))
    every_ks = cart.gather(ks)
    if rank == 0:
        print("\n".join(everything + aligned(every_ks, a.steps)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
