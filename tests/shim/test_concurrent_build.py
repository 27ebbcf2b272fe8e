"""Concurrent builds of one module (issue 10: every MPI rank starts the same
program): 4 `pkc build -v` processes started at once on a fresh copy of a
program compile it once (the others wait for the lock, then find it fresh),
and 4 programs started at once on another fresh copy, each building on first
use through the shim, all load a good module and compute the right values.

Run: /usr/bin/python3 tests/shim/test_concurrent_build.py
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PKC = os.path.join(ROOT, "build", "bin", "pkc")

PROGRAM = '''
import sys
import numpy as np
import pykokkos as pk


@pk.workunit
def fill(i: int, v: pk.View1D[pk.double], rank: float):
    v[i] = 10.0 * i + rank


def main():
    rank = float(sys.argv[1])
    n = 1000
    v = pk.View([n], pk.double)
    pk.parallel_for(n, fill, v=v, rank=rank)
    ok = np.array_equal(np.asarray(v), 10.0 * np.arange(n) + rank)
    print("OK" if ok else "BAD")


main()
'''


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = os.path.join(ROOT, "runtime-shim", "python")
    e["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + e.get("PATH", "")
    e["PKC_BACKEND"] = "openmp"
    e["OMP_NUM_THREADS"] = "1"
    return e


class ConcurrentBuild(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pkc-conc-")
        self.src = os.path.join(self.dir, "same_program.py")
        with open(self.src, "w") as f:
            f.write(PROGRAM)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_four_pkc_builds_compile_once(self):
        procs = [subprocess.Popen([PKC, "build", "-v", "--backend", "openmp", self.src],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, env=env()) for _ in range(4)]
        outs = [p.communicate(timeout=600)[0] for p in procs]
        self.assertEqual([p.returncode for p in procs], [0] * 4, "\n".join(outs))
        built = sum(o.count("pkc: built ") for o in outs)
        self.assertEqual(built, 1, "\n---\n".join(outs))
        runs = [subprocess.run([sys.executable, self.src, str(r)], capture_output=True,
                               text=True, env=env(), timeout=120) for r in range(2)]
        self.assertEqual([r.stdout.strip() for r in runs], ["OK", "OK"],
                         "\n".join(r.stderr for r in runs))

    def test_four_programs_building_on_first_use(self):
        procs = [subprocess.Popen([sys.executable, self.src, str(r)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env())
                 for r in range(4)]
        res = [p.communicate(timeout=600) for p in procs]
        self.assertEqual([p.returncode for p in procs], [0] * 4, "\n".join(e for _, e in res))
        self.assertEqual([o.strip() for o, _ in res], ["OK"] * 4, "\n".join(e for _, e in res))


if __name__ == "__main__":
    unittest.main()
