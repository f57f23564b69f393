#!/usr/bin/python3
"""Graphs for bench/features_bench.sh, written as "# n N" + "u v" lines.

  /usr/bin/python3 bench/features_graphs.py OUTDIR [--labelling COUNT]

Uses the peer benchmark's generator (gen_graphs.py of the peer harness,
directory $PEER_BENCH, default ../shared/bench beside the repository) so that the graphs are the
very graphs of its peers.md timings: DCBM n = 100, 500, 2000, 10000 (K=5,
p/q=4, k=1, gamma=3, seeds 20240+i), ER and BA n = 2000.
--labelling COUNT also writes OUTDIR/labelling.txt: COUNT DCBM graphs with
n uniform in 100..2000 and (K, p/q, k, gamma) drawn from the paper's ranges
(sample_paper_params), seed 1, all in one file.
"""
import sys
sys.dont_write_bytecode = True

import argparse
import os

import numpy as np

sys.path.insert(0, os.environ.get("PEER_BENCH", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "bench")))
import gen_graphs as gg  # noqa: E402


def write(f, n, edges):
    f.write("# n %d\n" % n)
    np.savetxt(f, np.asarray(edges, dtype=np.int64).reshape(-1, 2), fmt="%d")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--labelling", type=int, default=0)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    p = gg.BENCH_PARAMS
    for i, n in enumerate(gg.DCBM_SIZES[:4]):
        e, _, _ = gg.dcbm(n, p["K"], p["p_div_q"], p["k"], p["gamma"], gg.DCBM_SEED_BASE + i)
        with open(os.path.join(a.outdir, "dcbm_n%d.txt" % n), "w") as f:
            write(f, n, e)
    import networkx as nx
    G = nx.fast_gnp_random_graph(gg.ER_N, gg.ER_MEAN_DEG / (gg.ER_N - 1), seed=gg.ER_SEED)
    with open(os.path.join(a.outdir, "er_n2000.txt"), "w") as f:
        write(f, gg.ER_N, sorted((min(e), max(e)) for e in G.edges))
    G = nx.barabasi_albert_graph(gg.BA_N, gg.BA_M, seed=gg.BA_SEED)
    with open(os.path.join(a.outdir, "ba_n2000.txt"), "w") as f:
        write(f, gg.BA_N, sorted((min(e), max(e)) for e in G.edges))
    if a.labelling:
        rng = np.random.default_rng(1)
        with open(os.path.join(a.outdir, "labelling.txt"), "w") as f:
            for i in range(a.labelling):
                n = int(rng.integers(100, 2001))
                q = gg.sample_paper_params(rng)
                e, _, _ = gg.dcbm(n, q["K"], q["p_div_q"], q["k"], q["gamma"],
                                  int(rng.integers(1 << 31)))
                write(f, n, e)


if __name__ == "__main__":
    main()
