"""MDRange tiles on a GPU (issue 24, item 2): pkc's default tile (the program
gives none) against a sweep of tiles {8,16,32,64,128} x {1,2,4,8,16,32} for
three 2-D kernels as PyKokkos users write them: a 5-point stencil, the PRK
transpose (B += A^T; A += 1) and a Jacobi step (a parallel_for, then the
residual as a parallel_reduce over the same MDRange).

    PKC_BACKEND=cuda python3 bench/tiles/tiles.py [N] [REPS]   (default 8192, 21)

Each configuration: 2 untimed launches, then REPS timed ones, each followed
by pk.fence(); the cell is the median in ms. Tiles of more than 1024 threads
(a CUDA block's limit) are left out. Results are checked against numpy for
the default tile and the best one. Prints one table: per kernel the default
tile's time, the best tile and its time, and default/best (the goal: <= 1.05).
scripts/gpu/tiles_cuda.sh runs it on the GPU host."""
import statistics
import sys
import time

import numpy as np
import pykokkos as pk


@pk.workunit
def stencil5(i: int, j: int, inp: pk.View2D[pk.double], out: pk.View2D[pk.double]):
    out[i][j] = 0.5 * inp[i][j] + 0.125 * (inp[i - 1][j] + inp[i + 1][j]
                                           + inp[i][j - 1] + inp[i][j + 1])


@pk.workunit
def transpose(i: int, j: int, A: pk.View2D[pk.double], B: pk.View2D[pk.double]):
    B[i][j] += A[j][i]
    A[j][i] += 1.0


@pk.workunit
def jacobi(i: int, j: int, u: pk.View2D[pk.double], unew: pk.View2D[pk.double],
           f: pk.View2D[pk.double]):
    unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - f[i][j])


@pk.workunit
def residual(i: int, j: int, acc: pk.Acc[pk.double], u: pk.View2D[pk.double],
             unew: pk.View2D[pk.double]):
    d: float = unew[i][j] - u[i][j]
    acc += d * d


# The launches as users write them: pkc types each workunit from the
# pk.MDRangePolicy at its launch (a policy made elsewhere would leave it 1-D).
def run_stencil(v, n, tile):
    if tile is None:
        pk.parallel_for("stencil", pk.MDRangePolicy([1, 1], [n - 1, n - 1]), stencil5,
                        inp=v["a"], out=v["b"])
    else:
        pk.parallel_for("stencil", pk.MDRangePolicy([1, 1], [n - 1, n - 1], tile), stencil5,
                        inp=v["a"], out=v["b"])


def run_transpose(v, n, tile):
    if tile is None:
        pk.parallel_for("transpose", pk.MDRangePolicy([0, 0], [n, n]), transpose,
                        A=v["a"], B=v["b"])
    else:
        pk.parallel_for("transpose", pk.MDRangePolicy([0, 0], [n, n], tile), transpose,
                        A=v["a"], B=v["b"])


def run_jacobi(v, n, tile):
    if tile is None:
        pk.parallel_for("jacobi", pk.MDRangePolicy([1, 1], [n - 1, n - 1]), jacobi,
                        u=v["a"], unew=v["b"], f=v["c"])
        return pk.parallel_reduce("residual", pk.MDRangePolicy([1, 1], [n - 1, n - 1]), residual,
                                  u=v["a"], unew=v["b"])
    pk.parallel_for("jacobi", pk.MDRangePolicy([1, 1], [n - 1, n - 1], tile), jacobi,
                    u=v["a"], unew=v["b"], f=v["c"])
    return pk.parallel_reduce("residual", pk.MDRangePolicy([1, 1], [n - 1, n - 1], tile),
                              residual, u=v["a"], unew=v["b"])


def fresh(n, rng):
    arrays = {k: rng.standard_normal((n, n)) for k in "abc"}
    views = {}
    for k, a in arrays.items():
        views[k] = pk.View([n, n], pk.double)
        np.asarray(views[k])[...] = a
    return arrays, views


def expect(name, arrays, reps):
    a, b, c = arrays["a"], arrays["b"], arrays["c"]
    if name == "stencil":
        want = b.copy()
        want[1:-1, 1:-1] = 0.5 * a[1:-1, 1:-1] + 0.125 * (a[:-2, 1:-1] + a[2:, 1:-1]
                                                          + a[1:-1, :-2] + a[1:-1, 2:])
        return "b", want
    if name == "transpose":  # reps launches: B += sum_r (A + r)^T
        return "b", b + reps * a.T + reps * (reps - 1) / 2
    want = b.copy()
    want[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
                               - c[1:-1, 1:-1])
    return "b", want


def measure(name, fn, n, tile, reps, rng, check):
    arrays, views = fresh(n, rng) if check else (None, measure.views)
    if check:
        measure.views = views
    times = []
    launches = 0
    for r in range(reps + 2):
        pk.fence()
        t0 = time.perf_counter()
        fn(views, n, None if tile is None else list(tile))
        pk.fence()
        launches += 1
        if r >= 2:
            times.append(time.perf_counter() - t0)
    if check:
        key, want = expect(name, arrays, launches)
        got = np.asarray(views[key])
        if not np.allclose(got, want, rtol=1e-12, atol=1e-9 * max(1.0, launches)):
            raise SystemExit(f"tiles: {name} with tile {tile} computed wrong results")
    return statistics.median(times) * 1e3


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    rng = np.random.default_rng(1)
    tiles = [(a, b) for a in (8, 16, 32, 64, 128) for b in (1, 2, 4, 8, 16, 32) if a * b <= 1024]
    kernels = {"stencil 5-point": run_stencil, "transpose": run_transpose, "jacobi + residual": run_jacobi}
    names = {"stencil 5-point": "stencil", "transpose": "transpose", "jacobi + residual": "jacobi"}
    print(f"# backend {pk.get_default_space()}, {n}x{n} doubles, median of {reps} launches (ms)")
    print("| kernel | default | best tile | best | default/best | [32, 8] | [8, 32] |")
    print("|---|---|---|---|---|---|---|")
    for label, fn in kernels.items():
        name = names[label]
        default = measure(name, fn, n, None, reps, rng, True)
        sweep = {t: measure(name, fn, n, t, reps, rng, False) for t in tiles}
        best = min(sweep, key=sweep.get)
        measure(name, fn, n, best, reps, rng, True)  # the best tile computes the right thing too
        print(f"| {label} | {default:.3f} | {list(best)} | {sweep[best]:.3f} | "
              f"{default / sweep[best]:.2f} | {sweep[(32, 8)]:.3f} | {sweep[(8, 32)]:.3f} |",
              flush=True)
        print("#   sweep: " + ", ".join(f"{t[0]}x{t[1]} {ms:.3f}" for t, ms in sorted(sweep.items())),
              flush=True)


if __name__ == "__main__":
    main()
