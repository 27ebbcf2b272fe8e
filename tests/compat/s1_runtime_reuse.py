"""Issue 7 s1: a run-time specialization is cached and reused on later runs
without translating anything: the kernel part of this program runs once in a
child process with pkc on PATH, then again with pkc removed from PATH (and
PKC unset); the second run must still compute the right numbers and must not
build anything."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def scale(i, out, inp, factor):
    out[i] = factor * inp[i]


def child():
    n = 9
    views = {"in": pk.from_numpy(np.arange(n, dtype=np.float32)),
             "out": pk.from_numpy(np.zeros(n))}
    pk.parallel_for(n, scale, out=views["out"], inp=views["in"], factor=1.5)
    got = np.asarray(views["out"])
    if not np.array_equal(got, 1.5 * np.arange(n)):
        print(f"BAD child out={got.tolist()}")
        sys.exit(1)
    print("CHILD-OK")


def run(env):
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "child"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def main():
    env = dict(os.environ)
    rc1, out1 = run(env)
    if rc1 != 0 or "CHILD-OK" not in out1:
        print(f"BAD first run: exit {rc1}: {out1.strip().splitlines()[-3:]}")
        sys.exit(1)
    pkc = shutil.which("pkc", path=env.get("PATH", ""))
    env2 = dict(env)
    env2.pop("PKC", None)
    if pkc:
        bindir = os.path.dirname(os.path.realpath(pkc))
        env2["PATH"] = os.pathsep.join(
            d for d in env.get("PATH", "").split(os.pathsep)
            if d and os.path.realpath(d) != bindir)
    if shutil.which("pkc", path=env2.get("PATH", "")):
        print("BAD could not take pkc off PATH for the second run")
        sys.exit(1)
    rc2, out2 = run(env2)
    if rc2 != 0 or "CHILD-OK" not in out2:
        print(f"BAD second run without pkc: exit {rc2}: {out2.strip().splitlines()[-3:]}")
        sys.exit(1)
    if "building" in out2:
        print(f"BAD second run built something: {out2.strip().splitlines()[:3]}")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    if sys.argv[1:] == ["child"]:
        child()
    else:
        main()
