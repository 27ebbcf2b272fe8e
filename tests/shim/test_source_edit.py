"""A kernel file edited while the program runs (an interactive session, a
notebook, PyKokkos' JIT recompilation test): the next kernel taken from the
edited file runs the new code, from a module rebuilt for it, while kernels
taken before keep theirs. Two builds.

Run: /usr/bin/python3 tests/shim/test_source_edit.py
"""
import importlib.util
import os
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
os.environ["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + os.environ.get("PATH", "")
import pykokkos as pk  # noqa: E402

VERSION = '''import pykokkos as pk

@pk.workunit
def bump(i: int, arr: pk.View1D[pk.int32]):
    arr[i] += {step}
'''


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class SourceEdit(unittest.TestCase):
    def test_edited_kernel_runs_its_new_code(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "edited_kernel.py")
            with open(path, "w") as f:
                f.write(VERSION.format(step=2))
            v1 = load(path, "edited_v1")
            a = np.zeros(5, dtype=np.int32)
            pk.parallel_for(5, v1.bump, arr=a)
            np.testing.assert_array_equal(a, np.full(5, 2))
            with open(path, "w") as f:
                f.write(VERSION.format(step=7) + "\n# edited\n")
            v2 = load(path, "edited_v2")
            b = np.zeros(5, dtype=np.int32)
            pk.parallel_for(5, v2.bump, arr=b)
            np.testing.assert_array_equal(b, np.full(5, 7))
            pk.parallel_for(5, v1.bump, arr=a)            # the old function: its old module
            np.testing.assert_array_equal(a, np.full(5, 4))


if __name__ == "__main__":
    unittest.main()
