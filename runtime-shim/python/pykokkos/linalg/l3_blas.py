"""BLAS level 3 and matmul over Views (PyKokkos' pykokkos.linalg.l3_blas).

Kernels: gemm_<dtype> of pykokkos/lib/_kernels_reduce.py, one thread per
result element, built for int32, int64, float32 and float64; other dtypes
are computed in int64 (integers, bool) and converted to numpy's result
dtype (integer products wrap as numpy's do)."""
from .._errors import PkcValueError
from .. import _types as T
from .._view import View, numpy as _numpy
from ..lib import _launch as L
from ..lib import _ops as O


def _gemm(alpha, a, b, beta, c, name):
    """c = alpha * a @ b + beta * c for operands of c's dtype: a (m x k) or a
    1-D row of k, b (k x n) or a 1-D column of k, c (m x n), (m,) or (n,)."""
    from .._dispatch import parallel_for
    m = a.shape[0] if a.ndim == 2 else 1
    k = a.shape[-1]
    n = b.shape[1] if b.ndim == 2 else 1
    if m * n == 0:
        return c
    dt = L.pk_dtype(L.np_dtype(c))
    if L.on_gpu():
        L.load("_kernels_reduce")
        a, b = L.device_operand(a), L.device_operand(b)
    fa, fb, fc = L.flatten(a), L.flatten(b), L.flatten(c, write=True)
    if fc is None:
        raise PkcValueError(f"pk.{name}: the result View has negative strides")
    sa = fa.strides if a.ndim == 2 else (0, fa.strides[0])       # one row
    sb = fb.strides if b.ndim == 2 else (fb.strides[0], 0)       # one column
    sc = (fc.strides if c.ndim == 2 else (fc.strides[0], 0) if m > 1 else
          (0, fc.strides[0]) if c.ndim == 1 else (0, 0))
    scal = float if dt.name.startswith("float") else int
    parallel_for(m * n, L.kernel("_kernels_reduce", "gemm", dt.name), ncol=n, kdim=k,
                 alpha=scal(alpha), beta=scal(beta), a=fa.data, a_row=sa[0],
                 a_col=sa[1], b=fb.data, b_row=sb[0], b_col=sb[1], c=fc.data,
                 c_row=sc[0], c_col=sc[1])
    return c


class CoreDimensionError(ValueError, RuntimeError):
    """Operands of pk.matmul whose inner dimensions differ: a ValueError, as
    numpy raises, and a RuntimeError, as PyKokkos raises."""


def _compute_dtype(rdt):
    np = _numpy()
    if rdt.name in O.GEMM:
        return getattr(T, rdt.name)
    return T.float64 if rdt.kind == "f" else T.int64


@L.accepts(x1=("viewA",), x2=("viewB",))
def matmul(x1, x2, /, out=None):
    """pk.matmul(x1, x2): numpy.matmul for rank-1 and rank-2 operands (1-D
    @ 1-D is the dot product, a scalar); numpy's result dtype; a new View."""
    np = _numpy()
    a, b = L.as_operand(x1), L.as_operand(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise PkcValueError("pk.matmul: operands must have rank >= 1 (use pk.multiply "
                            "for scalars)")
    if a.ndim > 2 or b.ndim > 2:
        raise NotImplementedError("pk.matmul: operands of rank 1 or 2")
    ka = a.shape[-1]
    kb = b.shape[0]
    if ka != kb:
        # PyKokkos' text, word for word (its tests compare e.args[0])
        raise CoreDimensionError(f"Input operand 1 has a mismatch in its core dimension "
                                 f"(Size {ka} is different from {kb})")
    rdt = np.result_type(L.np_dtype(a), L.np_dtype(b))
    cdt = _compute_dtype(rdt)
    a, b = L.converted(a, cdt), L.converted(b, cdt)
    shape = tuple(a.shape[:-1]) + tuple(b.shape[1:])
    if shape:
        c = L.new_view(shape, cdt)
    else:                      # 1-D @ 1-D: the dot product
        c = View((1,), cdt)
    _gemm(1, a, b, 0, c, "matmul")
    if not shape:
        r = L.host_array(c)[0]
        return (r != 0) if rdt == np.bool_ else r.astype(rdt)[()]
    if cdt.np_dtype != rdt:
        h = L.host_array(c)
        h = (h != 0) if rdt == np.bool_ else h.astype(rdt)
        c = View(shape, T.dtype_of_numpy(h.dtype), array=np.ascontiguousarray(h))
    if out is not None:
        from ..lib.util import copyto
        copyto(out, c)
        return out
    return c


def dgemm(alpha, view_a, view_b, beta=0.0, view_c=None, *args, **kwargs):
    """pk.linalg.dgemm(alpha, A, B, beta=0.0, C=None): a new float64 View
    alpha * A @ B + beta * C (BLAS dgemm; as PyKokkos, C (m x n) is read, not
    written). A, B: rank 2, (m x k) and (k x n). Further PyKokkos tuning
    arguments (league_size, tile_width) are accepted and ignored."""
    a, b = L.as_operand(view_a), L.as_operand(view_b)
    if a.ndim != 2 or b.ndim != 2:
        raise PkcValueError(f"pk.linalg.dgemm: A and B must have rank 2, got ranks "
                            f"{a.ndim} and {b.ndim}")
    if a.shape[1] != b.shape[0]:   # PyKokkos' words
        raise PkcValueError(f"pk.linalg.dgemm: Second dimensions shape of a is {a.shape[1]} "
                            f"which does not match first dimension shape of b, {b.shape[0]} "
                            f"({tuple(a.shape)} @ {tuple(b.shape)})")
    a, b = L.converted(a, T.float64), L.converted(b, T.float64)
    shape = (a.shape[0], b.shape[1])
    if view_c is None:
        c = L.new_view(shape, T.float64)
        beta = 0.0
    else:
        given = L.as_operand(view_c)
        if tuple(given.shape) != shape:
            raise PkcValueError(f"pk.linalg.dgemm: C must have shape {shape}, got "
                                f"{tuple(given.shape)}")
        c = L.new_view(shape, T.float64, (a, b))
        L.host_array(c, True)[...] = L.host_array(given)   # C itself stays as it is
    return _gemm(alpha, a, b, beta, c, "linalg.dgemm")
