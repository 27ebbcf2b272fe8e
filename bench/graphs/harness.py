"""Shared by the bench/graphs programs (NPBench kernels on small domains,
issue 25 item 4): per-step time of a time step called by hand against the
same step replayed through pk.Graph (a CUDA graph on CUDA, plain calls
elsewhere), and the check that both give the same numbers (bitwise) and
numpy's (within rounding: GPUs contract into FMAs)."""
import statistics
import sys
import time

import numpy as np

import pykokkos as pk


def per_step(run, steps, blocks):
    """Median over blocks of seconds per step; run(steps) launches the steps."""
    times = []
    for _ in range(blocks):
        pk.fence()
        t0 = time.perf_counter()
        run(steps)
        pk.fence()
        times.append((time.perf_counter() - t0) / steps)
    return statistics.median(times)


def measure(name, size, make, step, reference, steps=100, blocks=5, check_steps=10):
    """make() -> tuple of Views (a fresh state); step(*state) is one time
    step; reference(numpy arrays, check_steps) -> numpy arrays after
    check_steps steps. Prints one line; returns 0 when the numbers agree."""
    # the numbers: check_steps plain steps, the same replayed, numpy's
    a, b = make(), make()
    start = [np.array(v) for v in a]
    for _ in range(check_steps):
        step(*a)
    g = pk.Graph(step, *b)
    g.replay(1)
    g.replay(check_steps - 1)
    same = all(np.array_equal(np.array(x), np.array(y)) for x, y in zip(a, b))
    want = reference([s.copy() for s in start], check_steps)
    close = all(np.allclose(np.array(x), w, rtol=1e-10, atol=1e-12) for x, w in zip(a, want))
    # the time: warm-up outside the timers, then median of fenced blocks
    c, d = make(), make()

    def plain(k):
        for _ in range(k):
            step(*c)
    plain(3)
    gd = pk.Graph(step, *d)
    gd.replay(3)
    tp = per_step(plain, steps, blocks)
    tg = per_step(gd.replay, steps, blocks)
    ok = same and close
    print(f"{name}: {size}, {steps} steps x {blocks} blocks: plain {tp * 1e3:.4f} ms/step, "
          f"graph ({gd.mode}{', %d nodes' % gd.nodes if gd.nodes else ''}) {tg * 1e3:.4f} "
          f"ms/step, speedup {tp / tg:.2f}x; graph == plain bitwise: {'yes' if same else 'NO'}, "
          f"numpy: {'yes' if close else 'NO'}")
    print(f"{name}: verification {'PASSED' if ok else 'FAILED'}")
    sys.stdout.flush()
    return 0 if ok else 1


def args(defaults):
    """Sizes from the command line (integers), else the defaults."""
    got = [int(x) for x in sys.argv[1:] if not x.startswith("-")]
    return got + list(defaults[len(got):])
