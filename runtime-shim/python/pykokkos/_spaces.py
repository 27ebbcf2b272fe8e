"""Devices and execution space instances: pk.set_device_id / get_device_id,
pk.ExecutionSpaceInstance, pk.fence(space_or_instance).

Device selection: Kokkos 3.4 is initialized once per process, when the first
module pkc built is loaded, on the device env KOKKOS_DEVICE_ID names (read
by Kokkos::initialize). pk.set_device_id(k) sets it before that; under an
MPI launcher without either, the node-local rank picks the device (and on
host backends the rank's share of the cores), see bind_rank; once
Kokkos runs, the device cannot change: asking for another one raises
RuntimeError (use one process per device, e.g. one MPI rank per GPU).

Instances and streams: pkc runs every dispatch on the default instance of
the backend's execution space, in program order. pk.ExecutionSpaceInstance
objects (with or without a stream) are accepted wherever PyKokkos takes them
(policies' first argument, pk.fence, pk.execute) and work is serialized on
that one instance: results are the same as with separate streams, without
overlap between them.
"""
import os

from ._errors import PkcArgumentError, PkcRuntimeError, PkcValueError
from . import _types as T

_requested = [None]   # device id set by set_device_id (None: Kokkos' default)


def _kokkos_started():
    from ._loader import RUNTIME
    return bool(RUNTIME.modules)


def get_device_id():
    """The GPU device id Kokkos uses (or will use) in this process: the one
    set by pk.set_device_id, else env KOKKOS_DEVICE_ID, else 0."""
    if _requested[0] is not None:
        return _requested[0]
    try:
        return int(os.environ.get("KOKKOS_DEVICE_ID", "0") or 0)
    except ValueError:
        return 0


def set_device_id(device_id):
    """pk.set_device_id(k): run kernels on GPU k (k >= 0; sets env
    KOKKOS_DEVICE_ID, and selects CuPy's device k if CuPy is imported).
    Must come before the first kernel call: Kokkos 3.4 runs on one device per
    process, so once it is initialized a different k raises RuntimeError
    (the same k is accepted). Host backends ignore the device id."""
    if isinstance(device_id, bool) or not hasattr(device_id, "__index__"):
        raise PkcArgumentError(f"pk.set_device_id: the device id must be an int, got "
                               f"{type(device_id).__name__}")
    k = device_id.__index__()
    if k < 0:
        raise PkcValueError(f"pk.set_device_id: the device id must be >= 0, got {k}")
    if _kokkos_started():
        cur = get_device_id()
        if k != cur:
            raise PkcRuntimeError(
                f"pk.set_device_id({k}): Kokkos is already running on device {cur} "
                "in this process, and Kokkos 3.4 cannot switch devices once "
                "initialized; call pk.set_device_id before the first kernel, and "
                "use one process per device (e.g. one MPI rank per GPU)")
        return
    _requested[0] = k
    os.environ["KOKKOS_DEVICE_ID"] = str(k)
    import sys
    cp = sys.modules.get("cupy")
    if cp is not None:
        try:
            cp.cuda.Device(k).use()
        except Exception:
            pass


# Node-local rank and rank count as MPI launchers export them (Open MPI,
# MPICH/Hydra, Slurm), in that order.
_LOCAL_RANK = ("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID")
_LOCAL_SIZE = ("OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE")


def _env_int(names):
    for n in names:
        v = os.environ.get(n)
        if v:
            try:
                return int(v.split("(")[0])
            except ValueError:
                pass
    return None


def _visible_gpus():
    """GPUs this process may use: CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES /
    ROCR_VISIBLE_DEVICES when set, else the NVIDIA or AMD devices the kernel
    driver lists; 0 if none are seen."""
    for var in ("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"):
        v = os.environ.get(var)
        if v is not None:
            return len([x for x in v.split(",") if x.strip()])
    try:
        return len(os.listdir("/proc/driver/nvidia/gpus"))
    except OSError:
        pass
    try:
        return len([d for d in os.listdir("/dev/dri") if d.startswith("renderD")])
    except OSError:
        return 0


def bind_rank(gpu):
    """Before Kokkos starts (the first module load): under an MPI launcher,
    one device per rank and a share of the cores per rank, as Kokkos'
    map_device_id_by=mpi_rank does. GPU backends: KOKKOS_DEVICE_ID = node-local
    rank modulo the visible GPUs, unless pk.set_device_id or KOKKOS_DEVICE_ID
    chose one. Host backends: returns the threads per rank (cores divided by
    the ranks on the node) when neither OMP_NUM_THREADS nor PKC_NUM_THREADS
    is set, else 0 (Kokkos' default)."""
    rank = _env_int(_LOCAL_RANK)
    if rank is None:
        return 0
    if gpu:
        if _requested[0] is None and not os.environ.get("KOKKOS_DEVICE_ID"):
            n = _visible_gpus()
            if n > 0:
                os.environ["KOKKOS_DEVICE_ID"] = str(rank % n)
        return 0
    if os.environ.get("OMP_NUM_THREADS") or os.environ.get("PKC_NUM_THREADS"):
        return 0
    size = _env_int(_LOCAL_SIZE) or 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cores or 1) // max(size, 1))


def _fence_all():
    from ._dispatch import fence
    fence()


class ExecutionSpaceInstance:
    """pk.ExecutionSpaceInstance(space=pk.ExecutionSpace.Default[, stream]):
    an execution space instance as PyKokkos passes to policies
    (`pk.RangePolicy(inst, 0, n)`), pk.fence and pk.execute. pkc serializes
    all instances onto the backend's default instance (see the module
    docstring): `stream` (e.g. a CuPy or torch stream) is kept but not used."""

    __slots__ = ("space", "stream")

    def __init__(self, space=T.ExecutionSpace.Default, stream=None):
        if isinstance(space, ExecutionSpaceInstance):
            space = space.space
        if not isinstance(space, T._Named) or space.kind != "ExecutionSpace":
            raise PkcArgumentError(f"pk.ExecutionSpaceInstance: expected a pk.ExecutionSpace, "
                                   f"got {space!r}")
        self.space, self.stream = space, stream

    def fence(self):
        """Waits for all work (every instance is the default one here)."""
        _fence_all()

    @property
    def name(self):
        return self.space.name

    def __repr__(self):
        s = "" if self.stream is None else f", stream={self.stream!r}"
        return f"pk.ExecutionSpaceInstance({self.space!r}{s})"


def fence(space=None):
    """pk.fence([space or instance]): waits for all outstanding work of every
    loaded module (instances are serialized, so any fence is a full one)."""
    _fence_all()


# PyKokkos' pykokkos.interface.execution_space.DeviceExecutionSpace: the
# execution spaces that run on a GPU (`pk.get_default_space() in pk.DeviceExecutionSpace`).
DeviceExecutionSpace = tuple(getattr(T.ExecutionSpace, s) for s, b in T.BACKEND_OF_SPACE.items()
                             if T.is_gpu_backend(b))


def is_host_execution_space(space):
    """True for Serial, OpenMP, Threads (and their instances)."""
    space = getattr(space, "space", space)
    return getattr(space, "name", space) in ("Serial", "OpenMP", "Threads")
