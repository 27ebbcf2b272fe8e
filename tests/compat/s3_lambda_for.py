"""Issue 7 s3: `pk.parallel_for(n, lambda i: ...)` in host code; the lambda
captures host locals (Views) and calls an atomic or a @pk.function."""
import sys

import numpy as np
import pykokkos as pk


@pk.function
def put(v: pk.View1D[pk.double], i: int, value: float):
    v[i] = value


def main():
    n = 20
    hist = pk.View([4], pk.int32)
    y = pk.View([n], pk.double)
    scale = 1.5
    pk.parallel_for(n, lambda i: pk.atomic_fetch_add(hist, [i % 4], 1))
    pk.parallel_for(n, lambda i: put(y, i, scale * i))
    if np.asarray(hist).tolist() != [5, 5, 5, 5] or not np.array_equal(np.asarray(y), 1.5 * np.arange(n)):
        print(f"BAD hist={np.asarray(hist).tolist()} y={np.asarray(y).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
