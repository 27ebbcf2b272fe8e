"""Helpers shared by bench/peers/run.py (CPU rows), scaling.py (--threads
1,2,...) and gpu_run.py (--gpu): logging, the per-repetition ratio, time
formatting, the result check, and NumPy 2.5's missing np.row_stack for Numba."""
import statistics
import sys

import numpy as np


def log(msg):
    """A progress line on stderr (the tables go to stdout)."""
    print(msg, file=sys.stderr, flush=True)


def numba_numpy_fix():
    """numba-cuda 0.30.4 uses np.row_stack, which NumPy 2.5 removed: alias it to
    np.vstack before numba is imported. Returns a note for the output, or ''."""
    if hasattr(np, "row_stack"):
        return ""
    np.row_stack = np.vstack
    return ("NumPy %s has no np.row_stack (numba-cuda 0.30.4 needs it): set "
            "np.row_stack = np.vstack before importing numba." % np.__version__)


def paired(a, b):
    """'median (q1-q3)' of the per-repetition ratios a[r] / b[r] ('' under 3)."""
    r = sorted(x / y for x, y in zip(a, b) if y)
    if len(r) < 3:
        return ""
    q = statistics.quantiles(r, n=4)
    return f"{q[1]:.2f} ({q[0]:.2f}-{q[2]:.2f})"


def fmt_t(s, unit):
    """Seconds s in unit ('ms', 'us/call', 's'), 3 decimals under 100."""
    v = s * {"ms": 1e3, "us/call": 1e6, "s": 1.0}[unit]
    return f"{v:.3f}" if v < 100 else f"{v:.1f}"


class Case:
    """One kernel: run[who]() runs it once, result[who]() returns what is
    checked against result["numpy"](). rows: [(row name, {who: key in run or
    None})] for a case reported as several rows (gups)."""

    def __init__(self, name, size, nbytes=None, updates=None, rtol=0.0, bad_ok=0, rows=None):
        self.name, self.size, self.nbytes, self.updates = name, size, nbytes, updates
        self.rtol, self.bad_ok = rtol, bad_ok
        self.rows = rows
        self.run, self.result = {}, {}


def check(case, who, got, ref, when):
    """Asserts contender who's result equals NumPy's ref: exactly (rtol 0),
    within case.rtol (relative to the largest |ref| where case.atol_scale), or
    up to case.bad_ok differing entries (lost racing updates)."""
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape, f"{case.name}: {who} result shape {got.shape} != {ref.shape}"
    if case.bad_ok and who not in getattr(case, "exact", ()):
        bad = int(np.count_nonzero(got != ref))
        assert bad <= case.bad_ok, (f"{case.name}: {who} differs from NumPy in {bad} entries "
                                    f"({when}; {case.bad_ok} lost updates allowed)")
        if bad:
            log(f"#   {case.name}: {who}: {bad} entries differ from NumPy ({when}): lost updates")
        return
    if case.rtol == 0.0:
        ok = np.array_equal(got, ref)
        assert ok, f"{case.name}: {who} result differs from NumPy's ({when})"
        return
    scale = float(np.abs(ref).max()) if getattr(case, "atol_scale", False) else 0.0
    if np.allclose(got, ref, rtol=case.rtol, atol=case.rtol * scale):
        return
    worst = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), 1e-300)))
    raise AssertionError(f"{case.name}: {who} result differs from NumPy's ({when}; largest "
                         f"relative difference {worst:.3g}, allowed {case.rtol:g})")
