#!/usr/bin/python3
"""refex_ref.py - an independent reference for `nodefeat --set refex`.

    refex_ref.py GRAPHS.txt VALUES.tsv [RTOL]

GRAPHS.txt is a gnnstream in text form; VALUES.tsv is `nodefeat --set
refex --tsv` of the same graphs.  For every graph it computes the 20
columns from their definition with networkx (degree, core_number,
clustering; CI_1(v) = (deg v - 1) * sum over neighbours of (deg u - 1))
and numpy (log1p, then the mean and the maximum over each node's
neighbours through the sparse adjacency, twice; 0 for an isolated node),
and compares each value with nodefeat's: |ours - ref| <= RTOL *
max(|ours|, |ref|) (default 1e-12; zeros must be zeros).  Prints one line
per graph and exits 1 on a mismatch, naming the first one.  It shares no
code with nodefeat.
"""
import sys

import networkx as nx
import numpy as np

from gstext import graphs, tables

COLUMNS = ["degree_log", "core_log", "ci1_log", "clustering"]
NAMES = COLUMNS + [p + c for p in ("mean1_", "max1_", "mean2_", "max2_") for c in COLUMNS]


def reference(n, edges):
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    deg = np.array([G.degree(v) for v in range(n)], dtype=float)
    core = nx.core_number(G)
    cc = nx.clustering(G)
    x = np.zeros((n, 4))
    for v in range(n):
        ci = (deg[v] - 1) * sum(deg[u] - 1 for u in G[v]) if deg[v] > 0 else 0.0
        x[v] = [np.log1p(deg[v]), np.log1p(core[v]), np.log1p(ci), cc[v]]

    def level(mean_in, max_in):
        mean = np.zeros((n, 4))
        mx = np.zeros((n, 4))
        for v in range(n):
            nb = list(G[v])
            if nb:
                mean[v] = mean_in[nb].mean(axis=0)
                mx[v] = max_in[nb].max(axis=0)
        return mean, mx

    mean1, max1 = level(x, x)
    mean2, max2 = level(mean1, max1)
    return np.hstack([x, mean1, max1, mean2, max2])


def main():
    rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-12
    gs = graphs(sys.argv[1])
    tab, header = tables(sys.argv[2])
    if header != ["node"] + NAMES:
        print(f"refex_ref: TSV header {header}, want node + {NAMES}")
        sys.exit(1)
    if len(gs) == 0 or len(gs) != len(tab):
        print(f"refex_ref: {len(gs)} graphs, {len(tab)} tables")
        sys.exit(1)
    for gid, n, edges in gs:
        ref, ours = reference(n, edges), tab[gid]
        if ours.shape != ref.shape:
            print(f"refex_ref: graph {gid}: shape {ours.shape}, want {ref.shape}")
            sys.exit(1)
        diff = np.abs(ours - ref)
        bad = diff > rtol * np.maximum(np.abs(ours), np.abs(ref))
        if bad.any():
            v, c = np.argwhere(bad)[0]
            print(f"refex_ref: graph {gid}: node {v}: {NAMES[c]}: nodefeat {ours[v, c]!r}, "
                  f"reference {ref[v, c]!r}")
            sys.exit(1)
        scale = np.maximum(np.abs(ours), np.abs(ref))
        rel = np.where(scale > 0, diff / np.where(scale > 0, scale, 1), 0).max() if n else 0
        print(f"graph {gid}: {n} nodes: max relative difference {rel:.3g}")


main()
