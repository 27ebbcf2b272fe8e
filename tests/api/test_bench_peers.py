"""Smoke tests of bench/peers/run.py's modes (--quick sizes; no timing is
asserted): every run checks each contender's result against NumPy itself
and exits non-zero on a difference, so exit 0 means the kernels agreed.

  - --threads 1,2,...: one table, a column per thread count, counts above
    the machine's cores skipped and said so (scaling.py);
  - --bounds-check: the "pkc checked" column (a --bounds-check build of
    pk_kernels.py, which run.py asserts raises IndexError);
  - --gpu: skips cleanly without a GPU; with PEERS_GPU_SIMULATE=1 its cases
    run (pkc on OpenMP with untiled MDRange launches, the Numba-CUDA kernels
    in Numba's CUDA simulator) and CuPy, absent here, is n/a with the reason;
  - NumPy without np.row_stack (2.5) gets np.vstack there before numba loads."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEERS = os.path.join(ROOT, "bench", "peers")
RUN = os.path.join(PEERS, "run.py")


def run(args, env=None, timeout=900):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, RUN] + args, env=e, capture_output=True, text=True,
                          timeout=timeout)


def table_row(text, name):
    """The cells of the markdown row whose first cell starts with name."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].startswith(name):
            return cells
    raise AssertionError(f"no row {name!r} in:\n{text}")


def has_gpu():
    return os.path.exists("/dev/nvidiactl")


class PeersModes(unittest.TestCase):
    def test_threads_table(self):
        cores = os.cpu_count() or 1
        with tempfile.TemporaryDirectory() as d:
            md = os.path.join(d, "scaling.md")
            r = run(["--quick", "--only", "nstream,BabelStream dot", "--threads",
                     f"1,{cores},{cores + 1}", "--md", md])
            self.assertEqual(r.returncode, 0, r.stderr[-3000:])
            counts = sorted({1, cores})
            head = "| kernel | " + " | ".join(
                f"{t} thread{'s' if t > 1 else ''}" for t in counts) + " |"
            self.assertIn(head, r.stdout)
            for name in ("nstream", "BabelStream dot"):
                cells = table_row(r.stdout, name)
                self.assertEqual(len(cells), 1 + len(counts), cells)
                for c in cells[1:]:   # "pkc ms / Numba ms (per-rep median (q1-q3))"
                    self.assertRegex(c, r"^\d+\.\d+ / \d+\.\d+ \(\d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\)\)$")
            self.assertIn(f"Skipped {cores + 1} threads: this machine has {cores} cores.", r.stdout)
            with open(md) as f:
                self.assertIn(head, f.read())
            for t in counts:   # each count's full table
                with open(os.path.join(d, f"last_run_T{t}.md")) as f:
                    self.assertIn(f"OMP_NUM_THREADS={t},", f.read())

    def test_bounds_check_column(self):
        r = run(["--quick", "--only", "gather,yAx", "--threads", "1", "--bounds-check", "--md", ""])
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        self.assertIn("| pkc checked | checked/pkc | checked/pkc per rep |", r.stdout)
        for name in ("gather", "yAx"):
            cells = table_row(r.stdout, name)
            self.assertRegex(cells[-3], r"^\d+\.\d+$")        # checked time, ms
            self.assertRegex(cells[-2], r"^\d+\.\d\d$")       # checked / pkc
            self.assertRegex(cells[-1], r"^\d+\.\d\d \(")     # per rep
        self.assertIn("pkc build --bounds-check", r.stdout)

    def test_gpu_mode_skips_without_gpu(self):
        if has_gpu():
            self.skipTest("this machine has an NVIDIA GPU")
        r = run(["--gpu", "--quick", "--md", ""])
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        self.assertIn("GPU mode: skipped, no NVIDIA GPU on this machine", r.stdout)

    def test_gpu_mode_simulated(self):
        r = run(["--gpu", "--quick", "--only", "nstream,copy,dot,stencil,transpose,gather,yAx",
                 "--md", ""], env={"PEERS_GPU_SIMULATE": "1"})
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
        for name in ("nstream", "BabelStream copy", "BabelStream dot", "stencil 2D 5-point (pkc: no tile)",
                     "transpose", "gather", "yAx"):
            cells = table_row(r.stdout, name)
            self.assertRegex(cells[2], r"^\d+\.\d+$", name)    # pkc ms
            self.assertRegex(cells[4], r"^\d+\.\d+$", name)    # Numba-CUDA ms
            self.assertRegex(cells[8], r"^\d+\.\d\d \(", name)  # pkc/Numba-CUDA per rep
        try:
            import cupy  # noqa: F401
        except ImportError:
            self.assertEqual(table_row(r.stdout, "BabelStream copy")[3], "n/a (not imported)")
            self.assertIn("CuPy: n/a, import failed: ModuleNotFoundError", r.stdout)
        self.assertNotIn("FAILED", r.stdout)

    def test_row_stack_for_numba(self):
        code = ("import sys; sys.path.insert(0, %r)\n"
                "import numpy as np\n"
                "if hasattr(np, 'row_stack'): del np.row_stack\n"
                "import common\n"
                "note = common.numba_numpy_fix()\n"
                "assert np.row_stack is np.vstack, 'not set'\n"
                "assert 'np.row_stack = np.vstack' in note, note\n"
                "assert common.numba_numpy_fix() == '', 'second call'\n"
                "print('ok')" % PEERS)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.stdout.strip(), "ok", r.stderr)


if __name__ == "__main__":
    unittest.main()
