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

A fused send takes the exchange out of a multi-step capture's later steps
(pk.Graph(steps_per_graph=U) with the NVSHMEM transport storing faces
straight into the neighbours' Views): where a step begins with
halo.exchange() and a later launch of the step writes the halo View's
faces at its own index (a copy back), that launch also stores the faces
into the neighbours' ghosts (pkc_send: its face points run first, then
raise the neighbour's arrived flag), and the next step's exchange only
waits for the faces that came (no kernel storing faces beside the update).
The last step of the capture sends nothing, so each replay starts with a
whole exchange. Planned only where nothing else of the step touches the
ghosts after the launch or writes the faces (checked when the next
exchange is entered; FusionRefused otherwise, and pk.Graph captures again
without sends; PKC_GRAPH_SEND=0: never).

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
    or None: pkc_footprint_v1) and the launch bounds lo, hi (lists);
    written: the keys of the Views it only writes; send: whether it can
    also send a halo's faces (pkc_send: rank 3, its footprint's "send")."""

    __slots__ = ("dims", "lo", "hi", "written", "send")

    def __init__(self, dims, lo, hi, written=(), send=False):
        self.dims, self.lo, self.hi = dims, lo, hi
        self.written, self.send = set(written), send


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


class FusionRefused(RuntimeError):
    """A fused send planned for a launch turned out not to hold (something
    after it in the step touches the ghosts or writes the faces): the
    capture is made again without sends."""


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
        self.fusing = gating   # fused sends may be planned (module docstring)
        self.last_step = True  # the step being entered is the capture's last
        self.sends = {}    # region -> (exchange region, head, tail, pkc_send address)
        self._pending = {} # halo -> what its next exchange must find (_send)

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
        if callable(gate) and getattr(gate, "halo", None) in self._pending:
            self._elide(k, gate)
        need = [j for j in range(k) if conflict(self.accesses[j], accesses)]
        gated = self._gate(need, accesses, gate) if isinstance(gate, GateRequest) else None
        if gated is not None:
            need.remove(gated[0])
            self.gates[k] = gated
        elif isinstance(gate, GateRequest):
            sent = self._send(k, need, accesses, gate)
            if sent is not None:
                self.sends[k] = sent
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

    def _send(self, k, need, accesses, request):
        """(exchange region, head, tail, pkc_send address) where launch k can
        send the faces of the halo exchanged first in its step, else None
        (module docstring): it writes the View at its own index only, its
        box's first and last planes along the cut are the faces, it touches
        no ghost, and every region of the step that touches the ghosts comes
        before it."""
        j = self.first
        if (not self.fusing or self.last_step or not request.send or accesses is ANY
                or j >= k or self.labels[j] != "Halo.exchange"):
            return None
        src = self.sources[j]
        d = src.cut() if src is not None and hasattr(src, "cut") else None
        if d is None:
            return None
        key = src.key()
        mine = [x for x in accesses if x[0] == key]
        dims = request.dims.get(key)
        if (len(mine) != 1 or not mine[0][2] or key not in request.written or dims is None
                or [None if x is None else tuple(x) for x in dims]
                != [(v, 0, 0) for v in range(len(dims))]):
            return None
        box, faces, ghosts = mine[0][1], src.send_faces(), src.ghost_boxes()
        head, tail = list(request.lo), list(request.hi)
        for side, f in faces:
            if any(not (f[v][0] <= box[v][0] and box[v][1] <= f[v][1])
                   for v in range(len(box)) if v != d):
                return None
            if side == 0 and box[d][0] == f[d][0]:
                head[d] = f[d][1] + 1
            elif side == 1 and box[d][1] == f[d][1]:
                tail[d] = f[d][0]
            else:
                return None
        if not faces or head[d] > tail[d] or any(_boxes_overlap(box, g) for g in ghosts):
            return None
        above = set(need)
        for n in need:
            above |= self._above[n]
        for i in range(j, k):
            if i not in above and self._touches(i, key, ghosts, ()):
                return None
        desc = src.descriptor()
        if not desc:
            return None
        self._pending[src.halo] = (k, j, key, [f for _, f in faces], ghosts)
        return j, head, tail, desc

    def _touches(self, i, key, reads, writes):
        """Whether region i touches View `key` in one of the boxes `reads`
        (any access) or writes it in one of `writes`."""
        acc = self.accesses[i]
        if acc is ANY:
            return True
        return any(x[0] == key and (any(_boxes_overlap(x[1], b) for b in reads)
                                    or x[2] and any(_boxes_overlap(x[1], b) for b in writes))
                   for x in acc)

    def _elide(self, k, src):
        """Halo exchange k follows a launch that sent its faces: checks that
        the rest of that launch's step left them and the ghosts alone, and
        tells the halo to send nothing this time (FusionRefused if not)."""
        c, first, key, faces, ghosts = self._pending.pop(src.halo)
        if k != self.first or any(self._touches(i, key, ghosts, faces) for i in range(c + 1, k)) \
                or any(self._touches(i, key, (), faces) for i in range(first + 1, c)):
            raise FusionRefused(f"pk.Graph: the faces sent by launch {c} of the step are "
                                f"touched before the next exchange")
        src.elide()

    def unsent(self):
        """The halos whose next exchange never came (a capture ending with a
        send planned): the capture must not be used."""
        return list(self._pending)

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
        if k in self.plan.sends:   # a fused send: the launch's pkc_gate carries it
            _, head, tail, desc = self.plan.sends[k]
            return 0, 0, head, tail, desc
        return None

    def _set_gated(self, nodes, k):
        """The dependencies of gated launch k: `nodes`, and its exchange's
        kernel until every block of it began; its gate, or None where the
        driver cannot (then the launch waits for the exchange instead)."""
        import ctypes
        j, head, tail = self.plan.gates[k]
        source = self.plan.sources[j]()
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
        if self.plan.unsent():
            raise FusionRefused("pk.Graph: a fused send without the exchange after it")
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
