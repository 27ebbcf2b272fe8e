#!/usr/bin/env python3
"""Weak and strong scaling of Jacobi 2-D (5-point) and 3-D (7-point) over MPI
ranks (pykokkos.mpi.Halo), with and without overlap, measured honestly:

- warm-up iterations (first copies to the device, first launches, NCCL
  connections) run before any timer starts;
- the time per iteration is the median of several timed blocks of
  iterations, each block started after a barrier and ended by pk.fence(),
  the slowest rank's time per block;
- the halo exchange's share is measured in the same run: blocks of
  exchanges alone, timed the same way;
- verification on a sample, so that GPU-filling grids check in seconds:
  (1) every rank fills its owned cells with a known function of the global
  coordinates, exchanges, and checks its ghost faces against that function;
  (2) from the exchanged state, one step runs on the device and a few planes
  of the result (first, second, middle, last two along every dimension) are
  compared with a numpy recomputation of those planes.

Kernels use the default tiles (MDRangePolicy without a tile), as users write them.

Driver (runs mpirun once per rank count, prints a markdown table):

    /usr/bin/python3 bench/mpi/jacobi_scaling.py --ranks 1,2 [--quick | --gpu]

--quick: tiny grids, a few iterations (seconds on a CPU; `make test` runs it
through tests/api/test_mpi_scaling.py). --gpu: PKC_BACKEND=cuda, GPU-filling
grids (2-D 8192^2 and 3-D 512^3 per rank weak; the same global grids strong)
plus the 3-D 128^3 per rank case. --graph: also the step replayed through
pk.Graph (a CUDA graph on CUDA, the NCCL exchange captured with the
kernels), checked bitwise against plain steps and timed. Worker (one rank count, one line per case,
`CASE ...`): mpirun -np P python3 bench/mpi/jacobi_scaling.py --worker [--quick|--gpu]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import numpy as np

import pykokkos as pk

MPI = Halo = None   # the worker imports them (the driver needs no MPI)


@pk.workunit
def jacobi2(i: int, j: int, u: pk.View2D[pk.double], unew: pk.View2D[pk.double]):
    unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1])


@pk.workunit
def copy2(i: int, j: int, unew: pk.View2D[pk.double], u: pk.View2D[pk.double]):
    u[i][j] = unew[i][j]


@pk.workunit
def jacobi3(i: int, j: int, k: int, u: pk.View3D[pk.double], unew: pk.View3D[pk.double]):
    unew[i][j][k] = (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k] + u[i][j + 1][k] +
                     u[i][j][k - 1] + u[i][j][k + 1]) * (1.0 / 6.0)


@pk.workunit
def copy3(i: int, j: int, k: int, unew: pk.View3D[pk.double], u: pk.View3D[pk.double]):
    u[i][j][k] = unew[i][j][k]


# ---------------------------------------------------------------- worker

def field(axes):
    """The known function of global coordinates (ghosts included, 0-based with
    the global ghost layer at 0) used to check the exchange: a sum of one
    term per dimension (so numpy builds it by broadcasting), exact in
    float64, different for every neighbour. axes: one 1-D index array per
    dimension."""
    nd = len(axes)
    v = 0.0
    for d, c in enumerate(axes):
        shape = [1] * nd
        shape[d] = len(c)
        v = v + (((c * (7 + 4 * d) + 3 * d) % 61) * (0.25 ** d)).reshape(shape)
    return v


def stencil(a):
    """The Jacobi update of a's interior (every dimension less its two ends),
    summed in the kernels' order."""
    nd = a.ndim
    acc = None
    for d in range(nd):
        for s in (0, 2):
            idx = [slice(1, -1)] * nd
            idx[d] = slice(s, s + a.shape[d] - 2)
            acc = a[tuple(idx)] if acc is None else acc + a[tuple(idx)]
    return 0.25 * acc if nd == 2 else acc * (1.0 / 6.0)


class Grid:
    """One rank's block of a global grid of `n` interior cells per dimension
    (slowest first), one ghost layer per side."""

    def __init__(self, cart, n, transport="auto"):
        self.cart, self.nd = cart, len(n)
        dims, coords = cart.dims, cart.Get_coords(cart.Get_rank())
        own = [np.array_split(np.arange(n[d]), dims[d])[coords[d]] for d in range(self.nd)]
        self.lo = [int(o[0]) for o in own]           # global index of the first owned cell - 1
        self.m = [len(o) for o in own]
        shape = [mm + 2 for mm in self.m]
        self.u = pk.View(shape, pk.double)
        self.unew = pk.View(shape, pk.double)
        self.halo = Halo(cart, self.u, width=1, transport=transport)
        self.split_copy = True   # the overlapped step's copy: copy_back(cut), else one launch

    def axes(self):
        """Global coordinates (with ghosts) of the local cells, per dimension."""
        return [np.arange(self.lo[d], self.lo[d] + self.m[d] + 2) for d in range(self.nd)]

    def update(self, lo, hi):
        if not all(a < b for a, b in zip(lo, hi)):
            return
        if self.nd == 2:   # each kernel named at its call: pkc sees an MDRange launch
            pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1]], [hi[0], hi[1]]), jacobi2,
                            u=self.u, unew=self.unew)
        else:
            pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1], lo[2]], [hi[0], hi[1], hi[2]]),
                            jacobi3, u=self.u, unew=self.unew)

    def copy(self, lo, hi):
        if not all(a < b for a, b in zip(lo, hi)):
            return
        if self.nd == 2:
            pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1]], [hi[0], hi[1]]), copy2,
                            unew=self.unew, u=self.u)
        else:
            pk.parallel_for(pk.MDRangePolicy([lo[0], lo[1], lo[2]], [hi[0], hi[1], hi[2]]),
                            copy3, unew=self.unew, u=self.u)

    def copy_back(self, cut=()):
        """unew -> u on the owned cells. With `cut` (the dimensions next to a
        neighbour), first the cells the rim updates do not read (every cut
        dimension less two planes per side), then the two planes per side:
        in a pk.Graph the first copy waits only for the inner update, and
        the next step's exchange only for the second."""
        m, nd = self.m, self.nd
        lo, hi = [1] * nd, [x + 1 for x in m]
        deep = [(3, m[d] - 1) if d in cut else (1, m[d] + 1) for d in range(nd)]
        self.copy([a for a, _ in deep], [b for _, b in deep])
        for d in cut:
            for side in ((1, min(3, m[d] + 1)), (max(3, m[d] - 1), m[d] + 1)):
                a, b = list(lo), list(hi)
                a[d], b[d] = side
                for e in cut[:cut.index(d)]:                   # not twice
                    a[e], b[e] = deep[e]
                self.copy(a, b)

    def step(self, overlap):
        m, nd = self.m, self.nd
        full_lo, full_hi = [1] * nd, [x + 1 for x in m]
        if overlap:
            # the rim is the planes next to a neighbour's ghosts (dimensions
            # the decomposition cuts); with no neighbour the step is one update
            cut = [d for d in range(nd) if any(r != MPI.PROC_NULL for r in self.halo.nbr[d])]
            self.halo.start()
            self.update([2 if d in cut else 1 for d in range(nd)],   # cells that need no ghost
                        [m[d] if d in cut else m[d] + 1 for d in range(nd)])
            self.halo.finish()
            for d in cut:                                      # the faces of the rim
                for side in (1, m[d]):
                    a, b = list(full_lo), list(full_hi)
                    a[d], b[d] = side, side + 1
                    for e in cut[:cut.index(d)]:               # not twice
                        a[e], b[e] = 2, m[e]
                    self.update(a, b)
            self.copy_back(cut if self.split_copy else ())
        else:
            self.halo.exchange()
            self.update(full_lo, full_hi)
            self.copy_back()

    def exchange(self, overlap):
        if overlap:
            self.halo.start()
            self.halo.finish()
        else:
            self.halo.exchange()

    def start_state(self, g):
        """g on the owned cells and on ghosts without a neighbour (the fixed
        boundary), 0 on the ghosts an exchange fills."""
        a = np.zeros_like(g)
        own = tuple(slice(1, x + 1) for x in self.m)
        a[own] = g[own]
        for d in range(self.nd):
            for side, nbr in ((0, self.halo.nbr[d][0]), (self.m[d] + 1, self.halo.nbr[d][1])):
                if nbr == MPI.PROC_NULL:
                    idx = [slice(None)] * self.nd
                    idx[d] = side
                    a[tuple(idx)] = g[tuple(idx)]
        return a

    def check_exchange(self, overlap):
        """Owned cells = field, ghosts 0; exchange; every ghost face next to
        a neighbour must hold the field (corners are not exchanged by
        start/finish and are not checked). Error text or None."""
        want = field(self.axes())
        self.u[...] = self.start_state(want)
        self.exchange(overlap)
        got = np.array(self.u)
        for d in range(self.nd):
            for side, nbr in ((0, self.halo.nbr[d][0]), (self.m[d] + 1, self.halo.nbr[d][1])):
                if nbr == MPI.PROC_NULL:
                    continue
                idx = [slice(1, x + 1) for x in self.m]
                idx[d] = side
                bad = int((got[tuple(idx)] != want[tuple(idx)]).sum())
                if bad:
                    return f"ghost face {d}/{'low' if side == 0 else 'high'}: {bad} cells wrong"
        return None

    def check_step(self, overlap):
        """One step (exchange and update) on the device from the field with
        unfilled ghosts; planes 1, 2, middle, m-1, m along every dimension
        compared with numpy's update of the field there (after the
        exchange every ghost holds the field). Error text or None."""
        g = field(self.axes()) * (1.0 / 61.0)
        nd, m = self.nd, self.m
        start = self.start_state(g)
        self.u[...] = start
        self.unew[...] = start
        self.step(overlap)
        got = np.array(self.u)
        for d in range(nd):
            for p in sorted({1, 2, (m[d] + 1) // 2, m[d] - 1, m[d]}):
                if not 1 <= p <= m[d]:
                    continue
                idx = [slice(None)] * nd
                idx[d] = slice(p - 1, p + 2)
                w = stencil(g[tuple(idx)])
                idx = [slice(1, x + 1) for x in m]
                idx[d] = slice(p, p + 1)
                h = got[tuple(idx)]
                if not np.allclose(h, w, rtol=1e-13, atol=0.0):
                    bad = int((~np.isclose(h, w, rtol=1e-13, atol=0.0)).sum())
                    return f"plane {p} of dimension {d}: {bad} cells differ from numpy"
        return None

    def check_graph(self, overlap, per_graph=1):
        """The step replayed through pk.Graph (a CUDA graph on CUDA, per_graph
        steps per graph) from the field: (the Graph, error text or None if
        per_graph + 2 replayed steps equal as many plain steps bitwise: the
        plain first step, one whole graph and one step of the one-step
        graph)."""
        steps = per_graph + 2
        start = self.start_state(field(self.axes()) * (1.0 / 61.0))
        self.u[...] = start
        self.unew[...] = start
        for _ in range(steps):
            self.step(overlap)
        want = np.array(self.u)
        self.u[...] = start                 # host writes reach the device before replay
        self.unew[...] = start
        gr = pk.Graph(self.step, overlap, steps_per_graph=per_graph)
        gr.replay(steps)
        got = np.array(self.u)
        bad = int((got != want).sum())
        return gr, (f"graph replay differs from the plain steps in {bad} cells" if bad else None)

    def timed_blocks(self, fn, blocks, per_block):
        """Median over blocks of the slowest rank's seconds per call of fn."""
        times = []
        for _ in range(blocks):
            self.cart.Barrier()
            t0 = time.perf_counter()
            for _ in range(per_block):
                fn()
            pk.fence()
            t = self.cart.allreduce(time.perf_counter() - t0, op=MPI.MAX)
            times.append(t / per_block)
        return statistics.median(times)


def captured(g, overlap, warm, off, per_graph):
    """g's step captured by pk.Graph with environment variable `off` set to
    0 (PKC_GRAPH_BRANCHES: stream order; PKC_GRAPH_URGENT: no priorities),
    replayed warm times."""
    was = os.environ.get(off)
    os.environ[off] = "0"
    try:
        gr = pk.Graph(g.step, overlap, steps_per_graph=per_graph)
        gr.replay(warm)
    finally:
        os.environ.pop(off)
        if was is not None:
            os.environ[off] = was
    return gr


def decomposition(ranks, nd, slabs):
    """Ranks per dimension: MPI's balanced Cartesian split, or with slabs
    (the autonomous multi-GPU seed's split of 3-D Jacobi) every rank along
    the dimension whose faces are contiguous in the default layout, so that
    each rank has two neighbours: the last on GPUs (LayoutLeft), the first
    on host backends (LayoutRight)."""
    if not slabs or nd < 3:
        return MPI.Compute_dims(ranks, nd)
    dims = [1] * nd
    dims[0 if pk.is_host_execution_space(pk.get_default_space()) else nd - 1] = ranks
    return dims


def cases(quick, gpu, ranks, slabs=False):
    """(name, global interior extents per dimension, slowest first)."""
    def weak(nd, per):
        dims = decomposition(ranks, nd, slabs)
        return [per * dims[d] for d in range(nd)]
    if quick:
        sizes = {2: 48, 3: 16}
    elif gpu:
        sizes = {2: 8192, 3: 512}
    else:
        sizes = {2: 1024, 3: 96}
    out = []
    for nd in (2, 3):
        out.append((f"{nd}D weak", weak(nd, sizes[nd])))
        out.append((f"{nd}D strong", [sizes[nd]] * nd))
    if gpu:
        out.append(("3D weak small", weak(3, 128)))
    return out


def worker(a):
    global MPI, Halo
    from mpi4py import MPI
    from pykokkos.mpi import Halo
    comm = MPI.COMM_WORLD
    ranks = comm.Get_size()
    warm, blocks, per = (2, 3, 3) if a.quick else (a.warmup, a.blocks, a.iters)
    runs = [(f"{name} [{t}]" if t != "auto" else name, n, t)
            for name, n in cases(a.quick, a.gpu, ranks, a.slabs)
            for t in a.transport.split(",")]
    for name, n, transport in runs:
        if a.only and not any(x in name for x in a.only):
            continue
        nd = len(n)
        if a.slabs and nd == 3:
            name = name.replace("3D", "3D slabs", 1)
        cart = comm.Create_cart(decomposition(ranks, nd, a.slabs), periods=[False] * nd)
        g = Grid(cart, n, transport)
        g.split_copy = a.copy == "split"
        graphs = a.graph
        for overlap in (False, True):
            t0 = time.perf_counter()
            errs = [g.check_exchange(overlap), g.check_step(overlap)]
            if graphs:
                gr, e = g.check_graph(overlap, a.steps_per_graph)
                errs.append(e)
            err = next((e for e in errs if e), None)
            errs = cart.allgather(err)
            verify_s = cart.allreduce(time.perf_counter() - t0, op=MPI.MAX)
            for _ in range(warm):                     # outside every timer
                g.step(overlap)
                g.exchange(overlap)
            pk.fence()
            t_it = g.timed_blocks(lambda: g.step(overlap), blocks, per)
            pk.fence()
            t0 = time.perf_counter()
            for _ in range(per):   # the host's time per step, not waiting for the device
                g.step(overlap)
            step_host = (time.perf_counter() - t0) / per
            pk.fence()
            host0 = g.halo.seconds
            t_ex = g.timed_blocks(lambda: g.exchange(overlap), blocks, per)
            host_ex = (g.halo.seconds - host0) / (blocks * per)   # the host's share of it
            graph = ""
            shm = getattr(g.halo, "_shmem", None)
            if shm is not None:   # faces stored straight into neighbours / put with signal
                direct = sum(1 for q in shm._remote.values() if q)
                into = shm._peers is not None and shm._peers[1] is not None
                graph = (f" | nvshmem_direct={direct}/{len(shm._remote)}"
                         f" | nvshmem_into_views={'yes' if into else 'no'}")
            if graphs:   # the same step replayed from pk.Graph, per iteration
                gr.replay(warm)
                t_gr = g.timed_blocks(lambda: gr.replay(per), blocks, 1) / per
                graph += f" | graph_ms={t_gr * 1e3:.4f} ({gr.mode}) | steps_per_graph={gr.per_graph}"
                # and captured in stream order (no branches), and with branches
                # but no urgent kernels (PKC_GRAPH_URGENT=0), same run
                chain = captured(g, overlap, warm, "PKC_GRAPH_BRANCHES", a.steps_per_graph)
                t_ch = g.timed_blocks(lambda: chain.replay(per), blocks, 1) / per
                plain = captured(g, overlap, warm, "PKC_GRAPH_URGENT", a.steps_per_graph)
                t_pl = g.timed_blocks(lambda: plain.replay(per), blocks, 1) / per
                graph += (f" | graph_chain_ms={t_ch * 1e3:.4f} | graph_nourgent_ms={t_pl * 1e3:.4f}"
                          f" | graph_nodes={gr.nodes}/{chain.nodes}")
                # the launches gated on the exchange beside them, and the same
                # capture without gates (PKC_GRAPH_GATE=0)
                nogate = captured(g, overlap, warm, "PKC_GRAPH_GATE", a.steps_per_graph)
                t_ng = g.timed_blocks(lambda: nogate.replay(per), blocks, 1) / per
                graph += (f" | graph_nogate_ms={t_ng * 1e3:.4f}"
                          f" | gated={len(gr.gated() or [])}")
                # the exchanges that only send (the updates waiting for the
                # neighbours' counts), and the same capture without them
                # (PKC_GRAPH_SEND=0)
                nosend = captured(g, overlap, warm, "PKC_GRAPH_SEND", a.steps_per_graph)
                t_ns = g.timed_blocks(lambda: nosend.replay(per), blocks, 1) / per
                graph += (f" | graph_nosend_ms={t_ns * 1e3:.4f}"
                          f" | send_only={len(gr.send_only() or [])}")
                del chain, plain, nogate, nosend
            if cart.Get_rank() == 0:
                bad = [f"rank {r}: {e}" for r, e in enumerate(errs) if e]
                print(f"CASE {name} | overlap={'on' if overlap else 'off'} | ranks={ranks} | "
                      f"grid={'x'.join(map(str, n))} | dims={'x'.join(map(str, cart.dims))} | "
                      f"ms_per_iter={t_it * 1e3:.4f} | halo_ms={t_ex * 1e3:.4f} | "
                      f"halo_share={100 * t_ex / t_it:.0f}% | halo_host_ms={host_ex * 1e3:.4f} | "
                      f"step_host_ms={step_host * 1e3:.4f}{graph} | copy={a.copy} | "
                      f"verify_s={verify_s:.2f} | "
                      f"{'verified' if not bad else 'FAILED ' + '; '.join(bad)}", flush=True)
    return 0


# ---------------------------------------------------------------- driver

def parse_case(line):
    f = [x.strip() for x in line[len("CASE "):].split("|")]
    kv = dict(x.split("=", 1) for x in f[1:] if "=" in x)
    return {"name": f[0], "overlap": kv["overlap"], "ranks": int(kv["ranks"]),
            "grid": kv["grid"], "ms": float(kv["ms_per_iter"]), "halo_ms": float(kv["halo_ms"]),
            "share": kv["halo_share"], "verified": f[-1] == "verified", "status": f[-1],
            "graph": kv.get("graph_ms")}


def run_ranks(p, a, env, transport):
    cmd = [shutil.which("mpirun") or "mpirun", "--allow-run-as-root", "--oversubscribe",
           "-np", str(p)]
    for k in ("PYTHONPATH", "PATH", "PKC_BACKEND", "OMP_NUM_THREADS", "NCCL_NVLS_ENABLE",
              "NVSHMEM_DISABLE_NVLS", "CXXFLAGS", "Kokkos_ROOT", "PKC_RUNTIME_LIB",
              "LD_LIBRARY_PATH", "PKC_HALO_NVSHMEM_P2P", "PKC_HALO_NVSHMEM_BLOCKS",
              "PKC_HALO_NVSHMEM_DIRECT", "PKC_HALO_NVSHMEM_SEND_BLOCKS", "PKC_GRAPH_SEND",
              "PKC_NVSHMEM_HOME", "PKC_CACHE_DIR",
              "NVSHMEM_SYMMETRIC_SIZE", "NVSHMEM_REMOTE_TRANSPORT",
              "NVSHMEM_DISABLE_CUDA_VMM"):
        if k in env:
            cmd += ["-x", k]
    cmd += a.mpirun_arg
    cmd += [env.get("PY", sys.executable), os.path.abspath(__file__), "--worker",
            "--warmup", str(a.warmup), "--blocks", str(a.blocks), "--iters", str(a.iters)]
    cmd += ["--quick"] if a.quick else ["--gpu"] if a.gpu else []
    cmd += ["--graph", f"--steps-per-graph={a.steps_per_graph}"] if a.graph else []
    cmd += ["--slabs"] if a.slabs else []
    cmd += ["--copy", a.copy, "--transport", transport]
    cmd += [f"--only={x}" for x in a.only]
    if a.log:   # every line of the ranks' output as it comes (a run cut short keeps its rows)
        with open(a.log, "a") as log:
            log.write(f"# {p} rank(s): {' '.join(cmd)}\n")
            log.flush()
            r = _tee(cmd, env, log, a.timeout)
    else:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=a.timeout)
    rows = [parse_case(ln) for ln in r.stdout.splitlines() if ln.startswith("CASE ")]
    if r.returncode != 0 or not rows:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout}\n{r.stderr[-3000:]}")
    return rows


def _tee(cmd, env, log, timeout):
    """subprocess.run(cmd) whose stdout lines also go to log as they come
    and whose stderr goes to log only; returns a CompletedProcess."""
    deadline = time.monotonic() + timeout
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    out = []
    for line in proc.stdout:
        out.append(line)
        log.write(line)
        log.flush()
        if time.monotonic() > deadline:
            proc.kill()
            break
    proc.wait()
    return subprocess.CompletedProcess(cmd, proc.returncode, "".join(out), "")


def table(results, ranks):
    """Markdown: per case and overlap, ms/iteration for every rank count,
    efficiency of the largest against 1 rank (weak t1/tN, strong
    t1/(N tN)), the halo share at N ranks, verification."""
    base = {(r["name"], r["overlap"]): r for r in results.get(1, [])}
    n = max(ranks)
    head = " | ".join(f"{p} rank{'s' if p > 1 else ''} ms/it" for p in ranks)
    graph = any(r["graph"] for r in results[n])
    gcol = f" graph ms/it (1) | graph ms/it ({n}) | graph efficiency |" if graph else ""
    lines = [f"| case | overlap | {head} | efficiency ({n} vs 1) | halo ms ({n}) | halo share ({n}) |{gcol} checked |",
             "|---" * (6 + len(ranks) + 3 * graph) + "|"]
    for r in results[n]:
        key = (r["name"], r["overlap"])
        ms = " | ".join(next((f"{x['ms']:.3f}" for x in results[p]
                              if (x["name"], x["overlap"]) == key), "-") for p in ranks)
        eff = "-"
        if key in base and r["ms"] > 0:
            t1 = base[key]["ms"]
            eff = f"{100 * (t1 / r['ms'] if 'weak' in r['name'] else t1 / (n * r['ms'])):.0f}%"
        ok = all(x["verified"] for p in ranks for x in results[p] if (x["name"], x["overlap"]) == key)
        gval = ""
        if graph:   # the replayed step at 1 and n ranks of the same run, and their ratio
            g1 = base[key]["graph"] if key in base else None
            geff = "-"
            if g1 and r["graph"]:
                t1, tn = float(g1.split()[0]), float(r["graph"].split()[0])
                geff = f"{100 * (t1 / tn if 'weak' in r['name'] else t1 / (n * tn)):.0f}%"
            gval = f" {g1 or '-'} | {r['graph'] or '-'} | {geff} |"
        lines.append(f"| {r['name']} ({r['grid']} at {n}) | {r['overlap']} | {ms} | {eff} | "
                     f"{r['halo_ms']:.3f} | {r['share']} |{gval} {'yes' if ok else 'NO'} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ranks", default="1,2", help="rank counts, comma-separated")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--graph", action="store_true",
                    help="also time the step replayed through pk.Graph (on CUDA: modules "
                         "built with CXXFLAGS='--default-stream per-thread')")
    ap.add_argument("--steps-per-graph", type=int, default=1,
                    help="with --graph: steps captured into one graph (pk.Graph's "
                         "steps_per_graph; --iters should be a multiple of it)")
    ap.add_argument("--slabs", action="store_true",
                    help="split 3-D grids into slabs along the dimension with contiguous "
                         "faces (two neighbours per rank, the seed's split) instead of "
                         "MPI.Compute_dims' balanced split")
    ap.add_argument("--copy", choices=("split", "one"), default="split",
                    help="the overlapped step's copy back: the cells the rims do not read, "
                         "then two planes per side (split: the next step's exchange waits "
                         "only for those), or one launch")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--blocks", type=int, default=5)
    ap.add_argument("--iters", type=int, default=10, help="iterations per timed block")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--only", action="append", default=[],
                    help="run only the cases whose name contains this text (repeatable)")
    ap.add_argument("--log", help="append the ranks' output to this file as it comes")
    ap.add_argument("--mpirun-arg", action="append", default=[],
                    help="one more argument for mpirun (repeatable), e.g. --mpirun-arg=--bind-to "
                         "--mpirun-arg=none")
    ap.add_argument("--transport", default="auto",
                    help="Halo transports to run side by side, comma-separated "
                         "(auto, nccl, nvshmem, mpi: pykokkos.mpi.TRANSPORTS); rows of a "
                         "transport other than auto are named '<case> [<transport>]'")
    a = ap.parse_args()
    if a.worker:
        return worker(a)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "runtime-shim", "python")
    env["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + env.get("PATH", "")
    if a.gpu:
        env["PKC_BACKEND"] = "cuda"
        env.setdefault("NCCL_NVLS_ENABLE", "0")
    else:
        env.setdefault("OMP_NUM_THREADS", "1")
    ranks = sorted({int(x) for x in a.ranks.split(",")} | {1})
    # one mpirun per rank count and transport: a transport's library state
    # (NCCL communicators, NVSHMEM's heap and threads) never weighs on another's rows
    results = {p: [row for t in a.transport.split(",") for row in run_ranks(p, a, env, t)]
               for p in ranks}
    print(table(results, ranks))
    bad = [r["status"] for p in ranks for r in results[p] if not r["verified"]]
    if bad:
        print("jacobi_scaling: verification FAILED: " + "; ".join(bad))
        return 1
    print("jacobi_scaling: verification PASSED (exchange and one step checked on every rank)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
