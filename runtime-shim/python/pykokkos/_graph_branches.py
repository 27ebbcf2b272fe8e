"""The edges of a pk.Graph step: which launch waits for which.

A step's launches are captured on one stream, which would make each wait
for the one before. Instead, each region of the step (a pk.parallel_for, a
Halo's exchange(), start() or finish()) says which elements of which memory
it reads and writes, as boxes: a kernel's from pkc's footprint of its work
item (pkc_footprint_v1, ir/footprint.c) and its launch bounds, a halo's
from its faces. A region then waits only for the earlier regions it
conflicts with (a write and another access to overlapping elements, the
rule of a task graph's data dependences), and the CUDA graph gets a branch
wherever two regions do not: the faces of a domain updated side by side,
an interior update beside the halo exchange it does not touch. Where a
region's accesses are not known (a kernel pkc cannot bound, a fused chain,
a TeamPolicy) it conflicts with every region before and after it, which is
the order of plain stream capture.

A region is urgent when it is a halo's (a label "Halo.*") or waits, through
the regions it waits for, for one: the work on the faces' path (the rim
cells updated once the ghosts arrive, and what follows them). On CUDA its
kernels get the device's greatest priority in the graph, so that their
blocks go ahead of the waiting blocks of the bulk update beside them instead
of after its last wave (bench/mpi/graph_timeline.py showed the rim strips of
an overlapped 128^3 step start only once the inner update had drained; on
one GPU the priority measured within noise, docs/PERFORMANCE.md).

A gated region runs beside the halo exchange it would wait for (issue 25's
in-kernel gate): where a launch conflicts with one exchange of its step
only by reading ghost cells that exchange writes, and both sides can do it
(the exchange counts its completions, a Halo's gate_source; the kernel
honours pkc_policy.gate, its footprint's "gate"), the launch does not wait
for the exchange in the graph; instead its points whose reads can reach a
ghost (index < head or >= tail along a dimension) wait in the kernel for
the exchange's count, and the launch starts once every block of the
exchange has begun (a launch-order edge), so that spinning points never
keep the exchange off the GPU. Only a CUDA capture gates (CaptureEdges).

A send-only exchange takes the waiting out of the later exchanges of a
capture (NVSHMEM's direct exchange of one dimension, in a CUDA capture):
where every region that touched the ghosts after the halo's exchange
before was gated on it, the next exchange of that halo only sends its
faces (storing them into the neighbours' Views and raising each
neighbour's count of exchanges), and its readers' gates wait for the count
the neighbours raise here: no kernel of this GPU waits for the faces, and
the update after the copy back starts at once (PKC_GRAPH_SEND=0: never).
The capture's first exchange stays whole, so each replay starts from
counts the host can reason about.

An access is (key, box, write). key: ("mem", pointer, first byte, end byte,
shape, strides) for a View's memory (device memory in a capture), or
("res", name) for state that has no elements (a halo's flags); box: per
dimension an inclusive (lo, hi), or None for every element; write: bool.
"""

ANY = None   # a region's accesses when they are not known: everything


def memory_key(v, device):
    """("mem", ...) for View v's elements: on the device (device=True, None
    where v is not there) or in its host array."""
    a = v._a
    if device:
        d = v._dev
        if d is not None:
            ptr = d.ptr
        else:
            p = getattr(v, "_parent", None)
            if p is None or p._dev is None:
                return None
            ptr = p._dev.ptr + (a.ctypes.data - p._a.ctypes.data)
    else:
        ptr = a.ctypes.data
    lo = hi = 0
    for n, st in zip(a.shape, a.strides):
        if n == 0:
            return ("mem", ptr, ptr, ptr, a.shape, a.strides)
        if st < 0:
            lo += (n - 1) * st
        else:
            hi += (n - 1) * st
    return ("mem", ptr, ptr + lo, ptr + hi + a.itemsize, tuple(a.shape), tuple(a.strides))


def _boxes_overlap(a, b):
    if a is None or b is None:
        return True
    for (alo, ahi), (blo, bhi) in zip(a, b):
        if ahi < alo or bhi < blo or ahi < blo or bhi < alo:
            return False
    return True


def _box_empty(box):
    return box is not None and any(hi < lo for lo, hi in box)


def _touch(x, y):
    """Whether accesses x and y may touch one element, one of them writing."""
    (kx, bx, wx), (ky, by, wy) = x, y
    if not (wx or wy) or _box_empty(bx) or _box_empty(by):
        return False
    if kx[0] != ky[0]:
        return False
    if kx[0] == "res":
        return kx == ky
    if kx[1] == ky[1] and kx[4:] == ky[4:]:       # one View's elements: compare boxes
        return _boxes_overlap(bx, by)
    return kx[2] < ky[3] and ky[2] < kx[3]          # other Views: byte ranges


def conflict(a, b):
    """Whether regions with accesses a and b must run in order."""
    if a is ANY or b is ANY:
        return True
    return any(_touch(x, y) for x in a for y in b)


class GateRequest:
    """What a launch that could be gated says of itself: per View key its
    footprint's dims (per View dimension (work index, lo, hi), (-1, lo, hi)
    or None: pkc_footprint_v1) and the launch bounds lo, hi (lists)."""

    __slots__ = ("dims", "lo", "hi")

    def __init__(self, dims, lo, hi):
        self.dims, self.lo, self.hi = dims, lo, hi


def _ghost_side(box, shape):
    """(dimension, low?) of a ghost box: the first dimension along which it
    is a slab at one end of the View; None if it is none."""
    for v, ((lo, hi), n) in enumerate(zip(box, shape)):
        if lo == 0 and hi < n - 1:
            return v, True
        if hi == n - 1 and lo > 0:
            return v, False
    return None


def gate_bounds(request, pairs):
    """(head, tail) per work index of the launch `request` (GateRequest): a
    point at or past head and before tail along every index reads none of
    the ghost boxes of `pairs` ([(key, box)] the exchange writes and the
    launch reads); None where the footprint cannot say (a View dimension
    not an offset of a work index) or more than half the points would wait."""
    head, tail = list(request.lo), list(request.hi)
    for key, box in pairs:
        dims = request.dims.get(key)
        side = _ghost_side(box, key[4]) if dims is not None and box is not None else None
        if side is None:
            return None
        v, low = side
        d = dims[v]
        if d is None or d[0] < 0 or d[0] >= len(head):
            return None
        i, off_lo, off_hi = d
        if low:
            head[i] = max(head[i], box[v][1] - off_lo + 1)
        else:
            tail[i] = min(tail[i], box[v][0] - off_hi)
    total = free = 1
    for lo, hi, h, t in zip(request.lo, request.hi, head, tail):
        total *= max(hi - lo, 0)
        free *= max(min(t, hi) - max(h, lo), 0)
    if total == 0 or 2 * free < total:
        return None
    return head, tail


class Planner:
    """The regions of one step, in order. enter(label, accesses) returns
    the earlier regions the new one waits for (transitively reduced: none
    that another of them already waits for); nested regions (a halo's own
    packing kernels) belong to the outer one. gating=True: a launch may be
    gated on an exchange of its step instead of waiting for it (module
    docstring; self.gates)."""

    def __init__(self, gating=False):
        self.labels, self.accesses, self.waits, self._above = [], [], [], []
        self.urgent = []   # per region: a halo's, or after one (module docstring)
        self.depth = 0
        self.first = 0     # the first region of the step being planned
        self.start_first = []   # per region: the halo regions whose blocks start before it
        self._led = set()       # halo regions some region already lets start first
        self.gating = gating
        self.sources = []  # per region: a halo's gate source (callable) or None
        self.gates = {}    # region -> (exchange region, head, tail) of a gated launch
        self.fusing = gating   # send-only exchanges may be planned (module docstring)
        self.send_only = []    # the exchange regions that only send
        self._exchanges = {}   # halo -> its exchange regions so far

    def next_step(self):
        """The regions entered from now on are the next step's (pk.Graph with
        steps_per_graph > 1): they wait for earlier steps' regions as for
        their own, but are urgent only through a halo of their own step."""
        self.first = len(self.labels)

    def enter(self, label, accesses, gate=None):
        """gate: a halo region's gate source (a callable giving the counter
        and target of its last exchange, or None) or a launch's GateRequest."""
        self.depth += 1
        if self.depth > 1:
            return None
        k = len(self.labels)
        if label == "Halo.exchange" and hasattr(gate, "cut"):
            self._send_only(k, gate, accesses)
        need = [j for j in range(k) if conflict(self.accesses[j], accesses)]
        gated = self._gate(need, accesses, gate) if isinstance(gate, GateRequest) else None
        if gated is not None:
            need.remove(gated[0])
            self.gates[k] = gated
        implied = set()
        for j in need:
            implied |= self._above[j]
        waits = [j for j in need if j not in implied]
        self.labels.append(label)
        self.accesses.append(accesses)
        self.waits.append(waits)
        self.sources.append(gate if callable(gate) else None)
        self._above.append(implied | set(need))
        self.urgent.append(str(label).startswith("Halo.")
                           or any(self.urgent[j] for j in need if j >= self.first))
        # the first kernel beside this step's Halo.start (waiting neither for
        # it nor for what it waits for) lets the exchange's blocks start first
        first = []
        if accesses is not ANY and not self.urgent[k]:
            first = [j for j in range(self.first, k) if self.labels[j] == "Halo.start"
                     and j not in self._above[k] and j not in self._led]
            self._led.update(first)
        self.start_first.append(first)
        return waits

    def ungate(self, k):
        """Region k, planned gated, waits for its exchange instead (the
        driver could not add the launch-order edge); returns the exchange's
        region."""
        j = self.gates.pop(k)[0]
        self.waits[k].append(j)
        self._above[k] |= self._above[j] | {j}
        self.urgent[k] = True   # after a halo of its step
        return j

    def _gate(self, need, accesses, request):
        """(exchange region, head, tail) where the launch entering with
        `accesses` can be gated on one exchange of this step instead of
        waiting for it, else None."""
        if not self.gating or accesses is ANY:
            return None
        halos = [j for j in need if j >= self.first and self.sources[j] is not None]
        if len(halos) != 1:
            return None
        j = halos[0]
        if self.sources[j]() is None or self.accesses[j] is ANY:
            return None
        pairs = []
        for x in accesses:
            for y in self.accesses[j]:
                if not _touch(x, y):
                    continue
                if x[2] or not y[2] or x[0] != y[0]:   # only the launch's reads of ghosts
                    return None
                pairs.append((x[0], y[1]))
        bounds = gate_bounds(request, pairs)
        return None if bounds is None else (j, bounds[0], bounds[1])

    def _send_only(self, k, src, accesses):
        """Makes halo exchange k (its source src, mpi._ExchangeSource; its
        accesses: the ghosts it writes) send only (module docstring) where the
        halo's exchange before it in the capture had every region that touched
        those ghosts since gated on it: the steps repeat, so the regions after
        this one will be gated the same way, on the count the neighbours
        raise."""
        seen = self._exchanges.setdefault(src.halo, [])
        ghosts = [] if accesses is ANY else [(x[0], x[1]) for x in accesses
                                             if x[2] and x[0][0] == "mem"]
        if ghosts and self.fusing and seen and src.cut() is not None:
            j = seen[-1]
            if all(self.gates.get(i, (None,))[0] == j for i in range(j + 1, k)
                   if self._touches(i, ghosts)):
                src.send_only(1 + sum(1 for x in seen if x in self.send_only))
                self.send_only.append(k)
        seen.append(k)

    def _touches(self, i, boxes):
        """Whether region i may touch one of `boxes` ([(key, box)])."""
        acc = self.accesses[i]
        return acc is ANY or any(x[0] == key and _boxes_overlap(x[1], b)
                                 for x in acc for key, b in boxes)

    def exit(self):
        self.depth -= 1
        return self.depth == 0

    def edges(self):
        """[(label, [indices of the regions it waits for])], in step order."""
        return [(lab, list(w)) for lab, w in zip(self.labels, self.waits)]


class CaptureEdges:
    """A Planner that sets the dependencies of a CUDA stream capture
    (libpkcrt's pkr_graph_deps / pkr_graph_set_deps): a region's first node
    depends on the last nodes of the regions it waits for."""

    def __init__(self, lib):
        import ctypes
        self.lib, self.plan, self.ends = lib, Planner(), []
        self.err = ctypes.create_string_buffer(512)
        self._buf = (ctypes.c_void_p * 256)()
        self.error = None   # why the edges could not be set: the graph is not used
        self._entered = []  # the nodes the region being captured started after
        # urgent regions' kernels at the greatest priority, where the driver can
        # (PKC_GRAPH_URGENT=0: none, for A/B runs)
        import os
        self._urgent = (getattr(lib, "pkr_graph_set_urgent", None)
                        if os.environ.get("PKC_GRAPH_URGENT", "1") != "0" else None)
        # launch-order edges from an exchange to the update beside it
        # (PKC_GRAPH_LAUNCH_ORDER=1, where the driver can: CUDA >= 12.3 and a
        # GPU with programmatic launches, compute capability 9.0 or later;
        # within noise on one H200, docs/PERFORMANCE.md)
        self._order = (getattr(lib, "pkr_graph_set_deps_started", None)
                       if os.environ.get("PKC_GRAPH_LAUNCH_ORDER", "0") == "1" else None)
        # gated launches (module docstring; PKC_GRAPH_GATE=0: none, for A/B
        # runs) need the launch-order edge, so where the driver has none, none
        self._started = getattr(lib, "pkr_graph_set_deps_started", None)
        # gates on counts that other GPUs raise load them at system scope (the
        # PTX memory model's rule for another GPU's release; on two H200s the
        # step took the same time as with GPU-scope loads)
        from ._abiconst import GATE_SYSTEM
        self._remote_scope = GATE_SYSTEM
        self.plan.gating = self._started is not None and os.environ.get("PKC_GRAPH_GATE",
                                                                        "1") != "0"

    def _fail(self, what):
        """Stops setting edges (a capture invalidated by a call of the step
        reads as not capturing); pk.Graph reports the capture's own failure,
        else this one, and uses no graph."""
        if self.error is None:
            self.error = (f"{what} failed: {self.err.value.decode()} "
                          f"(PKC_GRAPH_BRANCHES=0 captures the step in stream order)")

    def _deps(self):
        n = self.lib.pkr_graph_deps(self._buf, len(self._buf), self.err, len(self.err))
        if n > len(self._buf):
            self.err.value = f"{n} dependencies, more than {len(self._buf)}".encode()
        if n < 0 or n > len(self._buf):
            self._fail("reading the capture's dependencies")
            return []
        return [self._buf[i] for i in range(n)]

    def _set(self, nodes, started=()):
        """The next captured node depends on `nodes`; with `started` (and
        PKC_GRAPH_LAUNCH_ORDER=1) also on those kernels, but only until their
        blocks have all begun (libpkcrt's pkr_graph_set_deps_started: an
        exchange's blocks then hold SMs before an update beside it fills
        them); plain edges where the driver cannot (a node not a kernel,
        CUDA before 12.3)."""
        import ctypes
        arr = (ctypes.c_void_p * max(len(nodes), 1))(*nodes)
        if started and self._order is not None:
            first = (ctypes.c_void_p * len(started))(*started)
            if not self._order(arr, len(nodes), first, len(started), self.err, len(self.err)):
                return
            self._order = None   # not again in this capture
        if self.lib.pkr_graph_set_deps(arr, len(nodes), self.err, len(self.err)):
            self._fail("setting the capture's dependencies")

    def enter(self, label, accesses, gate=None):
        """Sets the dependencies of the region's first node; returns the gate
        of a gated launch, (counter address, target, head, tail), else None."""
        waits = self.plan.enter(label, accesses, gate)
        if waits is None or self.error:
            return None
        nodes = []
        for j in waits:
            nodes += [n for n in self.ends[j] if n not in nodes]
        k = len(self.plan.labels) - 1
        if k in self.plan.gates:
            gated = self._set_gated(nodes, k)
            if gated is not None:
                return gated
            nodes += [n for n in self.ends[self.plan.ungate(k)] if n not in nodes]
        started = []
        if self._order is not None:
            for j in self.plan.start_first[-1]:
                started += [n for n in self.ends[j] if n not in nodes + started]
        self._set(nodes, started)
        self._entered = nodes + started
        return None

    def _set_gated(self, nodes, k):
        """The dependencies of gated launch k: `nodes`, and its exchange's
        kernel until every block of it began; its gate, or None where the
        driver cannot (then the launch waits for the exchange instead)."""
        import ctypes
        j, head, tail = self.plan.gates[k]
        source = self.plan.sources[j]()
        if source is not None and source[2:] == ("remote",):
            # raised by the neighbours' send-only exchanges, on their GPUs:
            # nothing here to let start first
            self._set(nodes)
            self._entered = list(nodes)
            return source[0], source[1], head, tail, self._remote_scope
        started = [n for n in self.ends[j] if n not in nodes]
        if source is None or len(started) != 1:
            return None
        arr = (ctypes.c_void_p * max(len(nodes), 1))(*nodes)
        first = (ctypes.c_void_p * 1)(*started)
        if self._started(arr, len(nodes), first, 1, self.err, len(self.err)):
            return None
        self._entered = nodes + started
        return source[0], source[1], head, tail

    def exit(self):
        if self.plan.exit():
            ends = [] if self.error else self._deps()
            self.ends.append(ends)
            new = [n for n in ends if n not in self._entered]   # none: it launched nothing
            if new and self._urgent is not None and self.plan.urgent[len(self.ends) - 1]:
                import ctypes
                arr = (ctypes.c_void_p * len(new))(*new)
                self._urgent(arr, len(new), self.err, len(self.err))   # an old driver: no priority

    def join(self):
        """Before the capture ends: the stream depends on every region's
        last nodes, so that nothing captured is left out of the step."""
        nodes = []
        for e in self.ends:
            nodes += [n for n in e if n not in nodes]
        if nodes and not self.error:
            self._set(nodes)


class DryEdges:
    """A Planner for a step run as plain calls (host backends, a first
    step): the same edges, for pk.Graph.edges(), with nothing to set."""

    def __init__(self):
        self.plan = Planner()
        self.error = None

    def enter(self, label, accesses, gate=None):
        self.plan.enter(label, accesses, gate)

    def exit(self):
        self.plan.exit()

    def join(self):
        pass
