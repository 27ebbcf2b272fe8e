#!/usr/bin/env python3
"""File-level call cycles of pkc's C sources, from `nm` of the built objects.

Reads build/obj/{cmd,frontend,ir,backends}/*.o (run `make` first; run it from
the repository root). File A
calls file B when A references (nm: U) a symbol B defines (T, D, B, R, ...).
Prints, per directory, the strongly connected components of that directory's
files with more than one file (files that call each other in a circle,
directly or through other files of the directory), then the components of the
whole graph that span directories, and a summary line
"cycles: DIR N files, ...". A smaller number is a better layering.

--exports lists the functions defined in one object that no other object,
no unit test or fuzz target (tests/unit, tests/fuzz) and no public header
(frontend.h, ir.h, backends.h: API) names: they should be `static`.

Usage: /usr/bin/python3 scripts/file_cycles.py [--build DIR] [--exports]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

DIRS = ("cmd", "frontend", "ir", "backends")
# The layers' public interfaces: what they declare is API even when unused.
PUBLIC_HEADERS = ("frontend/frontend.h", "ir/ir.h", "backends/backends.h")


def symbols(obj):
    """(defined globals, undefined) of one object, from `nm -P`."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper() and kind not in "NW":
            defined.add(name)
    return defined, undefined


def load(build):
    """{file: (defined, undefined)} for every object of the compiler."""
    objs = {}
    for d in DIRS:
        for o in sorted(glob.glob(os.path.join(build, "obj", d, "*.o"))):
            src = os.path.join(d, os.path.basename(o)[:-2] + ".c")
            if os.path.exists(src):  # not the object of a source since removed
                objs[src] = symbols(o)
    if not objs:
        sys.exit(f"file_cycles: no objects under {build}/obj (run make)")
    return objs


def call_graph(objs):
    """{file: set of files it calls}."""
    owner = {}
    for f, (defined, _) in objs.items():
        for s in defined:
            owner[s] = f
    return {f: {owner[s] for s in und if s in owner and owner[s] != f}
            for f, (_, und) in objs.items()}


def components(graph):
    """Strongly connected components (Tarjan, iterative), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def report_cycles(graph):
    summary = []
    for d in DIRS:
        sub = {f: {g for g in calls if g.startswith(d + "/")}
               for f, calls in graph.items() if f.startswith(d + "/")}
        comps = [c for c in components(sub) if len(c) > 1]
        for c in comps:
            print(f"{d}: {len(c)} files: " + " ".join(os.path.basename(f) for f in c))
        summary.append(f"{d} " + ("+".join(str(len(c)) for c in comps) or "0"))
    for c in components(graph):
        if len(c) > 1 and len({f.split("/")[0] for f in c}) > 1:
            print(f"across directories: {len(c)} files: " + " ".join(c))
    print("cycles (files per component): " + ", ".join(summary))


def report_exports(objs):
    used = set()
    for _, und in objs.values():
        used |= und
    text = ""
    for t in (glob.glob("tests/unit/*.[ch]") + glob.glob("tests/fuzz/*.c") +
              list(PUBLIC_HEADERS)):
        with open(t, encoding="utf-8") as fh:
            text += fh.read()
    for f, (defined, _) in sorted(objs.items()):
        for s in sorted(defined - used):
            if s != "main" and not re.search(r"\b%s\b" % re.escape(s), text):
                print(f"{f}: {s}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the build directory (default build)")
    ap.add_argument("--exports", action="store_true",
                    help="list functions no other file or unit test references")
    args = ap.parse_args()
    objs = load(args.build)
    if args.exports:
        report_exports(objs)
    else:
        report_cycles(call_graph(objs))


if __name__ == "__main__":
    main()
