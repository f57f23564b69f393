#!/usr/bin/python3
"""Graphs for bench/features_bench.sh, written as "# n N" + "u v" lines.

  /usr/bin/python3 bench/features_graphs.py OUTDIR [--labelling COUNT]
                   [--big-n N] [--big-k K] [--force]

Uses the peer benchmark's generator (gen_graphs.py of the peer harness,
directory $PEER_BENCH, default ../shared/bench beside the repository) so that the graphs are the
very graphs of its peers.md timings: DCBM n = 100, 500, 2000, 10000 (K=5,
p/q=4, k=1, gamma=3, seeds 20240+i), ER and BA n = 2000.
Also written:
  cora.txt, pubmed.txt  the real graphs of $GNNPIPE_DATA (default
        ../shared/data beside the repository), undirected and simple, 0-based:
        Cora from cora/cora.cites (paper ids numbered in order of first
        appearance, as bench/features_check_full.py does; 2708 nodes, 5278
        edges), Pubmed from pubmed/pubmed.planetoid.edges (Planetoid ids,
        19717 nodes, 44324 edges).
  dcbm_n<N>_k<K>.txt  one DCBM graph with at least 10^6 edges for the
        linear-time features: n = --big-n (default 100000), the benchmark
        parameters but k = --big-k (default 2.5, mean degree 10 k = 25), seed
        20240 + 4 (the peer harness's dcbm_n100000 seed); --big-n 0: none.
--labelling COUNT also writes OUTDIR/labelling_COUNT.txt: COUNT DCBM graphs
with n uniform in 100..2000 and (K, p/q, k, gamma) drawn from the paper's
ranges (sample_paper_params), seed 1, all in one file.
Files that exist are kept (the graphs are deterministic) unless --force.
Prints the names of the graphs written on stderr.
"""
import sys
sys.dont_write_bytecode = True

import argparse
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("PEER_BENCH", os.path.join(HERE, "..", "..", "shared", "bench")))
import gen_graphs as gg  # noqa: E402

DATA = os.environ.get("GNNPIPE_DATA", os.path.join(HERE, "..", "..", "shared", "data"))


def write(f, n, edges):
    f.write("# n %d\n" % n)
    np.savetxt(f, np.asarray(edges, dtype=np.int64).reshape(-1, 2), fmt="%d")


def simple(edges):
    """Undirected simple edge list: u < v, no loops, no duplicates, sorted."""
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    e = np.sort(e, axis=1)
    e = e[e[:, 0] != e[:, 1]]
    return np.unique(e, axis=0)


def cora():
    ids, edges = {}, []
    with open(os.path.join(DATA, "cora", "cora.cites")) as f:
        for line in f:
            a, b = line.split()
            for x in (a, b):
                ids.setdefault(x, len(ids))
            edges.append((ids[a], ids[b]))
    return len(ids), simple(edges)


def pubmed():
    with open(os.path.join(DATA, "pubmed", "pubmed.planetoid.labels")) as f:
        n = sum(1 for _ in f)
    e = np.loadtxt(os.path.join(DATA, "pubmed", "pubmed.planetoid.edges"), dtype=np.int64)
    return n, simple(e)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--labelling", type=int, default=0)
    ap.add_argument("--big-n", type=int, default=100000)
    ap.add_argument("--big-k", type=float, default=2.5)
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)

    def todo(name):
        path = os.path.join(a.outdir, name)
        if a.force or not os.path.exists(path):
            print("features_graphs: writing %s" % name, file=sys.stderr, flush=True)
            return path
        return None

    p = gg.BENCH_PARAMS
    for i, n in enumerate(gg.DCBM_SIZES[:4]):
        path = todo("dcbm_n%d.txt" % n)
        if path:
            e, _, _ = gg.dcbm(n, p["K"], p["p_div_q"], p["k"], p["gamma"], gg.DCBM_SEED_BASE + i)
            with open(path, "w") as f:
                write(f, n, e)
    path = todo("er_n2000.txt")
    if path:
        import networkx as nx
        G = nx.fast_gnp_random_graph(gg.ER_N, gg.ER_MEAN_DEG / (gg.ER_N - 1), seed=gg.ER_SEED)
        with open(path, "w") as f:
            write(f, gg.ER_N, sorted((min(e), max(e)) for e in G.edges))
    path = todo("ba_n2000.txt")
    if path:
        import networkx as nx
        G = nx.barabasi_albert_graph(gg.BA_N, gg.BA_M, seed=gg.BA_SEED)
        with open(path, "w") as f:
            write(f, gg.BA_N, sorted((min(e), max(e)) for e in G.edges))
    for name, fn in (("cora.txt", cora), ("pubmed.txt", pubmed)):
        path = todo(name)
        if path:
            n, e = fn()
            with open(path, "w") as f:
                write(f, n, e)
    path = todo("dcbm_n%d_k%g.txt" % (a.big_n, a.big_k)) if a.big_n > 0 else None
    if path:
        e, _, _ = gg.dcbm(a.big_n, p["K"], p["p_div_q"], a.big_k, p["gamma"],
                          gg.DCBM_SEED_BASE + 4)
        with open(path, "w") as f:
            write(f, a.big_n, e)
    if a.labelling:
        path = todo("labelling_%d.txt" % a.labelling)
        if path:
            rng = np.random.default_rng(1)
            with open(path, "w") as f:
                for i in range(a.labelling):
                    n = int(rng.integers(100, 2001))
                    q = gg.sample_paper_params(rng)
                    e, _, _ = gg.dcbm(n, q["K"], q["p_div_q"], q["k"], q["gamma"],
                                      int(rng.integers(1 << 31)))
                    write(f, n, e)


if __name__ == "__main__":
    main()
