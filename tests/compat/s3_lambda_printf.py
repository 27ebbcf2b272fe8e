"""Issue 7 s3: a lambda whose body is a pk.printf call, in host code:
`pk.parallel_for(n, lambda i: pk.printf(...))`. The kernel runs in a child
process whose standard output is captured and checked line by line."""
import os
import subprocess
import sys

import pykokkos as pk


def child():
    n = 6
    base = 100
    pk.parallel_for(n, lambda i: pk.printf("lambda %d %d\n", i, base + i * i))
    pk.fence()


def main():
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "child"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    out = p.stdout.decode("utf-8", "replace")
    got = sorted(l for l in out.splitlines() if l.startswith("lambda"))
    want = sorted(f"lambda {i} {100 + i * i}" for i in range(6))
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
