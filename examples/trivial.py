"""A trivial parallel_for, used to measure the per-call launch overhead.

    pkc build examples/trivial.py
    python3 examples/trivial.py [N [CALLS [RUNS]]]    (default N = 1, 10,000 calls, 5 runs)

Each run makes CALLS back-to-back launches (after a warm-up of CALLS/10)
and the median over RUNS of the time per call is printed. Every launch adds
1 to each element, so the final values are checked exactly. The loops are
repeated chains that pkc fuses (one kernel with an inner loop over the
calls): run with PKC_FUSION=0 to measure the launch itself.
"""
import statistics
import sys
import time

import numpy as np
import pykokkos as pk


@pk.workunit
def increment(i: int, v: pk.View1D[pk.double]):
    v[i] += 1.0


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    v = pk.View([N], pk.double)
    v.fill(0.0)

    warmup = max(1, calls // 10)
    for _ in range(warmup):
        pk.parallel_for(N, increment, v=v)
    pk.fence()
    per_call = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(calls):
            pk.parallel_for(N, increment, v=v)
        pk.fence()
        per_call.append((time.perf_counter() - t0) / calls)
    print(f"trivial: N={N} calls={calls} runs={runs} "
          f"launch overhead {statistics.median(per_call) * 1e6:.3f} us/call (median)")

    expected = float(warmup + calls * runs)
    got = np.asarray(v)
    if not np.all(got == expected):
        print(f"trivial: verification FAILED (values {got[:4].tolist()}..., expected {expected})")
        sys.exit(1)
    print(f"trivial: verification PASSED (every element = {expected:g})")


if __name__ == "__main__":
    main()
