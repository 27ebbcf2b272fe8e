#!/usr/bin/env python3
"""pkc test runner (run by `make test` with /usr/bin/python3; plain Python, no pytest).

Groups (run in this order; `--only a,b` selects some):
  unit         every build/tests/test_* cmocka binary, one result per C test
  diagnostics  tests/diagnostics/*.py expectations, ok/ files, `pkc check` on
               the examples, and the CLI contract (exit codes, json, sarif)
  examples     `pkc build` + run every examples/*.py on each backend, the
               no-op rebuild, and warning-free generated C++
  c_host       build/tests/c_host calls nstream through libpkcrt from plain C;
               tests/c_host/flat_gate.cpp walks gated boxes of pkc_dialect.hpp
  shim         the Python shim's unittest tests in tests/shim/
  api          the PyKokkos host API tests in tests/api/ (unittest, as shim)
  gpu-compile  `pkc build` (compile + link only) of every examples/*.py for
               cuda (.deps/kokkos-cuda, sm_90) and hip (.deps/kokkos-hip,
               gfx908) into build/gpu-compile/, two at a time, warning-free;
               and ptxas' register count of the flattened rank-3 launches
               (tests/api/kern_send3.py: at most 32, full occupancy)
  kokkos4      every examples/*.py and tests/features/*.py built (warnings
               are failures) and run on OpenMP against Kokkos 4 with
               deprecated code off (.deps/kokkos4-openmp, which setup.sh
               builds from ../shared/kokkos4; one SKIP line when absent)
  sanitize     scripts/sanitize.sh (pkc built with ASan + UBSan runs check,
               ir and emit on every Python file in the tree) and 60 s of
               libFuzzer on the translator (scripts/fuzz.sh, clang)
  install      tests/install/ (unittest, as shim): `make install` into a
               temporary DESTDIR and a CMake project, Python, pkg-config and
               pip using only what was installed

Prints `PASS name` or `FAIL name: reason` per test (failures are followed by
a few indented `    | ` detail lines) and ends with the line `N passed, N failed`.
Exit status 1 if anything failed. A group whose inputs are missing reports a
FAIL saying what is missing; nothing is skipped silently.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKC = os.path.join(ROOT, "build", "bin", "pkc")
# PKC_TEST_PYTHON: the interpreter that runs the programs (the GPU machine's
# Python with numpy is not /usr/bin/python3)
PYTHON = os.environ.get("PKC_TEST_PYTHON") or (
    "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable)
GROUPS = ["unit", "diagnostics", "examples", "features", "compat", "c_host", "shim", "api", "kokkos4",
          "sanitize", "gpu-compile", "install", "annotate"]
BACKENDS = ["openmp", "serial"]
# Small problem sizes for each example (argv after the script name).
EXAMPLE_ARGS = {
    "nstream": ["100000", "5"],
    "inner_product": ["300", "200", "5"],
    "prefix_sum": ["100001"],
    "functor_axpby": ["50000"],
    "trivial": ["1000", "200", "2"],
}
EXPECT_RE = re.compile(r"^#\s*expect(?:-(error|warning|note))?:\s*(\d+):(\d+):\s*(.*)$")
FLAGS_RE = re.compile(r"^#\s*flags:(.*)$")
# `# expect-only` after the expectations: no error or warning beyond them
ONLY_RE = re.compile(r"^#\s*expect-only\s*$")


class Results:
    """Collects and prints test outcomes."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self, name):
        self.passed += 1
        print(f"PASS {name}", flush=True)

    def fail(self, name, reason, detail=""):
        self.failed += 1
        reason = " ".join(str(reason).split())[:300]
        print(f"FAIL {name}: {reason}", flush=True)
        lines = [l for l in str(detail).splitlines() if l.strip()]
        for line in lines[-15:]:
            print(f"    | {line[:200]}", flush=True)

    def check(self, name, cond, reason, detail=""):
        if cond:
            self.ok(name)
        else:
            self.fail(name, reason, detail)
        return cond


def run(cmd, env=None, timeout=120, cwd=ROOT):
    """Runs cmd; returns (returncode, combined output, seconds). returncode
    is None on timeout, negative when killed by a signal."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        out = p.stdout.decode("utf-8", "replace")
        return p.returncode, out, time.monotonic() - t0
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return None, out + f"\n(timed out after {timeout} s)", time.monotonic() - t0
    except OSError as e:
        return 127, f"cannot run {cmd[0]}: {e}", time.monotonic() - t0


def status_text(rc):
    if rc is None:
        return "timed out"
    if rc < 0:
        return f"crashed (signal {-rc})"
    return f"exit {rc}"


def run_env(backend=None):
    env = dict(os.environ)
    env["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = os.path.join(ROOT, "runtime-shim", "python")
    env["OMP_NUM_THREADS"] = "2"
    env.setdefault("OMP_PROC_BIND", "spread")
    env.setdefault("OMP_PLACES", "threads")
    env["CMOCKA_MESSAGE_OUTPUT"] = "STDOUT"
    if backend:
        env["PKC_BACKEND"] = backend
    return env


def rel(path):
    return os.path.relpath(path, ROOT)


# --- a. C unit tests (cmocka) ---------------------------------------------

CM_RUN = re.compile(r"^\[ RUN      \] (.+)$")
CM_OK = re.compile(r"^\[       OK \] (.+)$")
CM_BAD = re.compile(r"^\[  (FAILED|ERROR)\s*\] (.+)$")
CM_PASSED = re.compile(r"^\[  PASSED  \] (\d+) test")


def parse_cmocka(out):
    """Returns ([(test, ok, reason)], passed-count-claimed or None, running)."""
    results, current, lines, claimed = [], None, [], None
    for line in out.splitlines():
        m = CM_RUN.match(line)
        if m:
            current, lines = m.group(1).strip(), []
            continue
        m = CM_OK.match(line)
        if m and current and m.group(1).strip() == current:
            results.append((current, True, ""))
            current = None
            continue
        m = CM_BAD.match(line)
        if m and current and m.group(2).strip() == current:
            results.append((current, False, "\n".join(lines[-12:]) or m.group(1).lower()))
            current = None
            continue
        m = CM_PASSED.match(line)
        if m:
            claimed = (claimed or 0) + int(m.group(1))
            continue
        if current:
            lines.append(line)
    return results, claimed, current


def group_unit(res):
    bins = sorted(b for b in glob.glob(os.path.join(ROOT, "build", "tests", "test_*"))
                  if os.access(b, os.X_OK) and not b.endswith((".o", ".d")))
    if not bins:
        res.fail("unit", "no build/tests/test_* binaries (run `make` first)")
        return
    for b in bins:
        name = os.path.basename(b)
        rc, out, _ = run([b], env=run_env(), timeout=120)
        results, claimed, running = parse_cmocka(out)
        for test, ok, why in results:
            res.check(f"unit/{name}/{test}", ok, " / ".join(why.splitlines()[:3]), why)
        if running:
            res.fail(f"unit/{name}/{running}", status_text(rc) + " during this test", out)
        elif not results:
            res.fail(f"unit/{name}", f"{status_text(rc)}, no cmocka test results in output", out)
        elif rc != 0 and all(ok for _, ok, _ in results):
            res.fail(f"unit/{name}", f"{status_text(rc)} although every test passed", out)
        elif claimed is not None and claimed != sum(ok for _, ok, _ in results):
            res.fail(f"unit/{name}", f"cmocka reports {claimed} passed, parsed "
                     f"{sum(ok for _, ok, _ in results)}", out)
    check_layering(res)


# Each layer's private header and the folder that may include it (tests
# included: unit tests and fuzz targets reach into the layers).
PRIVATE_HEADERS = {"pkb_priv.h": "backends", "fe.h": "frontend", "ents.h": "frontend",
                   "check_priv.h": "ir"}


def check_layering(res):
    """No C source includes another layer's private header (annotate.c once
    reached into backends/pkb_priv.h), and no function is exported that only
    its own file uses (scripts/file_cycles.py --exports lists them)."""
    bad = []
    for src in glob.glob(os.path.join(ROOT, "*", "*.[ch]")):
        folder = os.path.basename(os.path.dirname(src))
        with open(src, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s+"(?:.*/)?([^/"]+)"', line)
                if m and PRIVATE_HEADERS.get(m.group(1), folder) != folder:
                    bad.append(f"{rel(src)}:{n}: includes {m.group(1)}")
    res.check("unit/layering/private-headers", not bad, "; ".join(bad))
    rc, out, _ = run([sys.executable, os.path.join(ROOT, "scripts", "file_cycles.py"),
                      "--exports"], timeout=60)
    res.check("unit/layering/exports", rc == 0 and not out.strip(),
              f"{status_text(rc)}; used only in their own file (make them static): "
              + " ".join(out.split()), out)


# --- b. diagnostics and CLI -------------------------------------------------

def expectations(path):
    """Leading header comment lines of a file: `# expect[-error|-warning|-note]:
    LINE:COL: SUBSTRING` (severity, line, col, text) and `# flags: ...` (extra
    `pkc check` options, e.g. --strict-types or --werror)."""
    exps, flags = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = EXPECT_RE.match(line)
            fm = FLAGS_RE.match(line)
            if fm:
                flags += fm.group(1).split()
                continue
            if ONLY_RE.match(line):
                flags.append("--expect-only")
                continue
            if not m:
                break
            exps.append((m.group(1) or "error", int(m.group(2)), int(m.group(3)), m.group(4)))
    return exps, flags


def find_diag(out, path, line, col, text, severity="error"):
    """True if out has `...path:LINE:COL: <severity>: ...text...`."""
    pat = re.compile(r"^(?:.*/)?" + re.escape(os.path.basename(path)) +
                     rf":{line}:{col}: {severity}: (.*)$")
    return any((m := pat.match(l)) and text in m.group(1) for l in out.splitlines())


def check_diag_file(res, path):
    name = "diag/" + os.path.basename(path)
    exps, flags = expectations(path)
    if not exps:
        res.fail(name, "no `# expect: LINE:COL: TEXT` header line")
        return
    only = "--expect-only" in flags
    flags = [f for f in flags if f != "--expect-only"]
    rc, out, _ = run([PKC, "check"] + flags + [rel(path)], timeout=20)
    want = 1 if any(sev == "error" for sev, _, _, _ in exps) else 0
    if rc != want:
        res.fail(name, f"pkc check: {status_text(rc)}, expected exit {want}", out)
        return
    missing = [f"{l}:{c}: {sev}: {t}" for sev, l, c, t in exps
               if not find_diag(out, path, l, c, t, sev)]
    if only and not missing:
        base = re.escape(os.path.basename(path))
        seen = re.findall(rf"^(?:.*/)?{base}:\d+:\d+: (?:error|warning): .*$", out, re.M)
        if len(seen) > len([e for e in exps if e[0] != "note"]):
            missing = [f"only the expected errors and warnings, got {len(seen)}"]
    res.check(name, not missing, "missing diagnostic " + "; ".join(missing), out)


def check_clean(res, name, path):
    rc, out, _ = run([PKC, "check", rel(path)], timeout=20)
    res.check(name, rc == 0 and not out.strip(),
              f"pkc check: {status_text(rc)}, expected exit 0 and no output", out)


def find_json_loc(node, line, col, keys):
    """Recursively finds a dict with node[keys[0]] == line and node[keys[1]] == col."""
    if isinstance(node, dict):
        if node.get(keys[0]) == line and any(node.get(k) == col for k in keys[1:]):
            return True
        return any(find_json_loc(v, line, col, keys) for v in node.values())
    if isinstance(node, list):
        return any(find_json_loc(v, line, col, keys) for v in node)
    return False


def parse_json_out(out):
    try:
        return json.loads(out), ""
    except ValueError as e:
        return None, f"not JSON ({e})"


def group_cli(res, bad):
    rc, out, _ = run([PKC, "--version"], timeout=10)
    res.check("cli/--version", rc == 0 and out.strip(), f"{status_text(rc)}, expected exit 0 and a version", out)
    rc, out, _ = run([PKC, "help"], timeout=10)
    res.check("cli/help", rc == 0 and "build" in out, f"{status_text(rc)}, expected exit 0 and usage text", out)
    rc, out, _ = run([PKC, "bogus"], timeout=10)
    res.check("cli/unknown-command", rc == 2, f"{status_text(rc)}, expected exit 2", out)
    rc, out, _ = run([PKC, "check"], timeout=10)
    res.check("cli/check-without-files", rc == 2, f"{status_text(rc)}, expected exit 2", out)
    # a file of many launches whose policy is a name: each launch once looked
    # the name up over the whole file (4000 launches: 80 s), so a big
    # generated file looked like a hang
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "dir.py"))
        rc, out, _ = run([PKC, "check", os.path.join(d, "dir.py")], timeout=10)
        res.check("cli/directory-input", rc == 2 and "Is a directory" in out,
                  f"{status_text(rc)}, expected exit 2 and 'Is a directory'", out)
        # CMake's build path in a directory whose path CMake or make cannot
        # take ($ \ " `): said before CMake runs (it failed in the linker)
        odd = os.path.join(d, "we$ird")
        os.mkdir(odd)
        shutil.copy(os.path.join(ROOT, "examples", "nstream.py"), odd)
        env = dict(run_env("openmp"), PKC_FAST_BUILD="0")
        rc, out, _ = run([PKC, "build", os.path.join(odd, "nstream.py")], env=env, timeout=60)
        res.check("cli/cmake-unsafe-path", rc != 0 and "CMake cannot build in" in out and
                  "-o DIR" in out, f"{status_text(rc)}, expected a failure naming -o DIR", out)
        # an endless input (it read /dev/zero until the memory ran out)
        if os.path.exists("/dev/zero"):
            rc, out, _ = run([PKC, "check", "/dev/zero"], timeout=30)
            res.check("cli/endless-input", rc == 2 and "File too large" in out,
                      f"{status_text(rc)}, expected exit 2 and 'File too large' within 30 s", out)
        big = os.path.join(d, "many_launches.py")
        with open(big, "w") as f:
            f.write("import pykokkos as pk\n\n@pk.workunit\n"
                    "def k(i: int, v: pk.View1D[pk.double]):\n    v[i] = 1.0\n\n")
            for i in range(4000):
                f.write(f"def f{i}(v):\n    n = 10\n    pk.parallel_for(n, k, v=v)\n\n")
        rc, out, _ = run([PKC, "check", big], timeout=20)
        res.check("cli/many-launches", rc == 0, f"{status_text(rc)}, expected exit 0 within 20 s", out)
    if not bad:
        res.fail("cli/json", "no tests/diagnostics/*.py with expectations to use")
        return
    path, (line, col, _) = bad
    rc, out, _ = run([PKC, "check", "--diagnostics-format=bogus", rel(path)], timeout=10)
    res.check("cli/bad-diagnostics-format", rc == 2, f"{status_text(rc)}, expected exit 2", out)
    rc, out, _ = run([PKC, "check", "--diagnostics-format=json", rel(path)], timeout=20)
    doc, err = parse_json_out(out)
    res.check("cli/json", rc == 1 and doc is not None and
              find_json_loc(doc, line, col, ("line", "column", "col")),
              err or f"{status_text(rc)}; expected exit 1 and a diagnostic at line {line} column {col}", out)
    rc, out, _ = run([PKC, "check", "--diagnostics-format=sarif", rel(path)], timeout=20)
    doc, err = parse_json_out(out)
    ok = (rc == 1 and isinstance(doc, dict) and doc.get("version") == "2.1.0" and
          find_json_loc(doc, line, col, ("startLine", "startColumn")))
    res.check("cli/sarif", ok, err or f"{status_text(rc)}; expected exit 1, version 2.1.0 and a "
              f"result region startLine {line} startColumn {col}", out)
    check_team_sync_formats(res)
    check_missing_backend(res)
    check_with_signature(res)
    check_build_warnings(res)
    check_no_compiler(res)
    check_failed_commands(res)
    check_man_page(res)
    rc, out, _ = run([PKC, "check", "--time-passes", "examples/nstream.py"], timeout=20)
    passes = r", ".join(rf"{p} [0-9.]+ ms" for p in ("read", "parse", "lower", "check", "extents",
                                                      "mdrange", "range", "footprint", "nonneg", "fusion",
                                                      "werror"))
    res.check("cli/time-passes", rc == 0 and re.fullmatch(
        rf"pkc: passes of examples/nstream\.py: {passes}\n", out),
        f"{status_text(rc)}; expected exit 0 and one line timing each pass in order", out)


WARNING_KERNEL = """import pykokkos as pk

@pk.workunit
def mark_zeros(i: int, a: pk.View1D[float], b: pk.View1D[float]):
    if a[i] == 0.0:
        b[i] = 1.0
"""


def check_build_warnings(res):
    """A compiler warning in the generated code (here forced by CXXFLAGS) is
    shown at its Python line and fails the build; --allow-warnings keeps it."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "zeros.py")
        with open(src, "w") as f:
            f.write(WARNING_KERNEL)
        env = dict(os.environ, CXXFLAGS="-Wfloat-equal")
        out_dir = os.path.join(tmp, "zeros.pk")
        rc, out, _ = run([PKC, "build", "-j2", src, "-o", out_dir], env=env, timeout=300)
        shown = re.search(r"zeros\.py:5: warning: .*Wfloat-equal", out)  # no C++ column
        res.check("cli/build-fails-on-generated-warning",
                  rc == 3 and shown and "pkc build --allow-warnings" in out
                  and not os.path.exists(os.path.join(out_dir, "zeros.openmp.key")),
                  f"{status_text(rc)}; expected exit 3, the warning at zeros.py:5 on screen "
                  "and no cache key", out)
        rc, out, _ = run([PKC, "build", "-j2", "-v", "--allow-warnings", src, "-o", out_dir],
                         env=env, timeout=300)
        res.check("cli/build-allow-warnings", rc == 0 and
                  os.path.exists(os.path.join(out_dir, "zeros.openmp.key")),
                  f"{status_text(rc)}; expected exit 0 and a built module", out)
        so = os.path.join(out_dir, "zeros.openmp.so")
        # -v in a log (not a terminal): a line per module built, with the compile
        # step's time, and one per module found up to date (issue 27)
        res.check("cli/build-v-progress", re.search(
            rf"^pkc: built {re.escape(so)} \([0-9.]+ s; compile step [0-9.]+ s, ", out, re.M),
            "expected 'pkc: built MODULE (T s; compile step T s, ...)'", out)
        rc, out, _ = run([PKC, "build", "-v", "--allow-warnings", src, "-o", out_dir],
                         env=env, timeout=300)
        res.check("cli/build-v-up-to-date", rc == 0 and out.strip() == f"pkc: up to date: {so}",
                  f"{status_text(rc)}; expected exit 0 and the one line 'pkc: up to date: {so}'",
                  out)


def check_no_compiler(res):
    """No usable C++ compiler: CMake's own reason reaches the screen."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "zeros.py")
        with open(src, "w") as f:
            f.write(WARNING_KERNEL)
        env = dict(os.environ, CXX="/nonexistent/bin/c++")
        rc, out, _ = run([PKC, "build", src, "-o", os.path.join(tmp, "z.pk")], env=env, timeout=120)
        res.check("cli/build-without-compiler", rc == 3 and "Could not find compiler" in out
                  and "/nonexistent/bin/c++" in out,
                  f"{status_text(rc)}; expected exit 3 and CMake's reason on screen", out)


def env_variables_read():
    """The PKC* environment variables pkc's C code and the shim read."""
    pat = re.compile(r'(?:getenv\(|environ\.get\(|environ\[)"(PKC[A-Z_]*)"')
    found = set()
    for d, exts in (("cmd", ".c"), ("backends", ".c"), ("runtime-shim", (".c", ".py"))):
        for dirpath, _, names in os.walk(os.path.join(ROOT, d)):
            for n in names:
                if n.endswith(exts):
                    with open(os.path.join(dirpath, n), encoding="utf-8") as f:
                        found.update(pat.findall(f.read()))
    return found


def check_man_page(res):
    """`man pkc` (build/man/pkc.1, from scripts/man.sh) has ENVIRONMENT (an
    entry for every PKC* variable the code reads), EXIT STATUS (0 to 3) and
    FILES sections, made from the tables `pkc help environment|exit-status|files`."""
    page = os.path.join(ROOT, "build", "man", "pkc.1")
    text = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
    sections = dict(re.findall(r"^\.SH (.+)\n((?:(?!\.SH ).*\n)*)", text, re.M))
    entries = {k: re.findall(r"^\.B (.+)$", v, re.M) for k, v in sections.items()}
    env, want = entries.get("ENVIRONMENT", []), env_variables_read()
    missing = sorted(v for v in want if v not in env)
    res.check("cli/man-environment", len(want) >= 13 and not missing,
              f"ENVIRONMENT lacks {missing} (of {sorted(want)})", text[-2000:])
    res.check("cli/man-exit-status", entries.get("EXIT STATUS") == ["0", "1", "2", "3"],
              f"EXIT STATUS entries {entries.get('EXIT STATUS')}, expected 0 1 2 3", text[-2000:])
    files = entries.get("FILES", [])
    res.check("cli/man-files", "FILE.pk/" in files and "$PKC_CACHE_DIR/toolchains/" in files,
              f"FILES entries {files}", text[-2000:])
    rc, out, _ = run([PKC, "help", "environment"], timeout=10)
    res.check("cli/help-environment", rc == 0 and all(f"\n{v}\n" in "\n" + out for v in want),
              f"{status_text(rc)}; expected every variable on a line of its own", out)


def check_failed_commands(res):
    """A failing toolchain command says what failed (issue 22 item 15): a
    linker error (a real one: the compiler, a wrapper, links a library that
    is not there) shows the command, the linker's own line and the exit
    status, not only collect2's; a compiler gone since the toolchain was
    prepared is named with the reason it could not run."""
    with tempfile.TemporaryDirectory() as tmp:
        cxx = os.path.join(tmp, "wrapped-c++")
        with open(cxx, "w") as f:
            f.write('#!/bin/sh\ncase " $* " in *" -shared "*) exec c++ "$@" -lpkc_no_such_lib ;; '
                    'esac\nexec c++ "$@"\n')
        os.chmod(cxx, 0o755)
        env = dict(os.environ, CXX=cxx, PKC_CACHE_DIR=os.path.join(tmp, "cache"))
        src = os.path.join(tmp, "zeros.py")
        with open(src, "w") as f:
            f.write(WARNING_KERNEL.replace("==", ">"))
        rc, out, _ = run([PKC, "build", src, "-o", os.path.join(tmp, "z.pk")], env=env, timeout=300)
        want = ["cannot find -lpkc_no_such_lib", f"'{cxx}' exited with status 1",
                "-shared", "zeros.openmp.so"]
        cmd = [l for l in out.splitlines() if l.startswith("pkc: the command was:")]
        res.check("cli/build-link-error-says-what-failed",
                  rc == 3 and all(w in out for w in want) and cmd and "-shared" in cmd[-1],
                  f"{status_text(rc)}; expected exit 3, the command and {want} on screen", out)
        os.remove(cxx)
        rc, out, _ = run([PKC, "build", src, "-o", os.path.join(tmp, "z.pk")], env=env, timeout=300)
        res.check("cli/build-compiler-gone-says-what-failed",
                  rc == 3 and f"cannot run '{cxx}': No such file or directory" in out
                  and "pkc: the command was: " + cxx in out,
                  f"{status_text(rc)}; expected exit 3 and why {cxx} could not run", out)


TEAM_SYNC_ALL = os.path.join("tests", "diagnostics", "team_sync_all.py")


def check_team_sync_formats(res):
    """The three kinds of team-synchronization diagnostics (issue 23) in JSON
    and SARIF: the note of a barrier pkc inserted, a possible-race warning
    and a divergent-collective error, each with its code and line."""
    want = [("note", "team-barrier", 14), ("warning", "possible-race", 20),
            ("error", "divergent-collective", 28)]
    rc, out, _ = run([PKC, "check", "--diagnostics-format=json", TEAM_SYNC_ALL], timeout=20)
    doc, err = parse_json_out(out)
    got = [(d.get("severity"), d.get("code"), d.get("line"))
           for f in (doc or {}).get("files", []) for d in f.get("diagnostics", [])]
    res.check("cli/json-team-sync", rc == 1 and all(w in got for w in want),
              err or f"{status_text(rc)}; expected exit 1 and {want}, got {got}", out)
    rc, out, _ = run([PKC, "check", "--diagnostics-format=sarif", TEAM_SYNC_ALL], timeout=20)
    doc, err = parse_json_out(out)
    got = [(r.get("level"), r.get("ruleId"),
            r["locations"][0]["physicalLocation"]["region"]["startLine"])
           for run_ in (doc or {}).get("runs", []) for r in run_.get("results", [])]
    res.check("cli/sarif-team-sync", rc == 1 and all(w in got for w in want),
              err or f"{status_text(rc)}; expected exit 1 and {want}, got {got}", out)


def check_missing_backend(res):
    """A backend the Kokkos install lacks: pkc build exits 3 naming both."""
    ex = os.path.join(ROOT, "examples", "nstream.py")
    kroot = os.path.join(ROOT, ".deps", "kokkos-openmp")
    if not os.path.exists(os.path.join(kroot, "include", "KokkosCore_config.h")):
        res.fail("cli/backend-missing-in-kokkos", f"no Kokkos install at {rel(kroot)} (run scripts/setup.sh)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, _ = run([PKC, "build", "--backend", "cuda", "--kokkos-root", kroot, rel(ex),
                          "-o", os.path.join(tmp, "x.pk")], timeout=60)
    want = [f"backend 'cuda'", kroot, "built without it", "has: SERIAL,OPENMP"]
    errs = [l for l in out.splitlines() if l.startswith("pkc:")]
    ok = rc == 3 and len(errs) == 1 and all(w in errs[0] for w in want)
    res.check("cli/backend-missing-in-kokkos", ok,
              f"{status_text(rc)}; expected exit 3 and one 'pkc:' line with {want}", out)


def check_with_signature(res):
    """pkc build --with-signature (issue 24 item 4): only with `build` of one
    file (exit 2 naming the option), a signature that does not parse is a
    usage error naming its column, and a signature of an annotated workunit
    builds no specialization (annotated programs are built as before)."""
    ex = rel(os.path.join(ROOT, "examples", "nstream.py"))
    sig = "nstream(A: pk.View1D[pk.float64], B: pk.View1D[pk.float64], " \
          "C: pk.View1D[pk.float64], scalar: float)"
    rc, out, _ = run([PKC, "check", ex, "--with-signature", sig], timeout=20)
    res.check("cli/with-signature-needs-build", rc == 2 and
              "--with-signature goes with 'pkc build'" in out,
              f"{status_text(rc)}; expected exit 2 naming --with-signature", out)
    rc, out, _ = run([PKC, "build", ex, "--with-signature", "nstream(A"], timeout=20)
    res.check("cli/with-signature-bad", rc == 2 and "bad signature 'nstream(A' (column" in out,
              f"{status_text(rc)}; expected exit 2 and the bad signature's column", out)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(ROOT, "examples", "nstream.py"), tmp)
        rc, out, _ = run([PKC, "build", "-q", os.path.join(tmp, "nstream.py"),
                          "--with-signature", sig], timeout=300)
        built = os.path.isfile(os.path.join(tmp, "nstream.pk", "nstream.openmp.so"))
        spec = os.path.exists(os.path.join(tmp, "nstream.pk", "spec"))
    res.check("cli/with-signature-annotated", rc == 0 and built and not spec,
              f"{status_text(rc)}, module built {built}, spec/ made {spec}; expected the "
              "module and no specialization", out)


def group_diagnostics(res):
    if not os.access(PKC, os.X_OK):
        res.fail("diagnostics", "build/bin/pkc is missing (run `make` first)")
        return
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "diagnostics", "*.py")))
    if not files:
        res.fail("diagnostics", "no tests/diagnostics/*.py files")
    for f in files:
        check_diag_file(res, f)
    oks = sorted(glob.glob(os.path.join(ROOT, "tests", "diagnostics", "ok", "*.py")))
    if not oks:
        res.fail("diag/ok", "no tests/diagnostics/ok/*.py files")
    for f in oks:
        check_clean(res, "diag/ok/" + os.path.basename(f), f)
    for f in example_files():
        check_clean(res, "check/examples/" + os.path.basename(f), f)
    bad = next(((f, e[0][0][1:]) for f in files for e in [expectations(f)]
                if e[0] and not e[1] and e[0][0][0] == "error"), None)
    group_cli(res, bad)


# --- c. examples ------------------------------------------------------------

def example_files():
    return sorted(glob.glob(os.path.join(ROOT, "examples", "*.py")))


def module_path(example, backend):
    stem = os.path.splitext(os.path.basename(example))[0]
    return os.path.join(ROOT, "examples", stem + ".pk", f"{stem}.{backend}.so")


def mtime(path):
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def build_example(res, ex, backend, name):
    """pkc build; returns True if the module exists afterwards."""
    rc, out, secs = run([PKC, "build", rel(ex), "--backend", backend], env=run_env(backend), timeout=900)
    so = module_path(ex, backend)
    return res.check(f"{name}/build", rc == 0 and os.path.exists(so),
                     f"pkc build: {status_text(rc)}" + ("" if os.path.exists(so) else f"; no {rel(so)}"), out)


def check_noop_rebuild(res, ex, backend, name):
    so = module_path(ex, backend)
    before = mtime(so)
    rc, out, secs = run([PKC, "build", rel(ex), "--backend", backend], env=run_env(backend), timeout=900)
    res.check(f"{name}/rebuild-is-noop", rc == 0 and secs < 1.0 and mtime(so) == before,
              f"second pkc build: {status_text(rc)}, {secs:.2f} s, module "
              f"{'unchanged' if mtime(so) == before else 'rewritten'} (expected < 1 s, unchanged)", out)


def check_warnings(res, ex, backend, name):
    stem = os.path.splitext(os.path.basename(ex))[0]
    bdir = os.path.join(ROOT, "examples", stem + ".pk", f"build-{backend}")
    logs = glob.glob(os.path.join(bdir, "**", "*.log"), recursive=True)
    if not logs:
        res.fail(f"{name}/no-warnings", f"no compiler log (*.log) under {rel(bdir)}")
        return
    hits = []
    for log in logs:
        with open(log, encoding="utf-8", errors="replace") as f:
            hits += [f"{rel(log)}: {l.rstrip()}" for l in f if "warning:" in l]
    res.check(f"{name}/no-warnings", not hits, f"{len(hits)} compiler warning(s)", "\n".join(hits))


TEST_ARGS_RE = re.compile(r"^#\s*test-args:(.*)$")
COMPARE_RE = re.compile(r"^#\s*fusion-compare:(.*)$", re.M)


def compare_fused(text, fused_out, unfused_out):
    """The `NAME=number` fields that a `# fusion-compare: NAME ...` line of the
    example names and that differ between its fused and unfused outputs
    (beyond 1e-9 relative and two units of the last digit printed:
    reductions agree within rounding), or are missing; [] when none."""
    m = COMPARE_RE.search(text)
    bad = []
    for name in m.group(1).split() if m else ():
        pat = re.compile(r"(?<![\w(])" + re.escape(name) + r"=(-?[0-9]+(?:\.([0-9]+))?)")
        a, b = pat.search(fused_out), pat.search(unfused_out)
        if not a or not b:
            bad.append(f"{name}: missing")
            continue
        x, y = float(a.group(1)), float(b.group(1))
        if abs(x - y) > max(1e-9 * abs(y), 2 * 10.0 ** -len(b.group(2) or "")):
            bad.append(f"{name}={a.group(1)} fused, {b.group(1)} unfused")
    return bad


def example_args(ex, stem):
    """Small CI sizes: a `# test-args: ...` line in the example's first 30
    lines, else EXAMPLE_ARGS, else none."""
    with open(ex, encoding="utf-8") as f:
        for _, line in zip(range(30), f):
            m = TEST_ARGS_RE.match(line.strip())
            if m:
                return m.group(1).split()
    return EXAMPLE_ARGS.get(stem, [])


def run_example(res, ex, backend, name):
    stem = os.path.splitext(os.path.basename(ex))[0]
    so = module_path(ex, backend)
    before = mtime(so)
    cmd = [PYTHON, rel(ex)] + example_args(ex, stem)
    rc, out, _ = run(cmd, env=run_env(backend), timeout=300)
    fused_out = out
    passed = any("verification PASSED" in l for l in out.splitlines())
    if not res.check(f"{name}/run", rc == 0 and passed,
                     f"{status_text(rc)}; " + ("" if passed else "no 'verification PASSED' line"), out):
        return
    res.check(f"{name}/no-rebuild-at-run", mtime(so) == before,
              "the shim rebuilt the module that pkc build had just built (cache keys disagree)", out)
    with open(ex, encoding="utf-8") as f:
        text = f.read()
    has_main = "@pk.main" in text
    ranks = re.search(r"^#\s*mpi-ranks:(.*)$", text, re.M)
    for k in (int(x) for x in ranks.group(1).split()) if ranks else ():
        if k < 2:
            continue   # one rank: the run above
        mpirun = shutil.which("mpirun")
        if not mpirun:
            res.fail(f"{name}/mpi-{k}", "mpirun not found (scripts/setup.sh installs openmpi-bin)")
            continue
        env = dict(run_env(backend), OMP_NUM_THREADS="1")
        rc, out, _ = run([mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(k)] + cmd,
                         env=env, timeout=300)
        passed = "verification PASSED" in out
        res.check(f"{name}/mpi-{k}", rc == 0 and passed,
                  f"mpirun -np {k}: {status_text(rc)}; " + ("" if passed else "no 'verification PASSED'"), out)
    cpp = os.path.join(os.path.splitext(ex)[0] + ".pk", stem + ".cpp")
    try:
        with open(cpp, encoding="utf-8") as f:
            fused = "pkc_fused" in f.read()
    except OSError:
        fused = has_main
    if fused:   # fused kernels (issue 9): the original launches pass too
        env = dict(run_env(backend), PKC_FUSION="0")
        rc, out2, _ = run(cmd, env=env, timeout=300)
        passed = any("verification PASSED" in l for l in out2.splitlines())
        res.check(f"{name}/run-unfused", rc == 0 and passed,
                  f"PKC_FUSION=0: {status_text(rc)}; " + ("" if passed else "no 'verification PASSED' line"), out2)
        if COMPARE_RE.search(text):   # and print what the fused kernels printed
            bad = compare_fused(text, fused_out, out2)
            res.check(f"{name}/fused-equals-unfused", not bad, "; ".join(bad), fused_out + out2)


def group_examples(res, backends, clean):
    if not os.access(PKC, os.X_OK):
        res.fail("examples", "build/bin/pkc is missing (run `make` first)")
        return
    exs = example_files()
    if not exs:
        res.fail("examples", "no examples/*.py")
    if clean:
        for ex in exs:
            shutil.rmtree(os.path.splitext(ex)[0] + ".pk", ignore_errors=True)
    for backend in backends:
        for ex in exs:
            name = f"example/{backend}/{os.path.splitext(os.path.basename(ex))[0]}"
            if not build_example(res, ex, backend, name):
                continue
            check_noop_rebuild(res, ex, backend, name)
            check_warnings(res, ex, backend, name)
            run_example(res, ex, backend, name)


# --- features: one small self-checking program per dialect feature ----------

ENV_RE = re.compile(r"^#\s*env:\s*(\w+)=(\S*)\s*$")


def run_ok_programs(res, group, backends):
    """Each tests/<group>/*.py prints OK (or BAD + what it saw) as its last line
    and exits 0; the shim builds its module on first use (JIT fallback). A
    leading `# env: NAME=VALUE` line sets an environment variable (e.g. PKC_REAL)."""
    files = sorted(glob.glob(os.path.join(ROOT, "tests", group, "*.py")))
    if not files:
        res.fail(group, f"no tests/{group}/*.py")
        return
    from concurrent.futures import ThreadPoolExecutor

    def one(f, backend):
        env = run_env(backend)
        with open(f, encoding="utf-8") as fh:
            for _, line in zip(range(5), fh):
                m = ENV_RE.match(line.strip())
                if m:
                    env[m.group(1)] = m.group(2)
        return run([PYTHON, rel(f)], env=env, timeout=300)

    # programs build their modules on first use (mostly one compiler process
    # each): run as many at once as there are cores, one backend at a time
    # (the two backends of one file share its generated sources)
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        for backend in backends:
            for f, (rc, out, _) in zip(files, pool.map(lambda f: one(f, backend), files)):
                lines = [l for l in out.splitlines() if l.strip()]
                last = lines[-1].strip() if lines else ""
                name = f"{'feature' if group == 'features' else group}/{backend}/" \
                       f"{os.path.splitext(os.path.basename(f))[0]}"
                res.check(name, rc == 0 and last == "OK",
                          f"{status_text(rc)}; last line {last!r}, expected 'OK'", out)
            if group == "compat":
                check_recorded_aot(res, backend)


def group_features(res, backends):
    """tests/features/: one small self-checking program per dialect feature."""
    run_ok_programs(res, "features", backends)


# --- compat: PyKokkos programs as PyKokkos users write them (issue 7) ---------

def group_compat(res, backends):
    """tests/compat/ (see its README.md): programs written the way PyKokkos
    users write them, each checked against numpy or a closed form; then, per
    backend, the recorded-signature ahead-of-time check."""
    run_ok_programs(res, "compat", backends)


def check_recorded_aot(res, backend):
    """tests/compat/aot/recorded_app.py, in a scratch copy: a run that records
    its signatures (PKC_RECORD_SIGNATURES=1), `pkc build` (every recorded
    signature built ahead of time), then a run with no pkc on PATH that must
    build nothing and still verify."""
    import shutil
    import tempfile
    src = os.path.join(ROOT, "tests", "compat", "aot", "recorded_app.py")
    name = f"compat/{backend}/aot_recorded"
    with tempfile.TemporaryDirectory(prefix="pkc-aot-") as d:
        app = os.path.join(d, "recorded_app.py")
        shutil.copy(src, app)
        env = run_env(backend)
        env["PKC_RECORD_SIGNATURES"] = "1"
        rc, out, _ = run([PYTHON, app], env=env, timeout=300, cwd=d)
        side = os.path.join(d, "recorded_app.pkc-signatures")
        sigs = open(side).read().split("\n") if os.path.isfile(side) else []
        sigs = [x for x in sigs if x]
        if rc != 0 or len(sigs) != 4:
            res.fail(name, f"recording run: {status_text(rc)}, {len(sigs)} signatures "
                           "recorded (expected 4)", out)
            return
        shutil.rmtree(os.path.join(d, "recorded_app.pk"))
        rc, out, _ = run([PKC, "build", app, "--backend", backend], env=run_env(backend),
                         timeout=600, cwd=d)
        if rc != 0:
            res.fail(name, f"pkc build: {status_text(rc)}", out)
            return
        env = run_env(backend)
        env["PATH"] = "/usr/bin:/bin"   # no pkc: the run must not build anything
        env["PKC_RUNTIME_LIB"] = os.path.join(ROOT, "build", "lib", "libpkcrt.so")
        env.pop("PKC", None)
        rc, out, _ = run([PYTHON, app], env=env, timeout=300, cwd=d)
        last = [l for l in out.splitlines() if l.strip()][-1:] or [""]
        res.check(name, rc == 0 and last[0] == "OK" and "building" not in out,
                  f"deployed run: {status_text(rc)}, last line {last[0]!r}"
                  + ("; it built something" if "building" in out else ""), out)
        check_bad_sidecar(res, f"compat/{backend}/aot_bad_sidecar", app, side, backend, d)


def check_bad_sidecar(res, name, app, side, backend, cwd):
    """A malformed sidecar line (`pk.View1D)`, once a crash) and a sidecar
    that is a FIFO (once a hang) are reported by file:line:col, exit 1."""
    with open(side, "a") as f:
        f.write("axpy(x: pk.View1D)\n")
    nlines = len(open(side).read().splitlines())
    rc, out, _ = run([PKC, "build", app, "--backend", backend], env=run_env(backend),
                     timeout=600, cwd=cwd)
    want = f"{side}:{nlines}:9: error: bad signature: unknown type for 'x'"
    if rc != 1 or want not in out:
        res.fail(name, f"bad line: {status_text(rc)}, expected exit 1 and {want!r}", out)
        return
    os.unlink(side)
    os.mkfifo(side)
    rc, out, _ = run([PKC, "build", app, "--backend", backend], env=run_env(backend),
                     timeout=120, cwd=cwd)
    want = f"{side}:1:1: error: the recorded signatures are not a regular file"
    res.check(name, rc == 1 and want in out,
              f"FIFO sidecar: {status_text(rc)}, expected exit 1 and {want!r}", out)


# --- d. C host ----------------------------------------------------------------

def group_c_host(res):
    exe = os.path.join(ROOT, "build", "tests", "c_host")
    ex = os.path.join(ROOT, "examples", "nstream.py")
    so = module_path(ex, "openmp")
    if not os.access(exe, os.X_OK):
        res.fail("c_host", "build/tests/c_host is missing (run `make`)")
        return
    if not os.path.exists(so):
        if not os.path.exists(ex):
            res.fail("c_host", "examples/nstream.py is missing")
            return
        rc, out, _ = run([PKC, "build", rel(ex), "--backend", "openmp"], env=run_env("openmp"), timeout=900)
        if rc != 0 or not os.path.exists(so):
            res.fail("c_host", f"could not build {rel(so)}: {status_text(rc)}", out)
            return
    rc, out, _ = run([exe, rel(so)], env=run_env("openmp"), timeout=120)
    res.check("c_host/nstream", rc == 0 and any(l.strip() == "c_host: ok" for l in out.splitlines()),
              f"{status_text(rc)}; expected a line 'c_host: ok'", out)
    check_flat_gate(res)


def check_flat_gate(res):
    """tests/c_host/flat_gate.cpp: the gated flat walk of pkc_dialect.hpp
    (issue 25's in-kernel gate) on the host, built against the project's
    Kokkos with the C++ compiler pkc's builds use."""
    kroot = os.path.join(ROOT, ".deps", "kokkos-openmp")
    cxx = shutil.which(os.environ.get("CXX") or "g++")
    if not cxx or not os.path.exists(os.path.join(kroot, "include", "KokkosCore_config.h")):
        res.fail("c_host/flat_gate", f"no C++ compiler or no Kokkos install at {rel(kroot)} "
                 "(run scripts/setup.sh)")
        return
    lib = next((d for d in ("lib", "lib64") if os.path.isdir(os.path.join(kroot, d))), "lib")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "flat_gate")
        rc, out, _ = run([cxx, "-std=c++17", "-O1", "-Wall", "-Wextra", "-fopenmp",
                          "-DPKC_BACKEND_OPENMP", "-I" + os.path.join(ROOT, "backends"),
                          "-I" + os.path.join(ROOT, "runtime-shim"),
                          "-I" + os.path.join(kroot, "include"),
                          os.path.join(ROOT, "tests", "c_host", "flat_gate.cpp"), "-o", exe,
                          "-L" + os.path.join(kroot, lib), "-Wl,-rpath," + os.path.join(kroot, lib),
                          "-lkokkoscore", "-ldl"], timeout=600)
        hits = [l for l in out.splitlines() if WARNING_RE.search(l)]
        if rc != 0:
            res.fail("c_host/flat_gate", f"could not build tests/c_host/flat_gate.cpp: {status_text(rc)}", out)
            return
        rc, out2, _ = run([exe], env=run_env("openmp"), timeout=120)
    res.check("c_host/flat_gate", rc == 0 and "flat_gate: ok" in out2.splitlines() and not hits,
              f"{status_text(rc)}; expected a line 'flat_gate: ok'"
              + (f", {len(hits)} compiler warning(s)" if hits else ""), out + out2)


# --- e. Python shim tests ----------------------------------------------------

SHIM_DRIVER = r"""
import sys, unittest
class R(unittest.TestResult):
    def startTest(self, t):
        super().startTest(t); print('@@START', t.id(), flush=True)
    def _bad(self, t, err):
        msg = self._exc_info_to_string(err, t).strip().splitlines()
        print('@@FAIL', t.id(), '\x1f', msg[-1] if msg else '?', flush=True)
        print('\n'.join(msg[-12:]), flush=True)
    def addSuccess(self, t): print('@@PASS', t.id(), flush=True)
    def addFailure(self, t, err): self._bad(t, err)
    def addError(self, t, err): self._bad(t, err)
    def addSkip(self, t, why): print('@@SKIP', t.id(), flush=True)
    def addExpectedFailure(self, t, err): print('@@PASS', t.id(), flush=True)
    def addUnexpectedSuccess(self, t): print('@@FAIL', t.id(), '\x1f unexpected success', flush=True)
    def addSubTest(self, t, sub, err):
        if err is not None: self._bad(sub, err)
suite = unittest.defaultTestLoader.discover(sys.argv[1], pattern='test_*.py', top_level_dir=sys.argv[1])
suite.run(R())
print('@@DONE', flush=True)
"""


def group_shim(res, group="shim"):
    """unittest modules tests/<group>/test_*.py (group: shim or api)."""
    tdir = os.path.join(ROOT, "tests", group)
    if not glob.glob(os.path.join(tdir, "test_*.py")):
        res.fail(group, f"no tests/{group}/test_*.py")
        return
    rc, out, _ = run([PYTHON, "-c", SHIM_DRIVER, tdir], env=run_env("openmp"), timeout=900)
    current, seen, detail = None, 0, []
    for line in out.splitlines():
        if line.startswith("@@START "):
            current, detail = line.split()[1], []
        elif line.startswith("@@PASS "):
            seen += 1
            res.ok(f"{group}/" + line.split()[1])
            current = None
        elif line.startswith("@@FAIL "):
            seen += 1
            tid, _, why = line[7:].partition("\x1f")
            res.fail(f"{group}/" + tid.strip(), why.strip() or "failed")
            current = None
        elif line.startswith("@@SKIP "):
            print(f"SKIP {group}/{line.split()[1]}", flush=True)
            current = None
        elif not line.startswith("@@"):
            detail.append(line)
    if current:
        res.fail(f"{group}/" + current, f"{status_text(rc)} during this test", "\n".join(detail))
    elif "@@DONE" not in out:
        res.fail(group, f"{status_text(rc)} before the tests finished", out)
    elif seen == 0:
        res.fail(group, f"no tests found in tests/{group}", out)


# --- sanitizers and fuzzing ---------------------------------------------------

def group_sanitize(res):
    rc, out, _ = run(["bash", "scripts/sanitize.sh"], timeout=900)
    res.check("sanitize/check-ir-emit-every-file", rc == 0, status_text(rc), out[-3000:])
    rc, out, _ = run(["bash", "scripts/fuzz.sh", "60"], timeout=900)
    res.check("sanitize/libfuzzer-60s", rc == 0 and "Done " in out,
              f"{status_text(rc)}; findings in build/fuzz/findings/", out[-3000:])


# --- Kokkos 4: build and run against the next major version ------------------

KOKKOS4 = os.path.join(ROOT, ".deps", "kokkos4-openmp")


def kokkos4_one(src, tmp):
    """Copies src into tmp, runs it there (the shim builds its module against
    Kokkos 4 through Kokkos_ROOT); returns (rc, output, compiler warnings)."""
    stem = os.path.splitext(os.path.basename(src))[0]
    dst = os.path.join(tmp, os.path.basename(src))
    shutil.copy(src, dst)
    env = dict(run_env("openmp"), Kokkos_ROOT=KOKKOS4)
    with open(src, encoding="utf-8") as fh:
        for _, line in zip(range(5), fh):
            m = ENV_RE.match(line.strip())
            if m:
                env[m.group(1)] = m.group(2)
    args = example_args(src, stem) if "examples" in src else []
    rc, out, _ = run([PYTHON, dst] + args, env=env, timeout=600, cwd=tmp)
    hits = []
    for log in glob.glob(os.path.join(tmp, stem + ".pk", "**", "pkc-build.log"), recursive=True):
        with open(log, encoding="utf-8", errors="replace") as f:
            hits += [l.rstrip() for l in f if "warning" in l.lower()]
    return rc, out, hits


def group_kokkos4(res):
    if not glob.glob(os.path.join(KOKKOS4, "lib*", "cmake", "Kokkos", "KokkosConfig.cmake")):
        print(f"SKIP kokkos4: no Kokkos 4 install at {rel(KOKKOS4)} (setup.sh builds it "
              "when ../shared/kokkos4 is present)", flush=True)
        return
    progs = example_files() + sorted(glob.glob(os.path.join(ROOT, "tests", "features", "*.py")))
    with tempfile.TemporaryDirectory(prefix="pkc-k4-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        dirs = []
        for i in range(len(progs)):
            dirs.append(os.path.join(tmp, str(i)))
            os.makedirs(dirs[-1])
        for src, (rc, out, hits) in zip(progs, pool.map(kokkos4_one, progs, dirs)):
            stem = os.path.splitext(os.path.basename(src))[0]
            lines = [l for l in out.splitlines() if l.strip()]
            ok = (any("verification PASSED" in l for l in lines) if "examples" in src
                  else bool(lines) and lines[-1].strip() == "OK")
            res.check(f"kokkos4/{stem}", rc == 0 and ok and not hits,
                      f"{status_text(rc)}; " + ("" if ok else "no PASSED/OK line; ") +
                      f"{len(hits)} compiler warning(s)", "\n".join(hits[:10]) + "\n" + out)


# --- f. GPU backends: compile + link only ------------------------------------

GPU_TARGETS = {  # backend -> (compiler, Kokkos install, what setup.sh needs)
    "cuda": ("nvcc", os.path.join(ROOT, ".deps", "kokkos-cuda"), "nvcc (CUDA toolkit)"),
    "hip": ("hipcc", os.path.join(ROOT, ".deps", "kokkos-hip"), "hipcc (Debian packages hipcc, libamdhip64-dev)"),
}
WARNING_RE = re.compile(r"\bwarning\s*[:#]")


def gpu_env():
    env = run_env()
    if os.path.isdir("/usr/local/cuda/bin"):
        env["PATH"] = env["PATH"] + os.pathsep + "/usr/local/cuda/bin"
    env.pop("Kokkos_ROOT", None)
    env.pop("CXX", None)
    return env


def gpu_ready(backend, env):
    """'' when the backend's compiler and Kokkos install are there, else why not."""
    comp, kroot, need = GPU_TARGETS[backend]
    if not shutil.which(comp, path=env["PATH"]):
        return f"{comp} not found on PATH: install {need}, then run scripts/setup.sh"
    cfg = os.path.join(kroot, "include", "KokkosCore_config.h")
    try:
        with open(cfg, encoding="utf-8", errors="replace") as f:
            has = f"#define KOKKOS_ENABLE_{backend.upper()}\n" in f.read()
    except OSError:
        return f"no Kokkos install at {rel(kroot)} (run scripts/setup.sh)"
    return "" if has else f"the Kokkos at {rel(kroot)} was built without {backend.upper()}"


def gpu_build(ex, backend, outroot, env):
    """pkc build ex for backend into outroot; returns (rc, output, secs, warnings)."""
    stem = os.path.splitext(os.path.basename(ex))[0]
    out_dir = os.path.join(outroot, backend, stem + ".pk")
    os.makedirs(os.path.dirname(out_dir), exist_ok=True)
    rc, out, secs = run([PKC, "build", "--backend", backend, "--kokkos-root",
                         GPU_TARGETS[backend][1], "-j", "1", "-o", out_dir, rel(ex)],
                        env=env, timeout=1200)
    hits = []
    for log in glob.glob(os.path.join(out_dir, f"build-{backend}", "**", "*.log"), recursive=True):
        with open(log, encoding="utf-8", errors="replace") as f:
            hits += [l.rstrip() for l in f if WARNING_RE.search(l)]
    so = os.path.join(out_dir, f"{stem}.{backend}.so")
    if rc == 0 and not os.path.exists(so):
        rc, out = 1, out + f"\nno {so}"
    return rc, out, secs, hits


def group_gpu_compile(res):
    if not os.access(PKC, os.X_OK):
        res.fail("gpu-compile", "build/bin/pkc is missing (run `make` first)")
        return
    exs = example_files()
    if not exs:
        res.fail("gpu-compile", "no examples/*.py")
        return
    # device-side code the examples lack: the Python-error flag (__device__
    # int, read after a fence) and the power-of-two team of a nested scan
    exs += [os.path.join(ROOT, "tests", "features", f)
            for f in ("feat_python_errors.py", "feat_scan_nested.py")]
    env = gpu_env()
    outroot = os.path.join(ROOT, "build", "gpu-compile")
    jobs = []
    for backend in GPU_TARGETS:
        why = gpu_ready(backend, env)
        if why:
            res.fail(f"gpu-compile/{backend}", why)
        else:
            jobs += [(backend, ex) for ex in exs]
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futs = {pool.submit(gpu_build, ex, b, outroot, env): (b, ex) for b, ex in jobs}
        for fut in concurrent.futures.as_completed(futs):
            backend, ex = futs[fut]
            rc, out, secs, hits = fut.result()
            name = f"gpu-compile/{backend}/{os.path.splitext(os.path.basename(ex))[0]}"
            if rc != 0:
                res.fail(name, f"pkc build: {status_text(rc)} ({secs:.0f} s)", out)
            else:
                res.check(name, not hits, f"{len(hits)} compiler warning(s)", "\n".join(hits))
    if jobs:
        print(f"gpu-compile: {len(jobs)} builds in {time.monotonic() - t0:.0f} s", flush=True)
    if not gpu_ready("cuda", env):
        check_flat_registers(res, env, outroot)


# The flattened rank-3 MDRange launches on CUDA (impl::flat_for3) are
# memory-bound: past 32 registers a thread, fewer than 2048 threads fit on
# an SM (sm_90: 65536 registers) and every such launch slows down (a change
# to flat_for3 that took a copy from 22 to 36 registers made 128^3 Jacobi
# steps 12% slower on an H200, docs/PERFORMANCE.md).
FLAT_REGISTERS_MAX = 32


def check_flat_registers(res, env, outroot):
    """tests/api/kern_send3.py (a 3-D update and copy under MDRangePolicy)
    built for CUDA with ptxas' report: every flat_for3 kernel within
    FLAT_REGISTERS_MAX registers."""
    src = os.path.join(ROOT, "tests", "api", "kern_send3.py")
    renv = dict(env, CXXFLAGS="-Xptxas=-v")
    rc, out, secs, hits = gpu_build(src, "cuda", os.path.join(outroot, "registers"), renv)
    name = "gpu-compile/cuda/flat-registers"
    if rc != 0:
        res.fail(name, f"pkc build: {status_text(rc)} ({secs:.0f} s)", out)
        return
    log = os.path.join(outroot, "registers", "cuda", "kern_send3.pk", "build-cuda",
                       "pkc-build.log")
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        res.fail(name, f"no ptxas report: {e}")
        return
    used, entry = {}, None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            entry = m.group(1)
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and entry and "flat_for3" in entry:
            k = re.search(r"pkc_kern_send3(\d+)", entry)   # <length><name> (mangled)
            used[entry[k.end():k.end() + int(k.group(1))] if k else entry] = int(m.group(1))
            entry = None
    over = {k: n for k, n in used.items() if n > FLAT_REGISTERS_MAX}
    res.check(name, len(used) >= 2 and not over,
              f"flat_for3 registers {used or 'not reported'} (at most {FLAT_REGISTERS_MAX})",
              text[-3000:])


# --- g. install: make install and its users ----------------------------------

def group_install(res):
    """tests/install/test_*.py: the staged install, used by a CMake project
    (pkc_add_module, pkc::pkcrt), the installed shim, pkg-config and pip."""
    group_shim(res, "install")


# --- main -----------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="comma-separated groups: " + ",".join(GROUPS))
    ap.add_argument("--backend", default="", help="comma-separated backends (default openmp,serial)")
    ap.add_argument("--clean", action="store_true", help="delete examples/*.pk first (cold builds)")
    args = ap.parse_args()
    groups = [g for g in args.only.split(",") if g] or GROUPS
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        ap.error(f"unknown group(s) {unknown}; choose from {GROUPS}")
    backends = [b for b in args.backend.split(",") if b] or BACKENDS
    res = Results()
    for g in groups:
        print(f"== {g}", flush=True)
        if g == "unit":
            group_unit(res)
        elif g == "diagnostics":
            group_diagnostics(res)
        elif g == "examples":
            group_examples(res, backends, args.clean)
        elif g == "features":
            group_features(res, backends)
        elif g == "compat":
            group_compat(res, backends)
        elif g == "c_host":
            group_c_host(res)
        elif g == "shim":
            group_shim(res)
        elif g == "api":
            group_shim(res, "api")
        elif g == "annotate":
            group_shim(res, "annotate")
        elif g == "gpu-compile":
            group_gpu_compile(res)
        elif g == "install":
            group_install(res)
        elif g == "kokkos4":
            group_kokkos4(res)
        elif g == "sanitize":
            group_sanitize(res)
    print(f"{res.passed} passed, {res.failed} failed", flush=True)
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
