#!/usr/bin/python3
"""Reference values of the 4 node features and 4 centralities (networkx 2.8.8).

Run:  /usr/bin/python3 tests/ref/make_ref.py      (from anywhere; about 80 s,
      most of it networkx betweenness on the dense 800-node graph)

Writes, next to this script, for every graph NAME:
  NAME.edges.gz   "# n N" line, then one edge "u v" per line (u < v).  A line
                  "# clique LO HI" means every pair inside [LO, HI) is an edge
                  except the pairs listed on "- u v" lines (so dense graphs
                  stay small on disk).
  NAME.nx.tsv.gz  comment lines "#", a header, then one row per node:
                  node degree core ci1 clustering eigenvector betweenness
                  closeness subgraph, floats as %.17g.
  NAME.sclog.tsv.gz  only for graphs whose subgraph centrality overflows a
                  double: node and log(subgraph centrality).
and index.tsv: one line per graph with n, m, components, isolated nodes,
lambda_max, and how far networkx's whole-graph subgraph centrality is from
the per-component one (see "subgraph" below).

Conventions (each is networkx 2.8.8 unless stated):
  degree       G.degree
  core         nx.core_number
  ci1          (deg v - 1) * sum_{u in N(v)} (deg u - 1), a Python loop as in
               the paper; 0 for isolated nodes (empty sum)
  clustering   nx.clustering
  eigenvector  nx.eigenvector_centrality_numpy on the whole graph.  Every
               graph here has one component carrying the largest eigenvalue
               (checked: relative gap > 1e-6), so the vector is unique; on
               the other components networkx returns ARPACK noise (~1e-17)
               where the exact value is 0.
  betweenness  nx.betweenness_centrality(normalized=True)
  closeness    nx.closeness_centrality (wf_improved=True)
  subgraph     nx.subgraph_centrality applied to each connected component
               (nx.subgraph of the component) -- the same definition, since
               e^A is block diagonal.  On the whole graph networkx computes
               exp() of every eigenvalue, so once lambda_max > 709.78 every
               node of every other component gets inf * 0 = NaN (index.tsv
               column whole_vs_comp_maxrel: "inf" for overflow_n800, else the
               largest relative difference between the two, ~1e-12 or less).
               networkx gives inf on every node of a component whose
               exp(lambda_max) overflows, also where the value itself is
               finite; NAME.sclog.tsv.gz then holds the log, from
               numpy.linalg.eigh per component as
               lmax + log(sum_j v_j(w)^2 exp(lambda_j - lmax)).
"""
import sys
sys.dont_write_bytecode = True

import gzip
import math
import os

import networkx as nx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "shared", "data")  # ../shared/data beside the repository


# ---------------------------------------------------------------------------
# graphs
# ---------------------------------------------------------------------------
def dcbm(n, K, gamma, dbar, p_div_q, seed):
    """Degree-corrected SBM, dense O(n^2) sampler (n is small here).

    labels uniform in 0..K-1; theta Pareto(gamma - 1) on [1, inf) normalised
    to mean 1; P_rs = p_in (r == s) or p_in / p_div_q with p_in giving an
    expected mean degree dbar; edge u-v with prob min(1, theta_u theta_v P)."""
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, K, size=n)
    theta = (1.0 - rng.random(n)) ** (-1.0 / (gamma - 1.0))
    theta /= theta.mean()
    P0 = np.full((K, K), 1.0 / p_div_q)
    np.fill_diagonal(P0, 1.0)
    W = np.outer(theta, theta) * P0[lab][:, lab]
    np.fill_diagonal(W, 0.0)
    p_in = dbar * n / W.sum()
    prob = np.minimum(1.0, W * p_in)
    iu, ju = np.triu_indices(n, 1)
    keep = rng.random(iu.size) < prob[iu, ju]
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(iu[keep].tolist(), ju[keep].tolist()))
    return G


def dense_block(n_block, p, extra_nodes, seed):
    """A dense G(n_block, p) block on nodes 0..n_block-1, then extra_nodes
    more nodes: pendant paths of length 1..3 hung off block nodes, a
    triangle, an edge and isolated nodes.  Returns (G, block, missing)."""
    rng = np.random.default_rng(seed)
    G = nx.Graph()
    G.add_nodes_from(range(n_block + extra_nodes))
    iu, ju = np.triu_indices(n_block, 1)
    keep = rng.random(iu.size) < p
    G.add_edges_from(zip(iu[keep].tolist(), ju[keep].tolist()))
    missing = list(zip(iu[~keep].tolist(), ju[~keep].tolist()))
    v = n_block
    end = n_block + extra_nodes
    # a triangle, an edge, two isolated nodes at the end
    tail_start = end - 7
    while v < tail_start:
        length = 1 + (v % 3)
        prev = int(rng.integers(0, n_block))
        for _ in range(length):
            if v >= tail_start:
                break
            G.add_edge(prev, v)
            prev = v
            v += 1
    t = tail_start
    G.add_edges_from([(t, t + 1), (t + 1, t + 2), (t, t + 2), (t + 3, t + 4)])
    return G, (0, n_block), missing


def cora_first(k):
    """Induced subgraph of Cora on the first k distinct paper ids in
    cora.cites line order (self-loops dropped, direction ignored)."""
    order, seen, edges = [], {}, []
    with open(os.path.join(DATA, "cora/cora.cites")) as f:
        for line in f:
            a, b = line.split()
            edges.append((a, b))
            for x in (a, b):
                if x not in seen and len(order) < k:
                    seen[x] = len(order)
                    order.append(x)
    G = nx.Graph()
    G.add_nodes_from(range(len(order)))
    for a, b in edges:
        if a in seen and b in seen and a != b:
            G.add_edge(seen[a], seen[b])
    return G


def imdb(graph_ids):
    """IMDB-BINARY ego-nets (1-based graph ids), nodes relabelled 0..n-1."""
    gid = np.loadtxt(os.path.join(DATA, "imdb-binary/IMDB-BINARY_graph_indicator.txt"),
                     dtype=np.int64)
    with gzip.open(os.path.join(DATA, "imdb-binary/IMDB-BINARY_A.txt.gz"), "rt") as f:
        A = np.loadtxt(f, delimiter=",", dtype=np.int64)
    out = {}
    for g in graph_ids:
        nodes = np.nonzero(gid == g)[0] + 1      # 1-based global ids
        base = nodes.min()
        G = nx.Graph()
        G.add_nodes_from(range(nodes.size))
        sel = (gid[A[:, 0] - 1] == g)
        for u, v in A[sel]:
            if u != v:
                G.add_edge(int(u - base), int(v - base))
        out[g] = G
    return out


# ---------------------------------------------------------------------------
# reference values
# ---------------------------------------------------------------------------
def ci1(G):
    d = dict(G.degree)
    return {v: (d[v] - 1) * sum(d[u] - 1 for u in G[v]) if d[v] > 0 else 0 for v in G}


def subgraph_per_component(G):
    """networkx subgraph_centrality on each component, plus the log value
    from numpy eigh (finite where networkx overflows)."""
    sc, lg, lam = {}, {}, {}
    for comp in nx.connected_components(G):
        H = G.subgraph(comp)
        with np.errstate(over="ignore"):
            sc.update(nx.subgraph_centrality(H))
        nodes = list(H)
        A = nx.to_numpy_array(H, nodes)
        w, V = np.linalg.eigh(A)
        lmax = w[-1]
        s = (V ** 2) @ np.exp(w - lmax)
        for i, v in enumerate(nodes):
            lg[v] = lmax + math.log(s[i])
            lam[v] = lmax
    return sc, lg, lam


def check_unique_top(G):
    lams = []
    for comp in nx.connected_components(G):
        H = G.subgraph(comp)
        if H.number_of_nodes() == 1:
            lams.append(0.0)
            continue
        lams.append(float(np.linalg.eigvalsh(nx.to_numpy_array(H))[-1]))
    lams.sort(reverse=True)
    if len(lams) > 1 and lams[0] - lams[1] <= 1e-6 * max(1.0, lams[0]):
        raise SystemExit("largest eigenvalue is shared by two components: "
                         "eigenvector centrality is not unique, pick another seed")
    return lams[0]


def write_edges(name, G, clique=None, missing=None):
    path = os.path.join(HERE, name + ".edges.gz")
    with gzip.GzipFile(path, "wb", mtime=0) as raw:
        lines = ["# n %d" % G.number_of_nodes()]
        if clique is None:
            lines += ["%d %d" % (min(u, v), max(u, v)) for u, v in sorted(
                (min(e), max(e)) for e in G.edges)]
        else:
            lo, hi = clique
            lines.append("# clique %d %d" % (lo, hi))
            lines += ["- %d %d" % e for e in sorted(missing)]
            lines += ["%d %d" % e for e in sorted((min(e), max(e)) for e in G.edges)
                      if not (lo <= e[0] < hi and lo <= e[1] < hi)]
        raw.write(("\n".join(lines) + "\n").encode())


def write_ref(name, G, note, clique=None, missing=None):
    print("%s: n=%d m=%d" % (name, G.number_of_nodes(), G.number_of_edges()), flush=True)
    lam_top = check_unique_top(G)
    write_edges(name, G, clique, missing)
    deg = dict(G.degree)
    core = nx.core_number(G)
    ci = ci1(G)
    cc = nx.clustering(G)
    ev = nx.eigenvector_centrality_numpy(G)
    bc = nx.betweenness_centrality(G, normalized=True)
    cl = nx.closeness_centrality(G)
    sc, lg, _ = subgraph_per_component(G)
    with np.errstate(over="ignore"):
        whole = nx.subgraph_centrality(G)
    dev = 0.0
    for v in G:
        a, b = whole[v], sc[v]
        if math.isfinite(a) and math.isfinite(b):
            dev = max(dev, abs(a - b) / abs(b))
        elif a != b:
            dev = math.inf
    overflow = any(not math.isfinite(x) for x in sc.values())
    path = os.path.join(HERE, name + ".nx.tsv.gz")
    with gzip.GzipFile(path, "wb", mtime=0) as raw:
        out = ["# %s" % note,
               "# networkx %s, numpy %s; subgraph per connected component" %
               (nx.__version__, np.__version__),
               "node\tdegree\tcore\tci1\tclustering\teigenvector\tbetweenness"
               "\tcloseness\tsubgraph"]
        for v in range(G.number_of_nodes()):
            out.append("%d\t%d\t%d\t%d\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g" % (
                v, deg[v], core[v], ci[v], cc[v], ev[v], bc[v], cl[v], sc[v]))
        raw.write(("\n".join(out) + "\n").encode())
    if overflow:
        path = os.path.join(HERE, name + ".sclog.tsv.gz")
        with gzip.GzipFile(path, "wb", mtime=0) as raw:
            out = ["# log of subgraph centrality, numpy.linalg.eigh per component",
                   "node\tsubgraph_log"]
            out += ["%d\t%.17g" % (v, lg[v]) for v in range(G.number_of_nodes())]
            raw.write(("\n".join(out) + "\n").encode())
    ncomp = nx.number_connected_components(G)
    iso = sum(1 for v in G if deg[v] == 0)
    return "%s\t%d\t%d\t%d\t%d\t%.6g\t%.3g\t%s" % (
        name, G.number_of_nodes(), G.number_of_edges(), ncomp, iso, lam_top, dev,
        "yes" if overflow else "no")


def main():
    rows = ["name\tn\tm\tcomponents\tisolated\tlambda_max\twhole_vs_comp_maxrel"
            "\tsubgraph_overflow"]
    specs = [
        ("dcbm_n60", dict(n=60, K=2, gamma=6.0, dbar=10.0, p_div_q=3.0, seed=14)),
        ("dcbm_n120", dict(n=120, K=3, gamma=3.0, dbar=6.0, p_div_q=4.0, seed=11)),
        ("dcbm_sparse_n250", dict(n=250, K=5, gamma=2.5, dbar=1.5, p_div_q=5.0, seed=12)),
        ("dcbm_hub_n300", dict(n=300, K=4, gamma=2.05, dbar=8.0, p_div_q=3.5, seed=13)),
    ]
    for name, kw in specs:
        G = dcbm(**kw)
        rows.append(write_ref(name, G, "DCBM %s" % kw))
    G, blk, miss = dense_block(160, 0.9, 60, seed=21)
    rows.append(write_ref("dense_n220", G, "dense G(160, 0.9) block + pendant paths, "
                          "a triangle, an edge, isolated nodes (lambda_max > 100)",
                          blk, miss))
    G, blk, miss = dense_block(740, 0.985, 60, seed=22)
    rows.append(write_ref("overflow_n800", G, "dense G(740, 0.985) block + pendant paths, "
                          "a triangle, an edge, isolated nodes (subgraph centrality "
                          "past DBL_MAX on the block)", blk, miss))
    rows.append(write_ref("cora_first400", cora_first(400),
                          "Cora: induced subgraph on the first 400 paper ids of cora.cites"))
    for g, G in imdb([1, 2, 453]).items():
        rows.append(write_ref("imdb_g%d" % g, G, "IMDB-BINARY graph %d" % g))
    with open(os.path.join(HERE, "index.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
