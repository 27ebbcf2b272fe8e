"""The Lennard-Jones system of bench/peers (run.py's CPU row and gpu_run.py):
an FCC lattice at md_lj.py's density, positions jittered so that forces are
not zero by symmetry, and a full neighbour list within cutoff + skin."""
import numpy as np

RHO, CUTOFF, SKIN = 0.8442, 2.5, 0.3


def lj_system(nx):
    """FCC lattice (md_lj.py's density), positions jittered so that forces
    are not zero by symmetry, and a full neighbour list within cutoff + skin
    (minimum image), padded to the longest list with the atom's own index."""
    a = (4.0 / RHO) ** (1.0 / 3.0)
    L = nx * a
    basis = np.array([[0.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.5, 0.0, 0.5], [0.0, 0.5, 0.5]])
    g = np.arange(nx, dtype=np.float64)
    cells = np.stack(np.meshgrid(g, g, g, indexing="ij"), -1).reshape(-1, 3)
    x = ((cells[:, None, :] + basis[None, :, :]) * a).reshape(-1, 3)
    x += np.random.default_rng(5).uniform(-0.05, 0.05, x.shape)
    x %= L
    n = len(x)
    lists = neighbour_lists(x, L, nx)
    K_ = max(len(li) for li in lists)
    neigh = np.zeros((n, K_), dtype=np.int32)
    num = np.array([len(li) for li in lists], dtype=np.int32)
    for i, li in enumerate(lists):
        neigh[i, :len(li)] = li
        neigh[i, len(li):] = i   # padding: never read by the loops, masked in NumPy
    return x, L, num, neigh


def near_candidates(nx, lo, hi):
    """For atoms lo..hi-1 of lj_system's lattice (atom = ((cx*nx + cy)*nx + cz)*4 + b),
    the sorted indices of the atoms of the 5x5x5 unit cells around each one's
    cell (periodic): every atom within cutoff + skin (2.8 < 2 cells of 1.68,
    jitter 0.05) is among them. Needs nx >= 5 (no cell counted twice)."""
    a = np.arange(lo, hi)
    c = a // 4
    cx, cy, cz = c // (nx * nx), (c // nx) % nx, c % nx
    d = np.arange(-2, 3)
    ox, oy, oz = (g.ravel() for g in np.meshgrid(d, d, d, indexing="ij"))
    cells = (((cx[:, None] + ox) % nx) * nx + (cy[:, None] + oy) % nx) * nx + (cz[:, None] + oz) % nx
    cand = (cells[:, :, None] * 4 + np.arange(4)).reshape(len(a), -1)
    cand.sort(axis=1)
    return cand


def neighbour_lists(x, L, nx):
    """Per atom, the sorted indices of the others within cutoff + skin
    (minimum image): all pairs for small systems, the lattice's nearby cells
    for large ones (the same lists, faster)."""
    n = len(x)
    rn2 = (CUTOFF + SKIN) ** 2
    lists = []
    if n <= 20000 or nx < 5:
        for s in range(0, n, 512):
            d = x[s:s + 512, None, :] - x[None, :, :]
            d -= L * np.floor(d / L + 0.5)
            r2 = np.einsum("ijc,ijc->ij", d, d)
            r2[np.arange(len(r2)), np.arange(s, s + len(r2))] = np.inf
            lists.extend(np.flatnonzero(row < rn2) for row in r2)
        return lists
    for s in range(0, n, 2048):
        cand = near_candidates(nx, s, min(n, s + 2048))
        d = x[s:s + len(cand), None, :] - x[cand]
        d -= L * np.floor(d / L + 0.5)
        r2 = np.einsum("ijc,ijc->ij", d, d)
        r2[cand == np.arange(s, s + len(cand))[:, None]] = np.inf
        lists.extend(c[r < rn2] for c, r in zip(cand, r2))
    return lists
