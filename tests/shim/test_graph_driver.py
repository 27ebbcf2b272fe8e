"""libpkcrt's CUDA graph functions (runtime-shim/pkcrt_graph.c, behind
pk.Graph) against a fake CUDA driver (tests/shim/fake_cuda.c built as
libcuda.so.1 and found through LD_LIBRARY_PATH): the per-thread default
stream is captured in thread-local mode and replayed count times; a
capture that the driver invalidated, that holds no node or that holds a
memory copy (a Kokkos 3.4 constant-memory launch: replays would read stale
arguments) is refused with a message and nothing is instantiated. Graphs
are instantiated with node priorities where the driver knows them, and the
capture's dependencies (pk.Graph's edges) are read and set on the
per-thread stream."""
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
LIB = os.path.join(REPO, "build", "lib", "libpkcrt.so")

DRIVE = textwrap.dedent("""
    import ctypes, sys
    sys.path.insert(0, sys.argv[2])
    from pykokkos._graph import _bind
    lib = _bind(ctypes.CDLL(sys.argv[1]))
    err = ctypes.create_string_buffer(256)
    print("available", lib.pkr_graph_available(err, 256), err.value.decode())
    print("begin rc", lib.pkr_graph_begin(err, 256))
    g = lib.pkr_graph_end(err, 256)
    print("graph", bool(g), "nodes", lib.pkr_graph_nodes(g), "err", err.value.decode())
    if g:
        print("launch rc", lib.pkr_graph_launch(g, 3, err, 256))
        print("sync rc", lib.pkr_graph_sync(err, 256))
        lib.pkr_graph_destroy(g)
""")


@unittest.skipIf(shutil.which("cc") is None, "no C compiler")
class FakeDriver(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        subprocess.check_call(["make", "-s", "-C", REPO, "build/lib/libpkcrt.so"])
        cls.tmp = tempfile.mkdtemp()
        subprocess.check_call(["cc", "-shared", "-fPIC", "-o",
                               os.path.join(cls.tmp, "libcuda.so.1"),
                               os.path.join(HERE, "fake_cuda.c")])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_script(self, script):
        """The output lines of a Python script run against libpkcrt (argv[1])
        and the shim (argv[2]) with the fake driver; it must exit 0."""
        e = dict(os.environ, LD_LIBRARY_PATH=self.tmp)
        r = subprocess.run([sys.executable, "-u", "-c", script, LIB,
                            os.path.join(REPO, "runtime-shim", "python")],
                           capture_output=True, text=True, env=e, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout.splitlines()

    def drive(self, **env):
        e = dict(os.environ, LD_LIBRARY_PATH=self.tmp, **env)
        r = subprocess.run([sys.executable, "-u", "-c", DRIVE, LIB,
                            os.path.join(REPO, "runtime-shim", "python")],
                           capture_output=True, text=True, env=e, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout.splitlines()

    def test_capture_and_replay(self):
        out = self.drive(FAKE_CUDA_NODES="0,0,0")
        self.assertEqual(out[0], "available 1 ")
        self.assertEqual(out[1], "begin stream=0x2 mode=1")   # per-thread stream, thread-local
        self.assertIn("begin rc 0", out)
        self.assertIn("end stream=0x2", out)
        self.assertIn("instantiate flags=8", out)             # with node priorities
        self.assertNotIn("instantiate flags=0", out)
        self.assertIn("graph destroy 1", out)                 # the graph goes, its instance stays
        self.assertIn("graph True nodes 3 err ", out)
        self.assertEqual(out.count("launch exec=1 stream=0x2"), 3)
        self.assertIn("sync stream=0x2", out)
        self.assertIn("exec destroy 1", out)

    def test_driver_without_node_priorities(self):
        out = self.drive(FAKE_CUDA_NODES="0,0", FAKE_CUDA_NO_PRIORITY="1")
        self.assertIn("instantiate flags=8", out)
        self.assertIn("instantiate flags=0", out)             # tried again without
        self.assertIn("graph True nodes 2 err ", out)

    def test_capture_dependencies(self):
        script = textwrap.dedent("""
            import ctypes, sys
            sys.path.insert(0, sys.argv[2])
            from pykokkos._graph import _bind
            lib = _bind(ctypes.CDLL(sys.argv[1]))
            err = ctypes.create_string_buffer(256)
            print("branches", lib.pkr_graph_branches_available())
            nodes = (ctypes.c_void_p * 4)(0x10, 0x20, 0x30, 0)
            print("set rc", lib.pkr_graph_set_deps(nodes, 3, err, 256))
            got = (ctypes.c_void_p * 2)()
            print("deps", lib.pkr_graph_deps(got, 2, err, 256), hex(got[0]), hex(got[1]))
            print("set rc", lib.pkr_graph_set_deps(nodes, 0, err, 256))
            print("deps", lib.pkr_graph_deps(got, 2, err, 256))
            print("set rc", lib.pkr_graph_set_deps(nodes, 17, err, 256), err.value.decode())
        """)
        out = self.run_script(script)
        self.assertEqual(out[0], "branches 1")
        self.assertIn("set deps stream=0x2 n=3 flags=1 edges=(nil)", out)   # SET, plain edges
        self.assertIn("deps 3 0x10 0x20", out)        # the count, the first cap of them
        self.assertIn("set deps stream=0x2 n=0 flags=1 edges=(nil)", out)
        self.assertIn("deps 0", out)
        self.assertIn("set rc -1 cuStreamUpdateCaptureDependencies failed: CUDA_ERROR_FAKE", out)

    def test_urgent_nodes(self):
        """pkr_graph_set_urgent: the kernel nodes among those given get the
        device's greatest priority (CUDA's kernel node priority attribute);
        other nodes are left alone."""
        script = textwrap.dedent("""
            import ctypes, sys
            sys.path.insert(0, sys.argv[2])
            from pykokkos._graph import _bind
            lib = _bind(ctypes.CDLL(sys.argv[1]))
            err = ctypes.create_string_buffer(256)
            types = (ctypes.c_int * 3)(0, 1, 0)          # kernel, memcpy, kernel
            base = ctypes.addressof(types)
            nodes = (ctypes.c_void_p * 3)(base, base + 4, base + 8)
            print("urgent", lib.pkr_graph_set_urgent(nodes, 3, err, 256))
            print("urgent none", lib.pkr_graph_set_urgent(nodes, 0, err, 256))
        """)
        out = self.run_script(script)
        self.assertEqual(out.count("node attribute type=0 attr=8 priority=-5"), 2)
        self.assertFalse(any(x.startswith("node attribute type=1") for x in out))
        self.assertIn("urgent 2", out)
        self.assertIn("urgent none 0", out)

    def test_dependencies_on_started_kernels(self):
        """pkr_graph_set_deps_started: the plain dependencies as before, plus
        edges from kernels that need only have started (CUDA's launch-order
        port, a programmatic edge); a node to wait for the start of that is
        not a kernel is refused, naming why, and nothing is set."""
        script = textwrap.dedent("""
            import ctypes, sys
            sys.path.insert(0, sys.argv[2])
            from pykokkos._graph import _bind
            lib = _bind(ctypes.CDLL(sys.argv[1]))
            err = ctypes.create_string_buffer(256)
            types = (ctypes.c_int * 4)(0, 0, 0, 1)       # three kernels, a memcpy
            base = ctypes.addressof(types)
            plain = (ctypes.c_void_p * 2)(base, base + 4)
            started = (ctypes.c_void_p * 1)(base + 8)
            print("rc", lib.pkr_graph_set_deps_started(plain, 2, started, 1, err, 256))
            copy = (ctypes.c_void_p * 1)(base + 12)
            print("rc", lib.pkr_graph_set_deps_started(plain, 2, copy, 1, err, 256),
                  err.value.decode())
            print("rc", lib.pkr_graph_set_deps_started(plain, 1, copy, 0, err, 256))
        """)
        out = self.run_script(script)
        first = out.index("rc 0")
        self.assertTrue(out[first - 4].startswith("set deps stream=0x2 n=3 flags=1 edges=0x"),
                        out)
        self.assertEqual(out[first - 3:first], ["edge 0 from_port=0 to_port=0 type=0",
                                                "edge 1 from_port=0 to_port=0 type=0",
                                                "edge 2 from_port=2 to_port=0 type=1"])
        self.assertEqual(out[first + 1], "rc -1 a node to wait for the start of is not a kernel")
        # no started node: plain edges, as pkr_graph_set_deps sets them
        self.assertEqual(out[first + 2:], ["set deps stream=0x2 n=1 flags=1 edges=(nil)", "rc 0"])

    def test_memory_copy_refused(self):
        out = self.drive(FAKE_CUDA_NODES="0,1,0")
        self.assertFalse(any(x.startswith("instantiate") for x in out))
        self.assertIn("graph destroy 1", out)
        line = next(x for x in out if x.startswith("graph False"))
        self.assertIn("the capture holds a memory copy", line)
        self.assertIn("constant memory", line)
        self.assertFalse(any(x.startswith("launch") for x in out))

    def test_empty_capture_refused(self):
        out = self.drive(FAKE_CUDA_NODES="")
        line = next(x for x in out if x.startswith("graph False"))
        self.assertIn("holds no kernel", line)
        self.assertIn("per-thread default stream", line)

    def test_invalidated_capture(self):
        out = self.drive(FAKE_CUDA_NODES="0", FAKE_CUDA_END="901")
        line = next(x for x in out if x.startswith("graph False"))
        self.assertIn("the capture was invalidated", line)
        self.assertFalse(any(x.startswith("instantiate") for x in out))

    def test_other_end_error_named(self):
        out = self.drive(FAKE_CUDA_NODES="0", FAKE_CUDA_END="7")
        line = next(x for x in out if x.startswith("graph False"))
        self.assertIn("cuStreamEndCapture failed: CUDA_ERROR_FAKE", line)


if __name__ == "__main__":
    unittest.main()
