"""The CuPy and Numba-CUDA contenders of bench/peers/run.py --gpu (gpu_run.py):
the kernels of pk_kernels.py written as each community writes them.

CuPy comes in two forms, timed both, the faster reported: "array", idiomatic
whole-array code (`A += B + s * C`, `cp.dot`, `B += A.T`; temporaries
included, as users get them), and "kernel", cp.ElementwiseKernel /
cp.ReductionKernel (one pass, no temporaries; `raw` arrays where a thread
reads neighbours). Numba-CUDA: @cuda.jit, one thread per element
(cuda.grid), 256-thread blocks; 2-D kernels in 32 x 8 blocks with x along
the contiguous index (the block shape a Numba user must choose: a good one);
reductions in shared memory, one atomic add per block.

Both factories take the imported module and return {name: callable}; the
callables launch once and return without synchronising (gpu_run.py times
them with the device's synchronize); a reduction returns its value on the
host, as pkc's pk.parallel_reduce does."""
import math

THREADS = 256        # 1-D blocks
BLOCK2 = (32, 8)     # 2-D blocks: x along the contiguous index (j), y along i


def cupy_kernels(cp):
    """{(kernel, form): launch(*args)} for form "array" and "kernel"."""
    ek, rk = cp.ElementwiseKernel, cp.ReductionKernel
    nstream_k = ek("float64 b, float64 c, float64 s", "float64 a", "a += b + s * c", "pk_nstream")
    copy_k = ek("float64 a", "float64 c", "c = a", "pk_copy")
    mul_k = ek("float64 c, float64 s", "float64 b", "b = s * c", "pk_mul")
    add_k = ek("float64 a, float64 b", "float64 c", "c = a + b", "pk_add")
    triad_k = ek("float64 b, float64 c, float64 s", "float64 a", "a = b + s * c", "pk_triad")
    dot_k = rk("float64 p, float64 q", "float64 y", "p * q", "a + b", "y = a", "0", "pk_dot")
    stencil_k = ek(
        "raw float64 inp, int64 w", "raw float64 out",   # (n and i are CuPy's names)
        """long long r = i / w, c = i % w;
           if (r > 0 && r < w - 1 && c > 0 && c < w - 1)
             out[i] = 0.5 * inp[i] + 0.125 * (inp[i - w] + inp[i + w] + inp[i - 1] + inp[i + 1]);""",
        "pk_stencil5")
    transpose_k = ek(
        "raw float64 A, int64 w", "raw float64 B",
        """long long r = i / w, c = i % w;
           B[i] += A[c * w + r];
           A[c * w + r] += 1.0;""", "pk_transpose")
    gather_k = ek("raw float64 x, int64 idx", "float64 y", "y = x[idx]", "pk_gather")
    lj_k = ek(
        "raw float64 x, raw int32 num, raw int32 neigh, int64 K, float64 L, float64 rc2",
        "raw float64 f",
        """double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
           double fx = 0.0, fy = 0.0, fz = 0.0;
           for (int k = 0; k < num[i]; k++) {
             long long j = neigh[i * K + k];
             double dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
             dx -= L * floor(dx / L + 0.5);
             dy -= L * floor(dy / L + 0.5);
             dz -= L * floor(dz / L + 0.5);
             double r2 = dx * dx + dy * dy + dz * dz;
             if (r2 < rc2) {
               double sr2 = 1.0 / r2, sr6 = sr2 * sr2 * sr2;
               double fpair = 48.0 * sr6 * (sr6 - 0.5) * sr2;
               fx += fpair * dx; fy += fpair * dy; fz += fpair * dz;
             }
           }
           f[3 * i] = fx; f[3 * i + 1] = fy; f[3 * i + 2] = fz;""", "pk_lj_force")

    def stencil_array(inp, out):
        out[1:-1, 1:-1] = 0.5 * inp[1:-1, 1:-1] + 0.125 * (inp[:-2, 1:-1] + inp[2:, 1:-1]
                                                          + inp[1:-1, :-2] + inp[1:-1, 2:])

    def transpose_array(A, B):
        B += A.T
        A += 1.0

    def nstream_array(A, B, C, s):
        A += B + s * C

    return {
        ("nstream", "array"): nstream_array,
        ("nstream", "kernel"): lambda A, B, C, s: nstream_k(B, C, s, A),
        ("copy", "array"): lambda a, c: cp.copyto(c, a),
        ("copy", "kernel"): lambda a, c: copy_k(a, c),
        ("mul", "array"): lambda b, c, s: cp.multiply(c, s, out=b),
        ("mul", "kernel"): lambda b, c, s: mul_k(c, s, b),
        ("add", "array"): lambda a, b, c: cp.add(a, b, out=c),
        ("add", "kernel"): lambda a, b, c: add_k(a, b, c),
        ("triad", "array"): lambda a, b, c, s: cp.add(b, s * c, out=a),
        ("triad", "kernel"): lambda a, b, c, s: triad_k(b, c, s, a),
        ("dot", "array"): lambda a, b: float(cp.dot(a, b)),
        ("dot", "kernel"): lambda a, b: float(dot_k(a, b)),
        ("stencil5", "array"): stencil_array,
        ("stencil5", "kernel"): lambda inp, out: stencil_k(inp, inp.shape[0], out, size=inp.size),
        ("transpose", "array"): transpose_array,
        ("transpose", "kernel"): lambda A, B: transpose_k(A, A.shape[0], B, size=A.size),
        ("gather", "array"): lambda x, idx, y: cp.take(x, idx, out=y),
        ("gather", "kernel"): lambda x, idx, y: gather_k(x, idx, y),
        ("yAx", "array"): lambda y, x, A: float(y @ (A @ x)),
        ("lj_force", "kernel"): lambda L, rc2, x, num, neigh, f: lj_k(
            x, num, neigh, neigh.shape[1], L, rc2, f, size=x.shape[0]),
    }


cuda = float64 = None   # numba.cuda and numba.float64, set by numba_kernels()


def numba_kernels():
    """{kernel: launch(*device arrays)} of @cuda.jit kernels. Imports numba
    (the caller patches NumPy first); the kernels read `cuda` as a module
    global, as Numba's CUDA simulator requires."""
    global cuda, float64
    from numba import cuda, float64

    @cuda.jit
    def nstream(A, B, C, s):
        i = cuda.grid(1)
        if i < A.shape[0]:
            A[i] += B[i] + s * C[i]

    @cuda.jit
    def copy(a, c):
        i = cuda.grid(1)
        if i < a.shape[0]:
            c[i] = a[i]

    @cuda.jit
    def mul(b, c, s):
        i = cuda.grid(1)
        if i < b.shape[0]:
            b[i] = s * c[i]

    @cuda.jit
    def add(a, b, c):
        i = cuda.grid(1)
        if i < a.shape[0]:
            c[i] = a[i] + b[i]

    @cuda.jit
    def triad(a, b, c, s):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i] = b[i] + s * c[i]

    @cuda.jit
    def dot(a, b, out):
        sm = cuda.shared.array(THREADS, float64)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        s = 0.0
        while i < a.shape[0]:   # grid-stride loop
            s += a[i] * b[i]
            i += cuda.gridsize(1)
        sm[t] = s
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                sm[t] += sm[t + step]
            cuda.syncthreads()
            step //= 2
        if t == 0:
            cuda.atomic.add(out, 0, sm[0])

    @cuda.jit
    def stencil5(inp, out):
        j, i = cuda.grid(2)
        n = inp.shape[0]
        if i > 0 and i < n - 1 and j > 0 and j < n - 1:
            out[i, j] = 0.5 * inp[i, j] + 0.125 * (inp[i - 1, j] + inp[i + 1, j]
                                                   + inp[i, j - 1] + inp[i, j + 1])

    @cuda.jit
    def transpose(A, B):
        j, i = cuda.grid(2)
        n = A.shape[0]
        if i < n and j < n:
            B[i, j] += A[j, i]
            A[j, i] += 1.0

    @cuda.jit
    def gather(x, idx, y):
        i = cuda.grid(1)
        if i < y.shape[0]:
            y[i] = x[idx[i]]

    @cuda.jit
    def yAx(y, x, A, out):   # a block per row, as pkc's team per row
        sm = cuda.shared.array(THREADS, float64)
        j = cuda.blockIdx.x
        t = cuda.threadIdx.x
        s = 0.0
        for k in range(t, A.shape[1], THREADS):
            s += A[j, k] * x[k]
        sm[t] = s
        cuda.syncthreads()
        step = THREADS // 2
        while step > 0:
            if t < step:
                sm[t] += sm[t + step]
            cuda.syncthreads()
            step //= 2
        if t == 0:
            cuda.atomic.add(out, 0, y[j] * sm[0])

    @cuda.jit
    def lj_force(L, rc2, x, num_neigh, neigh, f):
        i = cuda.grid(1)
        if i >= x.shape[0]:
            return
        xi = x[i, 0]
        yi = x[i, 1]
        zi = x[i, 2]
        fx = 0.0
        fy = 0.0
        fz = 0.0
        for k in range(num_neigh[i]):
            j = neigh[i, k]
            dx = xi - x[j, 0]
            dy = yi - x[j, 1]
            dz = zi - x[j, 2]
            dx -= L * math.floor(dx / L + 0.5)
            dy -= L * math.floor(dy / L + 0.5)
            dz -= L * math.floor(dz / L + 0.5)
            r2 = dx * dx + dy * dy + dz * dz
            if r2 < rc2:
                sr2 = 1.0 / r2
                sr6 = sr2 * sr2 * sr2
                fpair = 48.0 * sr6 * (sr6 - 0.5) * sr2
                fx += fpair * dx
                fy += fpair * dy
                fz += fpair * dz
        f[i, 0] = fx
        f[i, 1] = fy
        f[i, 2] = fz

    def g1(n):
        return (n + THREADS - 1) // THREADS

    def g2(n):
        return ((n + BLOCK2[0] - 1) // BLOCK2[0], (n + BLOCK2[1] - 1) // BLOCK2[1])

    def reduce_launch(kernel, blocks, args, out):
        out[0] = 0.0
        kernel[blocks, THREADS](*args, out)
        return float(out.copy_to_host()[0])

    try:
        sms = int(cuda.get_current_device().MULTIPROCESSOR_COUNT)
    except (AttributeError, TypeError, ValueError):   # the CUDA simulator
        sms = 16
    return {
        "nstream": lambda A, B, C, s: nstream[g1(A.shape[0]), THREADS](A, B, C, s),
        "copy": lambda a, c: copy[g1(a.shape[0]), THREADS](a, c),
        "mul": lambda b, c, s: mul[g1(b.shape[0]), THREADS](b, c, s),
        "add": lambda a, b, c: add[g1(a.shape[0]), THREADS](a, b, c),
        "triad": lambda a, b, c, s: triad[g1(a.shape[0]), THREADS](a, b, c, s),
        # dot: 8 blocks per SM, grid-stride (more blocks only add atomics)
        "dot": lambda a, b, out: reduce_launch(dot, min(g1(a.shape[0]), 8 * sms), (a, b), out),
        "stencil5": lambda inp, out: stencil5[g2(inp.shape[0]), BLOCK2](inp, out),
        "transpose": lambda A, B: transpose[g2(A.shape[0]), BLOCK2](A, B),
        "gather": lambda x, idx, y: gather[g1(y.shape[0]), THREADS](x, idx, y),
        "yAx": lambda y, x, A, out: reduce_launch(yAx, A.shape[0], (y, x, A), out),
        "lj_force": lambda L, rc2, x, num, neigh, f: lj_force[g1(x.shape[0]), THREADS](
            L, rc2, x, num, neigh, f),
    }
