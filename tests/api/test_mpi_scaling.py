"""Issue 25 item 1: bench/mpi/jacobi_scaling.py in its quick mode, with 1
and 2 ranks on the host: every case (Jacobi 2-D and 3-D, weak and strong,
overlap off and on) is verified on every rank (ghost faces against a known
field, sampled planes of one step against numpy) and timed as the median of
fenced blocks after warm-up, with the halo exchange timed alone in the same
run; the driver's table carries an efficiency per case."""
import os
import re
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BENCH = os.path.join(ROOT, "bench", "mpi", "jacobi_scaling.py")
MPIRUN = shutil.which("mpirun")


def env():
    e = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"),
             OMP_NUM_THREADS="1", PKC_BACKEND="openmp")
    e["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + e.get("PATH", "")
    return e


@unittest.skipIf(MPIRUN is None, "mpirun not installed (scripts/setup.sh installs openmpi-bin)")
class QuickScaling(unittest.TestCase):
    @classmethod
    def setUpClass(cls):   # built once before the ranks start
        subprocess.run([os.path.join(ROOT, "build", "bin", "pkc"), "build", "-q", BENCH],
                       check=True, env=env(), timeout=300)
        cls.r = subprocess.run([sys.executable, BENCH, "--quick", "--ranks", "1,2"],
                               capture_output=True, text=True, env=env(), timeout=300)

    def worker(self, *flags):
        """The CASE lines of the worker on 2 ranks (quick mode), one per case
        and overlap: 8, or the test fails with the ranks' output."""
        r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
                            sys.executable, BENCH, "--worker", "--quick", *flags],
                           capture_output=True, text=True, env=env(), timeout=300)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        lines = [ln for ln in r.stdout.splitlines() if ln.startswith("CASE ")]
        self.assertEqual(len(lines), 8, r.stdout)
        return lines

    def test_passes_and_verifies_every_case(self):
        out = self.r.stdout + self.r.stderr
        self.assertEqual(self.r.returncode, 0, out)
        self.assertIn("jacobi_scaling: verification PASSED", out)
        rows = [ln for ln in self.r.stdout.splitlines() if re.match(r"\| \dD (weak|strong)", ln)]
        names = sorted((ln.split("|")[1].split("(")[0].strip(), ln.split("|")[2].strip())
                       for ln in rows)
        want = sorted((f"{d}D {m}", o) for d in (2, 3) for m in ("weak", "strong")
                      for o in ("off", "on"))
        self.assertEqual(names, want, out)
        for ln in rows:
            cells = [c.strip() for c in ln.strip("|").split("|")]
            t1, t2, eff, halo_ms = float(cells[2]), float(cells[3]), cells[4], float(cells[5])
            self.assertGreater(t1, 0, ln)
            self.assertGreater(t2, 0, ln)
            self.assertGreater(halo_ms, 0, ln)
            self.assertRegex(eff, r"^\d+%$", ln)
            self.assertEqual(cells[-1], "yes", ln)

    def test_worker_lines_report_a_median_and_the_halo_share(self):
        # the worker of 2 ranks: one CASE line per case and overlap
        lines = self.worker()
        for ln in lines:
            self.assertIn("ranks=2", ln)
            self.assertRegex(ln, r"ms_per_iter=\d+\.\d+ \| halo_ms=\d+\.\d+ \| halo_share=\d+%")
            self.assertTrue(ln.endswith("verified"), ln)

    def test_slabs_put_every_rank_along_the_slowest_dimension(self):
        # --slabs: the 3-D grids split along the dimension whose faces are
        # contiguous (the first on a host backend, LayoutRight), so each
        # rank has two neighbours at most; 2-D grids keep MPI's split
        lines = self.worker("--slabs")
        for ln in lines:
            self.assertIn("| copy=split |", ln)   # the default
            if ln.startswith("CASE 3D"):
                self.assertRegex(ln, r"^CASE 3D slabs (weak|strong) .*\| dims=2x1x1 \|")
            else:
                self.assertIn("| dims=2x1 |", ln)
            self.assertTrue(ln.endswith("verified"), ln)
        weak = next(ln for ln in lines if ln.startswith("CASE 3D slabs weak"))
        self.assertIn("| grid=32x16x16 |", weak)   # 16^3 per rank, stacked along dimension 0

    def test_graph_replay_is_checked_and_timed(self):
        # --graph: the step replayed through pk.Graph (plain calls here) must
        # equal the plain steps bitwise on every rank, and is timed alone
        lines = self.worker("--graph")
        for ln in lines:
            self.assertRegex(ln, r"graph_ms=\d+\.\d+ \(plain\)")
            self.assertTrue(ln.endswith("verified"), ln)

    def test_copy_in_one_launch(self):
        # --copy one: the overlapped step's copy back as one launch, the
        # steps verified against numpy and replayed steps against plain ones
        # on both ranks, as with the default split copy
        lines = self.worker("--slabs", "--graph", "--copy", "one")
        for ln in lines:
            self.assertIn("| copy=one |", ln)
            self.assertTrue(ln.endswith("verified"), ln)



class GraphColumns(unittest.TestCase):
    def test_replayed_step_at_one_and_n_ranks_and_its_efficiency(self):
        # table(): the replayed step of the same run at 1 and N ranks, and
        # their ratio as weak (t1/tN) or strong (t1/(N tN)) efficiency
        sys.path.insert(0, os.path.dirname(BENCH))
        try:
            import jacobi_scaling as js
        finally:
            sys.path.pop(0)

        def row(name, ms, graph):
            return {"name": name, "overlap": "off", "grid": "8x8x8", "ms": ms, "halo_ms": 0.01,
                    "share": "10%", "verified": True, "graph": graph}

        results = {1: [row("3D weak", 0.040, "0.0340 (cuda-graph)"),
                       row("3D strong", 0.080, "0.0800 (cuda-graph)")],
                   4: [row("3D weak", 0.200, "0.0500 (cuda-graph)"),
                       row("3D strong", 0.050, "0.0250 (cuda-graph)")]}
        text = js.table(results, [1, 4])
        lines = text.splitlines()
        self.assertIn("graph ms/it (1) | graph ms/it (4) | graph efficiency |", lines[0])
        self.assertEqual(lines[1].count("|---"), lines[0].count("|") - 1, text)
        weak = [c.strip() for c in lines[2].strip("|").split("|")]
        strong = [c.strip() for c in lines[3].strip("|").split("|")]
        self.assertEqual(weak[4], "20%")   # plain steps: 0.040 / 0.200
        self.assertEqual(weak[-4:], ["0.0340 (cuda-graph)", "0.0500 (cuda-graph)", "68%", "yes"])
        self.assertEqual(strong[-2], "80%")   # 0.0800 / (4 * 0.0250)


@unittest.skipIf(MPIRUN is None, "mpirun not installed (scripts/setup.sh installs openmpi-bin)")
class StepShapes(unittest.TestCase):
    def test_every_shape_replays_as_plain_steps(self):
        """bench/mpi/step_shapes.py (the overlapped step taken apart, one
        rank, periodic along the slab dimension: a rank its own neighbour):
        every shape, replayed through pk.Graph, equals as many plain steps
        (on the host the replay's fallback; on CUDA a captured graph), and
        is timed against the plain step."""
        r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "1",
                            sys.executable, os.path.join(ROOT, "bench", "mpi", "step_shapes.py"),
                            "--n", "8", "--blocks", "2", "--iters", "2", "--transport", "auto"],
                           capture_output=True, text=True, env=env(), timeout=300)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        shapes = re.findall(r"^(\S+)\s+graph\s+([\d.]+) us/step", r.stdout, re.M)
        self.assertEqual([s for s, _ in shapes],
                         ["plain", "split", "shape", "shape1", "self", "self1", "self-off"],
                         r.stdout)
        self.assertTrue(all(float(t) > 0 for _, t in shapes), r.stdout)
        # each shape as captured, and those with an exchange without gated launches too
        checked = len(shapes) + sum(s.startswith("self") for s, _ in shapes)
        self.assertEqual(r.stdout.count("replay bitwise equal to plain steps"), checked,
                         r.stdout)


if __name__ == "__main__":
    unittest.main()
