"""The shim's errors are one family (issue 27): pk.PkcError, whose members
also subclass the built-in each replaces (PkcArgumentError is a TypeError,
PkcKernelError a RuntimeError, ...), so `except TypeError` keeps working and
`except pk.PkcError` catches them all; the shim raises no bare TypeError,
ValueError or RuntimeError of its own. The ABI values the shim compares
with (a parameter's layout, a module's device type, flags) are named
constants in pykokkos/_abiconst.py, checked here against pkc_abi.h.

Run: /usr/bin/python3 tests/shim/test_errors.py
"""
import glob
import os
import re
import subprocess
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHIM = os.path.join(ROOT, "runtime-shim", "python")
PKG = os.path.join(SHIM, "pykokkos")
sys.path.insert(0, SHIM)
sys.path.insert(0, HERE)
os.environ["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + os.environ.get("PATH", "")
import pykokkos as pk  # noqa: E402
from pykokkos import _abiconst, _abi  # noqa: E402
from kernel_program import ProgramCase  # noqa: E402

PROGRAM = '''import pykokkos as pk

@pk.workunit
def good(i: int, v: pk.View1D[pk.double]):
    v[i] = 1.0

@pk.workunit
def rejected(i: int, v: pk.View1D[pk.double]):
    v[i] = {1: 2}[i]
'''


def shim_sources():
    return sorted(glob.glob(os.path.join(PKG, "**", "*.py"), recursive=True))


class Family(unittest.TestCase):
    BUILTIN = {pk.PkcArgumentError: TypeError, pk.PkcValueError: ValueError,
               pk.PkcIndexError: IndexError, pk.PkcZeroDivisionError: ZeroDivisionError,
               pk.PkcOverflowError: OverflowError, pk.PkcRuntimeError: RuntimeError,
               pk.PkcBuildError: RuntimeError, pk.PkcKernelError: RuntimeError}

    def test_each_member_is_a_pkc_error_and_its_builtin(self):
        for cls, builtin in self.BUILTIN.items():
            self.assertTrue(issubclass(cls, pk.PkcError), cls)
            self.assertTrue(issubclass(cls, builtin), cls)

    def test_existing_except_clauses_still_catch(self):
        try:
            pk.RangePolicy(1, 2, 3, 4)
        except TypeError as e:
            self.assertIsInstance(e, pk.PkcArgumentError)
            self.assertIn("RangePolicy", str(e))
        else:
            self.fail("pk.RangePolicy(1, 2, 3, 4) did not raise")
        with self.assertRaises(ValueError) as cm:
            pk.TeamPolicy(-1, 2)
        self.assertIsInstance(cm.exception, pk.PkcValueError)
        with self.assertRaises(pk.PkcError):
            pk.View([4], "complex128")

    def test_no_bare_builtin_raises_in_the_shim(self):
        bare = []
        for path in shim_sources():
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if re.search(r"raise (TypeError|ValueError|RuntimeError)\(", line):
                        bare.append(f"{os.path.relpath(path, ROOT)}:{n}: {line.strip()}")
        self.assertEqual(bare, [])


class KernelErrors(ProgramCase):
    PROGRAM = PROGRAM
    NAME = "errprog"

    def test_rejected_kernel(self):
        v = pk.View([4], pk.double)
        pk.parallel_for(4, self.k.good, v=v)
        self.assertEqual(list(np.asarray(v)), [1.0] * 4)
        with self.assertRaises(RuntimeError) as cm:
            pk.parallel_for(4, self.k.rejected, v=v)
        self.assertIsInstance(cm.exception, pk.PkcKernelError)
        self.assertIn("kernel 'rejected' was not built because pkc rejected it", str(cm.exception))
        self.assertIn("errprog.py:9:12:", str(cm.exception))

    def test_bad_kernel_argument(self):
        with self.assertRaises(TypeError) as cm:
            pk.parallel_for(4, self.k.good, v=np.zeros(4, dtype=np.float32))
        self.assertIsInstance(cm.exception, pk.PkcArgumentError)
        self.assertIn("'v'", str(cm.exception))


class BuildError(unittest.TestCase):
    def test_build_without_pkc(self):
        """A program whose module is missing, run where pkc cannot be found."""
        import tempfile
        with tempfile.TemporaryDirectory(prefix="pkc-builderr-") as tmp:
            path = os.path.join(tmp, "noprog.py")
            with open(path, "w") as f:
                f.write(PROGRAM.split("@pk.workunit\ndef rejected")[0] + (
                    "try:\n    pk.parallel_for(4, good, v=pk.View([4], pk.double))\n"
                    "except RuntimeError as e:\n"
                    "    print(type(e).__name__, isinstance(e, pk.PkcError), e)\n"))
            env = dict(os.environ, PYTHONPATH=SHIM, PKC=os.path.join(tmp, "no-such-pkc"))
            p = subprocess.run([sys.executable, path], capture_output=True, text=True,
                               env=env, timeout=120)
            self.assertIn("PkcBuildError True pykokkos: cannot run pkc", p.stdout, p.stderr)


class AbiConstants(unittest.TestCase):
    def header_values(self):
        with open(os.path.join(ROOT, "runtime-shim", "pkc_abi.h"), encoding="utf-8") as f:
            text = f.read()
        vals = {m.group(1): int(m.group(2))
                for m in re.finditer(r"\bPKC_([A-Z0-9_]+) *= *(\d+)", text)}
        vals["ABI_VERSION"] = int(re.search(r"#define PKC_ABI_VERSION (\d+)", text).group(1))
        return vals

    def test_constants_match_the_header(self):
        vals = self.header_values()
        self.assertGreater(len(vals), 20)
        for name, value in vals.items():
            self.assertEqual(getattr(_abiconst, name, None), value, f"PKC_{name}")
        self.assertEqual(_abi.PKC_ABI_VERSION, vals["ABI_VERSION"])
        self.assertEqual(_abi.LAYOUT_LEFT, vals["LAYOUT_LEFT"])

    def test_no_magic_abi_numbers_in_the_shim(self):
        magic = re.compile(r"\b(layout|device_type|pattern|access|flags)\s*(==|!=|&)\s*\d")
        found = []
        for path in shim_sources():
            if os.path.basename(path) in ("_abiconst.py", "_abi.py"):
                continue
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if magic.search(line):
                        found.append(f"{os.path.relpath(path, ROOT)}:{n}: {line.strip()}")
        self.assertEqual(found, [])


if __name__ == "__main__":
    unittest.main()
