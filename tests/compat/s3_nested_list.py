"""Issue 7 s3: a nested fixed-size typing.List[typing.List[float]] in a kernel
(a 2x2 matrix applied to each point)."""
import sys
import typing

import numpy as np
import pykokkos as pk


@pk.workunit
def rotate(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double], c: float, s: float):
    m: typing.List[typing.List[float]] = [[c, -s], [s, c]]
    p: typing.List[float] = [x[i], y[i]]
    q: typing.List[float] = [0.0, 0.0]
    for r in range(2):
        for k in range(2):
            q[r] += m[r][k] * p[k]
    m[1][1] = 2.0
    x[i] = q[0]
    y[i] = q[1] * m[1][1]


def main():
    n = 5
    x = pk.View([n], pk.double)
    y = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 1.0 + i
        y[i] = 0.5 * i
    c, s = 0.6, 0.8
    pk.parallel_for(n, rotate, x=x, y=y, c=c, s=s)
    xs = 1.0 + np.arange(n)
    ys = 0.5 * np.arange(n)
    wx = c * xs - s * ys
    wy = 2.0 * (s * xs + c * ys)
    if not np.allclose(np.asarray(x), wx, rtol=1e-15) or not np.allclose(np.asarray(y), wy, rtol=1e-15):
        print(f"BAD x={np.asarray(x).tolist()} y={np.asarray(y).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
