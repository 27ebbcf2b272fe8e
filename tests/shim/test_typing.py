"""The shim is typed (issue 27): pykokkos/__init__.pyi lists every public
name, so Debian's mypy (python3-mypy, scripts/setup.sh) accepts a correct
program (`--strict` on tests/shim/mypy_programs/typed_ok.py; the examples without
--strict) and names a misspelled one (`pk.paralel_for`, `pk.doubel`) instead
of reading every `pk.X` as Any; `__all__` is one static list, the same in
the module and in the stub, covering the kernel-only and array-library names."""
import ast
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHIM = os.path.join(ROOT, "runtime-shim", "python")
PKG = os.path.join(SHIM, "pykokkos")
PYTHON = "/usr/bin/python3"
# examples whose workunits use the dialect's bare member names (`x[i]` for
# self.x in a @pk.workload's kernels): not Python a type checker can follow
DIALECT_ONLY = {"mc_transport.py", "md_minimd_workload.py"}


def static_all(path):
    """The `__all__` list of a module, read without running it (a literal)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return ast.literal_eval(node.value)
    return None


def stub_names(path):
    """Names a stub binds at its top level."""
    names = set()
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


class Mypy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.mkdtemp(prefix="pkc-mypy-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.cache, ignore_errors=True)

    def mypy(self, *args):
        env = dict(os.environ, PYTHONPATH=SHIM)
        p = subprocess.run([PYTHON, "-m", "mypy", "--cache-dir", self.cache,
                            "--no-error-summary", "--hide-error-context", *args],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        if "No module named mypy" in p.stderr:
            self.fail("mypy is not installed: apt-get install python3-mypy "
                      "(scripts/setup.sh installs it)")
        return p.returncode, p.stdout + p.stderr

    def test_strict_accepts_typed_program(self):
        rc, out = self.mypy("--strict", "tests/shim/mypy_programs/typed_ok.py")
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.strip(), "", out)

    def test_misspelled_names_are_errors(self):
        rc, out = self.mypy("tests/shim/mypy_programs/misspelled.py")
        self.assertEqual(rc, 1, out)
        self.assertIn('misspelled.py:11: error: Module has no attribute "paralel_for"; '
                      'maybe "parallel_for"?', out)
        self.assertIn('misspelled.py:6: error: Name "pk.doubel" is not defined', out)

    def test_examples_type_check(self):
        files = sorted(f for f in glob.glob(os.path.join(ROOT, "examples", "*.py"))
                       if os.path.basename(f) not in DIALECT_ONLY)
        self.assertGreater(len(files), 30)
        rc, out = self.mypy(*[os.path.relpath(f, ROOT) for f in files])
        errors = [ln for ln in out.splitlines() if ": error:" in ln]
        self.assertEqual(errors, [], out[-3000:])
        self.assertEqual(rc, 0, out[-3000:])


class StaticAll(unittest.TestCase):
    def test_all_is_static_and_the_stub_matches(self):
        names = static_all(os.path.join(PKG, "__init__.py"))
        self.assertIsInstance(names, list, "pykokkos.__all__ must be one literal list")
        self.assertEqual(len(names), len(set(names)), "pykokkos.__all__ repeats a name")
        self.assertEqual(static_all(os.path.join(PKG, "__init__.pyi")), names)

    def test_stub_covers_every_public_name(self):
        sys.path.insert(0, SHIM)
        try:
            import pykokkos
            from pykokkos import _types
            from pykokkos.lib import NAMES
        finally:
            sys.path.remove(SHIM)
        names = static_all(os.path.join(PKG, "__init__.py"))
        self.assertEqual(set(names), set(pykokkos.__all__))
        for group in (_types.KERNEL_ONLY, NAMES):
            self.assertEqual(sorted(set(group) - set(names)), [])
        for n in names:
            self.assertTrue(hasattr(pykokkos, n), n)
        public = set(names) | {"int", "float", "bool", "__version__"}
        self.assertEqual(sorted(public - stub_names(os.path.join(PKG, "__init__.pyi"))), [])


if __name__ == "__main__":
    unittest.main()
