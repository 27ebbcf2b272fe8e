#!/usr/bin/env python3
"""Mutation fuzzer for pkc (not run by `make test`).

Mutates examples/*.py and tests/diagnostics/**/*.py (line deletion/duplication,
token swaps int<->float, + <-> //, View1D<->View2D, dropped annotations,
indentation changes, truncation) and runs `pkc check` and `pkc emit` on each
mutant. A sanitizer report, signal or timeout is a bug. With --gxx, mutants
that `pkc check` accepts are emitted and compiled with g++ -fsyntax-only
(errors and warnings are bugs). --rename N instead renames bound names
(defs, classes, parameters, locals, self.members) of valid files to C++
keywords/macros/generated names, emits and compiles N such variants.
Failing mutants are written to OUT/.

usage:
  make B=/tmp/asan CFLAGS='-O1 -g -fsanitize=address,undefined' /tmp/asan/bin/pkc
  /usr/bin/python3 tests/fuzz_pkc.py --pkc /tmp/asan/bin/pkc -n 2000 [--gxx 200]
      [--seed 1] [--out /tmp/pkcfuzz] [--rename 100]
"""
import argparse, ast, glob, os, random, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KOKKOS = os.path.join(ROOT, ".deps/kokkos-openmp/include")
SWAPS = [("int", "float"), ("float", "int"), ("+", "//"), ("//", "+"),
         ("View1D", "View2D"), ("View2D", "View1D"), ("View2D", "View3D"),
         ("pk.double", "pk.int32"), ("pk.int32", "pk.double"), ("*", "/"),
         ("range", "len"), ("0", "0.5"), ("1", "-1"), ("==", "="), ("[", "("),
         ("]", ")"), ("i", "j"), ("self.", ""), ("acc", "i"), ("return", "pass"),
         ("TeamThreadRange", "ThreadVectorRange"), ("<", "<<"), ("and", "&"),
         ("True", "None"), ("0", "x"), (":", ""), ("(", "(("), (", ", ", , ")]


CXX_NAMES = ["new", "delete", "int", "auto", "errno", "M_PI", "INT64_C", "KOKKOS_X", "linux",
             "pkc_result", "f", "kernel", "args", "policy", "err", "errlen", "begin", "end",
             "value", "tag", "operator", "this", "Kokkos", "std", "printf", "NULL", "EOF",
             "INFINITY", "stdout", "main", "pkc", "double", "template", "union", "x_tag",
             "__x", "_Y", "size_t", "int64_t", "unix", "DBL_MAX", "PKC_EXPORT", "team",
             "result", "final", "acc", "m", "i", "self_v", "assert_", "default", "private"]


def rename(text, rng):
    """Renames one or more bound names of a valid file to C++-hostile names."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    bound = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            bound.add(n.name)
        elif isinstance(n, ast.arg) and n.arg != "self":
            bound.add(n.arg)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            bound.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and \
                n.value.id == "self" and isinstance(n.ctx, ast.Store):
            bound.add(n.attr)
    bound -= {"main", "self", "_"}
    if not bound:
        return None
    words = set(re.findall(r"\w+", text))
    for old in rng.sample(sorted(bound), min(len(bound), rng.randint(1, 3))):
        new = rng.choice(CXX_NAMES)
        if new not in words:
            text = re.sub(r"\b%s\b" % re.escape(old), new, text)
            words.add(new)
    return text


def mutate(lines, rng):
    """Return a mutated copy of lines (1-3 random edits)."""
    out = list(lines)
    for _ in range(rng.randint(1, 3)):
        if not out:
            break
        k = rng.randrange(len(out))
        op = rng.randrange(8)
        if op == 0:
            del out[k]
        elif op == 1:
            out.insert(k, out[k])
        elif op == 2:
            a, b = rng.choice(SWAPS)
            idx = [m.start() for m in re.finditer(re.escape(a), out[k])]
            if idx:
                p = rng.choice(idx)
                out[k] = out[k][:p] + b + out[k][p + len(a):]
        elif op == 3:
            out[k] = re.sub(r"(\w+)\s*:\s*[\w.\[\]\"]+(?=\s*[,)=])", r"\1", out[k], count=1)
        elif op == 4:
            out[k] = rng.choice(["    ", "  ", "\t", ""]) + out[k]
        elif op == 5:
            out[k] = out[k].lstrip()
        elif op == 6:
            out = out[:k]
        else:
            j = rng.randrange(len(out))
            out[k], out[j] = out[j], out[k]
    if rng.random() < 0.05 and out:
        s = "\n".join(out)
        out = [s[:rng.randrange(len(s))]]
    return out


def run(cmd, timeout=2):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           env=env, errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""
    err = p.stderr
    if p.returncode < 0 or "Sanitizer" in err or "runtime error" in err:
        return "crash(rc=%d)" % p.returncode, err
    return p.returncode, err


def gxx(outdir, stem):
    cpp = os.path.join(outdir, stem + ".cpp")
    cmd = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-idirafter", outdir,
           "-I" + KOKKOS, "-fopenmp", "-DPKC_BACKEND_OPENMP",
           '-DPKC_BACKEND_NAME="openmp"', cpp]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    bad = p.returncode != 0 or "warning:" in p.stderr
    return bad, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pkc", default=os.path.join(ROOT, "build/bin/pkc"))
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--gxx", type=int, default=0, help="max accepted mutants to compile")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/pkcfuzz")
    ap.add_argument("--rename", type=int, default=0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    srcs = sorted(glob.glob(os.path.join(ROOT, "examples/*.py")) +
                  glob.glob(os.path.join(ROOT, "tests/diagnostics/**/*.py"), recursive=True))
    os.makedirs(a.out, exist_ok=True)
    seen, bugs, compiled = set(), 0, 0
    work = tempfile.mkdtemp(prefix="pkcfz")
    for n in range(a.n):
        src = rng.choice(srcs)
        if a.rename:
            text = rename(open(src).read(), rng)
            if text is None:
                continue
        else:
            text = "\n".join(mutate(open(src).read().split("\n"), rng))
        if text in seen:
            continue
        seen.add(text)
        stem = "m%05d" % n
        path = os.path.join(work, stem + ".py")
        with open(path, "w") as f:
            f.write(text)
        rc, err = run([a.pkc, "check", path])
        what = None
        if not isinstance(rc, int):
            what = "check " + rc
        else:
            od = os.path.join(work, stem + ".pk")
            rc2, err2 = run([a.pkc, "emit", path, "-o", od])
            if not isinstance(rc2, int):
                what, err = "emit " + rc2, err2
            elif rc == 0 and rc2 != 0:
                what, err = "check ok but emit failed", err2
            elif rc == 0 and compiled < max(a.gxx, a.rename) and \
                    (a.rename or rng.random() < 0.5 or n % 3 == 0):
                compiled += 1
                bad, err = gxx(od, stem)
                if bad:
                    what = "g++ rejects"
            subprocess.run(["rm", "-rf", od])
        if what:
            bugs += 1
            dst = os.path.join(a.out, "%s_%s.py" % (stem, os.path.basename(src)[:-3]))
            with open(dst, "w") as f:
                f.write(text)
            with open(dst + ".log", "w") as f:
                f.write(what + "\n" + err)
            print("%s: %s (from %s)" % (dst, what, os.path.relpath(src, ROOT)), flush=True)
        os.unlink(path)
    print("mutants %d, compiled %d, failures %d" % (len(seen), compiled, bugs))
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
