"""Several ranks (issue 10) on the host: pykokkos.mpi.Halo, Views in mpi4py
calls and allreduce of reductions, run with 1 and 2 ranks through mpirun
(tests/api/mpi_halo_prog.py); the rank binding the shim derives from the MPI
launcher's environment (device per rank, threads per rank)."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime-shim", "python"))
from pykokkos import _spaces  # noqa: E402

MPIRUN = shutil.which("mpirun")


def env():
    e = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "runtime-shim", "python"),
             OMP_NUM_THREADS="1", PKC_BACKEND="openmp")
    e["PATH"] = os.path.join(ROOT, "build", "bin") + os.pathsep + e.get("PATH", "")
    return e


def ranks_ok(test, prog, n, environ):
    """Runs prog OUT on n ranks (mpirun, environment environ) and asserts that
    every rank k wrote "OK" to OUT/rank<k>.txt (test: the TestCase)."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(n),
               sys.executable, prog, out]
        r = subprocess.run(cmd, capture_output=True, text=True, env=environ, timeout=300)
        test.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        got = {}
        for k in range(n):
            with open(os.path.join(out, f"rank{k}.txt")) as f:
                got[k] = f.read().strip()
    test.assertEqual(got, {k: "OK" for k in range(n)}, r.stdout + r.stderr)


@unittest.skipIf(MPIRUN is None, "mpirun not installed (scripts/setup.sh installs openmpi-bin)")
class Ranks(unittest.TestCase):
    def run_ranks(self, n):
        ranks_ok(self, os.path.join(HERE, "mpi_halo_prog.py"), n, env())

    def test_one_rank(self):
        self.run_ranks(1)

    def test_two_ranks(self):
        self.run_ranks(2)

    def test_two_ranks_through_host_memory(self):
        """transport='mpi' (here from PKC_HALO_TRANSPORT) stages the faces
        through host memory on every backend: the same ghosts."""
        ranks_ok(self, os.path.join(HERE, "mpi_halo_prog.py"), 2,
                 dict(env(), PKC_HALO_TRANSPORT="mpi"))


class NvshmemSlots(unittest.TestCase):
    """The NVSHMEM transport's receive buffers (pykokkos._nvshmem.slot_layout):
    the same offsets on every rank, one region per (dimension, side, whole
    face or owned cells), disjoint, aligned, each large enough for the face
    of every rank's View."""

    def check(self, shapes, width):
        from pykokkos._nvshmem import slot_layout
        from pykokkos.mpi import Halo
        offsets, sizes, total = slot_layout(shapes, width, 8)
        nd = len(shapes[0])
        self.assertEqual(len(offsets), nd * 4)
        spans = sorted((off, off + sizes[(d, full)] * 8)
                       for (d, side, full), off in offsets.items())
        for (a0, a1), (b0, _) in zip(spans, spans[1:]):
            self.assertLessEqual(a1, b0)                  # disjoint
        self.assertLessEqual(spans[-1][1], total)
        self.assertTrue(all(off % 256 == 0 for off, _ in spans))
        for shape in shapes:   # the receive slabs Halo itself cuts, for every rank
            fake = type("H", (), {"width": width, "view": np.empty(shape)})()
            for d in range(nd):
                for which in ("recv_lo", "recv_hi"):
                    for full in (True, False):
                        n = np.empty(shape)[Halo._slab(fake, d, which, full)].size
                        self.assertLessEqual(n, sizes[(d, full)], (shape, d, which, full))
        self.assertEqual(slot_layout(shapes[::-1], width, 8)[0], offsets)   # rank order

    def test_uneven_3d_blocks(self):
        self.check([(10, 12, 9), (11, 12, 9), (10, 13, 9), (11, 13, 8)], 1)

    def test_2d_width_two(self):
        self.check([(14, 20), (15, 20), (14, 21)], 2)


class DirectGhostBoxes(unittest.TestCase):
    """The direct NVSHMEM exchange stores a face straight into the
    neighbour's View (pykokkos.mpi._ghost_corner): the box it fills there must
    be the very receive slab the neighbour's own Halo cuts for that face,
    for neighbours of different extents along the split dimension."""

    def test_each_face_lands_on_the_neighbours_receive_slab(self):
        from pykokkos.mpi import Halo, _ghost_corner

        def halo(shape, width):
            return type("H", (), {"width": width, "view": np.empty(shape)})()

        def box(h, idx):
            return Halo._box(h, idx)

        for mine, theirs, width in [((12, 10, 9), (11, 10, 9), 1), ((14, 20), (15, 20), 2),
                                    ((10, 9, 13), (10, 9, 12), 1)]:
            me, nb = halo(mine, width), halo(theirs, width)
            for d in range(len(mine)):
                if mine[:d] + mine[d + 1:] != theirs[:d] + theirs[d + 1:]:
                    continue   # neighbours along d share the other extents
                for full in (True, False):
                    for tag, send, recv in ((2 * d, "send_lo", "recv_hi"),
                                            (2 * d + 1, "send_hi", "recv_lo")):
                        lo, ext = box(me, Halo._slab(me, d, send, full))
                        want_lo, want_ext = box(nb, Halo._slab(nb, d, recv, full))
                        self.assertEqual(_ghost_corner(lo, tag, theirs, width), want_lo,
                                         (mine, theirs, d, full, tag))
                        self.assertEqual(ext, want_ext)


@unittest.skipIf(MPIRUN is None, "mpirun not installed (scripts/setup.sh installs openmpi-bin)")
class RankFailure(unittest.TestCase):
    """Issue 22 items 11, 12 (tests/api/mpi_fail_prog.py, 2 ranks): a failing
    rank ends the job (the 30 s limit only guards against the hang it used
    to be); a Halo over mismatched Views raises the same error everywhere."""
    PROG = os.path.join(HERE, "mpi_fail_prog.py")

    @classmethod
    def setUpClass(cls):   # the module of the 'exit' mode, built before any rank runs
        subprocess.run([os.path.join(ROOT, "build", "bin", "pkc"), "build", "-q", cls.PROG],
                       check=True, env=env(), timeout=300)

    def ranks(self, *args):
        cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
               sys.executable, self.PROG, *args]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env(), start_new_session=True)
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)   # mpirun and the ranks it left waiting
            out, err = p.communicate()
            self.fail(f"the job did not end within 30 s:\n{out}{err}")
        return subprocess.CompletedProcess(cmd, p.returncode, out, err)

    def test_uncaught_exception_aborts_the_job(self):
        r = self.ranks("raise")
        self.assertNotEqual(r.returncode, 0)
        out = r.stdout + r.stderr
        self.assertIn("RuntimeError: rank 1 fails on purpose", out)
        self.assertIn("pykokkos.mpi: rank 1 of 2 failed (uncaught RuntimeError", out)

    def test_sys_exit_after_kernels_aborts_the_job(self):
        r = self.ranks("exit")
        self.assertNotEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("pykokkos.mpi: rank 1 of 2 failed (sys.exit(3))", r.stdout + r.stderr)

    def test_halo_mismatch_raises_same_error_on_every_rank(self):
        with tempfile.TemporaryDirectory() as out:
            r = self.ranks("mismatch", out)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            got = []
            for k in range(2):
                with open(os.path.join(out, f"rank{k}.txt")) as f:
                    got.append(f.read().splitlines())
        self.assertEqual(got[0], got[1])
        faces, dtypes, transports, nvshmem, unknown = got[0]
        self.assertIn("ranks 0 and 1 are neighbours along dimension 0 but their Views have "
                      "(8, 8) and (8, 9)", faces)
        self.assertIn("rank 1's View holds float32, rank 0's float64", dtypes)
        self.assertIn("rank 1 asks for transport 'mpi', rank 0 for 'auto': use one transport",
                      transports)
        self.assertIn("rank 0: transport 'nvshmem' moves faces between GPUs and needs the CUDA "
                      "backend (PKC_BACKEND=cuda); this run uses openmp", nvshmem)
        self.assertIn("rank 0: transport 'shmem' is not one of 'auto', 'nccl', 'nvshmem', 'mpi'",
                      unknown)


class RankBinding(unittest.TestCase):
    KEYS = ("OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", "KOKKOS_DEVICE_ID",
            "CUDA_VISIBLE_DEVICES", "OMP_NUM_THREADS", "PKC_NUM_THREADS", "SLURM_LOCALID")

    def setUp(self):
        self.saved = {k: os.environ.get(k) for k in self.KEYS}
        for k in self.KEYS:
            os.environ.pop(k, None)
        self.req = _spaces._requested[0]
        _spaces._requested[0] = None

    def tearDown(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        _spaces._requested[0] = self.req

    def test_cuda_awareness_is_asked_not_assumed(self):
        from mpi4py import MPI
        from pykokkos.mpi import cuda_aware
        saved = getattr(MPI, "Query_cuda_support", None)
        try:
            MPI.Query_cuda_support = lambda: 1
            self.assertTrue(cuda_aware())
            MPI.Query_cuda_support = lambda: 0
            self.assertFalse(cuda_aware())

            def missing():
                raise NotImplementedError
            MPI.Query_cuda_support = missing
            self.assertFalse(cuda_aware())
            del MPI.Query_cuda_support
            self.assertFalse(cuda_aware())   # an mpi4py that cannot ask: not aware
        finally:
            if saved is not None:
                MPI.Query_cuda_support = saved
            elif hasattr(MPI, "Query_cuda_support"):
                del MPI.Query_cuda_support

    def test_device_from_local_rank(self):
        os.environ.update(OMPI_COMM_WORLD_LOCAL_RANK="3", CUDA_VISIBLE_DEVICES="0,1")
        self.assertEqual(_spaces.bind_rank(True), 0)
        self.assertEqual(os.environ["KOKKOS_DEVICE_ID"], "1")

    def test_explicit_device_wins(self):
        os.environ.update(SLURM_LOCALID="1", CUDA_VISIBLE_DEVICES="0,1,2",
                          KOKKOS_DEVICE_ID="2")
        _spaces.bind_rank(True)
        self.assertEqual(os.environ["KOKKOS_DEVICE_ID"], "2")

    def test_threads_per_rank(self):
        cores = len(os.sched_getaffinity(0))
        os.environ.update(OMPI_COMM_WORLD_LOCAL_RANK="0", OMPI_COMM_WORLD_LOCAL_SIZE="2")
        self.assertEqual(_spaces.bind_rank(False), max(1, cores // 2))
        os.environ["OMP_NUM_THREADS"] = "3"
        self.assertEqual(_spaces.bind_rank(False), 0)

    def test_no_launcher(self):
        self.assertEqual(_spaces.bind_rank(False), 0)
        self.assertNotIn("KOKKOS_DEVICE_ID", os.environ)


if __name__ == "__main__":
    unittest.main()
