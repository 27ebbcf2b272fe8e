"""AoS vs SoA Views of a @pk.classtype (issue 26), against hand-written
one-View-per-field kernels: Ripple's three subjects, each written once.

  push   a particle push touching 4 of 10 fields (x += dt*vx; vx += dt*fx/m)
  all    an update of all 10 fields
  euler  the FORCE flux of the 2-D Euler equations across x-faces
         (Toro's FORCE: the mean of the Lax-Friedrichs and Richtmyer fluxes)
  fluxdiff  Ripple's Table 4 subject: per interior cell of a GRID x GRID
         grid with one padding layer, the FORCE flux at all four faces
         (a @pk.function called four times) and the flux difference
         (F_{i+1/2} - F_{i-1/2}) + (G_{j+1/2} - G_{j-1/2}), over
         pk.MDRangePolicy([1, 1], [GRID - 1, GRID - 1]); checked against numpy

Each rep times every variant once, in rotating order, and the table gives
the median per-rep ratio to the hand-written kernel (a loaded machine slows
all variants of one rep alike) and the median time. Usage:
  python3 bench/layout/layout_bench.py [N_PARTICLES] [GRID] [REPS]
(PKC_BACKEND selects the backend; defaults 2**20 particles, 1024 x 1024
cells, 15 reps). The results of the variants are checked against each other
(fluxdiff: each against a numpy implementation of the same formula)."""
import statistics
import sys
import time

import numpy as np
import pykokkos as pk

F = ("x", "y", "z", "vx", "vy", "vz", "fx", "fy", "fz", "m")


@pk.classtype
class Particle:
    def __init__(self, x: float, y: float, z: float, vx: float, vy: float, vz: float,
                 fx: float, fy: float, fz: float, m: float):
        self.x: float = x
        self.y: float = y
        self.z: float = z
        self.vx: float = vx
        self.vy: float = vy
        self.vz: float = vz
        self.fx: float = fx
        self.fy: float = fy
        self.fz: float = fz
        self.m: float = m


@pk.classtype
class State:
    def __init__(self, rho: float, mu: float, mv: float, e: float):
        self.rho: float = rho
        self.mu: float = mu
        self.mv: float = mv
        self.e: float = e


# ---- written once, for either layout

@pk.workunit
def push(i: int, p: pk.View1D[Particle], dt: float):
    p[i].x += dt * p[i].vx
    p[i].vx += dt * p[i].fx / p[i].m


@pk.workunit
def update_all(i: int, p: pk.View1D[Particle], dt: float):
    p[i].x += dt * p[i].vx
    p[i].y += dt * p[i].vy
    p[i].z += dt * p[i].vz
    p[i].vx += dt * p[i].fx / p[i].m
    p[i].vy += dt * p[i].fy / p[i].m
    p[i].vz += dt * p[i].fz / p[i].m
    p[i].fx *= 0.5
    p[i].fy *= 0.5
    p[i].fz *= 0.5
    p[i].m += 0.0


@pk.function
def flux_rho(s: State) -> float:
    return s.mu


@pk.function
def pressure(s: State) -> float:
    return 0.4 * (s.e - 0.5 * (s.mu * s.mu + s.mv * s.mv) / s.rho)


@pk.workunit
def force_flux(k: int, u: pk.View1D[State], f: pk.View1D[State], ny: int, dtdx: float):
    a: State = u[k]
    b: State = u[k + ny]
    pa: float = pressure(a)
    pb: float = pressure(b)
    # physical x-fluxes of both states
    fa0: float = a.mu
    fa1: float = a.mu * a.mu / a.rho + pa
    fa2: float = a.mu * a.mv / a.rho
    fa3: float = a.mu / a.rho * (a.e + pa)
    fb0: float = b.mu
    fb1: float = b.mu * b.mu / b.rho + pb
    fb2: float = b.mu * b.mv / b.rho
    fb3: float = b.mu / b.rho * (b.e + pb)
    # Richtmyer state and its flux
    r: State = State(0.5 * (a.rho + b.rho) - 0.5 * dtdx * (fb0 - fa0),
                     0.5 * (a.mu + b.mu) - 0.5 * dtdx * (fb1 - fa1),
                     0.5 * (a.mv + b.mv) - 0.5 * dtdx * (fb2 - fa2),
                     0.5 * (a.e + b.e) - 0.5 * dtdx * (fb3 - fa3))
    pr: float = pressure(r)
    f[k].rho = 0.5 * (0.5 * (fa0 + fb0) - 0.5 / dtdx * (b.rho - a.rho) + flux_rho(r))
    f[k].mu = 0.5 * (0.5 * (fa1 + fb1) - 0.5 / dtdx * (b.mu - a.mu) + r.mu * r.mu / r.rho + pr)
    f[k].mv = 0.5 * (0.5 * (fa2 + fb2) - 0.5 / dtdx * (b.mv - a.mv) + r.mu * r.mv / r.rho)
    f[k].e = 0.5 * (0.5 * (fa3 + fb3) - 0.5 / dtdx * (b.e - a.e) + r.mu / r.rho * (r.e + pr))


@pk.function
def physical_flux(s: State, d: int, f: State):
    """The Euler flux of state s across a face normal to direction d (0: x,
    1: y), into f."""
    p: float = pressure(s)
    un: float = s.mu
    if d == 1:
        un = s.mv
    f.rho = un
    f.mu = s.mu * un / s.rho
    f.mv = s.mv * un / s.rho
    f.e = un / s.rho * (s.e + p)
    if d == 0:
        f.mu += p
    else:
        f.mv += p


@pk.function
def force(a: State, b: State, d: int, dtdx: float, f: State):
    """Toro's FORCE flux at the face between a and its neighbour b along
    direction d, into f: the mean of the Lax-Friedrichs and Richtmyer fluxes."""
    fa: State = State(0.0, 0.0, 0.0, 0.0)
    fb: State = State(0.0, 0.0, 0.0, 0.0)
    physical_flux(a, d, fa)
    physical_flux(b, d, fb)
    r: State = State(0.5 * (a.rho + b.rho) - 0.5 * dtdx * (fb.rho - fa.rho),
                     0.5 * (a.mu + b.mu) - 0.5 * dtdx * (fb.mu - fa.mu),
                     0.5 * (a.mv + b.mv) - 0.5 * dtdx * (fb.mv - fa.mv),
                     0.5 * (a.e + b.e) - 0.5 * dtdx * (fb.e - fa.e))
    fr: State = State(0.0, 0.0, 0.0, 0.0)
    physical_flux(r, d, fr)
    f.rho = 0.5 * (0.5 * (fa.rho + fb.rho) - 0.5 / dtdx * (b.rho - a.rho) + fr.rho)
    f.mu = 0.5 * (0.5 * (fa.mu + fb.mu) - 0.5 / dtdx * (b.mu - a.mu) + fr.mu)
    f.mv = 0.5 * (0.5 * (fa.mv + fb.mv) - 0.5 / dtdx * (b.mv - a.mv) + fr.mv)
    f.e = 0.5 * (0.5 * (fa.e + fb.e) - 0.5 / dtdx * (b.e - a.e) + fr.e)


@pk.workunit
def flux_difference(i: int, j: int, u: pk.View2D[State], df: pk.View2D[State], dtdx: float):
    # Ripple's Table 4 kernel: the FORCE flux at all four faces of cell (i, j),
    # F = (F_{i+1/2} - F_{i-1/2}) + (G_{j+1/2} - G_{j-1/2})
    fw: State = State(0.0, 0.0, 0.0, 0.0)
    fe: State = State(0.0, 0.0, 0.0, 0.0)
    fs: State = State(0.0, 0.0, 0.0, 0.0)
    fn: State = State(0.0, 0.0, 0.0, 0.0)
    force(u[i - 1, j], u[i, j], 0, dtdx, fw)
    force(u[i, j], u[i + 1, j], 0, dtdx, fe)
    force(u[i, j - 1], u[i, j], 1, dtdx, fs)
    force(u[i, j], u[i, j + 1], 1, dtdx, fn)
    df[i, j].rho = fe.rho - fw.rho + fn.rho - fs.rho
    df[i, j].mu = fe.mu - fw.mu + fn.mu - fs.mu
    df[i, j].mv = fe.mv - fw.mv + fn.mv - fs.mv
    df[i, j].e = fe.e - fw.e + fn.e - fs.e


# ---- hand-written: one View per field

@pk.workunit
def push_hand(i: int, x: pk.View1D[pk.double], vx: pk.View1D[pk.double],
              fx: pk.View1D[pk.double], m: pk.View1D[pk.double], dt: float):
    x[i] += dt * vx[i]
    vx[i] += dt * fx[i] / m[i]


@pk.workunit
def update_all_hand(i: int, x: pk.View1D[pk.double], y: pk.View1D[pk.double],
                    z: pk.View1D[pk.double], vx: pk.View1D[pk.double],
                    vy: pk.View1D[pk.double], vz: pk.View1D[pk.double],
                    fx: pk.View1D[pk.double], fy: pk.View1D[pk.double],
                    fz: pk.View1D[pk.double], m: pk.View1D[pk.double], dt: float):
    x[i] += dt * vx[i]
    y[i] += dt * vy[i]
    z[i] += dt * vz[i]
    vx[i] += dt * fx[i] / m[i]
    vy[i] += dt * fy[i] / m[i]
    vz[i] += dt * fz[i] / m[i]
    fx[i] *= 0.5
    fy[i] *= 0.5
    fz[i] *= 0.5
    m[i] += 0.0


@pk.function
def pres(rho: float, mu: float, mv: float, e: float) -> float:
    return 0.4 * (e - 0.5 * (mu * mu + mv * mv) / rho)


@pk.workunit
def force_flux_hand(k: int, rho: pk.View1D[pk.double], mu: pk.View1D[pk.double],
                    mv: pk.View1D[pk.double], e: pk.View1D[pk.double],
                    frho: pk.View1D[pk.double], fmu: pk.View1D[pk.double],
                    fmv: pk.View1D[pk.double], fe: pk.View1D[pk.double], ny: int,
                    dtdx: float):
    ar: float = rho[k]
    au: float = mu[k]
    av: float = mv[k]
    ae: float = e[k]
    br: float = rho[k + ny]
    bu: float = mu[k + ny]
    bv: float = mv[k + ny]
    be: float = e[k + ny]
    pa: float = pres(ar, au, av, ae)
    pb: float = pres(br, bu, bv, be)
    fa0: float = au
    fa1: float = au * au / ar + pa
    fa2: float = au * av / ar
    fa3: float = au / ar * (ae + pa)
    fb0: float = bu
    fb1: float = bu * bu / br + pb
    fb2: float = bu * bv / br
    fb3: float = bu / br * (be + pb)
    rr: float = 0.5 * (ar + br) - 0.5 * dtdx * (fb0 - fa0)
    ru: float = 0.5 * (au + bu) - 0.5 * dtdx * (fb1 - fa1)
    rv: float = 0.5 * (av + bv) - 0.5 * dtdx * (fb2 - fa2)
    re: float = 0.5 * (ae + be) - 0.5 * dtdx * (fb3 - fa3)
    pr: float = pres(rr, ru, rv, re)
    frho[k] = 0.5 * (0.5 * (fa0 + fb0) - 0.5 / dtdx * (br - ar) + ru)
    fmu[k] = 0.5 * (0.5 * (fa1 + fb1) - 0.5 / dtdx * (bu - au) + ru * ru / rr + pr)
    fmv[k] = 0.5 * (0.5 * (fa2 + fb2) - 0.5 / dtdx * (bv - av) + ru * rv / rr)
    fe[k] = 0.5 * (0.5 * (fa3 + fb3) - 0.5 / dtdx * (be - ae) + ru / rr * (re + pr))


@pk.workunit
def flux_difference_hand(i: int, j: int, rho: pk.View2D[pk.double], mu: pk.View2D[pk.double],
                         mv: pk.View2D[pk.double], e: pk.View2D[pk.double],
                         drho: pk.View2D[pk.double], dmu: pk.View2D[pk.double],
                         dmv: pk.View2D[pk.double], de: pk.View2D[pk.double], dtdx: float):
    # the same FORCE functions on States loaded from one View per field
    c: State = State(rho[i, j], mu[i, j], mv[i, j], e[i, j])
    w: State = State(rho[i - 1, j], mu[i - 1, j], mv[i - 1, j], e[i - 1, j])
    ea: State = State(rho[i + 1, j], mu[i + 1, j], mv[i + 1, j], e[i + 1, j])
    s: State = State(rho[i, j - 1], mu[i, j - 1], mv[i, j - 1], e[i, j - 1])
    n: State = State(rho[i, j + 1], mu[i, j + 1], mv[i, j + 1], e[i, j + 1])
    fw: State = State(0.0, 0.0, 0.0, 0.0)
    fe: State = State(0.0, 0.0, 0.0, 0.0)
    fs: State = State(0.0, 0.0, 0.0, 0.0)
    fn: State = State(0.0, 0.0, 0.0, 0.0)
    force(w, c, 0, dtdx, fw)
    force(c, ea, 0, dtdx, fe)
    force(s, c, 1, dtdx, fs)
    force(c, n, 1, dtdx, fn)
    drho[i, j] = fe.rho - fw.rho + fn.rho - fs.rho
    dmu[i, j] = fe.mu - fw.mu + fn.mu - fs.mu
    dmv[i, j] = fe.mv - fw.mv + fn.mv - fs.mv
    de[i, j] = fe.e - fw.e + fn.e - fs.e


def particles(n, layout):
    rng = np.random.default_rng(1)
    p = pk.View([n], Particle, layout=layout)
    for f in F:
        setattr(p, f, rng.random(n) + (1.0 if f == "m" else 0.0))
    return p


def states(ncell, layout):
    rng = np.random.default_rng(2)
    u = pk.View([ncell], State, layout=layout)
    u.rho = 1.0 + rng.random(ncell)
    u.mu = rng.random(ncell) - 0.5
    u.mv = rng.random(ncell) - 0.5
    u.e = 2.5 + rng.random(ncell)
    return u


def grid(g, layout):
    """A g x g grid of States (random, positive density and pressure)."""
    rng = np.random.default_rng(3)
    u = pk.View([g, g], State, layout=layout)
    u.rho = 1.0 + rng.random((g, g))
    u.mu = rng.random((g, g)) - 0.5
    u.mv = rng.random((g, g)) - 0.5
    u.e = 2.5 + rng.random((g, g))
    return u


def flux_difference_numpy(u, dtdx):
    """flux_difference in numpy over the interior cells: {field: (g-2, g-2) array}."""
    def phys(s, d):
        p = 0.4 * (s["e"] - 0.5 * (s["mu"] * s["mu"] + s["mv"] * s["mv"]) / s["rho"])
        un = s["mu"] if d == 0 else s["mv"]
        f = {"rho": un, "mu": s["mu"] * un / s["rho"], "mv": s["mv"] * un / s["rho"],
             "e": un / s["rho"] * (s["e"] + p)}
        f["mu" if d == 0 else "mv"] = f["mu" if d == 0 else "mv"] + p
        return f

    def force(a, b, d):
        fa, fb = phys(a, d), phys(b, d)
        r = {k: 0.5 * (a[k] + b[k]) - 0.5 * dtdx * (fb[k] - fa[k]) for k in a}
        fr = phys(r, d)
        return {k: 0.5 * (0.5 * (fa[k] + fb[k]) - 0.5 / dtdx * (b[k] - a[k]) + fr[k]) for k in a}

    def at(di, dj):
        g = next(iter(u.values())).shape[0]
        return {k: v[1 + di:g - 1 + di, 1 + dj:g - 1 + dj] for k, v in u.items()}

    c = at(0, 0)
    fw, fe = force(at(-1, 0), c, 0), force(c, at(1, 0), 0)
    fs, fn = force(at(0, -1), c, 1), force(c, at(0, 1), 1)
    return {k: fe[k] - fw[k] + fn[k] - fs[k] for k in c}


def columns(cv, names):
    """Separate Views holding a copy of cv's fields (the hand-written data)."""
    out = {}
    for f in names:
        v = pk.View([len(cv)], pk.double)
        np.asarray(v)[:] = np.asarray(getattr(cv, f))
        out[f] = v
    return out


def timed(run):
    pk.fence()
    t = time.perf_counter()
    run()
    pk.fence()
    return time.perf_counter() - t


def bench(name, variants, reps, check):
    for _, run in variants:   # warm up (builds, first touch)
        run()
    check()
    times = {k: [] for k, _ in variants}
    for r in range(reps):
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for k, run in order:
            times[k].append(timed(run))
    hand = times["hand"]
    row = [name]
    for k, _ in variants:
        ratio = statistics.median(t / h for t, h in zip(times[k], hand))
        row.append(f"{k} {statistics.median(times[k]) * 1e3:8.3f} ms ({ratio:4.2f}x hand)")
    print(" | ".join(row), flush=True)
    return {k: statistics.median(t / h for t, h in zip(times[k], hand)) for k in times}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    g = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    import os
    print(f"layout bench: {n} particles, {g} x {g} cells, {reps} reps, backend "
          f"{os.environ.get('PKC_BACKEND', 'openmp')}")
    dt = 1e-3
    pa, ps = particles(n, pk.AoS), particles(n, pk.SoA)
    h = columns(pa, F)

    def same(*arrs):
        for a in arrs[1:]:
            if not np.allclose(np.asarray(a), np.asarray(arrs[0]), rtol=1e-12):
                raise SystemExit("layout bench: the variants disagree")

    res = {}
    res["push"] = bench("push 4/10 fields", [
        ("aos", lambda: pk.parallel_for(n, push, p=pa, dt=dt)),
        ("soa", lambda: pk.parallel_for(n, push, p=ps, dt=dt)),
        ("hand", lambda: pk.parallel_for(n, push_hand, x=h["x"], vx=h["vx"], fx=h["fx"],
                                         m=h["m"], dt=dt))],
        reps, lambda: same(pa.x, ps.x, h["x"]))
    pa, ps = particles(n, pk.AoS), particles(n, pk.SoA)
    h = columns(pa, F)
    res["all"] = bench("all 10 fields   ", [
        ("aos", lambda: pk.parallel_for(n, update_all, p=pa, dt=dt)),
        ("soa", lambda: pk.parallel_for(n, update_all, p=ps, dt=dt)),
        ("hand", lambda: pk.parallel_for(n, update_all_hand, dt=dt, **h))],
        reps, lambda: same(pa.vz, ps.vz, h["vz"]))
    ncell = g * g
    ua, us = states(ncell, pk.AoS), states(ncell, pk.SoA)
    fa, fs = pk.View([ncell], State, layout=pk.AoS), pk.View([ncell], State, layout=pk.SoA)
    hu = columns(ua, ("rho", "mu", "mv", "e"))
    hf = {"f" + k: pk.View([ncell], pk.double) for k in ("rho", "mu", "mv", "e")}
    faces = ncell - g   # cell k and its x-neighbour k + g
    res["euler"] = bench("euler FORCE flux", [
        ("aos", lambda: pk.parallel_for(faces, force_flux, u=ua, f=fa, ny=g, dtdx=0.1)),
        ("soa", lambda: pk.parallel_for(faces, force_flux, u=us, f=fs, ny=g, dtdx=0.1)),
        ("hand", lambda: pk.parallel_for(faces, force_flux_hand, ny=g, dtdx=0.1,
                                         **hu, **hf))],
        reps, lambda: same(fa.e, fs.e, hf["fe"]))
    # Ripple's Table 4: the flux difference over all four faces of each
    # cell of a g x g grid with one padding layer
    ga, gs = grid(g, pk.AoS), grid(g, pk.SoA)
    da, ds = pk.View([g, g], State, layout=pk.AoS), pk.View([g, g], State, layout=pk.SoA)
    hg = {k: pk.View([g, g], pk.double) for k in ("rho", "mu", "mv", "e")}
    for k in hg:
        np.asarray(hg[k])[:] = np.asarray(getattr(ga, k))
    hd = {"d" + k: pk.View([g, g], pk.double) for k in ("rho", "mu", "mv", "e")}
    inner = pk.MDRangePolicy([1, 1], [g - 1, g - 1])

    def check_fd():
        want = flux_difference_numpy({k: np.asarray(getattr(ga, k)) for k in hg}, 0.1)
        for k in hg:
            for got in (getattr(da, k), getattr(ds, k), hd["d" + k]):
                got = np.asarray(got)
                if not (np.allclose(got[1:-1, 1:-1], want[k], rtol=1e-10, atol=1e-10)
                        and not got[0].any() and not got[-1].any()
                        and not got[:, 0].any() and not got[:, -1].any()):
                    raise SystemExit(f"layout bench: flux difference '{k}' differs from numpy")

    res["fluxdiff"] = bench("flux diff 4 faces", [
        ("aos", lambda: pk.parallel_for(inner, flux_difference, u=ga, df=da, dtdx=0.1)),
        ("soa", lambda: pk.parallel_for(inner, flux_difference, u=gs, df=ds, dtdx=0.1)),
        ("hand", lambda: pk.parallel_for(inner, flux_difference_hand, dtdx=0.1, **hg, **hd))],
        reps, check_fd)
    for k, r in res.items():
        print(f"RATIO {k} aos/soa={r['aos'] / r['soa']:.2f} soa/hand={r['soa']:.2f}")


if __name__ == "__main__":
    main()
