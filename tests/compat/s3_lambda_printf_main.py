"""Issue 7 s3: a lambda whose body is a pk.printf call inside @pk.main:
`pk.parallel_for(self.n, lambda i: pk.printf(...))`. Runs in a child process
whose standard output is captured and checked line by line."""
import os
import subprocess
import sys

import pykokkos as pk


@pk.workload
class Hello:
    def __init__(self, n: int, k: int):
        self.n: int = n
        self.k: int = k

    @pk.main
    def run(self):
        pk.parallel_for(self.n, lambda i: pk.printf("hello %d %d\n", i, i * self.k))
        pk.fence()


def child():
    pk.execute(pk.ExecutionSpace.Default, Hello(5, 3))


def main():
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "child"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    out = p.stdout.decode("utf-8", "replace")
    got = sorted(l for l in out.splitlines() if l.startswith("hello"))
    want = sorted(f"hello {i} {3 * i}" for i in range(5))
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
