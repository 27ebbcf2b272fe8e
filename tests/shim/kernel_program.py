"""A test case whose kernels are a small PyKokkos program written into a
temporary directory and imported once per class (the shim builds its module
on first use). Subclasses set PROGRAM (the source) and NAME (module name);
the module is self.k (cls.k), its directory cls.tmp."""
import importlib.util
import os
import shutil
import tempfile
import unittest


class ProgramCase(unittest.TestCase):
    PROGRAM = ""
    NAME = "kernels"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix=f"pk{cls.NAME}")
        path = os.path.join(cls.tmp, f"{cls.NAME}.py")
        with open(path, "w") as f:
            f.write(cls.PROGRAM)
        spec = importlib.util.spec_from_file_location(cls.NAME, path)
        cls.k = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.k)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)
