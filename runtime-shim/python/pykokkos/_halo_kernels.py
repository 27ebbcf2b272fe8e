"""Kernels of pykokkos.mpi's halo exchange, in the PyKokkos dialect (pkc
builds them like any program: setup builds them for the host backends, GPU
backends build them on first use). Each copies one face of a rank-2 or
rank-3 View, the box [lo0, lo0 + n0) x [lo1, lo1 + n1) (x [lo2, lo2 + n2)),
to or from a contiguous buffer in row-major order, over an MDRangePolicy of
the box's extents: the faces travel between ranks as these buffers, so a
View on a GPU never leaves the device whole."""
import pykokkos as pk


@pk.workunit
def pack2_f64(i: int, j: int, buf: pk.View1D[pk.double], v: pk.View2D[pk.double], lo0: int, lo1: int,
            n1: int):
    buf[i * n1 + j] = v[lo0 + i][lo1 + j]


@pk.workunit
def unpack2_f64(i: int, j: int, v: pk.View2D[pk.double], buf: pk.View1D[pk.double], lo0: int, lo1: int,
              n1: int):
    v[lo0 + i][lo1 + j] = buf[i * n1 + j]


@pk.workunit
def pack3_f64(i: int, j: int, k: int, buf: pk.View1D[pk.double], v: pk.View3D[pk.double], lo0: int,
            lo1: int, lo2: int, n1: int, n2: int):
    buf[(i * n1 + j) * n2 + k] = v[lo0 + i][lo1 + j][lo2 + k]


@pk.workunit
def unpack3_f64(i: int, j: int, k: int, v: pk.View3D[pk.double], buf: pk.View1D[pk.double], lo0: int,
              lo1: int, lo2: int, n1: int, n2: int):
    v[lo0 + i][lo1 + j][lo2 + k] = buf[(i * n1 + j) * n2 + k]


@pk.workunit
def pack2_f32(i: int, j: int, buf: pk.View1D[pk.float], v: pk.View2D[pk.float], lo0: int, lo1: int,
            n1: int):
    buf[i * n1 + j] = v[lo0 + i][lo1 + j]


@pk.workunit
def unpack2_f32(i: int, j: int, v: pk.View2D[pk.float], buf: pk.View1D[pk.float], lo0: int, lo1: int,
              n1: int):
    v[lo0 + i][lo1 + j] = buf[i * n1 + j]


@pk.workunit
def pack3_f32(i: int, j: int, k: int, buf: pk.View1D[pk.float], v: pk.View3D[pk.float], lo0: int,
            lo1: int, lo2: int, n1: int, n2: int):
    buf[(i * n1 + j) * n2 + k] = v[lo0 + i][lo1 + j][lo2 + k]


@pk.workunit
def unpack3_f32(i: int, j: int, k: int, v: pk.View3D[pk.float], buf: pk.View1D[pk.float], lo0: int,
              lo1: int, lo2: int, n1: int, n2: int):
    v[lo0 + i][lo1 + j][lo2 + k] = buf[(i * n1 + j) * n2 + k]


def pack(v, buf, lo, n):
    """Copies the box of View v at corner lo with extents n (lists of 2 or 3)
    into the contiguous buffer View buf (row-major), on v's device."""
    f64 = v.dtype == pk.float64
    if len(n) == 2:
        policy2 = pk.MDRangePolicy([0, 0], [n[0], n[1]])
        if f64:
            pk.parallel_for(policy2, pack2_f64, buf=buf, v=v, lo0=lo[0], lo1=lo[1], n1=n[1])
        else:
            pk.parallel_for(policy2, pack2_f32, buf=buf, v=v, lo0=lo[0], lo1=lo[1], n1=n[1])
        return
    policy3 = pk.MDRangePolicy([0, 0, 0], [n[0], n[1], n[2]])
    if f64:
        pk.parallel_for(policy3, pack3_f64, buf=buf, v=v, lo0=lo[0], lo1=lo[1], lo2=lo[2],
                        n1=n[1], n2=n[2])
    else:
        pk.parallel_for(policy3, pack3_f32, buf=buf, v=v, lo0=lo[0], lo1=lo[1], lo2=lo[2],
                        n1=n[1], n2=n[2])


def unpack(v, buf, lo, n):
    """Copies buffer buf into the box of View v at corner lo with extents n."""
    f64 = v.dtype == pk.float64
    if len(n) == 2:
        policy2 = pk.MDRangePolicy([0, 0], [n[0], n[1]])
        if f64:
            pk.parallel_for(policy2, unpack2_f64, v=v, buf=buf, lo0=lo[0], lo1=lo[1], n1=n[1])
        else:
            pk.parallel_for(policy2, unpack2_f32, v=v, buf=buf, lo0=lo[0], lo1=lo[1], n1=n[1])
        return
    policy3 = pk.MDRangePolicy([0, 0, 0], [n[0], n[1], n[2]])
    if f64:
        pk.parallel_for(policy3, unpack3_f64, v=v, buf=buf, lo0=lo[0], lo1=lo[1], lo2=lo[2],
                        n1=n[1], n2=n[2])
    else:
        pk.parallel_for(policy3, unpack3_f32, v=v, buf=buf, lo0=lo[0], lo1=lo[1], lo2=lo[2],
                        n1=n[1], n2=n[2])
