"""Issue 22 item 4: every Python escape in a pk.printf format prints what
Python prints: \\uXXXX, \\UXXXXXXXX, \\xHH, octal, \\a \\b \\f \\v, \\0 (passed as
a '%c' argument: C's printf would stop there), raw strings and
concatenation. A child process prints; its bytes are compared with Python's
own rendering, UTF-8 encoded."""
import os
import subprocess
import sys

import pykokkos as pk


@pk.workunit
def say(i: int, x: pk.View1D[pk.int64]):
    pk.printf("<\u00e9\u20ac\U0001F600\xe9\x41\101\351|\a\b\f\v|\0|%d\0%d|" r"\n\q"
              "|end>\n",
              x[i], x[i] + 1)


def child():
    x = pk.View([1], pk.int64)
    x[0] = 7
    pk.parallel_for(1, say, x=x)
    pk.fence()


def main():
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "child"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    want = "<\u00e9\u20ac\U0001F600\xe9\x41\101\351|\a\b\f\v|\0|7\08|" r"\n\q" "|end>\n"
    got = [l for l in p.stdout.split(b"\n") if l.startswith("<".encode())]
    if p.returncode != 0 or got != [want.encode()[:-1]]:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        print(f"BAD exit {p.returncode}, printed {got!r}, want {want.encode()!r}; stderr {err!r}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    if sys.argv[1:] == ["child"]:
        child()
    else:
        main()
