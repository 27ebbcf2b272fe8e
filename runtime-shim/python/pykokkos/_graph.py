"""pk.Graph: a time step captured once and replayed K steps at a time.

    def step():
        halo.exchange()                                   # optional (NCCL on CUDA)
        pk.parallel_for(pk.MDRangePolicy([1, 1], [n + 1, n + 1]), jacobi, u=u, unew=unew)
        pk.parallel_for(pk.MDRangePolicy([1, 1], [n + 1, n + 1]), copy_back, unew=unew, u=u)
        pk.parallel_for(1, residual, u=u, res=res)        # a reduction into a View

    g = pk.Graph(step)
    g.replay(100)          # 100 steps; returns without waiting on a GPU
    print(res[0])          # reading a View waits for the steps, as after any launch

On CUDA (modules built with CXXFLAGS='--default-stream per-thread', where
Kokkos 3.4's kernels launch on a stream that can be captured), the first
replay runs one step as plain calls (first copies to the device,
allocations, NCCL connections), then captures one step into a CUDA graph
through libpkcrt (stream capture of the per-thread default stream) and
launches the graph for the other steps: one host call per step instead of
one per kernel, and nothing comes back to the host. On the host backends
(and HIP), every step runs as plain calls, with the same numbers.

With pykokkos.mpi.Halo's NVSHMEM transport on CUDA, an MDRange update that
reads the ghosts of the step's halo.exchange() runs beside the exchange, its
ghost-reading points waiting in the kernel (gated(); PKC_GRAPH_GATE=0: no).

Rules, the same on every backend (checked on every backend, so that a
program that passes on the CPU captures on the GPU): a step may launch
kernels with pk.parallel_for and exchange halos, but not wait for the
device or bring values to the host: pk.fence, pk.parallel_reduce and
pk.parallel_scan (their results come back to the host), pk.deep_copy, and
reading or writing a View on the host raise RuntimeError naming the call
(reduce into a View instead and read it after replay()). Every step must
launch the same kernels with the same arguments (a graph replays the
captured launches as they were): values that change from step to step
belong in Views; a step that launches differently raises RuntimeError.
"""
from ._errors import PkcArgumentError, PkcRuntimeError, PkcValueError

_state = {"on": False, "rec": None, "exempt": 0, "cuda": False, "views": None,
          "branches": None, "internal": 0, "launch": 0, "captures": 0}


def branches():
    """The edge planner of the step being run (pykokkos/_graph_branches.py),
    or None: then a launch or a halo need not say what it touches."""
    return _state["branches"]


class region:
    """with region(label, accesses[, gate]): the calls inside are one region
    of the step for its edges (accesses: see _graph_branches; ANY when
    unknown; gate: a halo's gate source or a launch's GateRequest). .gate:
    the gate the launch inside must pass to its kernel (counter address,
    target, head, tail), or None. Only made where branches() is not None."""

    __slots__ = ("b", "gate")

    def __init__(self, label, accesses, gate=None):
        b = self.b = _state["branches"]
        self.gate = b.enter(label, accesses, gate) if b is not None else None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.b is not None:
            self.b.exit()


def active():
    """True while a step of a pk.Graph runs (plain or captured)."""
    return _state["on"] and not _state["exempt"]


def capturing_cuda():
    """True while a step is being captured into a CUDA graph."""
    return _state["on"] and _state["cuda"]


def capture_number():
    """Which CUDA capture is running (1, 2, ... in the process; 0 none): a
    halo counting its exchanges per graph starts again at a new one."""
    return _state["captures"] if capturing_cuda() else 0


def refuse(call, why="it waits for the device or brings data to the host"):
    """Raises the error for a host-synchronising call inside a step."""
    raise PkcRuntimeError(
        f"pk.Graph: {call} inside a graph step: {why}, which a captured CUDA graph "
        f"cannot do (the check holds on every backend). Launch kernels only in the "
        f"step; reduce into a View (a kernel writing the result into it) and read it "
        f"after replay()")


class exempt:
    """Context in which the shim's own host work (a host-staged halo exchange
    on a host backend) is not refused."""

    def __enter__(self):
        _state["exempt"] += 1

    def __exit__(self, *exc):
        _state["exempt"] -= 1


def _key(x, depth=0):
    """What a launch argument contributes to a step's record: Views and
    other objects by identity, numbers and strings by value, containers and
    policies by their contents."""
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
        return x
    if depth > 4:
        return ("id", id(x))
    if isinstance(x, (list, tuple)):
        return tuple(_key(v, depth + 1) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((k, _key(v, depth + 1)) for k, v in x.items()))
    from ._view import View
    if isinstance(x, View):
        views = _state["views"]
        if views is not None:
            views[id(x)] = x
        return ("View", id(x))
    fn = getattr(x, "__func__", None)
    if fn is not None:       # a functor's bound method: the functor's members
        return ("method", id(fn), _key(getattr(x.__self__, "__dict__", {}), depth + 1))
    code = getattr(x, "__code__", None)
    if code is not None:     # a function (a lambda made anew each step): its code and closure
        cells = tuple(c.cell_contents for c in (x.__closure__ or ()) if _filled(c))
        return ("fn", id(code), _key(cells, depth + 1))
    if callable(x):
        return ("fn", id(x))
    if getattr(x, "ndim", None) == 0 and hasattr(x, "item"):   # a numpy scalar
        return x.item()
    if type(x).__module__ == "numpy" and getattr(x, "ndim", 0) > 0 and not _state["exempt"]:
        refuse("a numpy array passed to a kernel",
               "on GPUs it is copied to the device at every launch (pass a pk.View)")
    slots = getattr(type(x), "__slots__", None)
    if type(x).__module__.startswith("pykokkos") and (slots or hasattr(x, "__dict__")):
        d = dict(getattr(x, "__dict__", {}))
        for s in slots or ():
            if hasattr(x, s) and s not in ("_c", "_a"):   # a policy's C struct, made at first use
                d[s] = getattr(x, s)
        return (type(x).__name__, _key(d, depth + 1))
    return ("id", id(x))


def _filled(cell):
    try:
        cell.cell_contents
        return True
    except ValueError:
        return False


class internal:
    """Context of the shim's own launches (a halo's packing kernels): they
    may differ between the plain first step and the captured one (NVSHMEM's
    fused exchange), so the comparison of steps leaves them out."""

    def __enter__(self):
        _state["internal"] += 1

    def __exit__(self, *exc):
        _state["internal"] -= 1


def record(args, kw):
    """Called by pk.parallel_for while a step runs: notes the launch."""
    rec = _state["rec"]
    if rec is not None and not _state["exempt"] and not _state["internal"]:
        rec.append((_key(args), _key(kw)))
    elif rec is not None:   # the shim's own launches (halo packing): not compared
        rec.append(("shim", _key(args), _key(kw)))


class Graph:
    """pk.Graph(step, *args, steps_per_graph=1, **kw): step(*args, **kw) is
    one time step (see the module docstring); replay(k) runs k steps. On
    CUDA the step is captured into a CUDA graph once and replayed; elsewhere
    it runs as plain calls. `mode` says which: 'cuda-graph' or 'plain'.
    steps_per_graph=U captures U steps into one graph, each launch waiting
    only for the earlier launches it conflicts with, across steps too (a
    step's halo exchange can run beside the end of the step before): one
    graph launch per U steps; replay(k) launches it k // U times and a
    one-step graph for the rest."""

    def __init__(self, step, *args, steps_per_graph=1, **kw):
        if not callable(step):
            raise PkcArgumentError(f"pk.Graph: step must be callable, got {type(step).__name__}")
        if isinstance(steps_per_graph, bool) or not isinstance(steps_per_graph, int) \
                or steps_per_graph < 1:
            raise PkcArgumentError(
                f"pk.Graph: steps_per_graph must be an int >= 1, got {steps_per_graph!r}")
        self.step, self.args, self.kw = step, args, kw
        self.per_graph = steps_per_graph
        self._exec1 = None      # the one-step graph for the rest of a replay(k)
        self.steps = 0          # steps run so far
        self._first = None      # the first step's launch record
        self._exec = None       # the CUDA graph (libpkcrt pkr_graph *)
        self.nodes = 0          # nodes of the captured graph
        self._views = []        # Views the captured launches take
        self._edges = None      # the step's regions and what each waits for
        self._urgent = None     # the regions on a halo's path (greatest priority on CUDA)
        self._after_start = None  # [(region, [Halo.start regions it launches after])]
        self._gated = None      # [(region, exchange region, head, tail)] of gated launches
        self._sends = None      # the exchange regions that only send
        import os
        self._fuse = os.environ.get("PKC_GRAPH_SEND", "1") != "0"
        self._plan_error = None # why the capture's edges could not be set
        from ._loader import RUNTIME
        self._lib = None
        self.mode = "plain"
        if RUNTIME.backend() == "cuda":
            lib = RUNTIME.runtime_lib()
            if hasattr(lib, "pkr_graph_available") and _bind(lib).pkr_graph_available(None, 0):
                self._lib, self.mode = lib, "cuda-graph"

    # ---- running one step ------------------------------------------------
    def _planner(self, cuda):
        """What orders the step's regions: the capture's edges (CUDA, where
        the driver can set them), the same edges computed only (a first
        plain step), or nothing (PKC_GRAPH_BRANCHES=0, other plain steps)."""
        import os
        from . import _graph_branches as gb
        if os.environ.get("PKC_GRAPH_BRANCHES", "1") == "0":
            return None
        if cuda:
            can = getattr(self._lib, "pkr_graph_branches_available", None)
            return gb.CaptureEdges(self._lib) if can is not None and can() else None
        # the second step, as on CUDA: the first placed the Views and made each
        # kernel's launcher
        return gb.DryEdges() if self._first is not None and self._edges is None else None

    def _launch(self, g, n):
        import ctypes
        err = ctypes.create_string_buffer(512)
        if self._lib.pkr_graph_launch(g, n, err, 512):
            raise PkcRuntimeError(f"pk.Graph: {err.value.decode()}")

    def _run(self, cuda, steps=1):
        """Runs (or captures) `steps` steps in a row under one edge plan, so
        that a step's launches wait only for the earlier steps' launches
        they conflict with."""
        from ._fusion import _q, flush
        from ._graph_branches import ANY
        if _state["on"]:
            raise PkcRuntimeError("pk.Graph: replay() inside a graph step")
        views, plan = {}, self._planner(cuda)
        if plan is not None:
            plan.plan.fusing = plan.plan.gating and self._fuse
        _state.update(on=True, rec=None, cuda=cuda, views=views, branches=plan,
                      captures=_state["captures"] + cuda)
        try:
            for s in range(steps):
                rec = _state["rec"] = []
                if plan is not None and s:
                    plan.plan.next_step()
                self.step(*self.args, **self.kw)
                if _q:      # launches held back for fusion belong to this step
                    with region("launches held back for fusion", ANY):
                        flush()
                self._compare(rec, s)
            if plan is not None:
                plan.join()
                self._edges = plan.plan.edges()
                self._urgent = [k for k, u in enumerate(plan.plan.urgent) if u]
                self._after_start = [(k, list(j)) for k, j in enumerate(plan.plan.start_first)
                                     if j]
                self._gated = [(k, j, list(h), list(t))
                               for k, (j, h, t) in sorted(plan.plan.gates.items())]
                self._sends = list(plan.plan.send_only)
                self._plan_error = plan.error
        finally:
            _state.update(on=False, rec=None, cuda=False, views=None, branches=None)
        if cuda:            # the Views the graph's kernels use (kept alive by it)
            self._views = list(views.values())

    def _compare(self, rec, later=0):
        n = self.steps + 1 + later
        rec = [r for r in rec if r[0] != "shim"]
        if self._first is None:
            self._first = rec
            return
        if rec == self._first:
            return
        k = next((i for i, (a, b) in enumerate(zip(rec, self._first)) if a != b),
                 min(len(rec), len(self._first)))
        if len(rec) != len(self._first):
            what = f"{len(rec)} launches where step 1 made {len(self._first)}"
        else:
            what = f"launch {k + 1} of the step with other kernels or arguments than in step 1"
        raise PkcRuntimeError(
            f"pk.Graph: step {n} made {what}: a graph replays the launches of the captured "
            f"step as they were, so every step must launch the same kernels with the same "
            f"arguments; values that change from step to step belong in Views")

    # ---- public ----------------------------------------------------------
    def edges(self):
        """The step's regions (each pk.parallel_for, Halo.exchange/start/
        finish) in order, as [(label, [indices of the regions it waits
        for])]: on CUDA the branches of the captured graph, elsewhere the
        same plan made from the second step (None before it, or with
        PKC_GRAPH_BRANCHES=0). A region waits for the earlier ones whose
        reads and writes overlap its own (see pykokkos/_graph_branches.py)."""
        return None if self._edges is None else [(a, list(b)) for a, b in self._edges]

    def urgent(self):
        """The indices (into edges()) of the step's urgent regions: a halo's
        exchange/start/finish and every region that waits for one, directly
        or through others. On CUDA their kernels run at the device's greatest
        priority, ahead of the blocks of an update on another branch; None
        where edges() is None."""
        return None if self._urgent is None else list(self._urgent)

    def after_start(self):
        """[(k, [j, ...])]: region k is the first kernel beside a step's
        Halo.start j (waiting for neither); with PKC_GRAPH_LAUNCH_ORDER=1 a
        captured graph launches it once the blocks of j's exchange kernel
        have all begun, so that the exchange holds SMs before the update
        fills them (a launch-order edge: CUDA >= 12.3, compute capability
        >= 9.0). None where edges() is None."""
        return None if self._after_start is None else [(k, list(j)) for k, j in self._after_start]

    def gated(self):
        """[(k, j, head, tail)]: launch k (an index into edges()) runs beside
        the halo exchange j of its step instead of after it, and only its
        points with an index below head or at or past tail (per work index)
        wait, in the kernel, for the exchange (pykokkos/_graph_branches.py;
        CUDA captures of NVSHMEM exchanges; PKC_GRAPH_GATE=0: none). []
        where no launch is gated, None where edges() is None."""
        return None if self._gated is None else [(k, j, list(h), list(t))
                                                 for k, j, h, t in self._gated]

    def send_only(self):
        """[k]: the halo exchanges (indices into edges()) that only send their
        faces: their neighbours raise a count here once the faces are in
        the ghosts, and the launches that read them wait for it in the
        kernel (pykokkos/_graph_branches.py; CUDA captures of several steps
        with NVSHMEM's direct exchange, every exchange after the capture's
        first; PKC_GRAPH_SEND=0: none). [] where none, None where edges()
        is None."""
        return None if self._sends is None else list(self._sends)

    def replay(self, k=1):
        """Runs k more steps. On CUDA it returns once they are launched
        (reading a View or pk.fence() waits for them)."""
        k = int(k)
        if k < 0:
            raise PkcValueError(f"pk.Graph.replay: k must be >= 0, got {k}")
        if self._lib is None:
            while k:                  # after step 1, U steps under one edge plan
                n = 1 if self._first is None else min(k, self.per_graph)
                self._run(False, n)
                self.steps += n
                k -= n
            return
        if k and self._exec is None:
            self._run(False)          # step 1, plain: first copies, allocations
            self.steps += 1
            k -= 1
            self._exec, self.nodes = self._capture(self.per_graph)
        whole, rest = divmod(k, self.per_graph)
        if rest and self._exec1 is None:
            if self.per_graph == 1:
                self._exec1 = self._exec
            else:                     # the edges() of the U-step graph are kept
                kept = self._edges, self._urgent, self._after_start, self._gated, self._sends
                self._exec1 = self._capture(1)[0]
                self._edges, self._urgent, self._after_start, self._gated, self._sends = kept
        if k:
            for v in self._views:   # host writes since reach the device first; the
                v._to_device()      # host mirrors are stale after the launches
        if whole:
            self._launch(self._exec, whole)
            self.steps += whole * self.per_graph
        if rest:
            self._launch(self._exec1, rest)
            self.steps += rest

    def _capture(self, steps):
        """Captures `steps` steps into a CUDA graph: (graph, its nodes)."""
        import ctypes
        from ._dispatch import fence
        fence()                       # step 1 done, nothing else in flight
        lib, err = self._lib, ctypes.create_string_buffer(512)
        if lib.pkr_graph_begin(err, 512):
            raise PkcRuntimeError(f"pk.Graph: {err.value.decode()}")
        failure = None
        try:
            self._run(True, steps)
        except BaseException as e:    # end the capture before reporting
            failure = e
        g = lib.pkr_graph_end(err, 512)
        if failure is not None:
            if g:
                lib.pkr_graph_destroy(g)
            if isinstance(failure, RuntimeError) and not str(failure).startswith("pk.Graph"):
                raise PkcRuntimeError(
                    f"pk.Graph: capturing the step failed at a launch: {failure}. Inside a "
                    f"capture no launch may wait for the device: on GPUs a kernel that can "
                    f"raise a Python error (integer // or %, range() with a computed step) "
                    f"fences after its launch (build with --error-model=numpy), and Kokkos "
                    f"3.4 needs modules built with CXXFLAGS='--default-stream per-thread' "
                    f"and CXX=$Kokkos_ROOT/bin/nvcc_wrapper"
                ) from failure
            raise failure
        if not g:
            raise PkcRuntimeError(
                f"pk.Graph: capturing the step failed: {err.value.decode()}. On CUDA with "
                f"Kokkos 3.4, build the modules with CXXFLAGS='--default-stream per-thread' "
                f"and CXX=$Kokkos_ROOT/bin/nvcc_wrapper (its default stream, the legacy one, "
                f"cannot be captured)")
        if self._plan_error:          # edges missing: the graph could run out of order
            lib.pkr_graph_destroy(g)
            self._edges = None
            raise PkcRuntimeError(f"pk.Graph: {self._plan_error}")
        return g, lib.pkr_graph_nodes(g)

    def __del__(self):
        lib = getattr(self, "_lib", None)
        g, g1 = getattr(self, "_exec", None), getattr(self, "_exec1", None)
        for x in (g, g1 if g1 != g else None):
            if x and lib is not None:
                try:
                    lib.pkr_graph_destroy(x)
                except Exception:
                    pass


def _bind(lib):
    """argtypes of libpkcrt's graph functions (once)."""
    if getattr(lib, "_pkc_graph_bound", False):
        return lib
    from ctypes import c_char_p, c_int, c_long, c_size_t, c_void_p
    lib.pkr_graph_available.argtypes = [c_char_p, c_size_t]
    lib.pkr_graph_available.restype = c_int
    lib.pkr_graph_begin.argtypes = [c_char_p, c_size_t]
    lib.pkr_graph_begin.restype = c_int
    lib.pkr_graph_end.argtypes = [c_char_p, c_size_t]
    lib.pkr_graph_end.restype = c_void_p
    lib.pkr_graph_nodes.argtypes = [c_void_p]
    lib.pkr_graph_nodes.restype = c_size_t
    lib.pkr_graph_launch.argtypes = [c_void_p, c_long, c_char_p, c_size_t]
    lib.pkr_graph_launch.restype = c_int
    lib.pkr_graph_sync.argtypes = [c_char_p, c_size_t]
    lib.pkr_graph_sync.restype = c_int
    lib.pkr_graph_destroy.argtypes = [c_void_p]
    lib.pkr_graph_destroy.restype = None
    if hasattr(lib, "pkr_graph_branches_available"):
        lib.pkr_graph_branches_available.argtypes = []
        lib.pkr_graph_branches_available.restype = c_int
        lib.pkr_graph_deps.argtypes = [c_void_p, c_size_t, c_char_p, c_size_t]
        lib.pkr_graph_deps.restype = c_long
        lib.pkr_graph_set_deps.argtypes = [c_void_p, c_size_t, c_char_p, c_size_t]
        lib.pkr_graph_set_deps.restype = c_int
    if hasattr(lib, "pkr_graph_set_deps_started"):
        lib.pkr_graph_set_deps_started.argtypes = [c_void_p, c_size_t, c_void_p, c_size_t,
                                                   c_char_p, c_size_t]
        lib.pkr_graph_set_deps_started.restype = c_int
    if hasattr(lib, "pkr_graph_set_urgent"):
        lib.pkr_graph_set_urgent.argtypes = [c_void_p, c_size_t, c_char_p, c_size_t]
        lib.pkr_graph_set_urgent.restype = c_int
    lib._pkc_graph_bound = True
    return lib
