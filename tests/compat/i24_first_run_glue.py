"""Issue 24 acceptance 2 (first runs within 1.5x Numba's): what a cold first
run of an unannotated program compiles, with the toolchain cache in a fresh
PKC_CACHE_DIR (the fast build of the host backends).

- The module of first_run/heat2d.py has no kernels of its own (both
  workunits are typed at run time): its source includes only pkc_glue.hpp
  and is compiled without the precompiled Kokkos header.
- The functions of generated code that are no templates (pkc_glue.hpp) are
  compiled once per toolchain into <toolchain>/pkc_glue.o and linked into
  every module: no specialization's own object defines pkc::initialize or
  pkc::checked_tensor, its .so does.
- The modules are self-contained: with the toolchain cache deleted and pkc
  off PATH, a second run loads them and gets the same numbers (the one
  check on the GPU backends, whose modules build through CMake).
- A toolchain directory whose pkc_glue.o is gone is prepared again (a
  module is never linked without its glue); another toolchain (other
  CXXFLAGS) gets its own pkc_glue.o.
Prints OK."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(prog, env):
    p = subprocess.run([sys.executable, prog, "24", "3"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0 or out.strip().splitlines()[-1:] != ["OK"]:
        text = (out + p.stderr.decode("utf-8", "replace")).strip().splitlines()
        sys.exit(f"BAD {prog}: exit {p.returncode}: {text[-4:]}")
    return out, p.stderr.decode("utf-8", "replace")


def fresh_copy(d, name):
    os.makedirs(os.path.join(d, name))
    prog = os.path.join(d, name, "heat2d.py")
    shutil.copyfile(os.path.join(HERE, "first_run", "heat2d.py"), prog)
    return prog


def defined(path):
    """The functions an object or module defines (nm -C --defined-only)."""
    p = subprocess.run(["nm", "-C", "--defined-only", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.stdout.decode("utf-8", "replace")


def toolchains(cache):
    return sorted(glob.glob(os.path.join(cache, "toolchains", "*", "")))


def check_built(prog, backend):
    pk = os.path.splitext(prog)[0] + ".pk"
    cpp = open(os.path.join(pk, "heat2d.cpp")).read()
    if '#include "pkc_glue.hpp"' not in cpp or "pkc_kokkos.hpp" in cpp:
        sys.exit("BAD the module without kernels includes more than pkc_glue.hpp")
    log = open(os.path.join(pk, f"build-{backend}", "pkc-build.log")).read().splitlines()
    compile_ = [l for l in log if l.startswith("$ ") and " -c " in l and "heat2d.cpp" in l]
    link = [l for l in log if l.startswith("$ ") and f"heat2d.{backend}.so" in l]
    if (len(compile_) != 1 or "-include" in compile_[0] or len(link) != 1
            or "pkc_glue.o" not in link[0]):
        sys.exit(f"BAD the module without kernels: compiled with the Kokkos header or linked "
                 f"without pkc_glue.o: {compile_} {link}")
    specs = glob.glob(os.path.join(pk, "spec", "*", ""))
    if len(specs) != 2:
        sys.exit(f"BAD {len(specs)} specializations built, expected 2")
    for s in specs:
        obj = defined(os.path.join(s, f"build-{backend}", "heat2d.o"))
        so = defined(os.path.join(s, f"heat2d.{backend}.so"))
        for fn in ("pkc::initialize(", "pkc::checked_tensor("):
            if fn in obj or fn not in so:
                sys.exit(f"BAD {s}: {fn} defined by its object: {fn in obj}, "
                         f"by its module: {fn in so} (expected: the glue object's, linked in)")


def without_pkc(env):
    env = dict(env)
    env.pop("PKC", None)
    pkc = shutil.which("pkc", path=env.get("PATH", ""))
    bindir = os.path.dirname(os.path.realpath(pkc)) if pkc else None
    env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "").split(os.pathsep)
                                  if d and os.path.realpath(d) != bindir)
    return env


def main():
    backend = os.environ.get("PKC_BACKEND", "openmp")
    with tempfile.TemporaryDirectory() as d:
        cache = os.path.join(d, "cache")
        env = dict(os.environ, PKC_CACHE_DIR=cache)
        env.pop("PKC_FAST_BUILD", None)
        prog = fresh_copy(d, "one")
        out, _ = run(prog, env)
        if backend in ("cuda", "hip"):   # GPU modules build through CMake: no glue object
            return self_contained(prog, env, cache, out)
        tcs = toolchains(cache)
        if len(tcs) != 1 or not os.path.isfile(os.path.join(tcs[0], "pkc_glue.o")):
            sys.exit(f"BAD toolchain cache: {tcs}, expected one holding pkc_glue.o")
        check_built(prog, backend)

        glue = os.path.join(tcs[0], "pkc_glue.o")
        os.unlink(glue)
        run(fresh_copy(d, "two"), env)
        if not os.path.isfile(glue):
            sys.exit("BAD pkc_glue.o was not made again")
        check_built(os.path.join(d, "two", "heat2d.py"), backend)

        other = dict(env, CXXFLAGS=(env.get("CXXFLAGS", "") + " -DPKC_TEST_OTHER=1").strip())
        run(fresh_copy(d, "three"), other)
        tcs = toolchains(cache)
        if len(tcs) != 2 or not all(os.path.isfile(os.path.join(t, "pkc_glue.o")) for t in tcs):
            sys.exit(f"BAD other CXXFLAGS: toolchains {tcs}, expected two, each with pkc_glue.o")
        check_built(os.path.join(d, "three", "heat2d.py"), backend)

        self_contained(prog, env, cache, out)


def self_contained(prog, env, cache, out):
    """With the toolchain cache gone and pkc off PATH, prog's modules load
    and give the first run's numbers (out); prints OK."""
    shutil.rmtree(cache, ignore_errors=True)   # the modules hold their glue
    out2, err2 = run(prog, without_pkc(env))
    if "building" in err2 or out2.splitlines()[0] != out.splitlines()[0]:
        sys.exit(f"BAD run without the toolchain cache: {out2.splitlines()[:1]} vs "
                 f"{out.splitlines()[:1]}")
    print("OK")


if __name__ == "__main__":
    main()
