#!/usr/bin/python3
"""python-igraph timings of the 8 quantities on the graphs of
bench/features_bench.sh, in the same TSV form as features_bench, so the two
can be joined line by line.

  /usr/bin/python3 bench/features_peers.py [-r REPS] [--quantities a,b] FILE...

FILE: "# n N" then "u v" lines (the first graph of the file is used).
Median of REPS calls after one warm-up call and gc.collect(); loading is not
timed.  igraph is single-threaded; its subgraph centrality is numpy.linalg.eigh
(OpenBLAS threads as the environment sets them), as in the peer harness.
CI_1 from igraph's degree() and knn(), as in the peer harness.
"""
import sys
sys.dont_write_bytecode = True

import argparse
import gc
import os
import time

import igraph as ig
import numpy as np


def load(path):
    with open(path) as f:
        n = int(f.readline().split()[2])
        edges = []
        for line in f:
            if line.startswith("#"):
                break
            u, v = line.split()
            edges.append((int(u), int(v)))
    return ig.Graph(n=n, edges=edges, directed=False)


def ci1(g):
    d = np.asarray(g.degree(), dtype=np.float64)
    knn = np.nan_to_num(np.asarray(g.knn()[0], dtype=np.float64))
    return np.rint((d - 1.0) * d * (knn - 1.0) * (d > 0))


def subgraph(g):
    A = g.get_adjacency_sparse().toarray().astype(np.float64)
    w, V = np.linalg.eigh(A)
    return (V * V) @ np.exp(w)


Q = {
    "degree": lambda g: g.degree(),
    "core": lambda g: g.coreness(),
    "ci1": ci1,
    "clustering": lambda g: g.transitivity_local_undirected(mode="zero"),
    "betweenness": lambda g: g.betweenness(directed=False),
    "closeness": lambda g: g.closeness(),
    "eigenvector": lambda g: g.evcent(directed=False, scale=True),
    "subgraph": subgraph,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-r", type=int, default=5)
    ap.add_argument("--quantities", default=",".join(Q))
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    print("graph\tn\tm\tquantity\tthreads\tseconds")
    for path in a.files:
        g = load(path)
        for q in a.quantities.split(","):
            fn = Q[q]
            fn(g)
            ts = []
            for _ in range(a.r):
                gc.collect()
                t0 = time.perf_counter()
                fn(g)
                ts.append(time.perf_counter() - t0)
            ts.sort()
            print("%s#0\t%d\t%d\t%s\t1\t%.3g" % (os.path.basename(path), g.vcount(),
                                               g.ecount(), q, ts[len(ts) // 2]), flush=True)


if __name__ == "__main__":
    main()
