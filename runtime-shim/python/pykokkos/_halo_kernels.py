"""Kernels of pykokkos.mpi's halo exchange, in the PyKokkos dialect (pkc
builds them like any program: setup builds them for the host backends, GPU
backends build them on first use). Each copies one face of a rank-2 or
rank-3 View to or from a contiguous buffer: the box at corner lo with
extents n, n[d] = w layers thick along dimension d; the buffer holds layer
after layer, each in row-major order of the other dimensions. The kernels
run over the other dimensions (a RangePolicy for rank 2, a 2-D MDRange for
rank 3, the last of them fastest) with the layers in a loop, so a face is
copied at the device's bandwidth; a 3-D MDRange over a box one cell thick
wasted most of each tile. The faces travel between ranks as these buffers,
so a View on a GPU never leaves the device whole. Each kernel comes in a
LayoutLeft (_l) and a LayoutRight (_r) version, picked by the View's layout
where it lives (a View on a GPU may be either: the GPU default, or C order
from numpy or a LayoutRight kernel)."""
import pykokkos as pk


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def pack2_f64_l(a: int, buf: pk.View1D[pk.double], v: pk.View2D[pk.double], lo0: int, lo1: int,
                w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            buf[c * na + a] = v[lo0 + c][lo1 + a]
        else:
            buf[c * na + a] = v[lo0 + a][lo1 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def unpack2_f64_l(a: int, v: pk.View2D[pk.double], buf: pk.View1D[pk.double], lo0: int, lo1: int,
                  w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a] = buf[c * na + a]
        else:
            v[lo0 + a][lo1 + c] = buf[c * na + a]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def pack3_f64_l(a: int, b: int, buf: pk.View1D[pk.double], v: pk.View3D[pk.double], lo0: int,
                lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            buf[(c * na + a) * nb + b] = v[lo0 + c][lo1 + a][lo2 + b]
        elif d == 1:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + c][lo2 + b]
        else:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + b][lo2 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def unpack3_f64_l(a: int, b: int, v: pk.View3D[pk.double], buf: pk.View1D[pk.double], lo0: int,
                  lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a][lo2 + b] = buf[(c * na + a) * nb + b]
        elif d == 1:
            v[lo0 + a][lo1 + c][lo2 + b] = buf[(c * na + a) * nb + b]
        else:
            v[lo0 + a][lo1 + b][lo2 + c] = buf[(c * na + a) * nb + b]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def pack2_f64_r(a: int, buf: pk.View1D[pk.double], v: pk.View2D[pk.double], lo0: int, lo1: int,
                w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            buf[c * na + a] = v[lo0 + c][lo1 + a]
        else:
            buf[c * na + a] = v[lo0 + a][lo1 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def unpack2_f64_r(a: int, v: pk.View2D[pk.double], buf: pk.View1D[pk.double], lo0: int, lo1: int,
                  w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a] = buf[c * na + a]
        else:
            v[lo0 + a][lo1 + c] = buf[c * na + a]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def pack3_f64_r(a: int, b: int, buf: pk.View1D[pk.double], v: pk.View3D[pk.double], lo0: int,
                lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            buf[(c * na + a) * nb + b] = v[lo0 + c][lo1 + a][lo2 + b]
        elif d == 1:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + c][lo2 + b]
        else:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + b][lo2 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def unpack3_f64_r(a: int, b: int, v: pk.View3D[pk.double], buf: pk.View1D[pk.double], lo0: int,
                  lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a][lo2 + b] = buf[(c * na + a) * nb + b]
        elif d == 1:
            v[lo0 + a][lo1 + c][lo2 + b] = buf[(c * na + a) * nb + b]
        else:
            v[lo0 + a][lo1 + b][lo2 + c] = buf[(c * na + a) * nb + b]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def pack2_f32_l(a: int, buf: pk.View1D[pk.float], v: pk.View2D[pk.float], lo0: int, lo1: int,
                w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            buf[c * na + a] = v[lo0 + c][lo1 + a]
        else:
            buf[c * na + a] = v[lo0 + a][lo1 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def unpack2_f32_l(a: int, v: pk.View2D[pk.float], buf: pk.View1D[pk.float], lo0: int, lo1: int,
                  w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a] = buf[c * na + a]
        else:
            v[lo0 + a][lo1 + c] = buf[c * na + a]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def pack3_f32_l(a: int, b: int, buf: pk.View1D[pk.float], v: pk.View3D[pk.float], lo0: int,
                lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            buf[(c * na + a) * nb + b] = v[lo0 + c][lo1 + a][lo2 + b]
        elif d == 1:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + c][lo2 + b]
        else:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + b][lo2 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutLeft))
def unpack3_f32_l(a: int, b: int, v: pk.View3D[pk.float], buf: pk.View1D[pk.float], lo0: int,
                  lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a][lo2 + b] = buf[(c * na + a) * nb + b]
        elif d == 1:
            v[lo0 + a][lo1 + c][lo2 + b] = buf[(c * na + a) * nb + b]
        else:
            v[lo0 + a][lo1 + b][lo2 + c] = buf[(c * na + a) * nb + b]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def pack2_f32_r(a: int, buf: pk.View1D[pk.float], v: pk.View2D[pk.float], lo0: int, lo1: int,
                w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            buf[c * na + a] = v[lo0 + c][lo1 + a]
        else:
            buf[c * na + a] = v[lo0 + a][lo1 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def unpack2_f32_r(a: int, v: pk.View2D[pk.float], buf: pk.View1D[pk.float], lo0: int, lo1: int,
                  w: int, d: int, na: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a] = buf[c * na + a]
        else:
            v[lo0 + a][lo1 + c] = buf[c * na + a]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def pack3_f32_r(a: int, b: int, buf: pk.View1D[pk.float], v: pk.View3D[pk.float], lo0: int,
                lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            buf[(c * na + a) * nb + b] = v[lo0 + c][lo1 + a][lo2 + b]
        elif d == 1:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + c][lo2 + b]
        else:
            buf[(c * na + a) * nb + b] = v[lo0 + a][lo1 + b][lo2 + c]


@pk.workunit(v=pk.ViewTypeInfo(layout=pk.LayoutRight))
def unpack3_f32_r(a: int, b: int, v: pk.View3D[pk.float], buf: pk.View1D[pk.float], lo0: int,
                  lo1: int, lo2: int, w: int, d: int, na: int, nb: int):
    for c in range(w):
        if d == 0:
            v[lo0 + c][lo1 + a][lo2 + b] = buf[(c * na + a) * nb + b]
        elif d == 1:
            v[lo0 + a][lo1 + c][lo2 + b] = buf[(c * na + a) * nb + b]
        else:
            v[lo0 + a][lo1 + b][lo2 + c] = buf[(c * na + a) * nb + b]


def _left(v):
    """Does View v take the LayoutLeft kernels? Its layout where it lives; a
    View of the default layout not yet on a GPU takes the GPU default
    (LayoutLeft: the first kernel places it so), on the host LayoutRight."""
    from ._view import _device_module
    if v._dev is None and getattr(v, "_deflt", False) and _device_module() is not None:
        return True
    return v.layout is pk.LayoutLeft


def pack(v, buf, lo, n, d):
    """Copies the box of View v at corner lo with extents n (lists of 2 or 3
    ints), n[d] layers thick along dimension d, into the contiguous buffer
    View buf (see the module docstring for the order), on v's device."""
    f64, left = v.dtype == pk.float64, _left(v)
    o = [n[e] for e in range(len(n)) if e != d]   # extents of the other dimensions
    if len(n) == 2:
        if f64 and left:
            pk.parallel_for(o[0], pack2_f64_l, buf=buf, v=v, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        elif f64:
            pk.parallel_for(o[0], pack2_f64_r, buf=buf, v=v, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        elif left:
            pk.parallel_for(o[0], pack2_f32_l, buf=buf, v=v, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        else:
            pk.parallel_for(o[0], pack2_f32_r, buf=buf, v=v, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        return
    policy = pk.MDRangePolicy([0, 0], [o[0], o[1]])
    if f64 and left:
        pk.parallel_for(policy, pack3_f64_l, buf=buf, v=v, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])
    elif f64:
        pk.parallel_for(policy, pack3_f64_r, buf=buf, v=v, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])
    elif left:
        pk.parallel_for(policy, pack3_f32_l, buf=buf, v=v, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])
    else:
        pk.parallel_for(policy, pack3_f32_r, buf=buf, v=v, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])


def unpack(v, buf, lo, n, d):
    """Copies buffer buf into the box of View v (as pack, the other way)."""
    f64, left = v.dtype == pk.float64, _left(v)
    o = [n[e] for e in range(len(n)) if e != d]
    if len(n) == 2:
        if f64 and left:
            pk.parallel_for(o[0], unpack2_f64_l, v=v, buf=buf, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        elif f64:
            pk.parallel_for(o[0], unpack2_f64_r, v=v, buf=buf, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        elif left:
            pk.parallel_for(o[0], unpack2_f32_l, v=v, buf=buf, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        else:
            pk.parallel_for(o[0], unpack2_f32_r, v=v, buf=buf, lo0=lo[0], lo1=lo[1], w=n[d], d=d,
                            na=o[0])
        return
    policy = pk.MDRangePolicy([0, 0], [o[0], o[1]])
    if f64 and left:
        pk.parallel_for(policy, unpack3_f64_l, v=v, buf=buf, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])
    elif f64:
        pk.parallel_for(policy, unpack3_f64_r, v=v, buf=buf, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])
    elif left:
        pk.parallel_for(policy, unpack3_f32_l, v=v, buf=buf, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])
    else:
        pk.parallel_for(policy, unpack3_f32_r, v=v, buf=buf, lo0=lo[0], lo1=lo[1],
                        lo2=lo[2], w=n[d], d=d, na=o[0], nb=o[1])
