"""Halo exchange for structured grids over MPI (mpi4py), one device per rank.

    from mpi4py import MPI
    import pykokkos as pk
    from pykokkos.mpi import Halo

    cart = MPI.COMM_WORLD.Create_cart(MPI.Compute_dims(size, 2), periods=[False, False])
    u = pk.View([ny + 2, nx + 2], pk.double)      # one ghost layer per side
    halo = Halo(cart, u, width=1)
    halo.exchange()                               # faces, then corners

    halo.start(); <update the interior>; halo.finish(); <update the boundary>

A View of rank 2 or 3 (one dimension per dimension of the Cartesian
communicator, same order) holds `width` ghost layers on both sides of every
dimension; its owned cells are [width, n - width) along each. exchange()
fills every ghost layer from the neighbouring ranks one dimension after the
other, so edge and corner ghosts are right too (9- and 27-point stencils).
start()/finish() exchange all faces at once with non-blocking calls
(MPI.Isend/Irecv), so that the interior can be updated while they travel
(the overlap of the autonomous multi-GPU paper); corner ghosts are then not
exchanged (5- and 7-point stencils need none). Sides without a neighbour
(MPI.PROC_NULL, a non-periodic edge) are left as they are: boundary values
stay the program's.

Data path: for pk.Views of float64/float32, faces are packed into and
unpacked from contiguous buffer Views by kernels pkc compiled
(pykokkos/_halo_kernels.py), where the View lives: on a GPU backend only the
faces' buffers are staged through host memory for MPI (never raw device
pointers into MPI, which need not be CUDA-aware), the View stays on the
device. On CUDA, where CuPy has NCCL (cupy.cuda.nccl), the buffers go
device to device with NCCL grouped send/recv instead (the communicator is
made once per Cartesian communicator, its id broadcast over MPI;
PKC_HALO_NCCL=0 keeps the host staging), and the host never waits: packing
kernels, NCCL calls and unpacking kernels are queued in stream order
(exchange() on the legacy default stream, which orders them with the
kernels' stream: Kokkos 3.4's default stream or per-thread stream, Kokkos
4's blocking stream); start() hands the faces to NCCL on a stream of its
own, joined by CUDA events, so the interior update queued between start()
and finish() runs while they travel. A View read on the host, pk.fence()
or a reduction waits for the exchange as for any kernel. numpy arrays
and other dtypes are packed with numpy on the host (a GPU View of another
dtype is then read back whole).

Halo(..., transport='nvshmem') (CUDA backend; pykokkos/_nvshmem.py finds
NVSHMEM and builds pykokkos/_nvshmem_halo.cu on first use) exchanges faces
the way the autonomous multi-GPU paper does: the packing kernel stores each
face straight into the neighbour GPU's receive buffer in NVSHMEM's
symmetric heap (GPU-initiated; a put-with-signal where the neighbour is not
reachable by stores, or with PKC_HALO_NVSHMEM_P2P=0), a one-thread kernel
raises the neighbour's flag, the neighbour's stream waits for its flag
before unpacking and then hands the buffer back (the sender's next packing
waits for that): no NCCL, no host wait, and start()/finish() overlap with
no second stream (the wait is queued by finish()). exchange() of a View
already on the device does all of that for one dimension in one fused
kernel (_nvshmem_halo.cu, exchange_faces; PKC_HALO_NVSHMEM_FUSED=0 keeps the
separate kernels), and where every rank can map its neighbours' Views (CUDA
IPC, one host) that kernel stores the faces straight into their ghost cells,
with no buffers (exchange_direct; PKC_HALO_NVSHMEM_DIRECT=0 keeps the
buffers). The counts behind the
flags live on the device, so a pk.Graph step captures the exchange whole
(the host then issues nothing per step); there start() queues the fused
kernel too, which the captured graph runs as a branch beside the update
of the inner cells (pk.Graph's edges: pykokkos/_graph_branches.py). Every
rank of MPI.COMM_WORLD takes part. NVSHMEM starts a progress thread per rank: give ranks more
than one core (`mpirun --bind-to none` or `--bind-to socket`; Open MPI binds
each rank to one core when there are two ranks or fewer), or the thread
and Python share it (a warning says so).
"""
import ctypes
import os
import sys
import time

from . import _graph
from . import _types as T
from ._errors import PkcRuntimeError, PkcValueError
from ._view import View, numpy as _numpy

__all__ = ["Halo", "local_rank", "cuda_aware", "abort_on_failure", "TRANSPORTS"]

# Halo(transport=...): 'auto' NCCL where the CUDA backend has it (CuPy's
# cupy.cuda.nccl), else MPI through host memory; 'nccl' and 'nvshmem' insist
# (CUDA backend); 'mpi' always stages faces through host memory for mpi4py.
TRANSPORTS = ("auto", "nccl", "nvshmem", "mpi")


_failure = {"installed": False, "exit": None}   # the hooks, the status sys.exit was given


def _abort(code, why):
    """MPI.COMM_WORLD.Abort(code) where mpi4py runs MPI with other ranks."""
    MPI = sys.modules.get("mpi4py.MPI")
    try:
        if MPI is None or not MPI.Is_initialized() or MPI.Is_finalized():
            return
        world = MPI.COMM_WORLD
        if world.Get_size() < 2:
            return
        print(f"pykokkos.mpi: rank {world.Get_rank()} of {world.Get_size()} failed ({why}): "
              "aborting the job (MPI.COMM_WORLD.Abort), which would wait for it forever",
              file=sys.stderr, flush=True)
        world.Abort(code)
    except Exception:   # never hide the failure being reported
        pass


def _exit_status_code(status):
    if status is None or status is True or status is False:
        return int(bool(status))
    return status if isinstance(status, int) else 1   # sys.exit("message") exits 1


def abort_on_failure():
    """Makes a failing rank end the whole MPI job, as `python -m mpi4py` does:
    an uncaught exception (traceback printed first) or sys.exit with a
    non-zero status calls MPI.COMM_WORLD.Abort, so the other ranks do not
    wait for it forever. Installed when pykokkos.mpi is imported and when
    the shim loads a module under an MPI launcher; does nothing where mpi4py
    is not in use or there is one rank. Idempotent."""
    if _failure["installed"]:
        return
    _failure["installed"] = True
    previous_hook, exit_ = sys.excepthook, sys.exit

    def hook(kind, value, tb):
        previous_hook(kind, value, tb)
        _abort(1, f"uncaught {kind.__name__}: {value}")

    def recording_exit(status=None):
        _failure["exit"] = status
        exit_(status)

    def at_exit():
        code = _exit_status_code(_failure["exit"])
        if code:
            _abort(code, f"sys.exit({_failure['exit']!r})")

    import atexit
    sys.excepthook, sys.exit = hook, recording_exit
    atexit.register(at_exit)   # runs before mpi4py finalizes MPI


abort_on_failure()


_nccl_comms = {}   # id(Cartesian communicator) -> (NcclCommunicator, stream), or None


def _nccl(comm):
    """(NcclCommunicator, CuPy stream) over comm's ranks for the CUDA backend,
    made once per communicator (rank 0 makes the id, MPI broadcasts it); None
    where the backend is not CUDA, CuPy or its NCCL is missing, two ranks
    share a GPU (NCCL refuses that: invalid usage), or PKC_HALO_NCCL=0."""
    key = id(comm)
    if key in _nccl_comms:
        return _nccl_comms[key]
    got = None
    from ._loader import RUNTIME
    if RUNTIME.backend() == "cuda" and os.environ.get("PKC_HALO_NCCL", "1") != "0":
        try:
            import cupy
            from cupy.cuda import nccl
            ok = bool(getattr(nccl, "available", True))
        except Exception:   # no CuPy, or a CuPy built without NCCL
            ok = False
        gpu = None
        if ok:
            from mpi4py import MPI
            from ._spaces import get_device_id
            try:
                gpu = (MPI.Get_processor_name(), cupy.cuda.Device(get_device_id()).pci_bus_id)
            except Exception:   # no device to ask: NCCL could not run either
                ok = False
        gpus = comm.allgather(gpu if ok else None)
        ok = all(g is not None for g in gpus) and len(set(gpus)) == len(gpus)
        if ok:   # every rank or none
            from ._spaces import get_device_id
            cupy.cuda.Device(get_device_id()).use()
            uid = comm.bcast(nccl.get_unique_id() if comm.Get_rank() == 0 else None, root=0)
            got = (nccl.NcclCommunicator(comm.Get_size(), uid, comm.Get_rank()),
                   _urgent_stream(cupy))
            _nccl_connect(comm, got)
    _nccl_comms[key] = got
    return got


def _urgent_stream(cupy):
    """A non-blocking CuPy stream of the device's highest priority: NCCL's
    kernels of a start() get SMs as soon as blocks of the interior update
    queued after them retire, instead of after the whole update."""
    try:
        _, greatest = cupy.cuda.runtime.deviceGetStreamPriorityRange()
        return cupy.cuda.Stream(non_blocking=True, priority=greatest)
    except (TypeError, AttributeError):   # a CuPy without stream priorities
        return cupy.cuda.Stream(non_blocking=True)


def _nccl_connect(comm, nccl_stream):
    """One element to and from every Cartesian neighbour: NCCL sets up its
    peer connections on first use, which would otherwise fall on the first
    exchange (about a second)."""
    import cupy
    from cupy.cuda import nccl
    from mpi4py import MPI
    ncomm, stream = nccl_stream
    peers = sorted({p for d in range(comm.Get_dim()) for p in comm.Shift(d, 1)
                    if p != MPI.PROC_NULL})
    if not peers:
        return
    send = cupy.zeros(len(peers))
    recv = cupy.zeros(len(peers))
    nccl.groupStart()
    for k, p in enumerate(peers):
        ncomm.send(send.data.ptr + 8 * k, 1, nccl.NCCL_FLOAT64, p, stream.ptr)
        ncomm.recv(recv.data.ptr + 8 * k, 1, nccl.NCCL_FLOAT64, p, stream.ptr)
    nccl.groupEnd()
    stream.synchronize()


def cuda_aware():
    """Whether the MPI library says it is CUDA-aware (device pointers may go
    to mpi4py): mpi4py >= 4's MPI.Query_cuda_support() (MPIX_Query_cuda_support
    of Open MPI / MPICH); False where it cannot say (an MPI is never assumed
    CUDA-aware). Halo's device path is NCCL or host staging either way; this
    tells programs whether they may pass device Views to mpi4py themselves."""
    from mpi4py import MPI
    query = getattr(MPI, "Query_cuda_support", None)
    try:
        return bool(query()) if query is not None else False
    except Exception:   # NotImplementedError where the library lacks the extension
        return False


def local_rank():
    """The node-local rank from the MPI launcher's environment (0 without one)."""
    from ._spaces import _env_int, _LOCAL_RANK
    r = _env_int(_LOCAL_RANK)
    return 0 if r is None else r


class Halo:
    """Ghost-layer exchange of one View over a Cartesian communicator (see
    the module docstring). comm: an mpi4py Cartcomm whose number of
    dimensions is the View's rank; width >= 1: ghost layers per side, each
    dimension of the View at least 3 * width long; transport: one of
    TRANSPORTS (default $PKC_HALO_TRANSPORT, else 'auto'), the same on every
    rank. Raises ValueError otherwise (on every rank alike), RuntimeError
    where the transport asked for cannot run (NCCL or NVSHMEM missing)."""

    def __init__(self, comm, view, width=1, transport=None):
        np = _numpy()
        self.comm, self.view, self.width = comm, view, int(width)
        nd = len(view.shape)
        self.dtype = np.dtype(view.dtype.np_dtype if isinstance(view, View) else view.dtype)
        self.transport = transport or os.environ.get("PKC_HALO_TRANSPORT") or "auto"
        local = self._local_error(comm, nd, width) or self._transport_error(view)
        # one collective: every rank sees every rank's extents and dtype and
        # raises the same error (a mismatch would hang or reinterpret bits)
        everyone = comm.allgather((local, tuple(view.shape), self.dtype.str, self.width,
                                   self.transport))
        err = self._consistency_error(comm, everyone)
        if err:
            raise PkcValueError(f"pykokkos.mpi.Halo: {err}")
        self.nbr = [comm.Shift(d, 1) for d in range(nd)]   # (low, high) per dimension
        self._reqs, self._recv = [], []
        self._bufs = {}      # (slab index, send?) -> buffer View (kernel packing)
        self._shmem = None   # the NVSHMEM transport's state (_ShmemFaces)
        self._kernels = None  # pykokkos._halo_kernels for float64/float32 Views
        if isinstance(view, View) and self.dtype in (np.float64, np.float32):
            from . import _halo_kernels
            from ._loader import RUNTIME
            self._kernels = _halo_kernels
            RUNTIME.module_for(_halo_kernels.__file__)   # loaded now, not in an exchange
            if self.transport == "nvshmem":   # collective: every rank makes its Halo
                self._shmem = _ShmemFaces(self, [tuple(e[1]) for e in everyone])
            elif self.transport != "mpi" and _nccl(comm) is not None:
                self._prepare_device()
            elif self.transport == "nccl":
                raise PkcRuntimeError("pykokkos.mpi.Halo(transport='nccl'): NCCL is not "
                                      "available (CUDA backend with CuPy's cupy.cuda.nccl "
                                      "needed, and PKC_HALO_NCCL not 0)")
        self._join = None    # start() on the NCCL path: the event finish() waits for
        self.seconds = 0.0   # wall time spent in exchange/start/finish (packing, waiting)

    def _local_error(self, comm, nd, width):
        """What is wrong with this rank's View and communicator, or None."""
        if nd not in (2, 3):
            return f"the View must have rank 2 or 3, got {nd}"
        if getattr(comm, "ndim", getattr(comm, "dim", None)) != nd:
            return (f"a Cartesian communicator with {nd} dimensions is needed for a "
                    f"rank-{nd} View (comm.Create_cart(dims, periods))")
        if self.width < 1 or any(n < 3 * self.width for n in self.view.shape):
            return (f"width {width} needs every extent >= {3 * max(self.width, 1)}, "
                    f"the View has {tuple(self.view.shape)}")
        return None

    def _transport_error(self, view):
        """What is wrong with the transport asked for on this rank, or None."""
        if self.transport not in TRANSPORTS:
            return (f"transport {self.transport!r} is not one of "
                    f"{', '.join(repr(t) for t in TRANSPORTS)}")
        if self.transport in ("nccl", "nvshmem"):
            from ._loader import RUNTIME
            backend = RUNTIME.backend()
            if backend != "cuda":
                return (f"transport {self.transport!r} moves faces between GPUs and needs the "
                        f"CUDA backend (PKC_BACKEND=cuda); this run uses {backend}: leave "
                        "transport to 'auto'")
            if not isinstance(view, View) or self.dtype not in (_numpy().float64,
                                                                _numpy().float32):
                return (f"transport {self.transport!r} exchanges float64/float32 pk.Views; "
                        f"this is a {type(view).__name__} of {self.dtype.name}")
        return None

    @staticmethod
    def _consistency_error(comm, everyone):
        """The first problem among all ranks' (error, shape, dtype, width), in
        rank order, the same on every rank: a rank's own error; then a dtype
        or width unlike rank 0's; then neighbours along a dimension d whose
        faces (the extents of the other dimensions) differ. None if none."""
        for r, (err, *_) in enumerate(everyone):
            if err:
                return f"rank {r}: {err}"
        _, shape0, dtype0, width0, transport0 = everyone[0]
        for r, (_, shape, dtype, width, transport) in enumerate(everyone):
            if transport != transport0:
                return (f"rank {r} asks for transport {transport!r}, rank 0 for "
                        f"{transport0!r}: use one transport")
            if dtype != dtype0:
                return (f"rank {r}'s View holds {_numpy().dtype(dtype).name}, rank 0's "
                        f"{_numpy().dtype(dtype0).name}: every rank's View needs the same dtype")
            if width != width0:
                return f"rank {r} asks for width {width}, rank 0 for {width0}: use one width"
        for r, (_, shape, *_) in enumerate(everyone):
            coords = comm.Get_coords(r)
            for d in range(len(shape)):
                q = Halo._next_rank(comm, coords, d)
                if q is None:
                    continue
                face, other = (shape[:d] + shape[d + 1:],
                               everyone[q][1][:d] + everyone[q][1][d + 1:])
                if face != other:
                    return (f"ranks {r} and {q} are neighbours along dimension {d} but their "
                            f"Views have {shape} and {everyone[q][1]}: the extents of the "
                            f"other dimensions (the faces they exchange) must match")
        return None

    @staticmethod
    def _next_rank(comm, coords, d):
        """The rank after coords along dimension d (wrapping where periodic), or None."""
        dims, periods = comm.dims, comm.periods
        c = list(coords)
        c[d] += 1
        if c[d] == dims[d]:
            if not periods[d] or dims[d] == 1:
                return None
            c[d] = 0
        return comm.Get_cart_rank(c)

    # ---- faces ------------------------------------------------------------
    def _slab(self, d, which, full):
        """Index of the `which` slab along dimension d: 'send_lo', 'send_hi',
        'recv_lo', 'recv_hi'; other dimensions over everything (full) or over
        the owned cells only."""
        w, n = self.width, self.view.shape[d]
        rng = {"send_lo": slice(w, 2 * w), "send_hi": slice(n - 2 * w, n - w),
               "recv_lo": slice(0, w), "recv_hi": slice(n - w, n)}[which]
        idx = [slice(None) if full else slice(w, m - w) for m in self.view.shape]
        idx[d] = rng
        return tuple(idx)

    def _host(self, write):
        v = self.view
        return v._host(write) if isinstance(v, View) else v

    def _box(self, idx):
        """(lower corner, extents) of a slab index (a tuple of slices)."""
        box = [sl.indices(n)[:2] for sl, n in zip(idx, self.view.shape)]
        return [a for a, _ in box], [b - a for a, b in box]

    def _buffer(self, idx, send):
        key = (tuple(sl.indices(n)[:2] for sl, n in zip(idx, self.view.shape)), send)
        b = self._bufs.get(key)
        if b is None:
            _, ns = self._box(idx)
            n = 1
            for m in ns:
                n *= m
            b = self._bufs[key] = View([n], self.view.dtype)
        return b

    def _faces(self, dims, full):
        """(dst, src, send slab, receive slab, tag) of every face of dims, in
        the order all ranks post them: the low face goes to the low
        neighbour while the high ghosts come from the high one, then the
        other way; dst/src may be MPI.PROC_NULL."""
        for d in dims:
            lo, hi = self.nbr[d]
            yield lo, hi, self._slab(d, "send_lo", full), self._slab(d, "recv_hi", full), 2 * d
            yield hi, lo, self._slab(d, "send_hi", full), self._slab(d, "recv_lo", full), 2 * d + 1

    def _post(self, dims, full):
        """Packs and posts the faces of dims; returns (requests, unpack list)."""
        if self._kernels is not None:
            return self._post_kernels(dims, full)
        from mpi4py import MPI
        np = _numpy()
        a = self._host(False)
        reqs, recv = [], []
        for dst, src, sidx, ridx, tag in self._faces(dims, full):
            if dst != MPI.PROC_NULL:
                buf = np.ascontiguousarray(a[sidx])
                reqs.append(self.comm.Isend(buf, dest=dst, tag=tag))
                recv.append((None, buf, None))   # keep the send buffer alive
            if src != MPI.PROC_NULL:
                rbuf = np.empty(a[ridx].shape, self.dtype)
                reqs.append(self.comm.Irecv(rbuf, source=src, tag=tag))
                recv.append((ridx, rbuf, None))
        return reqs, recv

    def _prepare_device(self):
        """NCCL path: every face buffer on the device and two CUDA events,
        made once here, so that no exchange allocates or copies (and a
        pk.Graph step captures nothing but kernels and NCCL calls)."""
        import cupy
        from mpi4py import MPI
        for full in (True, False):
            for dst, src, sidx, ridx, _ in self._faces(range(len(self.view.shape)), full):
                if dst != MPI.PROC_NULL:
                    self._buffer(sidx, True)._to_device()
                if src != MPI.PROC_NULL:
                    self._buffer(ridx, False)._to_device()
        self._events = (cupy.cuda.Event(disable_timing=True),
                        cupy.cuda.Event(disable_timing=True))

    def _neighbour_dims(self):
        """The dimensions along which this rank has a neighbour."""
        from mpi4py import MPI
        return [d for d in range(len(self.view.shape))
                if any(p != MPI.PROC_NULL for p in self.nbr[d])]

    def _post_nccl(self, dims, full, nccl_stream, fork):
        """Packing kernels (on the kernels' stream), then grouped NCCL
        send/recv of the faces of dims, queued without a host wait; returns
        the unpack list. fork=False: NCCL on the ordering stream (_order()),
        in stream order with the kernels. fork=True: NCCL on the
        communicator's own stream after an event on the ordering stream;
        self._join is set to the event finish() makes the ordering stream
        wait for."""
        from mpi4py import MPI
        from cupy.cuda import nccl
        ncomm, own = nccl_stream
        order = _order()
        kind = nccl.NCCL_FLOAT64 if self.dtype.itemsize == 8 else nccl.NCCL_FLOAT32
        sends, recv = [], []
        for dst, src, sidx, ridx, tag in self._faces(dims, full):
            if dst != MPI.PROC_NULL:
                sbuf = self._buffer(sidx, True)
                self._kernels.pack(self.view, sbuf, *self._box(sidx), tag // 2)
                sends.append((sbuf, dst))
            if src != MPI.PROC_NULL:
                recv.append((ridx, self._buffer(ridx, False), src, tag // 2))
        stream = order
        if fork:
            packed, arrived = self._events
            packed.record(order)      # after the packing kernels
            own.wait_event(packed)
            stream = own
        nccl.groupStart()   # per peer, sends and receives pair up in the order posted
        for sbuf, dst in sends:
            ncomm.send(sbuf._dev.ptr, sbuf.size, kind, dst, stream.ptr)
        for _, rbuf, src, _ in recv:
            ncomm.recv(rbuf._dev.ptr, rbuf.size, kind, src, stream.ptr)
        nccl.groupEnd()
        if fork:
            arrived.record(own)
            self._join = arrived
        return [(ridx, rbuf, d) for ridx, rbuf, _, d in recv]

    def _wait(self, reqs):
        from mpi4py import MPI
        if reqs and not isinstance(reqs[0], MPI.Request):   # an NCCL stream
            for stream in reqs:
                stream.synchronize()
            return
        MPI.Request.Waitall(reqs)

    def _post_kernels(self, dims, full):
        """_post for kernel packing: faces are packed into buffer Views where
        the View lives; MPI gets the buffers' host memory."""
        from mpi4py import MPI
        reqs, recv = [], []
        for dst, src, sidx, ridx, tag in self._faces(dims, full):
            if dst != MPI.PROC_NULL:
                sbuf = self._buffer(sidx, True)
                self._kernels.pack(self.view, sbuf, *self._box(sidx), tag // 2)
                host = sbuf._host(False)          # a GPU copies the face back
                reqs.append(self.comm.Isend(host, dest=dst, tag=tag))
                recv.append((None, host, tag // 2))
            if src != MPI.PROC_NULL:
                rbuf = self._buffer(ridx, False)
                reqs.append(self.comm.Irecv(rbuf._host_overwrite(), source=src, tag=tag))
                recv.append((ridx, rbuf, tag // 2))
        return reqs, recv

    def _unpack(self, recv):
        if self._kernels is not None:
            for ridx, rbuf, d in recv:
                if ridx is not None:   # a GPU copies the received face up first
                    self._kernels.unpack(self.view, rbuf, *self._box(ridx), d)
            return
        a = self._host(True)
        for ridx, rbuf, _ in recv:
            if ridx is not None:
                a[ridx] = rbuf

    def _nccl_path(self):
        """(NcclCommunicator, its stream) where faces go device to device
        through NCCL, else None."""
        if self._kernels is None or self.transport not in ("auto", "nccl"):
            return None
        return _nccl(self.comm)

    def _refuse_staged(self):
        """Inside a pk.Graph capture, a host-staged exchange with a neighbour is refused."""
        if _graph.capturing_cuda() and self._neighbour_dims():
            _graph.refuse("Halo.exchange staged through host memory",
                          "without NCCL (CuPy's cupy.cuda.nccl, PKC_HALO_NCCL not 0) or for "
                          "a View other than a float64/float32 pk.View, its faces travel "
                          "through the host")

    def _region(self, what, gate=None):
        """The region of a pk.Graph step's edges (pykokkos/_graph_branches.py)
        that this halo's exchange(), start() or finish() is: exchange() reads
        the faces it sends and writes the ghosts of every dimension with a
        neighbour (whole faces: corners too), start() reads the faces it
        sends and may write the ghosts (in a captured step, NVSHMEM's fused
        exchange), finish() writes the ghosts it receives; each orders the
        halo's own flags and buffers. gate: exchange()'s gate source."""
        if _graph.branches() is None:
            return _graph.region(None, None)
        from ._graph_branches import memory_key
        v = self.view
        key = memory_key(v, v._dev is not None or getattr(v, "_parent", None) is not None)
        own = [(("res", f"halo {id(self)}"), None, True)]
        if key is None:
            from ._graph_branches import ANY
            return _graph.region(f"Halo.{what}", ANY)
        from mpi4py import MPI
        ghosts, faces = [], []   # finish() writes the ghosts; start() may (a fused exchange)
        for dst, src, sidx, ridx, _ in self._faces(self._neighbour_dims(), what == "exchange"):
            for rank, idx, out, write in ((src, ridx, ghosts, True), (dst, sidx, faces, False)):
                if rank != MPI.PROC_NULL:
                    lo, ext = self._box(idx)
                    out.append((key, [(a, a + e - 1) for a, e in zip(lo, ext)], write))
        if what == "exchange":
            return _graph.region("Halo.exchange", own + faces + ghosts, gate)
        if what == "start":
            return _graph.region("Halo.start", own + faces + ghosts)
        return _graph.region("Halo.finish", own + ghosts)

    def exchange(self):
        """Fills every ghost layer (faces, edges, corners) from the neighbours,
        one dimension after the other. Returns when done, or, on the NCCL
        path, once the exchange is queued on the device (see the module
        docstring)."""
        source = _ExchangeSource(self)
        with self._region("exchange", source), _graph.internal():
            if source.sends:   # pk.Graph: the readers of the ghosts wait for the neighbours
                source.done = self._shmem.send_only(source.cut(), source.sends)
            else:
                source.done = self._exchange()

    def _exchange(self):
        """The exchange; in a CUDA capture of NVSHMEM's fused exchange of one
        dimension, (its completion counter's address, the count it reaches)."""
        t0 = time.perf_counter()
        nc = self._nccl_path()
        counted = None
        if self._shmem is not None:
            dims = self._neighbour_dims()
            for d in dims:
                if not self._shmem.exchange_fused([d]):
                    self._shmem.finish(*self._shmem.post([d], True))
                elif len(dims) == 1:
                    counted = self._shmem.counted
        elif nc is not None:
            for d in self._neighbour_dims():
                self._unpack(self._post_nccl([d], True, nc, fork=False))
        else:
            self._refuse_staged()
            with _graph.exempt():   # the exchange's own host work is not the step's
                for d in range(len(self.view.shape)):
                    reqs, recv = self._post([d], full=True)
                    self._wait(reqs)
                    self._unpack(recv)
        self.seconds += time.perf_counter() - t0
        return counted

    def start(self):
        """Posts the exchange of all faces (owned cells only, no corners) and
        returns at once; finish() completes it."""
        with self._region("start"), _graph.internal():
            self._start()

    def _start(self):
        if self._reqs or self._recv or self._join is not None:
            raise PkcRuntimeError("pykokkos.mpi.Halo.start: the previous exchange was "
                                  "not finished (call finish() first)")
        t0 = time.perf_counter()
        nc = self._nccl_path()
        if self._shmem is not None:
            dims = self._neighbour_dims()
            if _graph.capturing_cuda() and _graph.branches() is not None:
                # a branch of the captured graph beside the inner cells' update:
                # every dimension's exchange (owned cells: the dimensions do not
                # depend on each other) as one kernel where it can be, else each
                # dimension's (a kernel per dimension waited in turn for SMs the
                # update held: three took 37 us of a periodic 128^3 step on an H200)
                if len(dims) > 1 and self._shmem.exchange_fused(dims, full=False):
                    dims = []
                dims = [d for d in dims if not self._shmem.exchange_fused([d], full=False)]
            self._reqs, self._recv = self._shmem.post(dims, False)
            self._join = self._shmem
        elif nc is not None:
            dims = self._neighbour_dims()
            self._reqs = []
            self._recv = self._post_nccl(dims, False, nc, fork=True) if dims else []
        else:
            self._refuse_staged()
            with _graph.exempt():
                self._reqs, self._recv = self._post(range(len(self.view.shape)), full=False)
        self.seconds += time.perf_counter() - t0

    def finish(self):
        """Waits for the faces posted by start() (on the NCCL path: makes the
        kernels' stream wait for them) and writes them into the ghosts."""
        with self._region("finish"), _graph.internal():
            self._finish()

    def _finish(self):
        t0 = time.perf_counter()
        if self._join is self._shmem and self._shmem is not None:
            self._join = None
            self._shmem.finish(self._reqs, self._recv)
        elif self._join is not None:
            _order().wait_event(self._join)
            self._join = None
            self._unpack(self._recv)
        else:
            with _graph.exempt():
                self._wait(self._reqs)
                self._unpack(self._recv)
        self._reqs, self._recv = [], []
        self.seconds += time.perf_counter() - t0


class _ExchangeSource:
    """exchange()'s side of pk.Graph's planner (pykokkos/_graph_branches.py):
    called, the gate of a launch beside it ((counter address, target[,
    "remote"]) or None, set once the exchange is queued); cut() says whether
    the exchange may only send its faces (NVSHMEM's direct exchange of one
    dimension, in a CUDA capture after a whole one), send_only() makes it so."""

    __slots__ = ("halo", "done", "sends")

    def __init__(self, halo):
        self.halo, self.done, self.sends = halo, None, 0

    def __call__(self):
        return self.done

    def cut(self):
        """The one dimension whose faces a send-only exchange may send, or None."""
        sh = self.halo._shmem
        return None if sh is None else sh.cut()

    def send_only(self, sends):
        """This exchange only sends its faces, the `sends`-th such exchange of
        the capture; its readers wait for the count the neighbours raise."""
        self.sends = sends


# Bytes of counters per exchange call site: kMaxFaces + 2 unsigned for the
# blocks, then the count of exchanges completed (pykokkos/_nvshmem_halo.cu,
# pkc_shmem_exchange's `done`), padded.
_DONE_BYTES = 48
_COUNT_AT = 32


class _ShmemFaces:
    """The NVSHMEM transport of one Halo (pykokkos/_nvshmem_halo.cu says how
    faces travel): receive buffers in the symmetric heap at the same
    offsets on every rank (_nvshmem.slot_layout), per buffer an "arrived"
    and a "freed" flag (symmetric) and a "sent" and a "got" count (device
    memory). Made collectively by every rank's Halo."""

    def __init__(self, halo, shapes):
        from mpi4py import MPI
        from . import _nvshmem
        self.blocks = _blocks("PKC_HALO_NVSHMEM_BLOCKS", "the fused exchange kernel")
        self.send_blocks = _blocks("PKC_HALO_NVSHMEM_SEND_BLOCKS",
                                   "a send-only exchange's kernel (pk.Graph)")
        self.halo, self.shapes = halo, shapes
        self.lib = lib = _nvshmem.start(halo.comm)
        self.item = halo.dtype.itemsize
        self.offsets, _, total = _nvshmem.slot_layout(shapes, halo.width, self.item)
        self.slot = {key: k for k, key in enumerate(self.offsets)}
        n = len(self.slot)
        self.recv = lib.pkc_shmem_calloc(total)       # collective, same bytes everywhere
        self.send = lib.pkc_shmem_calloc(total)       # packed faces of the put path
        # arrived, freed, sent, got (a word per slot), and the exchange kernel's
        # counters (_DONE_BYTES per call site)
        words = lib.pkc_shmem_calloc((8 * 4 + _DONE_BYTES) * n)
        if not (self.recv and self.send and words):
            raise PkcRuntimeError(f"pykokkos.mpi.Halo(transport='nvshmem'): the symmetric heap "
                                  f"cannot hold {2 * total} bytes of faces: raise "
                                  "NVSHMEM_SYMMETRIC_SIZE (default 1 GiB)")
        self.arrived, self.freed, self.sent, self.got, self.done = (words + 8 * n * k
                                                                    for k in range(5))
        group, world = halo.comm.Get_group(), MPI.COMM_WORLD.Get_group()
        size = halo.comm.Get_size()
        self.pe = dict(zip(range(size), MPI.Group.Translate_ranks(group, list(range(size)),
                                                                  world)))
        self.direct = os.environ.get("PKC_HALO_NVSHMEM_P2P", "1") != "0"
        self.fused = os.environ.get("PKC_HALO_NVSHMEM_FUSED", "1") != "0"
        self.into_views = self.direct and os.environ.get("PKC_HALO_NVSHMEM_DIRECT", "1") != "0"
        self._peers = None  # (View address, {comm rank: (its View here, strides)} or None)
        self._remote = {}   # (offset, pe) -> the neighbour's buffer as this GPU addresses it
        self._views = {}    # (address, elements) -> a View over symmetric memory
        self.err = ctypes.create_string_buffer(512)
        self._counts = {}   # call site's counters -> (capture number, exchanges queued in it)
        self.counted = None # the last exchange_fused in a capture: (counter, count it reaches)

    def _buffer(self, addr, n):
        from ._nvshmem import symmetric_view
        b = self._views.get((addr, n))
        if b is None:
            b = self._views[(addr, n)] = symmetric_view(addr, n, self.halo.view.dtype)
        return b

    def _peer(self, off, pe):
        """The neighbour pe's receive buffer at off as this GPU's kernels
        store to it, or None (not reachable by stores: put instead)."""
        key = (off, pe)
        if key not in self._remote:
            p = self.lib.pkc_shmem_ptr(self.recv + off, pe) if self.direct else None
            self._remote[key] = p or None
        return self._remote[key]

    def post(self, dims, full):
        """Waits (on the device) until the neighbours freed their buffers,
        packs the faces of dims into them (or sends them), then raises their
        flags; returns what finish() needs (the faces to wait for, unpack
        and free). Queued on the kernels' stream, captured whole in a
        pk.Graph step."""
        from mpi4py import MPI
        h = self.halo
        self._views_now(h.view)   # mapped here too, for a later captured start()
        sends, recvs = [], []
        for dst, src, sidx, ridx, tag in h._faces(dims, full):
            d, side = tag // 2, 1 - tag % 2   # tag 2d: my low face fills dst's high ghosts
            s = self.slot[(d, side, full)]
            off = self.offsets[(d, side, full)]
            lo, ext = h._box(sidx)
            n = 1
            for m in ext:
                n *= m
            if dst != MPI.PROC_NULL:
                sends.append((s, off, n, lo, ext, d, self.pe[dst]))
            if src != MPI.PROC_NULL:
                recvs.append((s, ridx, self._buffer(self.recv + off, n), d, self.pe[src]))
        stream = _order().ptr
        if sends:
            self._call("ready", self.lib.pkc_shmem_ready, len(sends),
                       _ptrs([self.freed + 8 * x[0] for x in sends]),
                       _ptrs([self.sent + 8 * x[0] for x in sends]), stream)
        signals, puts = [], []
        for s, off, n, lo, ext, d, pe in sends:
            peer = self._peer(off, pe)
            if peer:   # GPU-initiated: the packing kernel stores into the neighbour
                h._kernels.pack(h.view, self._buffer(peer, n), lo, ext, d)
                signals.append((s, pe))
            else:
                h._kernels.pack(h.view, self._buffer(self.send + off, n), lo, ext, d)
                puts.append((s, off, n, pe))
        if puts:
            self._call("put_signal", self.lib.pkc_shmem_put_signal, len(puts),
                       _ptrs([self.recv + p[1] for p in puts]),
                       _ptrs([self.send + p[1] for p in puts]),
                       (ctypes.c_size_t * len(puts))(*[p[2] * self.item for p in puts]),
                       _ptrs([self.arrived + 8 * p[0] for p in puts]),
                       _ptrs([self.sent + 8 * p[0] for p in puts]), _ints([p[3] for p in puts]),
                       stream)
        if signals:
            self._call("signal", self.lib.pkc_shmem_signal, len(signals),
                       _ptrs([self.arrived + 8 * x[0] for x in signals]),
                       _ptrs([self.sent + 8 * x[0] for x in signals]),
                       _ints([x[1] for x in signals]), stream)
        return recvs, [(ridx, buf, d) for _, ridx, buf, d, _ in recvs]

    def cut(self):
        """The dimension a send-only exchange may serve (send_only): the only
        one with a neighbour, a rank-3 View on the device with every
        neighbour's View mapped (the direct exchange); else None."""
        h, v = self.halo, self.halo.view
        dims = h._neighbour_dims()
        if (not self.fused or len(dims) != 1 or len(v.shape) != 3 or v._dev is None
                or getattr(v, "_parent", None) is not None):
            return None
        mapped = self._peers is not None and self._peers[0] == v._dev.ptr and self._peers[1]
        return dims[0] if mapped else None

    def _site(self, d, full=True):
        """The counters (_DONE_BYTES) of the exchange call site of dimension
        d's faces, whole (full) or owned cells only; the count of exchanges
        completed there is at _COUNT_AT (_count)."""
        return self.done + _DONE_BYTES * self.slot[(d, 0, full)]

    def send_only(self, d, nth):
        """Queues the sending half of dimension d's direct exchange
        (_nvshmem_halo.cu's send_direct): the faces stored into the
        neighbours' Views, each neighbour's count of exchanges raised once
        its face is there. Returns the gate of the launches that read this
        View's ghosts: (the count here, the value it reaches once this
        exchange's faces came, "remote": the neighbours raise it), the
        nth such exchange of the capture after its first, whole one (which
        raised the count to 1)."""
        from mpi4py import MPI
        h, v = self.halo, self.halo.view
        views, count = self._peers[1], self._site(d) + _COUNT_AT
        sends, recvs = [], []
        for dst, src, sidx, ridx, tag in h._faces([d], True):
            s = self.slot[(d, 1 - tag % 2, True)]
            if src != MPI.PROC_NULL:
                recvs.append((s, self.pe[src], h._box(ridx)))
            if dst != MPI.PROC_NULL:
                lo, ext = h._box(sidx)
                ghost = _ghost_corner(lo, tag, self.shapes[dst], h.width)
                epoch = self.lib.pkc_shmem_ptr(count, self.pe[dst])
                if not epoch:
                    raise PkcRuntimeError("pykokkos.mpi.Halo: a neighbour's counters are not "
                                          "mapped here (send-only exchange)")
                sends.append((s, lo, ext, self.pe[dst], views[dst], ghost, epoch))
        a, rank = v._a, v._a.ndim
        longs = lambda xs: (ctypes.c_long * max(len(xs), 1))(*xs)
        w = lambda base, slots: _ptrs([base + 8 * x for x in slots] or [0])
        ss, rs = [x[0] for x in sends], [x[0] for x in recvs]
        self._call("send-only exchange", self.lib.pkc_shmem_exchange, a.itemsize, v._dev.ptr,
                   longs([st // a.itemsize for st in a.strides]), rank,
                   len(sends), longs([x for f in sends for x in f[1]]),
                   longs([x for f in sends for x in f[2]]), _ptrs([0] * max(len(sends), 1)),
                   w(self.arrived, ss), w(self.freed, ss), w(self.sent, ss),
                   _ints([f[3] for f in sends] or [0]), len(recvs),
                   longs([x for r in recvs for x in r[2][0]]),
                   longs([x for r in recvs for x in r[2][1]]),
                   _ptrs([0] * max(len(recvs), 1)), w(self.arrived, rs), w(self.freed, rs),
                   w(self.got, rs), _ints([r[1] for r in recvs] or [0]), self._site(d),
                   self.send_blocks,
                   _ptrs([f[4][0] for f in sends] or [0]),
                   longs([x for f in sends for x in f[5]]),
                   longs([x for f in sends for x in f[4][1]]),
                   _ptrs([f[6] for f in sends] or [0]), _order().ptr)
        return count, 1 + nth * len(recvs), "remote"

    def exchange_fused(self, dims, full=True):
        """exchange() of the dimensions dims as one exchange_faces kernel (pack
        into the neighbours, flags, unpack: _nvshmem_halo.cu); False, with
        nothing queued, where it cannot: the View not on the device yet (its
        first kernel places it), a neighbour not reachable by stores, or
        PKC_HALO_NVSHMEM_FUSED=0. Same flags and counts as post()/finish().
        full=False: the owned cells of the faces only, as start()/finish()
        (several dimensions only so: full faces of one dimension fill the
        ghost corners the next one sends)."""
        from mpi4py import MPI
        from ._view import _flush_held, _held
        h, v = self.halo, self.halo.view
        if not self.fused or v._dev is None or getattr(v, "_parent", None) is not None:
            return False
        views = self._views_now(v)
        sends, recvs, into = [], [], []
        for dst, src, sidx, ridx, tag in h._faces(list(dims), full):
            d = tag // 2
            side = 1 - tag % 2
            s = self.slot[(d, side, full)]
            off = self.offsets[(d, side, full)]
            if dst != MPI.PROC_NULL:
                peer = self._peer(off, self.pe[dst])
                if not peer:
                    return False
                sends.append((s, h._box(sidx), peer, self.pe[dst]))
                if views is not None:
                    lo = _ghost_corner(sends[-1][1][0], tag, self.shapes[dst], h.width)
                    into.append((views[dst][0], lo + [0] * (3 - len(lo)),
                                 list(views[dst][1]) + [0] * (3 - len(lo))))
            if src != MPI.PROC_NULL:
                recvs.append((s, h._box(ridx), self.recv + off, self.pe[src]))
        if _held:   # launches held back for fusion come first
            _flush_held()
        v._to_device(v.layout is T.Layout.LayoutLeft)   # current there; the host copy stale
        a = v._a
        rank = a.ndim

        def boxes(faces):
            lo = [x for f in faces for x in list(f[1][0]) + [0] * (3 - rank)]
            n = [x for f in faces for x in list(f[1][1]) + [1] * (3 - rank)]
            return (ctypes.c_long * max(len(lo), 1))(*lo), (ctypes.c_long * max(len(n), 1))(*n)

        slo, sn = boxes(sends)
        rlo, rn = boxes(recvs)
        def w(base, faces):   # the flag or count word of each face's slot
            return _ptrs([base + 8 * f[0] for f in faces] or [0])

        done = self._site(dims[0], full)
        self.counted = self._count(done)
        self._call("exchange", self.lib.pkc_shmem_exchange, a.itemsize, v._dev.ptr,
                   (ctypes.c_long * rank)(*[st // a.itemsize for st in a.strides]), rank,
                   len(sends), slo, sn, _ptrs([f[2] for f in sends] or [0]),
                   w(self.arrived, sends), w(self.freed, sends), w(self.sent, sends),
                   _ints([f[3] for f in sends] or [0]), len(recvs), rlo, rn,
                   _ptrs([f[2] for f in recvs] or [0]), w(self.arrived, recvs),
                   w(self.freed, recvs), w(self.got, recvs), _ints([f[3] for f in recvs] or [0]),
                   done, self.blocks,
                   _ptrs([f[0] for f in into] or [0]) if views is not None else None,
                   (ctypes.c_long * (3 * len(into) or 1))(*[x for f in into for x in f[1]]),
                   (ctypes.c_long * (3 * len(into) or 1))(*[x for f in into for x in f[2]]),
                   None, _order().ptr)
        return True

    def _count(self, done):
        """In a CUDA capture, (the address of the call site's count of
        completed exchanges, the count the exchange about to be queued
        raises it to), the count zeroed in stream order before the capture's
        first exchange there (a graph's launches gated on its k-th exchange
        wait for k, at every replay); None outside a capture."""
        cap = _graph.capture_number()
        if not cap:
            return None
        seen = self._counts.get(done)
        if seen is None or seen[0] != cap:
            self._call("gate reset", self.lib.pkc_shmem_gate_reset, done, _order().ptr)
            seen = (cap, 0)
        self._counts[done] = (cap, seen[1] + 1)
        return done + _COUNT_AT, seen[1] + 1

    def _views_now(self, v):
        """The neighbours' Views for the direct exchange (_map_views), mapped
        now where they are not yet and no step is being captured; None where
        they cannot be used. Collective unless already mapped; every rank
        calls it at the same exchange (SPMD), with the same answer."""
        if not self.into_views or getattr(v, "_parent", None) is not None:
            return None
        if v._dev is None and not _graph.capturing_cuda():
            # a View no kernel has used yet (a first exchange): placed on the
            # device now, so that the steps a pk.Graph captures next find its
            # neighbours mapped (mapping cannot be captured); stored as the
            # kernels want it, a View of the default layout in LayoutLeft
            v._to_device(getattr(v, "_deflt", False) or v.layout is T.Layout.LayoutLeft)
        if v._dev is None:
            return None
        if self._peers is not None and self._peers[0] == v._dev.ptr:
            return self._peers[1]
        return None if _graph.capturing_cuda() else self._map_views(v)

    def _map_views(self, v):
        """{comm rank: (address, element strides)} of every neighbour's View as
        this GPU stores to it (CUDA IPC between the ranks of one host; this
        rank's own View where it is its own neighbour), mapped once per View
        address; None where any rank cannot, and then every rank exchanges
        through the receive buffers. Collective over the Halo's communicator;
        never called while a step is captured (mapping is not capturable)."""
        from mpi4py import MPI
        comm, h = self.halo.comm, self.halo
        me = comm.Get_rank()
        strides = tuple(st // v._a.itemsize for st in v._a.strides)
        handle = ctypes.create_string_buffer(self.lib.pkc_ipc_handle_size())
        offset = ctypes.c_size_t()
        mine = None
        if self.lib.pkc_ipc_handle(v._dev.ptr, handle, ctypes.byref(offset), self.err,
                                   len(self.err)) == 0:
            mine = (handle.raw, offset.value, strides)
        everyone = comm.allgather(mine)
        views = {} if all(e is not None for e in everyone) else None
        for r in sorted({r for pair in h.nbr for r in pair if r != MPI.PROC_NULL}):
            if views is None:
                break
            if r == me:
                views[r] = (v._dev.ptr, strides)
                continue
            p = self.lib.pkc_ipc_open(everyone[r][0], everyone[r][1], self.err, len(self.err))
            views = {**views, r: (p, everyone[r][2])} if p else None
        if not comm.allreduce(views is not None, op=MPI.LAND):
            views = None
        self._peers = (v._dev.ptr, views)
        return views

    def finish(self, recvs, unpack):
        """Makes the kernels' stream wait for the faces, unpacks them and
        tells their senders the buffers are free again."""
        if not recvs:
            return
        stream = _order().ptr
        slots = [r[0] for r in recvs]
        self._call("wait", self.lib.pkc_shmem_wait, len(slots),
                   _ptrs([self.arrived + 8 * s for s in slots]),
                   _ptrs([self.got + 8 * s for s in slots]), stream)
        self.halo._unpack(unpack)
        self._call("free", self.lib.pkc_shmem_free, len(slots),
                   _ptrs([self.freed + 8 * s for s in slots]),
                   _ptrs([self.got + 8 * s for s in slots]), _ints([r[4] for r in recvs]),
                   stream)

    def _call(self, what, fn, *args):
        if fn(*args, self.err, len(self.err)):
            raise PkcRuntimeError(f"pykokkos.mpi.Halo (NVSHMEM {what}): "
                                  + self.err.value.decode(errors="replace"))


def _blocks(var, what):
    """The most thread blocks of `what` from environment variable var (0 or
    unset: an eighth of the GPU's SMs); PkcValueError if not a whole number."""
    blocks = os.environ.get(var, "0").strip() or "0"
    if not blocks.isdigit():
        raise PkcValueError(f"{var}={blocks!r}: the most thread blocks of {what}, a whole "
                            f"number (0: an eighth of the GPU's SMs)")
    return int(blocks)


def _ghost_corner(send_lo, tag, shape, width):
    """The corner, in the neighbour's View (extents shape), of the ghost box
    that a face sent with corner send_lo fills there: tag 2d sends the low
    face along dimension d to the low neighbour's high ghosts, tag 2d + 1
    the high face to the high neighbour's low ghosts (Halo._faces); the
    other dimensions' corner is the same on both sides."""
    d, lo = tag // 2, list(send_lo)
    lo[d] = shape[d] - width if tag % 2 == 0 else 0
    return lo


def _ptrs(xs):
    """ctypes arrays of addresses and of ints, as the NVSHMEM entry points take them."""
    return (ctypes.c_void_p * len(xs))(*xs)


def _ints(xs):
    return (ctypes.c_int * len(xs))(*xs)


def _order():
    """The CuPy stream that orders the halo's NCCL work with the kernels:
    while a pk.Graph step is captured, the per-thread default stream being
    captured; otherwise the legacy default stream, which every blocking
    stream (the kernels') synchronises with."""
    import cupy
    if _graph.capturing_cuda():
        return cupy.cuda.ExternalStream(_PER_THREAD_STREAM)
    return cupy.cuda.Stream.null


# cudaStreamPerThread: the stream of modules built with --default-stream
# per-thread, which pk.Graph captures (see pykokkos/_graph.py)
_PER_THREAD_STREAM = 0x2
