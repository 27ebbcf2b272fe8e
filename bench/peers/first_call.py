"""Worker of bench/peers/run.py's first-call rows, run in a fresh process:

    python3 first_call.py pkc   KERNEL_FILE   (a copy of first_pk.py; its
                                               <file>.pk/ cache decides warm/cold)
    python3 first_call.py numba KERNEL_FILE   (first_nb.py or first_nb_cached.py;
                                               NUMBA_CACHE_DIR from the caller)
    python3 first_call.py pkc_heat   first_heat_pk.py (a copy)
    python3 first_call.py numba_heat first_heat_nb.py

Times the import of the package and the kernel file (numpy excluded), then
the first and the second call of the
nstream kernel on small arrays (2^16 doubles, so the kernel itself is a few
microseconds) and prints one JSON line: {"import": s, "first": s, "second": s}.
The first call includes, for pkc: finding and loading the module (and `pkc
build` when the cache is empty or stale), starting Kokkos; for Numba: type
inference, LLVM compilation (or loading the on-disk cache with cache=True),
starting the thread pool.

The *_heat kinds time the first and second step (two kernels each) of the 2-D
heat equation on 256x256 numpy arrays, from unannotated workunits for pkc
(the first step builds the module and its run-time specializations when the
cache is empty), and check the field after both steps against numpy."""
import importlib.util
import json
import os
import sys
import time

N = 1 << 16


def load(path):
    spec = importlib.util.spec_from_file_location(
        os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


HEAT_N, ALPHA = 256, 0.2


def heat_reference(np, u):
    v = u.copy()
    v[1:-1, 1:-1] = u[1:-1, 1:-1] + ALPHA * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
                                             + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1])
    v[0, :] = v[-1, :] = v[:, 0] = v[:, -1] = 0.0
    return v


def heat(who, path):
    """The *_heat kinds: import, first step, second step of first_heat_*.py."""
    import numpy as np   # not counted: both need it
    t0 = time.perf_counter()
    if who == "pkc_heat":
        import pykokkos  # noqa: F401
    else:
        import numba  # noqa: F401
    mod = load(path)
    t1 = time.perf_counter()
    n = HEAT_N
    u = np.zeros((n, n))
    u[n // 4: 3 * n // 4, n // 4: 3 * n // 4] = 1.0
    u_new = np.empty_like(u)
    want = heat_reference(np, heat_reference(np, u))
    t2 = time.perf_counter()
    mod.step(u, u_new, ALPHA)
    t3 = time.perf_counter()
    mod.step(u_new, u, ALPHA)
    t4 = time.perf_counter()
    assert np.max(np.abs(u - want)) < 1e-12, f"first_call: wrong heat field ({who})"
    print(json.dumps({"import": t1 - t0, "first": t3 - t2, "second": t4 - t3}))


def main():
    who, path = sys.argv[1], os.path.abspath(sys.argv[2])
    if who.endswith("_heat"):
        return heat(who, path)
    import numpy as np   # not counted: both need it
    t0 = time.perf_counter()
    if who == "pkc":
        import pykokkos as pk
        mod = load(path)
        t1 = time.perf_counter()
        A, B, C = (pk.View([N], pk.double) for _ in range(3))
        B.fill(2.0)
        C.fill(2.0)

        def call():
            mod.run_nstream(A, B, C, 3.0)
            pk.fence()
    else:
        import numba  # noqa: F401
        mod = load(path)
        t1 = time.perf_counter()
        A, B, C = np.zeros(N), np.full(N, 2.0), np.full(N, 2.0)

        def call():
            mod.nstream(A, B, C, 3.0)
    t2 = time.perf_counter()
    call()
    t3 = time.perf_counter()
    call()
    t4 = time.perf_counter()
    got = np.asarray(A)
    assert np.all(got == 2 * (2.0 + 3.0 * 2.0)), "first_call: wrong nstream result"
    print(json.dumps({"import": t1 - t0, "first": t3 - t2, "second": t4 - t3}))


if __name__ == "__main__":
    main()
