"""Issue 7 s4 (regression): a source file whose name is not an identifier
(`my-app.py`). It is built explicitly with `pkc build`, then its kernel runs
in a child process with pkc taken off PATH, so the shim must find the module
that pkc built (one naming function on both sides) instead of building again."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def triad(i: int, a: pk.View1D[pk.double], b: pk.View1D[pk.double],
          c: pk.View1D[pk.double], s: float):
    a[i] = b[i] + s * c[i]


def child():
    n = 10
    a = pk.View([n], pk.double)
    b = pk.View([n], pk.double)
    c = pk.View([n], pk.double)
    for i in range(n):
        b[i] = i
        c[i] = 2.0
    pk.parallel_for(n, triad, a=a, b=b, c=c, s=3.0)
    if not np.array_equal(np.asarray(a), np.arange(n) + 6.0):
        print(f"BAD a={np.asarray(a).tolist()}")
        sys.exit(1)
    print("CHILD-OK")


def main():
    me = os.path.abspath(__file__)
    pkc = os.environ.get("PKC") or shutil.which("pkc")
    if not pkc:
        print("BAD pkc is not on PATH (needed for the explicit build)")
        sys.exit(1)
    backend = os.environ.get("PKC_BACKEND") or "openmp"
    p = subprocess.run([pkc, "build", me, "--backend", backend],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    if p.returncode != 0:
        print(f"BAD pkc build exit {p.returncode}: "
              f"{p.stdout.decode(errors='replace').strip().splitlines()[-2:]}")
        sys.exit(1)
    env = dict(os.environ)
    env.pop("PKC", None)
    bindir = os.path.dirname(os.path.realpath(pkc))
    env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "").split(os.pathsep)
                                  if d and os.path.realpath(d) != bindir)
    env["PKC_BACKEND"] = backend
    p = subprocess.run([sys.executable, me, "child"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0 or "CHILD-OK" not in out:
        print(f"BAD run after pkc build: exit {p.returncode}: {out.strip().splitlines()[-2:]}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    if sys.argv[1:] == ["child"]:
        child()
    else:
        main()
