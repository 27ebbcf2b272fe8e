"""bench/peers/run.py --threads 1,2,4,8,16: thread scaling of pkc and Numba.

Kokkos reads OMP_NUM_THREADS once, when it starts, so each count runs
run.py in a child process of its own (the same arguments, one count, the
import and first-call rows left out, its table written to last_run_T<n>.md
beside --md) and this prints one table: a row per kernel, a column per
count, each cell "pkc ms / Numba ms (pkc/Numba per rep)"; then, with
--bounds-check, the same for "pkc checked / pkc". Counts above the machine's
cores are skipped, and the output says so."""
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

from common import fmt_t, log

HERE = os.path.dirname(os.path.abspath(__file__))


def child_args(argv, threads, json_path, md_path):
    """argv (run.py's) with --threads, --json, --md replaced and the
    first-call rows skipped."""
    out, skip_next = [], False
    for a in argv:
        if skip_next:
            skip_next = False
            continue
        name = a.split("=", 1)[0]
        if name in ("--threads", "--json", "--md", "--skip", "--time-limit"):
            skip_next = "=" not in a
            continue
        out.append(a)
    skip = "first"
    for a in argv:   # keep what the caller skipped too
        if a.startswith("--skip="):
            skip += "," + a.split("=", 1)[1]
    if "--skip" in argv and argv.index("--skip") + 1 < len(argv):
        skip += "," + argv[argv.index("--skip") + 1]
    return out + ["--threads", str(threads), "--json", json_path, "--md", md_path, "--skip", skip]


def cell(row, base, other):
    """'a / b (per rep)' for the times of row's contenders base and other."""
    m, u = row["med"], row["unit"]
    if m.get(base) is None:
        return "n/a"
    if m.get(other) is None:
        return f"{fmt_t(m[base], u)} / n/a"
    return f"{fmt_t(m[base], u)} / {fmt_t(m[other], u)} ({row['spread']})"


def checked_cell(row):
    c = row.get("checked")
    if not c:
        return "n/a"
    return f"{fmt_t(c[0], row['unit'])} / {fmt_t(row['med']['pkc'], row['unit'])} ({c[1]})"


def table(results, counts, make_cell):
    names = []
    for r in results.values():
        for row in r["rows"]:
            if row["name"] not in names:
                names.append(row["name"])
    lines = ["| kernel | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in counts) + " |",
             "|---|" + "---|" * len(counts)]
    for name in names:
        cells = []
        for t in counts:
            row = next((x for x in results.get(t, {"rows": []})["rows"] if x["name"] == name), None)
            cells.append(make_cell(row) if row else "not run" if t not in results else "failed")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(args, argv):
    cores = os.cpu_count() or 1
    counts = [t for t in args.threads if t <= cores]
    skipped = [t for t in args.threads if t > cores]
    notes = []
    if skipped:
        notes.append(f"Skipped {', '.join(map(str, skipped))} threads: this machine has {cores} cores.")
        log("# " + notes[-1])
    if args.md is None:
        args.md = os.path.join(HERE, "last_run_threads.md")
    md_dir = os.path.dirname(os.path.abspath(args.md)) if args.md else tempfile.mkdtemp()
    os.makedirs(md_dir, exist_ok=True)
    load0 = os.getloadavg()[0]
    results, failed = {}, []
    t_end = time.time() + args.time_limit if args.time_limit else None
    for t in sorted(counts, reverse=True):   # the whole machine first: it matters most
        left = t_end - time.time() if t_end else None
        if left is not None and left < 10:
            failed.append(t)
            notes.append(f"{t} threads: not run (under 10 s left of --time-limit {args.time_limit:g} s).")
            continue
        jp = os.path.join(tempfile.gettempdir(), f"pkc-peers-{os.getpid()}-{t}.json")
        md = os.path.join(md_dir, f"last_run_T{t}.md")
        cmd = [sys.executable, os.path.join(HERE, "run.py")] + child_args(argv, t, jp, md)
        log(f"# --- {t} thread(s): {' '.join(cmd[1:])}")
        try:
            p = subprocess.run(cmd, timeout=left, stdout=sys.stderr.fileno())   # tables: the .md files
        except subprocess.TimeoutExpired:
            failed.append(t)
            notes.append(f"{t} threads: stopped at the --time-limit of {args.time_limit:g} s.")
            continue
        if p.returncode != 0 or not os.path.exists(jp):
            failed.append(t)
            notes.append(f"{t} threads: run.py failed (exit {p.returncode}); see its output above.")
            continue
        with open(jp) as f:
            results[t] = json.load(f)
        os.unlink(jp)
    out = ["Thread scaling: each cell is pkc / Numba, medians in the row's unit (ms; us/call "
           "for the trivial launch), then the median (quartiles) of pkc/Numba per repetition "
           "(< 1: pkc faster). One process per thread count; OMP_PROC_BIND=spread, "
           "OMP_PLACES=threads. Full tables: last_run_T<n>.md.", "",
           table(results, counts, lambda r: cell(r, "pkc", "numba"))]
    if args.bounds_check:
        out += ["", "Bounds checks (`pkc build --bounds-check`, what PKC_BOUNDS_CHECK=1 selects): "
                "pkc checked / pkc, medians, then the median (quartiles) of checked/pkc per "
                "repetition.", "", table(results, counts, checked_cell)]
    notes.append(f"Load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end "
                 f"({cores} cores).")
    out += [""] + notes
    text = "\n".join(out)
    print()
    print(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(f"# bench/peers: thread scaling, pkc vs Numba\n\n`run.py {' '.join(argv)}` on "
                    f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}, {cores} cores\n\n"
                    + text + "\n")
        log(f"# wrote {args.md}")
    return 1 if failed else 0
