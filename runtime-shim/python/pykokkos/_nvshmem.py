"""NVSHMEM for pykokkos.mpi.Halo's "nvshmem" transport (issue 25): finds the
library, builds pykokkos/_nvshmem_halo.cu against it once per toolchain,
starts NVSHMEM over the MPI ranks and holds the symmetric memory of the
halos. CUDA backend only.

Where NVSHMEM comes from: $PKC_NVSHMEM_HOME (a directory with include/nvshmem.h
and lib/libnvshmem_host.so*, lib/libnvshmem_device.a), else the
nvidia-nvshmem Python package (`nvidia/nvshmem` under a sys.path entry, as
pip's nvidia-nvshmem-cu12/cu13 install it). nvcc: $CUDA_HOME/bin/nvcc, else
nvcc on PATH. The library is built with relocatable device code
(`nvcc -rdc=true`, NVSHMEM's device library linked in) into
$PKC_CACHE_DIR (else $XDG_CACHE_HOME/pkc, else ~/.cache/pkc), under a name
that hashes the source, nvcc, the GPU architecture and NVSHMEM's path;
written under a temporary name and renamed, so concurrent ranks never load
half a file. NVSHMEM starts from a unique id that rank 0 makes and MPI
broadcasts (NVSHMEM's own MPI bootstrap plugin expects the MPI it was built
against); PE numbers are MPI.COMM_WORLD ranks. NVLink multicast stays off
(NVSHMEM_DISABLE_NVLS=1 unless set)."""
import ctypes
import hashlib
import os
import subprocess
import sys

from ._errors import PkcRuntimeError
from ._view import DeviceMem

_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_nvshmem_halo.cu")
_state = {"lib": None, "why": None, "started": False}


def nvshmem_home():
    """The NVSHMEM directory (include/, lib/) to build against, or None."""
    env = os.environ.get("PKC_NVSHMEM_HOME")
    cands = [env] if env else [os.path.join(p, "nvidia", "nvshmem") for p in sys.path if p]
    for d in cands:
        if d and os.path.isfile(os.path.join(d, "include", "nvshmem.h")) and \
                os.path.isfile(os.path.join(d, "lib", "libnvshmem_device.a")):
            return os.path.realpath(d)
    return None


def _host_lib(lib):
    """-l argument for NVSHMEM's host library (pip ships only libnvshmem_host.so.3)."""
    if os.path.exists(os.path.join(lib, "libnvshmem_host.so")):
        return "-lnvshmem_host"
    names = sorted(n for n in os.listdir(lib) if n.startswith("libnvshmem_host.so."))
    return f"-l:{names[0]}" if names else "-lnvshmem_host"


def _nvcc():
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home and os.access(os.path.join(home, "bin", "nvcc"), os.X_OK):
        return os.path.join(home, "bin", "nvcc")
    import shutil
    return shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)


def _cache_dir():
    d = os.environ.get("PKC_CACHE_DIR")
    if not d:
        d = os.path.join(os.environ.get("XDG_CACHE_HOME") or
                         os.path.join(os.path.expanduser("~"), ".cache"), "pkc")
    return d


def _arch():
    import cupy
    return cupy.cuda.Device().compute_capability   # e.g. '90'


def build_command(nvcc, home, arch, out):
    """The nvcc command that builds the transport library into out."""
    lib = os.path.join(home, "lib")
    return [nvcc, "-O2", "-std=c++17", "-rdc=true", f"-arch=sm_{arch}", "-Xcompiler", "-fPIC",
            "-shared", "-I" + os.path.join(home, "include"), _SOURCE, "-o", out, "-L" + lib,
            "-lnvshmem_device", _host_lib(lib), "-lcuda", f"-Xlinker=-rpath,{lib}"]


def library_path(build=True):
    """The built transport library (building it if missing and build), or
    raises PkcRuntimeError saying what is missing."""
    home = nvshmem_home()
    if home is None:
        raise PkcRuntimeError("NVSHMEM not found: install the nvidia-nvshmem-cu12/cu13 "
                              "package or set PKC_NVSHMEM_HOME to a directory with "
                              "include/nvshmem.h and lib/libnvshmem_device.a")
    nvcc = _nvcc()
    if nvcc is None:
        raise PkcRuntimeError("nvcc not found (set CUDA_HOME or put nvcc on PATH): the "
                              "NVSHMEM transport compiles its CUDA part on first use")
    arch = _arch()
    h = hashlib.sha256()
    with open(_SOURCE, "rb") as f:
        h.update(f.read())
    st = os.stat(nvcc)
    h.update(f"{os.path.realpath(nvcc)}|{st.st_size}|{st.st_mtime_ns}|{arch}|{home}".encode())
    d = _cache_dir()
    out = os.path.join(d, f"nvshmem-halo-{h.hexdigest()[:16]}.so")
    if os.path.exists(out) or not build:
        return out
    os.makedirs(d, exist_ok=True)
    tmp = f"{out}.tmp{os.getpid()}"
    r = subprocess.run(build_command(nvcc, home, arch, tmp), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise PkcRuntimeError("building the NVSHMEM transport failed:\n" + r.stdout[-3000:])
    os.replace(tmp, out)
    return out


def _check(rc, err, what):
    if rc:
        raise PkcRuntimeError(f"NVSHMEM: {what}: {err.value.decode(errors='replace')}")


def start(comm):
    """The started transport library (ctypes.CDLL), NVSHMEM running over
    MPI.COMM_WORLD; collective over comm, which must span every rank of
    COMM_WORLD. Every rank raises the same PkcRuntimeError when any rank
    cannot (library missing, build failed, not CUDA)."""
    from mpi4py import MPI
    if _state["started"]:
        return _state["lib"]
    world = MPI.COMM_WORLD
    why = None
    if comm.Get_size() != world.Get_size():
        why = (f"the Cartesian communicator has {comm.Get_size()} ranks, MPI.COMM_WORLD "
               f"{world.Get_size()}: NVSHMEM runs over every rank")
    path = None
    if why is None:
        try:   # rank 0 builds (ranks share a file system on one host), the others load
            if world.Get_rank() == 0:
                path = library_path()
            world.Barrier()
            if path is None:
                path = library_path()
        except PkcRuntimeError as e:
            why = str(e)
        except Exception as e:   # no CuPy, no device
            why = f"{type(e).__name__}: {e}"
    whys = world.allgather(why)
    bad = next(((r, w) for r, w in enumerate(whys) if w), None)
    if bad:
        raise PkcRuntimeError(f"pykokkos.mpi.Halo(transport='nvshmem'): rank {bad[0]}: {bad[1]}")
    os.environ.setdefault("NVSHMEM_DISABLE_NVLS", "1")   # never NVLink multicast
    import cupy
    from ._spaces import get_device_id
    cupy.cuda.Device(get_device_id()).use()   # NVSHMEM binds the current device: Kokkos' one
    lib = ctypes.CDLL(path)
    _signatures(lib)
    err = ctypes.create_string_buffer(512)
    uid = (ctypes.c_ubyte * lib.pkc_shmem_uid_size())()
    if world.Get_rank() == 0:
        _check(lib.pkc_shmem_make_uid(uid, err, 512), err, "unique id")
    uid[:] = world.bcast(bytes(uid) if world.Get_rank() == 0 else None, root=0)
    _check(lib.pkc_shmem_init(uid, world.Get_rank(), world.Get_size(), err, 512), err, "init")
    _state["lib"], _state["started"] = lib, True
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
    if cores == 1:
        import warnings
        warnings.warn("pykokkos.mpi.Halo(transport='nvshmem'): this rank may run on one CPU "
                      "core only, which NVSHMEM's progress thread then shares with Python "
                      "(a 512^3 Jacobi step on an H200 took 2.40 ms instead of 2.13): start "
                      "the job with `mpirun --bind-to none` (or --bind-to socket)",
                      RuntimeWarning, stacklevel=3)
    import atexit
    atexit.register(lib.pkc_shmem_finalize)   # before Kokkos' (registered earlier) runs
    return lib


def _signatures(lib):
    c = ctypes
    P, U64P, IP, SP = c.c_void_p, c.POINTER(c.c_void_p), c.POINTER(c.c_int), c.POINTER(c.c_size_t)
    lib.pkc_shmem_uid_size.restype = c.c_int
    lib.pkc_shmem_calloc.restype = P
    lib.pkc_shmem_calloc.argtypes = [c.c_size_t]
    lib.pkc_shmem_ptr.restype = P
    lib.pkc_shmem_ptr.argtypes = [P, c.c_int]
    for name in ("pkc_shmem_ready", "pkc_shmem_wait"):
        getattr(lib, name).argtypes = [c.c_int, U64P, U64P, P, c.c_char_p, c.c_int]
    for name in ("pkc_shmem_signal", "pkc_shmem_free"):
        getattr(lib, name).argtypes = [c.c_int, U64P, U64P, IP, P, c.c_char_p, c.c_int]
    L = c.POINTER(c.c_long)
    lib.pkc_shmem_exchange.argtypes = [c.c_int, P, L, c.c_int, c.c_int, L, L, U64P, U64P, U64P,
                                       U64P, IP, c.c_int, L, L, U64P, U64P, U64P, U64P, IP, P,
                                       c.c_int, P, L, L, P, P, c.c_char_p, c.c_int]
    lib.pkc_shmem_gate_reset.argtypes = [P, P, c.c_char_p, c.c_int]
    lib.pkc_ipc_handle_size.restype = c.c_int
    lib.pkc_ipc_handle.argtypes = [P, c.c_char_p, c.POINTER(c.c_size_t), c.c_char_p, c.c_int]
    lib.pkc_ipc_open.restype = P
    lib.pkc_ipc_open.argtypes = [c.c_char_p, c.c_size_t, c.c_char_p, c.c_int]
    lib.pkc_shmem_put_signal.argtypes = [c.c_int, U64P, U64P, SP, U64P, U64P, IP, P,
                                         c.c_char_p, c.c_int]
    lib.pkc_shmem_finalize.restype = None


class _SymmetricMem(DeviceMem):
    """DeviceMem of a View over symmetric memory (here or mapped from a
    neighbour's GPU): the same address and copies, never freed by the View
    (NVSHMEM frees its heap at nvshmem_finalize)."""

    __slots__ = ()

    def __init__(self, desc, ptr, nbytes):   # DeviceMem's without the allocation
        self._bind(desc, ptr, nbytes)

    def release(self):
        pass


def symmetric_view(ptr, n, dtype):
    """A rank-1 pk.View of n elements of dtype (a pk dtype) whose device data
    is at ptr, memory it does not own (a face buffer in the symmetric heap):
    what the packing kernels take as their buffer, bound like any View on
    the device (its host mirror is read only if asked for)."""
    from ._view import DLHolder, View, _device_module
    desc = _device_module()
    v = View([n], dtype)
    v._dev = _SymmetricMem(desc, ptr, v._a.nbytes)
    v._dl = DLHolder(v._a, v._dt.code, v._dt.bits, ptr, desc.device_type)
    v._hv, v._dv = False, True
    return v


def slot_layout(shapes, width, itemsize, align=256):
    """Byte offsets of the receive buffers in the symmetric heap, the same on
    every rank: one per dimension d, side (0 low ghosts, 1 high) and full
    (whole face, as exchange() sends it) or owned cells only (start()), as
    large as the largest such face over all ranks' View shapes (a list of
    tuples). Returns ({(d, side, full): offset}, {(d, full): elements},
    total bytes); the slot index of (d, side, full) is its position in the
    offsets' order, which flags and counts use."""
    nd = len(shapes[0])
    offsets, sizes, at = {}, {}, 0
    for d in range(nd):
        for full in (True, False):
            n = 0
            for shape in shapes:
                m = width
                for e in range(nd):
                    if e != d:
                        m *= shape[e] if full else shape[e] - 2 * width
                n = max(n, m)
            sizes[(d, full)] = n
    for d in range(nd):
        for side in (0, 1):
            for full in (True, False):
                offsets[(d, side, full)] = at
                at += -(-sizes[(d, full)] * itemsize // align) * align
    return offsets, sizes, max(at, align)
