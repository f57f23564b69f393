#!/usr/bin/python3
"""rwse_ref.py - an independent reference for `nodefeat --set rwse`.

    rwse_ref.py GRAPHS.txt VALUES.tsv K [RTOL]

GRAPHS.txt is a gnnstream in text form (`nodefeat -t`, `dcbm-gen -t`);
VALUES.tsv is `nodefeat --set rwse --rw-steps K --tsv` of the same graphs.
For every graph it builds the dense transition matrix P = D^+ A (a node of
degree 0 has a zero row: D^+ is the pseudo-inverse) and takes diag(P^k),
k = 1..K, by repeated dense products in numpy, then compares each value
with nodefeat's: |ours - ref| <= RTOL * max(|ours|, |ref|) (default 1e-12;
zeros must be zeros).  Prints one line per graph and exits 1 on a mismatch,
naming the first one.  It shares no code with nodefeat: the reference is
the definition, computed the slow way.
"""
import sys

import numpy as np

from gstext import graphs, tables


def reference(n, edges, K):
    A = np.zeros((n, n))
    for u, v in edges:
        A[u, v] = A[v, u] = 1.0
    d = A.sum(axis=1)
    dinv = np.divide(1.0, d, out=np.zeros(n), where=d > 0)
    P = dinv[:, None] * A
    ref, M = np.zeros((n, K)), np.eye(n)
    for k in range(K):
        M = M @ P
        ref[:, k] = np.diag(M)
    return ref


def main():
    gpath, tpath, K = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rtol = float(sys.argv[4]) if len(sys.argv) > 4 else 1e-12
    got, bad = tables(tpath)[0], 0
    for gid, n, edges in graphs(gpath):
        ref = reference(n, edges, K)
        ours = got.get(gid)
        if ours is None or ours.shape != ref.shape:
            print(f"graph {gid}: nodefeat gave shape "
                  f"{None if ours is None else ours.shape}, want {ref.shape}")
            bad += 1
            continue
        scale = np.maximum(np.abs(ours), np.abs(ref))
        err = np.abs(ours - ref)
        over = err > rtol * scale
        worst = float(np.max(np.divide(err, scale, out=np.zeros_like(err), where=scale > 0)))
        print(f"graph {gid}: n={n} m={len(edges)} K={K}: max relative difference "
              f"{worst:.3g} (tolerance {rtol:g})")
        if over.any():
            v, k = np.argwhere(over)[0]
            print(f"graph {gid}: node {v} rw{k + 1}: nodefeat {ours[v, k]!r}, "
                  f"numpy {ref[v, k]!r}")
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
