"""Issue 24 item 4: the first run of an unannotated two-kernel program
(first_run/heat2d.py, copied into a fresh directory: no module, no
specialization built) gets its numbers right (checked against numpy) with ONE
pkc build: the module and both run-time specializations (the first launch's
own signature and the one predicted for the other workunit) are built by one
`pkc build` before the first kernel runs, not one after the other at each
first launch. The second run, with pkc taken off PATH, builds nothing and
gets the same numbers. Where the module was built ahead (`pkc build`, no
recorded signatures), the first run builds both specializations with one
pkc command too."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILDING = re.compile(r"^pykokkos: building ", re.M)


def run(prog, env):
    p = subprocess.run([sys.executable, prog, "24", "3"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def without_pkc(env):
    env = dict(env)
    env.pop("PKC", None)
    pkc = shutil.which("pkc", path=env.get("PATH", ""))
    if pkc:
        bindir = os.path.dirname(os.path.realpath(pkc))
        env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "").split(os.pathsep)
                                      if d and os.path.realpath(d) != bindir)
    return env


def main():
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "heat2d.py")
        shutil.copyfile(os.path.join(HERE, "first_run", "heat2d.py"), prog)
        rc, out, err = run(prog, dict(os.environ))
        if rc != 0 or out.strip().splitlines()[-1:] != ["OK"]:
            print(f"BAD first run: exit {rc}: {(out + err).strip().splitlines()[-3:]}")
            sys.exit(1)
        builds = BUILDING.findall(err)
        if len(builds) != 1:
            print(f"BAD first run: {len(builds)} builds, expected 1: "
                  f"{[l for l in err.splitlines() if l.startswith('pykokkos: building')]}")
            sys.exit(1)
        spec = os.path.join(d, "heat2d.pk", "spec")
        kernels = sorted(e.split("-")[0] for e in os.listdir(spec)) if os.path.isdir(spec) else []
        if kernels != ["boundary", "heat_step"]:
            print(f"BAD first run: specializations {kernels}, expected boundary and heat_step")
            sys.exit(1)
        env2 = without_pkc(dict(os.environ))
        if shutil.which("pkc", path=env2.get("PATH", "")):
            print("BAD could not take pkc off PATH for the second run")
            sys.exit(1)
        rc2, out2, err2 = run(prog, env2)
        if rc2 != 0 or out2.strip().splitlines()[-1:] != ["OK"]:
            print(f"BAD second run without pkc: exit {rc2}: "
                  f"{(out2 + err2).strip().splitlines()[-3:]}")
            sys.exit(1)
        if BUILDING.search(err2) or out2.splitlines()[0] != out.splitlines()[0]:
            print(f"BAD second run: built or differed: {err2.strip()[:200]!r} "
                  f"{out2.splitlines()[:1]} vs {out.splitlines()[:1]}")
            sys.exit(1)
    ahead_of_time()
    print("OK")


def ahead_of_time():
    """`pkc build heat2d.py` first: the module holds no kernel (both are typed
    at run time); the first launch builds its own specialization and the one
    predicted for the other workunit in one command."""
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "heat2d.py")
        shutil.copyfile(os.path.join(HERE, "first_run", "heat2d.py"), prog)
        backend = os.environ.get("PKC_BACKEND", "openmp")
        p = subprocess.run(["pkc", "build", prog, "-q", "--backend", backend],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        if p.returncode != 0:
            print(f"BAD pkc build: exit {p.returncode}: {p.stdout.decode()[-300:]}")
            sys.exit(1)
        rc, out, err = run(prog, dict(os.environ))
        builds = [l for l in err.splitlines() if l.startswith("pykokkos: building")]
        if rc != 0 or out.strip().splitlines()[-1:] != ["OK"] or len(builds) != 1:
            print(f"BAD run after pkc build: exit {rc}, {len(builds)} builds (expected 1): "
                  f"{builds} {(out + err).strip().splitlines()[-2:]}")
            sys.exit(1)


if __name__ == "__main__":
    main()
