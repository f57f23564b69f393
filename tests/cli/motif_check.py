#!/usr/bin/python3
"""motif_check.py - an independent check of `motif-gen -t` output.

    motif_check.py GRAPHS.txt

GRAPHS.txt is motif-gen's text form with no noise (--add-edges 0
--remove-edges 0).  For every graph, with networkx and nothing of
motif-gen's code:
  - the 'label' and 'motif' tensors have a row per node; class 0 is
    exactly the nodes of motif -1 (the base);
  - each motif's nodes induce a graph isomorphic to networkx's own motif
    of its kind (house_graph, house_x_graph, cycle_graph, star_graph,
    grid_2d_graph, complete_graph, a fan built here), named by its class
    names;
  - within a motif, two nodes share a class exactly when an automorphism
    of the motif (networkx's GraphMatcher) maps one onto the other;
  - exactly one edge leaves each motif, to a base node;
  - the base is a cycle, a tree or a BA graph of the stated size.
Prints one line per graph; exits 1 at the first failure, naming it.
"""
import re
import sys

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher


def records(path):
    """[(header dict, kind, body lines)] of a text-form stream."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("##"):
                continue
            if line.startswith("@"):
                kind = line.split()[0][1:]
                kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
                out.append((kv, kind, []))
            elif out:
                out[-1][2].append(line)
    return out


def fan(k):
    g = nx.path_graph(range(1, k + 1))
    g.add_edges_from((0, i) for i in range(1, k + 1))
    return g


def reference(name):
    """networkx's graph of a motif named as in class_names ("star6")."""
    m = re.fullmatch(r"([a-z-]+?)(\d*)", name)
    kind, k = m.group(1), int(m.group(2) or 0)
    return {
        "house": lambda: nx.house_graph(),
        "house-x": lambda: nx.house_x_graph(),
        "cycle": lambda: nx.cycle_graph(k),
        "star": lambda: nx.star_graph(k),
        "fan": lambda: fan(k),
        "grid": lambda: nx.grid_2d_graph(k, k),
        "clique": lambda: nx.complete_graph(k),
    }[kind]()


def orbits(g):
    """node -> frozenset of its orbit under the automorphisms of g."""
    orb = {v: {v} for v in g}
    for iso in GraphMatcher(g, g).isomorphisms_iter():
        for a, b in iso.items():
            orb[a].add(b)
    return {v: frozenset(s) for v, s in orb.items()}


def check_graph(hdr, edges, label, motif):
    n = int(hdr["nodes"])
    names = hdr["class_names"].split(",")
    assert len(names) == int(hdr["classes"]), "classes= and class_names= disagree"
    assert len(label) == n and len(motif) == n, "tensor rows != nodes"
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    assert G.number_of_edges() == len(edges), "repeated edges"
    base = [v for v in range(n) if motif[v] == -1]
    assert all(label[v] == 0 for v in base), "a base node is not class 0"
    assert all(label[v] != 0 for v in range(n) if motif[v] != -1), "a motif node is class 0"
    B = int(hdr["base_nodes"])
    assert base == list(range(B)), "the base is not nodes 0..B-1"
    H = G.subgraph(base)
    kind = hdr["base"]
    if kind == "cycle":
        assert nx.is_isomorphic(H, nx.cycle_graph(B)), "base is not a cycle"
    elif kind == "tree":
        assert nx.is_tree(H), "base is not a tree"
    else:
        m = int(hdr["ba_m"])
        assert H.number_of_edges() == m * (B - m) and nx.is_connected(H), "BA base size"
    groups = {}
    for v in range(n):
        if motif[v] >= 0:
            groups.setdefault(motif[v], []).append(v)
    for idx, nodes in groups.items():
        S = G.subgraph(nodes)
        prefix = {names[label[v]].split("_", 1)[0] for v in nodes}
        assert len(prefix) == 1, f"motif {idx}: classes of several kinds {prefix}"
        ref = reference(prefix.pop())
        assert nx.is_isomorphic(S, ref), f"motif {idx}: not the motif its classes name"
        orb = orbits(S)
        for a in nodes:
            for b in nodes:
                if (label[a] == label[b]) != (b in orb[a]):
                    raise AssertionError(f"motif {idx}: nodes {a}, {b}: classes "
                                         f"{label[a]}, {label[b]} but orbit says otherwise")
        out = [(a, b) for a in nodes for b in G[a] if b not in S]
        assert len(out) == 1 and out[0][1] < B, f"motif {idx}: edges leaving it {out}"
    return len(groups)


def main():
    recs = records(sys.argv[1])
    i, checked = 0, 0
    while i < len(recs):
        hdr, kind, body = recs[i]
        if kind != "graph":
            i += 1
            continue
        edges = [tuple(int(x) for x in ln.split()[:2]) for ln in body if ln.strip()]
        tens = {}
        i += 1
        while i < len(recs) and recs[i][1] == "tensor":
            tens[recs[i][0]["name"]] = [int(x) for x in recs[i][2] if x.strip()]
            i += 1
        try:
            motifs = check_graph(hdr, edges, tens["label"], tens["motif"])
        except (AssertionError, KeyError) as e:
            print(f"motif_check: graph {hdr['id']}: {e}")
            sys.exit(1)
        print(f"graph {hdr['id']}: {hdr['nodes']} nodes, {motifs} motifs: ok")
        checked += 1
    if checked == 0:
        print("motif_check: no graph")
        sys.exit(1)


main()
