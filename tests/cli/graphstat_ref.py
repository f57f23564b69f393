#!/usr/bin/python3
"""graphstat_ref.py - an independent reference for `graphstat`.

    graphstat_ref.py OUT.txt [RTOL]

OUT.txt is `graphstat -t` output: the graphs and, after each, its
graphstat record (one row, per=graph).  For every graph it computes the 14
statistics with networkx (density, degree_assortativity_coefficient,
transitivity, average_clustering, connected_components, diameter,
average_shortest_path_length, the eigenvalues of
normalized_laplacian_matrix by numpy) and numpy,
and compares each with graphstat's: |ours - ref| <= RTOL * max(|ours|,
|ref|) (default 1e-9; zeros must be zeros).

Assortativity is also computed exactly, in rational arithmetic (Pearson's
r over the ordered edge ends), and that is its reference: where the exact
value is 0 networkx's rounding leaves some 1e-15, which no relative test
can match.  networkx's own value must agree with the exact one to RTOL
relative or 1e-12 absolute, or be NaN where the exact one is undefined
(graphstat writes 0 there, and lists the column in the record's
`undefined` attribute).

The diameter and mean distance of a largest component past 1000 nodes
come from scipy.sparse.csgraph.shortest_path (breadth-first, in C) with
networkx's definitions: networkx's own loops take a minute on Cora.

A record with paths=estimated is checked as graphstat(1) states it: its
diameter is a lower bound of the exact one, and its mean distance is
within 5 standard errors (mean_path_se) of the exact one.

Prints one line per graph and exits 1 on a mismatch, naming the first.
It shares no code with graphstat.
"""
import math
import os
import sys
import warnings
from fractions import Fraction

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the tests share the cores
import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402

from gstext import graphs  # noqa: E402

NAMES = ["log_nodes", "log_edges", "density", "log_mean_degree", "degree_cv",
         "log_max_degree", "assortativity", "transitivity", "clustering",
         "log_components", "lcc_share", "log_diameter", "log_mean_path", "spectral_gap"]


def records(path):
    """(attributes, values) of every graphstat record, in order."""
    out, want = [], None
    with open(path) as f:
        for line in f:
            if want is not None:
                out.append((want, [float(x) for x in line.split()]))
                want = None
            elif line.startswith("@tensor ") and " name=graphstat " in line:
                want = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
    return out


def paths(lcc):
    """Diameter and mean distance of a connected graph (networkx's
    diameter and average_shortest_path_length)."""
    nc = lcc.number_of_nodes()
    if nc <= 1000:
        return nx.diameter(lcc), nx.average_shortest_path_length(lcc)
    from scipy.sparse.csgraph import shortest_path
    d = shortest_path(nx.to_scipy_sparse_array(lcc, format="csr"), unweighted=True)
    return int(d.max()), float(d.sum()) / (nc * (nc - 1))


def exact_assortativity(G):
    """Pearson's r of the degrees at the two ends of every ordered edge, or
    None where it is undefined (no edge, one degree at every end)."""
    deg = dict(G.degree())
    pairs = [(deg[u], deg[v]) for u, v in G.edges()]
    pairs += [(b, a) for a, b in pairs]
    if not pairs:
        return None
    k = len(pairs)
    mx = Fraction(sum(a for a, _ in pairs), k)
    var = Fraction(sum(a * a for a, _ in pairs), k) - mx * mx
    cov = Fraction(sum(a * b for a, b in pairs), k) - mx * mx
    return None if var == 0 else float(cov / var)


def reference(n, edges):
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    m = G.number_of_edges()
    deg = np.array([G.degree(v) for v in range(n)], dtype=float)
    comps = list(nx.connected_components(G))
    lcc = G.subgraph(max(comps, key=len))
    nc = lcc.number_of_nodes()
    # networkx normalized_laplacian_spectrum is scipy's eigvalsh of this
    # matrix, whose default driver takes 20 s on Cora; numpy's takes 3
    L = nx.normalized_laplacian_matrix(lcc).toarray()
    gap = np.linalg.eigvalsh(L)[1] if nc > 1 else 0.0
    r = exact_assortativity(G)
    diameter, mean_path = paths(lcc)
    ref = {
        "log_nodes": math.log1p(n),
        "log_edges": math.log1p(m),
        "density": nx.density(G),
        "log_mean_degree": math.log1p(deg.mean()),
        "degree_cv": deg.std() / deg.mean() if m else 0.0,
        "log_max_degree": math.log1p(deg.max()),
        "assortativity": 0.0 if r is None else r,
        "transitivity": nx.transitivity(G),
        "clustering": nx.average_clustering(G),
        "log_components": math.log1p(len(comps)),
        "lcc_share": nc / n,
        "log_diameter": math.log1p(diameter),
        "log_mean_path": math.log1p(mean_path),
        "spectral_gap": gap,
    }
    return G, r, ref


def fail(msg):
    print(f"graphstat_ref: {msg}")
    sys.exit(1)


def check_networkx_assortativity(gid, G, r, rtol):
    if G.number_of_edges() == 0:
        return
    with np.errstate(all="ignore"):
        nxr = nx.degree_assortativity_coefficient(G)
    if r is None:
        if not math.isnan(nxr):
            fail(f"graph {gid}: networkx assortativity {nxr!r} where it is undefined")
    elif abs(nxr - r) > max(rtol * max(abs(nxr), abs(r)), 1e-12):
        fail(f"graph {gid}: networkx assortativity {nxr!r}, exact {r!r}")


def main():
    warnings.filterwarnings("ignore", category=FutureWarning)  # networkx 2.8's scipy notes
    rtol = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-9
    gs = graphs(sys.argv[1])
    recs = records(sys.argv[1])
    if not gs or len(gs) != len(recs):
        fail(f"{len(gs)} graphs, {len(recs)} graphstat records")
    for (gid, n, edges), (attrs, ours) in zip(gs, recs):
        if int(attrs["id"]) != gid:
            fail(f"graph {gid}: graphstat record of graph {attrs['id']}")
        if (attrs.get("per"), attrs.get("rows"), attrs.get("type"), attrs.get("columns")) != \
                ("graph", "1", "f64", ",".join(NAMES)) or len(ours) != len(NAMES):
            fail(f"graph {gid}: record {attrs}, {len(ours)} values")
        G, r, ref = reference(n, edges)
        check_networkx_assortativity(gid, G, r, rtol)
        undefined = set(attrs.get("undefined", "").split(",")) - {""}
        want_undefined = {"assortativity"} if r is None else set()
        if nx.number_of_nodes(G.subgraph(max(nx.connected_components(G), key=len))) < 2:
            want_undefined.add("spectral_gap")
        if undefined != want_undefined:
            fail(f"graph {gid}: undefined={sorted(undefined)}, want {sorted(want_undefined)}")
        estimated = attrs.get("paths") == "estimated"
        worst = 0.0
        for name, x in zip(NAMES, ours):
            y = ref[name]
            if estimated and name == "log_diameter":
                if x > y:
                    fail(f"graph {gid}: diameter bound {math.expm1(x)} > {math.expm1(y)}")
                continue
            if estimated and name == "log_mean_path":
                se = float(attrs["mean_path_se"])
                if abs(math.expm1(x) - math.expm1(y)) > 5 * se:
                    fail(f"graph {gid}: mean distance {math.expm1(x)!r}, exact "
                         f"{math.expm1(y)!r}, standard error {se}")
                continue
            if abs(x - y) > rtol * max(abs(x), abs(y)):
                fail(f"graph {gid}: {name}: graphstat {x!r}, reference {y!r}")
            if max(abs(x), abs(y)) > 0:
                worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
        print(f"graph {gid}: {n} nodes{' (paths estimated)' if estimated else ''}: "
              f"max relative difference {worst:.3g}")


if __name__ == "__main__":
    main()
