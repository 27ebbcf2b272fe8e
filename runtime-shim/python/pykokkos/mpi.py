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

Data path: faces are packed into contiguous buffers and unpacked with numpy
on the host; on a GPU backend the View is read back to the host and written
back (host staging through the View's mirror; never raw device pointers
into MPI, which need not be CUDA-aware). NCCL device-to-device transfers
are not there yet.
"""
import time

from ._view import View, numpy as _numpy

__all__ = ["Halo", "local_rank"]


def local_rank():
    """The node-local rank from the MPI launcher's environment (0 without one)."""
    from ._spaces import _env_int, _LOCAL_RANK
    r = _env_int(_LOCAL_RANK)
    return 0 if r is None else r


class Halo:
    """Ghost-layer exchange of one View over a Cartesian communicator (see
    the module docstring). comm: an mpi4py Cartcomm whose number of
    dimensions is the View's rank; width >= 1: ghost layers per side, each
    dimension of the View at least 3 * width long. Raises ValueError
    otherwise."""

    def __init__(self, comm, view, width=1):
        np = _numpy()
        self.comm, self.view, self.width = comm, view, int(width)
        nd = len(view.shape)
        if nd not in (2, 3):
            raise ValueError(f"pykokkos.mpi.Halo: the View must have rank 2 or 3, got {nd}")
        if getattr(comm, "ndim", getattr(comm, "dim", None)) != nd:
            raise ValueError(f"pykokkos.mpi.Halo: a Cartesian communicator with {nd} "
                             f"dimensions is needed for a rank-{nd} View "
                             "(comm.Create_cart(dims, periods))")
        if self.width < 1 or any(n < 3 * self.width for n in view.shape):
            raise ValueError(f"pykokkos.mpi.Halo: width {width} needs every extent >= "
                             f"{3 * max(self.width, 1)}, the View has {tuple(view.shape)}")
        self.nbr = [comm.Shift(d, 1) for d in range(nd)]   # (low, high) per dimension
        self.dtype = np.dtype(view.dtype.np_dtype if isinstance(view, View) else view.dtype)
        self._reqs, self._recv = [], []
        self.seconds = 0.0   # wall time spent in exchange/start/finish (packing, waiting)

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

    def _post(self, dims, full):
        """Packs and posts the faces of dims; returns (requests, unpack list)."""
        from mpi4py import MPI
        np = _numpy()
        a = self._host(False)
        reqs, recv = [], []
        for d in dims:
            lo, hi = self.nbr[d]
            for src, side_send, side_recv, tag in ((hi, "send_lo", "recv_hi", 2 * d),
                                                    (lo, "send_hi", "recv_lo", 2 * d + 1)):
                dst = lo if side_send == "send_lo" else hi
                sidx, ridx = self._slab(d, side_send, full), self._slab(d, side_recv, full)
                if dst != MPI.PROC_NULL:
                    buf = np.ascontiguousarray(a[sidx])
                    reqs.append(self.comm.Isend(buf, dest=dst, tag=tag))
                    recv.append((None, buf))      # keep the send buffer alive
                if src != MPI.PROC_NULL:
                    rbuf = np.empty(a[ridx].shape, self.dtype)
                    reqs.append(self.comm.Irecv(rbuf, source=src, tag=tag))
                    recv.append((ridx, rbuf))
        return reqs, recv

    def _unpack(self, recv):
        a = self._host(True)
        for ridx, rbuf in recv:
            if ridx is not None:
                a[ridx] = rbuf

    def exchange(self):
        """Fills every ghost layer (faces, edges, corners) from the neighbours,
        one dimension after the other; returns when done."""
        from mpi4py import MPI
        t0 = time.perf_counter()
        for d in range(len(self.view.shape)):
            reqs, recv = self._post([d], full=True)
            MPI.Request.Waitall(reqs)
            self._unpack(recv)
        self.seconds += time.perf_counter() - t0

    def start(self):
        """Posts the exchange of all faces (owned cells only, no corners) and
        returns at once; finish() completes it."""
        if self._reqs:
            raise RuntimeError("pykokkos.mpi.Halo.start: the previous exchange was "
                               "not finished (call finish() first)")
        t0 = time.perf_counter()
        self._reqs, self._recv = self._post(range(len(self.view.shape)), full=False)
        self.seconds += time.perf_counter() - t0

    def finish(self):
        """Waits for the faces posted by start() and writes them into the ghosts."""
        from mpi4py import MPI
        t0 = time.perf_counter()
        MPI.Request.Waitall(self._reqs)
        self._unpack(self._recv)
        self._reqs, self._recv = [], []
        self.seconds += time.perf_counter() - t0
