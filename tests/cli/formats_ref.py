"""formats_ref.py FORMAT FILE STREAM - check graph-import's reading of a
graph file (STREAM: its output in text form, `graph-import -t`) against an
independent reading of FILE: python-igraph's own reader for GraphML, GML,
Pajek, LGL, NCOL and DIMACS, scipy.io.mmread for Matrix Market (mtx).

Checked: the node count; the names in node order (GraphML's node ids,
GML's labels where every node has one else its ids, Pajek's labels with an
unlabelled vertex named by its number, LGL's and NCOL's names; none for
DIMACS and mtx); the edge set, by name where there are names, as
undirected pairs without self-loops (mtx: the nonzeros off the diagonal);
the stream's edges each once with u < v; the 'attributes' columns against
igraph's node attributes of the same names (float32).  Prints one 'ok'
line, or what differs and exits 1.
"""
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")  # igraph's warnings of the files it reads


def read_stream(path):
    """(n, edges, names or None, {column: values}) of the stream's graph 0."""
    n, edges, names, attrs = None, [], None, {}
    kind, cols, rows = None, [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("##"):
                continue
            if line.startswith("@"):
                if kind == "attributes":
                    a = np.array(rows, dtype=np.float32).reshape(len(rows), len(cols))
                    attrs = {c: a[:, j] for j, c in enumerate(cols)}
                w = line.split()
                kv = dict(x.split("=", 1) for x in w[1:] if "=" in x)
                kind = None
                if w[0] == "@graph":
                    n, kind = int(kv["nodes"]), "graph"
                elif w[0] == "@names":
                    names, kind = [], "names"
                elif w[0] == "@tensor" and kv.get("name") == "attributes":
                    cols, rows, kind = kv["columns"].split(","), [], "attributes"
                continue
            if kind == "graph":
                u, v = line.split("\t")[:2]
                edges.append((int(u), int(v)))
            elif kind == "names":
                names.append(line)
            elif kind == "attributes":
                rows.append([float(x) for x in line.split("\t")])
    return n, edges, names, attrs


def igraph_reading(fmt, path):
    """(n, undirected edges as index pairs, names or None, igraph graph)."""
    import igraph

    if fmt == "graphml":
        g = igraph.Graph.Read_GraphML(path)
    elif fmt == "gml":
        g = igraph.Graph.Read_GML(path)
    elif fmt == "pajek":
        g = igraph.Graph.Read_Pajek(path)
    elif fmt == "lgl":
        g = igraph.Graph.Read_Lgl(path, names=True, weights="if_present", directed=False)
    elif fmt == "ncol":
        g = igraph.Graph.Read_Ncol(path, names=True, weights="if_present", directed=False)
    elif fmt == "dimacs":
        g = igraph.Graph.Read_DIMACS(path, directed=True)
    else:
        raise SystemExit("formats_ref.py: unknown format " + fmt)
    va = g.vs.attributes()
    names = None
    if fmt == "graphml":
        names = list(g.vs["id"])
    elif fmt == "gml":
        if "label" in va and all(x for x in g.vs["label"]):
            names = list(g.vs["label"])
        else:
            names = [format(x, ".17g") for x in g.vs["id"]]
    elif fmt == "pajek" and "name" in va:
        names = [x if x else str(i + 1) for i, x in enumerate(g.vs["name"])]
    elif fmt in ("lgl", "ncol"):
        names = list(g.vs["name"])
    return g.vcount(), g.get_edgelist(), names, g


def scipy_reading(path):
    """(n, nonzeros off the diagonal as index pairs) by scipy.io.mmread."""
    import scipy.io

    a = scipy.io.mmread(path).tocoo()
    if a.shape[0] != a.shape[1]:
        raise SystemExit("formats_ref.py: scipy reads a %d x %d matrix" % a.shape)
    keep = (a.row != a.col) & (a.data != 0)
    return a.shape[0], list(zip(a.row[keep].tolist(), a.col[keep].tolist())), None, None


def pairs(edges, names):
    """The undirected pairs without self-loops, by name where there are names."""
    key = (lambda i: names[i]) if names is not None else (lambda i: i)
    return {frozenset((key(u), key(v))) for u, v in edges if u != v}


def main():
    if len(sys.argv) != 4:
        raise SystemExit("usage: formats_ref.py FORMAT FILE STREAM")
    fmt, path, stream = sys.argv[1:]
    n, edges, names, attrs = read_stream(stream)
    if fmt == "mtx":
        rn, redges, rnames, g = scipy_reading(path)
    else:
        rn, redges, rnames, g = igraph_reading(fmt, path)
    bad = []
    if n != rn:
        bad.append("nodes: graph-import %s, reference %s" % (n, rn))
    if names != rnames:
        bad.append("names: graph-import %s, reference %s" % (names, rnames))
    if any(u >= v for u, v in edges) or len(set(edges)) != len(edges):
        bad.append("the stream's edges are not each once with u < v")
    if not bad:
        ours, ref = pairs(edges, names), pairs(redges, rnames)
        if ours != ref:
            bad.append("edges only in graph-import's: %s; only in the reference: %s"
                       % (sorted(map(sorted, ours - ref))[:5], sorted(map(sorted, ref - ours))[:5]))
    for c, x in attrs.items():
        want = np.array(g.vs[c], dtype=np.float64).astype(np.float32)
        if not np.array_equal(x, want):
            bad.append("attribute %s: graph-import %s, igraph %s" % (c, x, want))
    if bad:
        print("formats_ref.py: %s %s: %s" % (fmt, path, "; ".join(bad)))
        sys.exit(1)
    print("ok %s %s: %d nodes, %d edges, %s, attributes %s"
          % (fmt, path, n, len(edges), "names" if names else "no names",
             ",".join(attrs) or "none"))


if __name__ == "__main__":
    main()
