"""Issue 7 s3: `printf` imported by name (`from pykokkos import printf`) and
called in a workunit. Runs in a child process whose standard output is
captured and checked line by line."""
import os
import subprocess
import sys

import pykokkos as pk
from pykokkos import printf


@pk.workunit
def report(i: int, x: pk.View1D[pk.double]):
    printf("item %d %.2f\n", i, x[i])


def child():
    n = 4
    x = pk.View([n], pk.double)
    for i in range(n):
        x[i] = 1.25 * i
    pk.parallel_for(n, report, x=x)
    pk.fence()


def main():
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "child"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    out = p.stdout.decode("utf-8", "replace")
    got = sorted(l for l in out.splitlines() if l.startswith("item"))
    want = sorted(f"item {i} {1.25 * i:.2f}" for i in range(4))
    if p.returncode != 0 or got != want:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        print(f"BAD exit {p.returncode}, printed {got!r}, want {want!r}; stderr {err!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    if sys.argv[1:] == ["child"]:
        child()
    else:
        main()
