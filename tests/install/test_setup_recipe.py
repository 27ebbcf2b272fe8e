"""The setup recipe's portability (issue 22 item 16): the Kokkos 3.4 patch
step of scripts/kokkos-from-debian.sh, run on a copy of the Debian source
(.deps/kokkos-src), adds the <cstdint> that g++ 13 needs to
core/src/impl/Kokkos_MemoryPool.cpp, once, and the patched file still
compiles here (g++ 12: the include is a no-op; also g++-13 when installed);
scripts/gpu/run_all.sh exports Kokkos_ROOT as cuda_env.sh does."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SRC = os.path.join(ROOT, ".deps", "kokkos-src")
KOKKOS = os.path.join(ROOT, ".deps", "kokkos-openmp")
POOL = os.path.join("core", "src", "impl", "Kokkos_MemoryPool.cpp")


class KokkosRecipe(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(os.path.join(SRC, POOL)):
            raise AssertionError(f"no Kokkos source at {SRC} (scripts/setup.sh fetches it)")
        cls.tmp = tempfile.mkdtemp(prefix="pkc-recipe-")
        cls.src = os.path.join(cls.tmp, "kokkos-src")
        shutil.copytree(SRC, cls.src, symlinks=True)
        with open(os.path.join(cls.src, POOL)) as f:   # as Debian ships it
            text = f.read()
        text = text.replace("#include <cstdint>  // pkc: g++ 13 no longer includes it via "
                            "<ostream>\n", "")
        with open(os.path.join(cls.src, POOL), "w") as f:
            f.write(text)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def patch(self):
        r = subprocess.run(["bash", os.path.join(ROOT, "scripts", "kokkos-from-debian.sh"),
                            "patch", self.src], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(self.src, POOL)) as f:
            return f.read()

    def test_memory_pool_includes_cstdint_once_and_compiles(self):
        text = self.patch()
        self.assertEqual(len(re.findall(r"^#include <cstdint>", text, re.M)), 1)
        self.assertLess(text.index("#include <cstdint>"), text.index("uint32_t"))
        self.assertEqual(self.patch(), text)   # a second run changes nothing
        for cxx in ("g++", "g++-13"):
            if cxx != "g++" and not shutil.which(cxx):
                continue
            r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only",
                                "-I" + os.path.join(KOKKOS, "include"),
                                "-I" + os.path.join(self.src, "core", "src"),
                                os.path.join(self.src, POOL)],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, f"{cxx}: {r.stderr[-2000:]}")

    def test_run_all_exports_kokkos_root(self):
        with open(os.path.join(ROOT, "scripts", "gpu", "run_all.sh")) as f:
            text = f.read()
        export = re.search(r"^export Kokkos_ROOT=\$KC$", text, re.M)
        self.assertIsNotNone(export, "run_all.sh does not export Kokkos_ROOT=$KC")
        first_build = text.index("build --backend cuda")
        self.assertLess(export.start(), first_build)
        self.assertLess(text.index("KC=${KC:-"), export.start())


if __name__ == "__main__":
    unittest.main()
