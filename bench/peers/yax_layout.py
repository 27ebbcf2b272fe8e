"""Why the GPU yAx row loses (issue 24): pk_kernels.py's TeamPolicy yAx (a
team per row j, its threads over the columns i of A[j][i])
timed with A in the backend's default layout (LayoutLeft on GPUs: a team's
threads read A strided by the row count) and with A declared LayoutRight
(the same kernel again, with @pk.workunit(A=pk.ViewTypeInfo(layout=...)):
the threads read a row contiguously). Median of 21 fenced runs each, checked against numpy.
Run: PKC_BACKEND=cuda python3 bench/peers/yax_layout.py [N M]"""
import statistics
import sys
import time

import numpy as np
import pykokkos as pk

from pk_kernels import yAx as yax_default   # the peers row's kernel, default layout


@pk.workunit(A=pk.ViewTypeInfo(layout=pk.LayoutRight))
def yax_right(m: pk.TeamMember, acc: pk.Acc[pk.double], M: int, y: pk.View1D[pk.double],
              x: pk.View1D[pk.double], A: pk.View2D[pk.double]):
    j: int = m.league_rank()

    def inner(i: int, inner_acc: pk.Acc[pk.double]):
        inner_acc += A[j][i] * x[i]

    temp2: float = pk.parallel_reduce(pk.TeamThreadRange(m, M), inner)

    def add_row():
        nonlocal acc
        acc += y[j] * temp2

    pk.single(pk.PerTeam(m), add_row)


def main():
    N, M = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (1 << 15, 4096)
    i, j = np.arange(N), np.arange(M)
    y0, x0 = 1.0 + (i % 7) * 0.5, (j % 5) - 1.5
    A0 = ((i[:, None] + 2 * j[None, :]) % 11) * 0.25
    want = y0 @ (A0 @ x0)
    y, x = pk.View([N], pk.double), pk.View([M], pk.double)
    y.data, x.data = y0, x0
    gb = 8 * (N * M + N + M) / 1e9
    for name, kernel, layout in (("default layout", yax_default, None),
                                 ("LayoutRight", yax_right, pk.LayoutRight)):
        A = pk.View([N, M], pk.double) if layout is None else pk.View([N, M], pk.double,
                                                                       layout=layout)
        A.data = A0
        run = lambda: pk.parallel_reduce(pk.TeamPolicy(N, pk.AUTO), kernel, M=M, y=y, x=x, A=A)
        got = run()
        times = []
        for _ in range(21):
            pk.fence()
            t0 = time.perf_counter()
            run()
            pk.fence()
            times.append(time.perf_counter() - t0)
        t = statistics.median(times)
        ok = np.isclose(got, want, rtol=1e-10)
        print(f"yAx {N}x{M}, A {name} ({A.layout}): {t * 1e3:.3f} ms, {gb / t:.0f} GB/s, "
              f"{'checked' if ok else f'WRONG {got} vs {want}'}", flush=True)


if __name__ == "__main__":
    main()
