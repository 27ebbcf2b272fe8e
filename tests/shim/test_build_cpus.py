"""A build the shim starts after Kokkos started runs on every CPU the process
had (issue 24 acceptance 2): with OMP_PROC_BIND=spread, Kokkos' OpenMP
backend binds the main thread to one core, and pkc, which compiles a
module's translation units in parallel, inherited that one core (the cold
first run of bench/peers measured pkc's two compiles sharing it). The
program starts Kokkos with a first launch, checks that the main thread is
now bound to fewer CPUs, then launches the unannotated workunit with a new
argument type (a run-time specialization built then) and records the CPUs a
pkc process would get at each spawn (subprocess.call is wrapped)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

PROGRAM = '''import os
import subprocess
import numpy as np
import pykokkos as pk

START = os.sched_getaffinity(0)


@pk.workunit
def scale(i, x, a):
    x[i] = a * x[i]


x = np.ones(64)
pk.parallel_for(64, scale, x=x, a=2.0)    # builds, then starts Kokkos
pk.fence()
print("bound", sorted(os.sched_getaffinity(0)), "of", sorted(START))
spawned = []
call = subprocess.call


def recording(*a, **k):
    spawned.append(sorted(os.sched_getaffinity(0)))
    return call(*a, **k)


subprocess.call = recording
y = np.ones(64, dtype=np.float32)
pk.parallel_for(64, scale, x=y, a=3.0)    # a new signature: pkc builds again
pk.fence()
subprocess.call = call
print("spawned", spawned)
print("after", sorted(os.sched_getaffinity(0)))
ok = np.all(x == 2.0) and np.all(y == 3.0) and spawned and all(s == sorted(START) for s in spawned)
print("OK" if ok else "BAD")
'''


class BuildCpus(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pkc-cpus-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_build_after_kokkos_started_gets_every_cpu(self):
        if len(os.sched_getaffinity(0)) < 2:
            self.skipTest("one CPU: Kokkos cannot bind the main thread to fewer")
        prog = os.path.join(self.tmp, "cpus.py")
        with open(prog, "w") as f:
            f.write(PROGRAM)
        env = dict(os.environ, OMP_PROC_BIND="spread", OMP_PLACES="threads",
                   OMP_NUM_THREADS="2", PKC_BACKEND="openmp")
        env["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + env.get("PATH", "")
        env["PYTHONPATH"] = os.path.join(ROOT, "runtime-shim", "python")
        p = subprocess.run([sys.executable, prog], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=600, cwd=self.tmp)
        out = p.stdout.decode("utf-8", "replace")
        lines = out.splitlines()
        bound = next((l for l in lines if l.startswith("bound ")), "")
        # the precondition: Kokkos bound the main thread (else nothing is tested)
        cpus = bound.split(" of ")
        self.assertTrue(len(cpus) == 2 and cpus[0][6:] != cpus[1], out)
        self.assertEqual(p.returncode, 0, out)
        self.assertEqual(lines[-1:], ["OK"], out)
        # the main thread is bound again after the build
        self.assertIn("after " + cpus[0][6:], out)


if __name__ == "__main__":
    unittest.main()
