"""Halo face exchange between GPUs: NCCL against NVSHMEM (host- and
GPU-initiated puts), in one run (issue 25). Run under mpirun, one rank per GPU:

    mpirun -np 2 python3 bench/mpi/nvshmem_probe.py LIB [N ...]

LIB is nvshmem_probe.cu built as a shared library (scripts/gpu/nvshmem_cuda.sh);
N: doubles per face (default: 4098, a 2-D 4098^2 grid's row; 16384, a 3-D
128^2 face; 1048576). NVSHMEM and NCCL are bootstrapped from unique ids that
rank 0 makes and mpi4py broadcasts. Rank 0 prints one table: the median time
per exchange (each rank sends N doubles to its neighbour and receives N) and
whether every element arrived."""
import ctypes
import os
import sys

from mpi4py import MPI

os.environ.setdefault("NVSHMEM_DISABLE_NVLS", "1")   # never NVLink multicast (device/KINDS.md)
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

METHODS = ("NCCL send/recv", "NVSHMEM put, host-initiated", "NVSHMEM put, GPU-initiated")


def check(rc, err, what):
    if rc:
        raise RuntimeError(f"{what}: {err.value.decode(errors='replace')}")


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    lib = ctypes.CDLL(sys.argv[1])
    sizes = [int(a) for a in sys.argv[2:]] or [4098, 128 * 128, 1 << 20]
    err = ctypes.create_string_buffer(512)
    nv, nc = ctypes.c_int(), ctypes.c_int()
    lib.probe_uid_sizes(ctypes.byref(nv), ctypes.byref(nc))
    nvb, ncb = (ctypes.c_ubyte * nv.value)(), (ctypes.c_ubyte * nc.value)()
    if rank == 0:
        check(lib.probe_make_uids(nvb, ncb, err, 512), err, "unique ids")
    nvb[:] = comm.bcast(bytes(nvb) if rank == 0 else None, root=0)
    ncb[:] = comm.bcast(bytes(ncb) if rank == 0 else None, root=0)
    check(lib.probe_init(nvb, ncb, rank, size, ctypes.c_long(max(sizes)), err, 512), err, "init")
    rows = []
    for n in sizes:
        reps = 200 if n < (1 << 18) else 50
        for m, name in enumerate(METHODS):
            ms, wrong = ctypes.c_double(), ctypes.c_int()
            check(lib.probe_time(m, ctypes.c_long(n), reps, 7, ctypes.byref(ms),
                                 ctypes.byref(wrong), err, 512), err, name)
            worst = comm.reduce(ms.value, op=MPI.MAX, root=0)
            bad = comm.reduce(wrong.value, op=MPI.SUM, root=0)
            rows.append((n, name, worst, bad))
    check(lib.probe_finish(err, 512), err, "finish")
    if rank == 0:
        print(f"| face (doubles) | method | ms per exchange (slowest rank) | GB/s per direction | "
              f"check ({size} ranks) |")
        print("|---|---|---|---|---|")
        for n, name, ms, bad in rows:
            gbs = n * 8 / (ms * 1e-3) / 1e9
            print(f"| {n} | {name} | {ms:.4f} | {gbs:.1f} | "
                  f"{'all arrived' if bad == 0 else f'{bad} wrong'} |")


if __name__ == "__main__":
    main()
