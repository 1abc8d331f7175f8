#!/usr/bin/env python3
"""scipy's lobpcg on the 3D Laplacian, reported like slepc_eigen_bench (one JSON line).

usage: scipy_lobpcg_bench.py --lap N --nev K [--tol T] [--guard G] [--max-iterations M]

The matrix is tseig's laplacian_3d (7-point, Dirichlet, 6 on the diagonal, -1 off it).
scipy runs in this one process with as many BLAS threads as the environment gives it
(run_eigen_bench.sh gives it the cores the MPI runs use). Its block has the columns
tseig's LOBPCG uses (nev + max(4, nev / 4), the same start size) and it stops when every
column's residual norm is below tol * ||H||, which implies the common test
||Hx - lambda x|| / ((||H|| + |lambda|) ||x||) <= tol; that test is then computed here on
the nev smallest pairs it returns, ||H|| by scipy's eigsh. max_eigenvalue_diff is against
the exact eigenvalues (sums of 2 - 2 cos(pi k / (N + 1))).
"""
import argparse
import json
import resource
import time

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse.linalg import eigsh, lobpcg


def laplacian_3d(n):
    one = sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1])
    eye = sp.identity(n)
    return (sp.kron(sp.kron(one, eye), eye) + sp.kron(sp.kron(eye, one), eye) +
            sp.kron(sp.kron(eye, eye), one)).tocsr()


def exact_smallest(n, k):
    one = 2 - 2 * np.cos(np.pi * np.arange(1, n + 1) / (n + 1))
    small = np.sort(one)[: min(n, k + 2)]
    sums = np.sort((small[:, None, None] + small[None, :, None] + small[None, None, :]).ravel())
    return sums[:k]


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lap", type=int, required=True)
    p.add_argument("--nev", type=int, required=True)
    p.add_argument("--tol", type=float, default=1e-8)
    p.add_argument("--guard", type=int, default=-1)
    p.add_argument("--max-iterations", type=int, default=5000)
    o = p.parse_args()
    a = laplacian_3d(o.lap)
    n = a.shape[0]
    norm_h = float(eigsh(a, k=1, which="LM", tol=1e-6, return_eigenvectors=False)[0])
    m = o.nev + (max(4, o.nev // 4) if o.guard < 0 else o.guard)
    x0 = np.random.default_rng(1).standard_normal((n, m))
    before = peak_mib()
    start = time.perf_counter()
    values, vectors, history = lobpcg(a, x0, tol=o.tol * norm_h, maxiter=o.max_iterations,
                                      largest=False, retResidualNormsHistory=True)
    seconds = time.perf_counter() - start
    order = np.argsort(values)[: o.nev]
    values, vectors = values[order], vectors[:, order]
    r = a @ vectors - vectors * values
    residual = np.linalg.norm(r, axis=0) / (
        (norm_h + np.abs(values)) * np.linalg.norm(vectors, axis=0))
    exact = exact_smallest(o.lap, o.nev)
    print(json.dumps({
        "problem": f"laplacian_3d_{o.lap}_smallest_{o.nev}",
        "solver": "scipy_lobpcg",
        "n": n,
        "np": 1,
        "seconds": round(seconds, 3),
        "iterations": len(history),
        "found": int(np.sum(residual <= o.tol)),
        "max_residual": float(residual.max()),
        "max_eigenvalue_diff": float(np.abs(values - exact).max()),
        "memory_mib": round(peak_mib() - before, 1),
        "block_columns": m,
        "scipy": scipy.__version__,
    }), flush=True)


if __name__ == "__main__":
    main()
