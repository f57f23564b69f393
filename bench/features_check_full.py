#!/usr/bin/python3
"""Agreement of our 8 quantities with networkx 2.8.8 on the full Cora and
Pubmed graphs (too big for tests/ref/, so checked by hand with this script).

  /usr/bin/python3 bench/features_check_full.py BENCH_BIN OUTDIR [cora] [pubmed]

BENCH_BIN is the features_bench binary (bench/features_bench.sh builds it);
OUTDIR receives the edge lists, networkx's values (cached: delete to redo) and
ours.  Our side runs exact (features_bench dump -x 1000000000).  networkx:
degree, core_number, CI_1 loop, clustering, eigenvector_centrality_numpy,
betweenness_centrality(normalized=True), closeness_centrality,
subgraph_centrality per connected component (see tests/ref/make_ref.py).
Pubmed takes long: networkx betweenness ~10 min, its dense eigh of the
19717-node component ~15 min and ~10 GB, ours the same order.

Prints per column: max relative difference per node (values below 1e-6 of
the column maximum compared absolutely, as tests/unit/ref_util.h does) and
max |diff| / max |networkx| (the bench agreement measure).
"""
import sys
sys.dont_write_bytecode = True

import math
import os
import subprocess
import time

import networkx as nx
import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
COLS = ["degree", "core", "ci1", "clustering", "eigenvector", "betweenness",
        "closeness", "subgraph"]


def cora():
    ids, edges = {}, []
    with open(os.path.join(DATA, "cora/cora.cites")) as f:
        for line in f:
            a, b = line.split()
            for x in (a, b):
                ids.setdefault(x, len(ids))
            if a != b:
                edges.append((ids[a], ids[b]))
    G = nx.Graph()
    G.add_nodes_from(range(len(ids)))
    G.add_edges_from(edges)
    return G


def pubmed():
    with open(os.path.join(DATA, "pubmed/pubmed.planetoid.labels")) as f:
        n = sum(1 for _ in f)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    with open(os.path.join(DATA, "pubmed/pubmed.planetoid.edges")) as f:
        for line in f:
            a, b = map(int, line.split())
            if a != b:
                G.add_edge(a, b)
    return G


def nx_values(G, path):
    if os.path.exists(path):
        return np.loadtxt(path, skiprows=1)[:, 1:]
    t = {}
    t0 = time.time()
    deg = dict(G.degree)
    core = nx.core_number(G)
    ci = {v: (deg[v] - 1) * sum(deg[u] - 1 for u in G[v]) if deg[v] else 0 for v in G}
    cc = nx.clustering(G)
    t["features"] = time.time() - t0
    t0 = time.time()
    ev = nx.eigenvector_centrality_numpy(G)
    t["eigenvector"] = time.time() - t0
    t0 = time.time()
    bc = nx.betweenness_centrality(G, normalized=True)
    t["betweenness"] = time.time() - t0
    t0 = time.time()
    cl = nx.closeness_centrality(G)
    t["closeness"] = time.time() - t0
    t0 = time.time()
    sc = {}
    for comp in nx.connected_components(G):
        with np.errstate(over="ignore"):
            sc.update(nx.subgraph_centrality(G.subgraph(comp)))
    t["subgraph"] = time.time() - t0
    print("networkx seconds:", {k: round(v, 1) for k, v in t.items()}, flush=True)
    with open(path, "w") as f:
        f.write("node\t" + "\t".join(COLS) + "\n")
        for v in range(G.number_of_nodes()):
            f.write("%d\t%d\t%d\t%d\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n" % (
                v, deg[v], core[v], ci[v], cc[v], ev[v], bc[v], cl[v], sc[v]))
    return np.loadtxt(path, skiprows=1)[:, 1:]


def compare(name, ours, ref):
    print("== %s (n=%d)" % (name, ref.shape[0]))
    print("column\tmax_rel_per_node\tmaxabs/max\tworst_node")
    for k, c in enumerate(COLS):
        a, b = ours[:, k], ref[:, k]
        fin = np.isfinite(b)
        scale = np.max(np.abs(b[fin])) if fin.any() else 0.0
        den = np.maximum(np.abs(b), 1e-6 * scale)
        rel = np.where(fin, np.abs(a - b) / np.where(den > 0, den, 1), 0.0)
        i = int(np.argmax(rel))
        print("%s\t%.3g\t%.3g\t%d" % (c, rel.max(), np.max(np.abs(a - b)[fin]) / scale
                                      if scale else 0.0, i))


def main():
    binary, out = sys.argv[1], sys.argv[2]
    which = sys.argv[3:] or ["cora", "pubmed"]
    os.makedirs(out, exist_ok=True)
    for name in which:
        G = {"cora": cora, "pubmed": pubmed}[name]()
        edges = os.path.join(out, name + ".txt")
        with open(edges, "w") as f:
            f.write("# n %d\n" % G.number_of_nodes())
            for u, v in G.edges:
                f.write("%d %d\n" % (u, v))
        print("%s: n=%d m=%d components=%d" % (name, G.number_of_nodes(), G.number_of_edges(),
                                               nx.number_connected_components(G)), flush=True)
        ref = nx_values(G, os.path.join(out, name + ".networkx.tsv"))
        mine = os.path.join(out, name + ".ours.tsv")
        t0 = time.time()
        with open(mine, "w") as f:
            subprocess.run([binary, "-x", "1000000000", "dump", edges], stdout=f, check=True)
        print("ours: %.1f s wall" % (time.time() - t0))
        ours = np.loadtxt(mine, skiprows=1)[:, 1:9]
        compare(name, ours, ref)


if __name__ == "__main__":
    main()
