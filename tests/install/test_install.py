"""pkc installed (issue 13): `make install DESTDIR=<tmp> PREFIX=/usr/local`
and what a user does with the result, all from the staged install and never
from the build tree: the files and their independence from the checkout, a
CMake project (project/: find_package(pkc), pkc_add_module, a C program on
pkc::pkcrt) built and rebuilt only when axpy.py changes, the same module run
by the installed Python shim, pkg-config, the man page, `make uninstall`,
and the shim as a pip package whose version is pkc's."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
KOKKOS = os.path.join(ROOT, ".deps", "kokkos-openmp")
BUILT = "pkc: building axpy.openmp.so"   # pkc_add_module's COMMENT: pkc ran


def run(cmd, cwd=ROOT, env=None, timeout=300):
    """(exit status, stdout + stderr) of cmd."""
    p = subprocess.run(cmd, cwd=cwd, env=env or user_env(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def user_env(**extra):
    """The environment of a user of the install: no build/bin on PATH and no
    variable pointing into the checkout."""
    env = dict(os.environ, OMP_NUM_THREADS="2", PKC_BACKEND="openmp")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and not p.startswith(ROOT))
    for k in ("PKC", "PKC_RUNTIME_LIB", "PYTHONPATH", "Kokkos_ROOT", "MAKEFLAGS", "MFLAGS"):
        env.pop(k, None)
    env.update(extra)
    return env


def make_install(dest, target="install"):
    rc, out = run(["make", "--no-print-directory", target, f"DESTDIR={dest}",
                   "PREFIX=/usr/local"], env=dict(os.environ))
    if rc != 0:
        raise AssertionError(f"make {target} DESTDIR={dest}: exit {rc}\n{out[-3000:]}")
    return out


class Installed(unittest.TestCase):
    """One staged install and one CMake project built against it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = os.path.realpath(tempfile.mkdtemp(prefix="pkc-install-"))
        cls.dest = os.path.join(cls.tmp, "dest")
        cls.prefix = cls.dest + "/usr/local"
        make_install(cls.dest)
        found = glob.glob(cls.prefix + "/lib/python3*/dist-packages/pykokkos")
        cls.pythondir = os.path.dirname(found[0]) if found else None
        cls.project = os.path.join(cls.tmp, "project")
        shutil.copytree(os.path.join(HERE, "project"), cls.project)
        cls.build = os.path.join(cls.project, "build")
        rc, out = run(["cmake", "-S", cls.project, "-B", cls.build,
                       "-DCMAKE_PREFIX_PATH=" + cls.prefix, "-DTEST_KOKKOS_ROOT=" + KOKKOS],
                      cwd=cls.project)
        if rc == 0:
            rc, more = cls.cmake_build()
            out += more
        cls.built = (rc, out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def cmake_build(cls):
        return run(["cmake", "--build", cls.build, "-j", "2"], cwd=cls.project)

    def setUp(self):
        rc, out = self.built
        self.assertEqual(rc, 0, "the CMake project did not configure and build:\n" + out[-3000:])

    @property
    def module(self):
        return os.path.join(self.project, "axpy.pk", "axpy.openmp.so")

    def run_host(self):
        rc, out = run([os.path.join(self.build, "axpy_host")], cwd=self.project)
        self.assertEqual(rc, 0, out)
        self.assertIn("axpy_host: ok (" + self.module + ")", out)

    def test_files(self):
        for f in ("bin/pkc", "lib/libpkcrt.so", "include/pkc/pkcrt.h", "include/pkc/pkc_abi.h",
                  "include/pkc/dlpack/dlpack.h", "lib/pkgconfig/pkcrt.pc",
                  "lib/cmake/pkc/pkcConfig.cmake", "lib/cmake/pkc/pkcConfigVersion.cmake",
                  "share/man/man1/pkc.1"):
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, f)), f"no {f}")
        self.assertIsNotNone(self.pythondir, "no lib/python3.X/dist-packages/pykokkos")
        shim = os.path.join(self.pythondir, "pykokkos")
        for f in ("__init__.py", "_version.py", "py.typed", "lib/_kernels_reduce.py",
                  "interface/__init__.py", "linalg/__init__.py"):
            self.assertTrue(os.path.isfile(os.path.join(shim, f)), f"no pykokkos/{f}")
        self.assertEqual(glob.glob(shim + "/**/*.pk", recursive=True), [],
                         "build outputs (*.pk/) were installed")

    def test_pkc_independent_of_checkout(self):
        """No run path, no library and, debug info aside, no path into the
        checkout but the compiled-in default Kokkos (pkc_add_module and
        --kokkos-root / Kokkos_ROOT choose another)."""
        for f in ("bin/pkc", "lib/libpkcrt.so"):
            path = os.path.join(self.prefix, f)
            rc, out = run(["readelf", "-d", path])
            self.assertEqual(rc, 0, out)
            self.assertNotRegex(out, r"\((RPATH|RUNPATH)\)", f)
            rc, out = run(["ldd", path])
            self.assertNotIn(ROOT, out, f)
            stripped = os.path.join(self.tmp, os.path.basename(f) + ".stripped")
            rc, out = run(["strip", "--strip-debug", "-o", stripped, path])
            self.assertEqual(rc, 0, out)
            with open(stripped, "rb") as fh:
                paths = set(re.findall(re.escape(ROOT.encode()) + rb"[^\0]*", fh.read()))
            self.assertLessEqual(paths, {KOKKOS.encode()}, f)
        rc, out = run([self.prefix + "/bin/pkc", "--version"])
        self.assertEqual((rc, out.split()[0]), (0, "pkc"), out)

    def test_c_program(self):
        self.run_host()

    def test_python_runs_the_module_with_the_installed_shim(self):
        env = user_env(PYTHONPATH=self.pythondir)
        env["PATH"] = self.prefix + "/bin" + os.pathsep + env["PATH"]
        rc, out = run([PYTHON, "axpy.py"], cwd=self.project, env=env)
        self.assertEqual(rc, 0, out)
        words = out.split()
        self.assertEqual(words[:3], ["OK", os.path.join(self.pythondir, "pykokkos", "__init__.py"),
                                     self.prefix + "/lib/libpkcrt.so"], out)
        self.assertNotIn("building", out, "the shim rebuilt the module pkc_add_module built")

    def test_module_rebuilt_only_when_the_source_changes(self):
        rc, out = self.cmake_build()
        self.assertEqual(rc, 0, out)
        self.assertNotIn(BUILT, out, "a build without changes ran pkc")
        src = os.path.join(self.project, "axpy.py")
        while time.time() < os.stat(self.module).st_mtime + 0.05:
            time.sleep(0.05)
        os.utime(src)                               # touched: pkc runs, finds it fresh
        rc, out = self.cmake_build()
        self.assertEqual(rc, 0, out)
        self.assertIn(BUILT, out, "touching axpy.py did not run pkc")
        rc, out = self.cmake_build()
        self.assertNotIn(BUILT, out, "pkc ran again after a touch")
        key = self.module[:-3] + ".key"
        with open(key) as f:
            old = f.read().split("\n")
        with open(src, "a") as f:                   # edited: a new module
            f.write("# edited by the install test\n")
        rc, out = self.cmake_build()
        self.assertEqual(rc, 0, out)
        self.assertIn(BUILT, out, "editing axpy.py did not rebuild the module")
        with open(key) as f:
            new = f.read().split("\n")
        self.assertNotEqual(old[1], new[1], "the key file still names the old source")
        self.assertNotEqual(old[3], new[3], "the module was not rebuilt")
        self.assertIn("pkc=" + self.prefix + "/bin/pkc|", new[2], "not built by the installed pkc")
        self.run_host()
        rc, out = self.cmake_build()
        self.assertNotIn(BUILT, out, "a build without changes ran pkc")

    def test_pkg_config(self):
        """The .pc names PREFIX (not the staging dir); with the staging dir as
        sysroot it compiles and links the C program."""
        env = user_env(PKG_CONFIG_PATH=self.prefix + "/lib/pkgconfig")
        rc, out = run(["pkg-config", "--cflags", "--libs", "pkcrt"], env=env)
        self.assertEqual((rc, out.split()), (0, ["-I/usr/local/include/pkc", "-L/usr/local/lib",
                                                 "-lpkcrt"]), out)
        rc, out = run(["pkg-config", "--modversion", "pkcrt"], env=env)
        self.assertEqual(out.strip(), self.version())
        env["PKG_CONFIG_SYSROOT_DIR"] = self.dest
        rc, flags = run(["pkg-config", "--cflags", "--libs", "pkcrt"], env=env)
        exe = os.path.join(self.tmp, "axpy_host_pc")
        rc, out = run(["cc", "-o", exe, os.path.join(self.project, "axpy_host.c")] + flags.split()
                      + ["-Wl,-rpath," + self.prefix + "/lib"])
        self.assertEqual(rc, 0, out)
        rc, out = run([exe, self.module])
        self.assertEqual(rc, 0, out)
        self.assertIn("axpy_host: ok", out)

    def version(self):
        rc, out = run([self.prefix + "/bin/pkc", "--version"])
        return out.split()[1]

    def test_cmake_package_version(self):
        """find_package(pkc VERSION): the same major.minor (0.x), not newer."""
        v = self.version()
        major, minor = v.split(".")[:2]
        cases = {v: True, f"{major}.{minor}": True, f"{major}.{int(minor) + 1}": False,
                 f"{int(major) + 1}.0": False}
        for want, ok in cases.items():
            d = os.path.join(self.tmp, "version-" + want)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
                f.write("cmake_minimum_required(VERSION 3.16)\nproject(v NONE)\n"
                        f"find_package(pkc {want} CONFIG)\n"
                        'message(STATUS "found=${pkc_FOUND} version=${pkc_VERSION}")\n')
            rc, out = run(["cmake", "-S", d, "-B", d + "/b", "-DCMAKE_PREFIX_PATH=" + self.prefix])
            self.assertEqual(rc, 0, out)
            self.assertEqual(f"found=1 version={v}" in out, ok, f"find_package(pkc {want}):\n{out}")

    def test_man_page(self):
        """groff renders it, and it documents every command `pkc help` lists."""
        page = os.path.join(self.prefix, "share/man/man1/pkc.1")
        p = subprocess.run(["groff", "-ww", "-man", "-Tutf8", "-P-cbou", page],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text = p.stdout.decode("utf-8").replace("\u2212", "-").replace("\u2010", "-")
        self.assertEqual((p.returncode, p.stderr.decode()), (0, ""))
        rc, out = run([self.prefix + "/bin/pkc", "help"])
        commands = re.findall(r"^  pkc (\S+)", out, re.M)
        self.assertGreaterEqual(len(commands), 5, out)
        for c in commands:
            self.assertIn("pkc " + c, text, f"the man page lacks 'pkc {c}'")
            if not c.startswith("-"):
                self.assertRegex(text, rf"(?m)^   {re.escape(c)}$", f"no section for {c}")
        self.assertIn("pkc " + self.version(), text)


class Uninstall(unittest.TestCase):
    def test_uninstall_removes_every_file(self):
        with tempfile.TemporaryDirectory(prefix="pkc-uninstall-") as dest:
            make_install(dest)
            make_install(dest, "uninstall")
            left = [os.path.relpath(os.path.join(d, f), dest)
                    for d, _, files in os.walk(dest) for f in files]
            self.assertEqual(left, [])


class PipPackage(unittest.TestCase):
    def test_pip_install_offline(self):
        """pip install --no-index --no-build-isolation --prefix (Debian's pip,
        setuptools): pykokkos.__version__ and the distribution's version are
        pkc's. Built from a copy, so the checkout gets no build/ or egg-info."""
        with tempfile.TemporaryDirectory(prefix="pkc-pip-") as tmp:
            src = os.path.join(tmp, "src")
            shutil.copytree(os.path.join(ROOT, "runtime-shim", "python"), src,
                            ignore=shutil.ignore_patterns("*.pk", "__pycache__", "build",
                                                          "*.egg-info"))
            rc, out = run([PYTHON, "-m", "pip", "install", "--no-index", "--no-build-isolation",
                           "--no-cache-dir", "--disable-pip-version-check", "--prefix",
                           tmp + "/prefix", src], timeout=600)
            self.assertEqual(rc, 0, out)
            found = glob.glob(tmp + "/prefix/**/pykokkos/__init__.py", recursive=True)
            self.assertEqual(len(found), 1, out)
            site = os.path.dirname(os.path.dirname(found[0]))
            self.assertTrue(os.path.isfile(os.path.join(site, "pykokkos", "py.typed")))
            probe = ("import importlib.metadata as m, pykokkos as pk; "
                     "print(pk.__file__, pk.__version__, m.version('pkc-pykokkos'))")
            rc, out = run([PYTHON, "-c", probe], cwd=tmp, env=user_env(PYTHONPATH=site))
            self.assertEqual(rc, 0, out)
            rc, pkc = run([os.path.join(ROOT, "build", "bin", "pkc"), "--version"])
            v = pkc.split()[1]
            self.assertEqual(out.split(), [found[0], v, v])


if __name__ == "__main__":
    unittest.main()
