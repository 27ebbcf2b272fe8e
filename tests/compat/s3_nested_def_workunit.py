"""Issue 7 s3: a @pk.workunit defined inside a host function (PyKokkos reads a
workunit's source wherever it is defined), with unannotated parameters."""
import sys

import numpy as np
import pykokkos as pk


def main():
    @pk.workunit
    def fill(i, v, step):
        v[i] = step * i

    n = 10
    v = pk.View([n], pk.int64)
    pk.parallel_for(n, fill, v=v, step=3)
    if np.asarray(v).tolist() != [3 * i for i in range(n)]:
        print(f"BAD {np.asarray(v).tolist()}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
