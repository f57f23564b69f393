"""pypkg_check.py - the checks of tests/cli/pypkg.test.sh: the package
gnnpipe (python/gnnpipe) against the programs.  Each subcommand exits 0,
or prints one line "pypkg_check: what differs" and exits 1.

    nx-write DIR            networkx graphs (names, classes, labels,
                            tensors) written by from_networkx + write
    nx-back DIR             the stream the programs passed on, read back by
                            to_networkx: the graphs written, as they were
    gml FILE.gml FILE.gs    networkx's GML and graph-import --label of it:
                            the same names and classes
    bad DIR                 bad input: one-line ValueError, nothing written
    pyg DIR                 to_pyg's layout (PyG's, or the plain fallback)
    features DIR M A C      the feature stage from Python = the programs'
    head MODEL PRED GRAPHS  an adapted model in PyTorch = gcn-adapt --predict
    nopath                  a program not in PATH: FileNotFoundError, one line
"""
import os
import sys

import numpy as np

import gnnpipe
import gnnstream


def fail(msg):
    print("pypkg_check: %s" % msg)
    sys.exit(1)


def want(cond, msg):
    if not cond:
        fail(msg)


def graphs_made():
    """Two networkx graphs with what travels: non-ASCII names with blanks,
    a text class with a node without one, an int column, a float column,
    a vector, graph labels (int and text), edge labels."""
    import networkx as nx
    G = nx.Graph()
    names = ["Zoë Müller", "TexasA&M", "7", "a b", "Ωmega", "x"]
    G.add_nodes_from(names)
    G.add_edges_from([(names[0], names[1]), (names[1], names[2]), (names[2], names[3]),
                      (names[3], names[4]), (names[4], names[0]), (names[5], names[0])])
    for i, n in enumerate(names):
        if i != 3:
            G.nodes[n]["club"] = ["officer", "Mr. Hi", "officer"][i % 3]
        G.nodes[n]["year"] = 1990 + i
        G.nodes[n]["w"] = 0.5 * i
        G.nodes[n]["pos"] = np.array([i, -i], np.float64)
    for k, (u, v) in enumerate(G.edges):
        G.edges[u, v]["rating"] = 1 + k % 5
    G.graph["kind"] = "social"
    G.graph["size"] = 6
    H = nx.path_graph(4)  # nodes 0..3: no names record
    H.graph["kind"] = "path"
    H.graph["size"] = 4
    for v in H:
        H.nodes[v]["club"] = "officer"
        H.nodes[v]["year"] = v
        H.nodes[v]["w"] = 1.0
        H.nodes[v]["pos"] = np.zeros(2)
    for u, v in H.edges:
        H.edges[u, v]["rating"] = 2
    return [G, H]


def nx_write(d):
    Gs = graphs_made()
    gs = gnnpipe.from_networkx(Gs, edge_label="rating")
    want([g.id for g in gs] == [0, 1], "ids %s" % [g.id for g in gs])
    want(gs[0].names == list(Gs[0].nodes) and gs[1].names is None,
         "names: %s %s" % (gs[0].names, gs[1].names))
    club = gs[0].tensors["club"]
    # classes over both graphs, sorted: "Mr. Hi" 0, "officer" 1; node 3 has none
    want(club.attrs["class_names"] == "Mr. Hi,officer" and club.attrs["classes"] == "2",
         "class names %s" % club.attrs)
    want(club.data[:, 0].tolist() == [1, 0, 1, -1, 0, 1], "classes %s" % club.data[:, 0])
    want(gs[0].tensors["year"].data.dtype == np.int32 and gs[0].tensors["w"].data.dtype ==
         np.float64 and gs[0].tensors["pos"].data.shape == (6, 2), "tensor types")
    gnnpipe.write(os.path.join(d, "nx.gs"), gs)
    gnnpipe.write(os.path.join(d, "nx.txt"), Gs, text=True)  # straight from networkx
    gnnpipe.write(os.path.join(d, "nx-el.gs"), gs)


def same_graph(A, B, what):
    want(list(A.nodes) == list(B.nodes), "%s: nodes %s, want %s" % (what, list(A.nodes)[:6],
                                                                     list(B.nodes)[:6]))
    ea = {frozenset(e) for e in A.edges}
    eb = {frozenset(e) for e in B.edges}
    want(ea == eb, "%s: edges differ" % what)
    for u, v in B.edges:
        want(A.edges[u, v] == B.edges[u, v], "%s: edge %s-%s: %s, want %s"
             % (what, u, v, A.edges[u, v], B.edges[u, v]))
    for v in B.nodes:
        a, b = A.nodes[v], B.nodes[v]
        want(sorted(a) == sorted(b), "%s: node %s: attributes %s, want %s"
             % (what, v, sorted(a), sorted(b)))
        for k in b:
            x, y = np.asarray(a[k]), np.asarray(b[k])
            want(x.shape == y.shape and (x == y).all() and type(a[k]) is type(b[k]),
                 "%s: node %s: %s = %r, want %r" % (what, v, k, a[k], b[k]))
    for k, x in B.graph.items():
        want(A.graph.get(k) == x, "%s: graph attribute %s = %r, want %r"
             % (what, k, A.graph.get(k), x))


def nx_back(d):
    for f in ("through.gs", "through.txt"):
        Gs = graphs_made()
        back = gnnpipe.to_networkx(list(gnnpipe.graphs(os.path.join(d, f))))
        want(len(back) == 2, "%s: %d graphs" % (f, len(back)))
        for i, (A, B) in enumerate(zip(back, Gs)):
            if f == "through.gs":  # nx.txt's: written without edge_label
                for u, v in B.edges:
                    del B.edges[u, v]["rating"]
            else:
                for u, v in B.edges:
                    B.edges[u, v]["label"] = B.edges[u, v].pop("rating")
            want(A.graph["id"] == i, "%s: graph %d: id %s" % (f, i, A.graph.get("id")))
            want(A.graph["class_names"] == {"club": ["Mr. Hi", "officer"],
                                            "kind": ["path", "social"]},
                 "%s: class names %s" % (f, A.graph["class_names"]))
            for k in ("id", "class_names", "columns"):
                A.graph.pop(k, None)
            for v in A:  # what nodefeat added
                x = A.nodes[v].pop("features", None)
                A.nodes[v].pop("features_raw", None)
                want(x is not None and x.shape == (4,), "%s: node %s: features %r" % (f, v, x))
            same_graph(A, B, "%s: graph %d" % (f, i))
    # and back again: the same records
    back = gnnpipe.to_networkx(list(gnnpipe.graphs(os.path.join(d, "through.txt"))))
    gs = gnnpipe.from_networkx(back, edge_label="label")
    gnnpipe.write(os.path.join(d, "again.gs"), gs, text=True)


def gml(src, gs):
    import networkx as nx
    G = nx.read_gml(src)
    [g] = gnnpipe.graphs(gs)
    H = gnnpipe.to_networkx(g)
    want(list(H.nodes) == list(G.nodes), "names %s, want %s" % (list(H.nodes)[:5],
                                                                list(G.nodes)[:5]))
    want({frozenset(e) for e in H.edges} == {frozenset(e) for e in G.edges}, "edges differ")
    for v in G:
        want(H.nodes[v].get("label") == G.nodes[v]["value"], "node %s: class %r, want %r"
             % (v, H.nodes[v].get("label"), G.nodes[v]["value"]))
    # and the other way: from_networkx of networkx's graph = graph-import's
    f = gnnpipe.from_networkx(G)
    lab = g.tensors["label"]
    want(f.tensors["value"].attrs["class_names"] == lab.attrs["class_names"] and
         (f.tensors["value"].data == lab.data).all(), "from_networkx: classes %s, "
         "graph-import's %s" % (f.tensors["value"].attrs, lab.attrs))


def bad(d):
    import networkx as nx

    def one(what, f, *a, **kw):
        try:
            f(*a, **kw)
        except (ValueError, TypeError) as e:
            s = str(e)
            want("\n" not in s and s, "%s: the message is not one line: %r" % (what, s))
            return s
        fail("%s: no error" % what)

    G = nx.path_graph(3)
    G.add_edge(1, 1)
    want("self-loop" in one("self-loop", gnnpipe.from_networkx, G), "self-loop message")
    want("directed" in one("directed", gnnpipe.from_networkx, nx.DiGraph([(0, 1)])),
         "directed message")
    want("multigraph" in one("multigraph", gnnpipe.from_networkx, nx.MultiGraph([(0, 1)])),
         "multigraph message")
    G = nx.Graph([(1, "1")])
    want("one name" in one("two keys of one name", gnnpipe.from_networkx, G), "name clash")
    # node attributes of a path of 3 nodes: (what, {node: {key: value}}, the message's words)
    nan = float("nan")
    for what, attrs, words in (
            ("a comma in a class", {0: {"c": "a,b"}}, "comma"),
            ("a float missing", {0: {"w": 1.5}}, "has no 'w'"),
            ("NaN", {0: {"w": nan}, 1: {"w": 0.0}, 2: {"w": 0.0}}, "not finite"),
            ("a dict", {0: {"d": {"x": 1}}}, "node_attrs"),
            ("an int and a str", {0: {"d": 1}, 1: {"d": "one"}}, "several kinds"),
            ("a blank in a name", {0: {"a b": 1}}, "attribute name"),
            ("an int past int64", {0: {"i": 1 << 63}}, "beyond int64"),
            ("a bool", {0: {"b": True}}, "node_attrs"),
            ("rows of two lengths", {0: {"v": [1.0, 2.0]}, 1: {"v": [1.0]}, 2: {"v": [1.0]}},
             "lengths")):
        G = nx.path_graph(3)
        for v, kv in attrs.items():
            G.nodes[v].update(kv)
        msg = one(what, gnnpipe.from_networkx, G)
        want(words in msg, "%s: the message %r lacks %r" % (what, msg, words))
    G = nx.path_graph(3)
    want("edge_label" in one("no edge label", gnnpipe.from_networkx, G, edge_label="r"), "el")
    one("not a Graph", gnnpipe.to_networkx, G)
    # a writer that fails leaves no file
    p = os.path.join(d, "bad.gs")
    g = gnnpipe.from_networkx(nx.path_graph(3))
    g.records.append(gnnstream.Record("names", id=0, names=["a", "b"]))
    want("2 names for 3 nodes" in one("write of a bad graph", gnnpipe.write, p, [g]), "names")
    want(not [f for f in os.listdir(d) if "bad.gs" in f], "a failed write left a file")


def pyg(d):
    import torch
    g = next(gnnpipe.graphs(os.path.join(d, "feat.gs")))
    data = gnnpipe.to_pyg(g, x="features", y="club")
    try:
        import torch_geometric.data as tgd
        want(isinstance(data, tgd.Data), "not a torch_geometric Data: %s" % type(data))
    except ImportError:
        want(isinstance(data, gnnpipe.GraphData), "not the fallback: %s" % type(data))
    plain = gnnpipe.to_pyg(g, x="features", y="club", data_class=gnnpipe.GraphData)
    for dd in (data, plain):
        ei = dd.edge_index
        want(ei.dtype == torch.int64 and tuple(ei.shape) == (2, 2 * len(g.u)),
             "edge_index %s %s" % (ei.dtype, tuple(ei.shape)))
        # both directions: the set of (i, j) is symmetric and is the graph's
        pairs = set(map(tuple, ei.t().tolist()))
        want(pairs == {(j, i) for i, j in pairs}, "edge_index is not symmetric")
        want(pairs == set(zip(g.u.tolist(), g.v.tolist())) | set(zip(g.v.tolist(),
                                                                       g.u.tolist())),
             "edge_index is not the graph's edges")
        want(dd.num_nodes == g.nodes and dd.x.dtype == torch.float32 and
             tuple(dd.x.shape) == (g.nodes, 4) and
             np.allclose(dd.x.numpy(), g.tensors["features"].data), "x")
        want(dd.y.dtype == torch.int64 and dd.y.tolist() == g.tensors["club"].data[:, 0].tolist(),
             "y")
        want(dd.names == g.names, "names")
    # PyG's own helpers, where it is installed, take the layout
    try:
        from torch_geometric.utils import is_undirected
        want(is_undirected(data.edge_index), "PyG: not undirected")
    except ImportError:
        pass
    # a graph label as y (graph classification)
    import networkx as nx
    G = nx.cycle_graph(5)
    G.graph["y"] = 3
    dg = gnnpipe.to_pyg(G, x=None, y="y")
    want(dg.y.tolist() == [3] and dg.x is None, "graph label y %s" % dg.y)
    try:
        gnnpipe.to_pyg(g, x="club")
        fail("to_pyg: integer x taken")
    except ValueError as e:
        want("not per-node floats" in str(e), str(e))


def features(d, model, adapted, cmdmodel):
    """The feature stage from Python against nodefeat and against what
    gcn-embed computes from (its rows in PyTorch, gnnpipe_torch)."""
    import torch
    import gnnpipe_torch as gt
    gs = list(gnnpipe.graphs(os.path.join(d, "e.gs")))
    X = gnnpipe.features(gs)
    ref = [g.tensors["features"].data for g in gnnpipe.graphs(os.path.join(d, "e.nf.gs"))]
    want(len(X) == len(ref) and all((a == b).all() for a, b in zip(X, ref)),
         "features() of the paper stage differ from nodefeat's")
    x0 = gnnpipe.features(gs[0])
    want(isinstance(x0, np.ndarray) and (x0 == ref[0]).all(), "features() of one graph")
    R = gnnpipe.features(os.path.join(d, "e.gs"), stage="rwse")
    want(R[0].shape[1] == 16, "rwse: %s columns" % (R[0].shape,))
    Bo = gnnpipe.features(gs, stage="both")
    want(Bo[0].shape[1] == 7, "both: %s" % (Bo[0].shape,))
    want((gnnpipe.features(gs, model=model)[1] == ref[1]).all(), "the model's stage")
    # the features of the model's stage give gcn-embed's rows: encoder(features())
    enc = gt.Encoder.from_stream(model, torch.float64)
    rows = []
    with torch.no_grad():
        for g, x in zip(gs, X):
            A = gt.normalized_adjacency(g.nodes, g.u, g.v, torch.float64)
            rows.append(enc.embed(torch.from_numpy(x), A).numpy())
    c = np.load(os.path.join(d, "e.c.npy"))
    t = np.concatenate(rows)
    diff = np.abs(c - t) / np.maximum(1, np.abs(t))
    want(diff.max() < 1e-5, "encoder(features()) vs gcn-embed: %g" % diff.max())
    # gcn-embed from Python: its own rows
    E = gnnpipe.embed(gs, model=model, args=["-j", "1", "--precision", "fp32"])
    want((np.concatenate(E) == c).all(), "gnnpipe.embed differs from gcn-embed --npy")
    # an adapted model's stage (log-scaled paper stage of adapt.scale) and
    # a command stage, which runs only when allowed
    cfg = gnnpipe.model_config(adapted)
    want(cfg.get("adapt.task") == "node", "model_config: %s" % cfg.get("adapt.task"))
    want((gnnpipe.features(gs, model=adapted)[0] == ref[0]).all(), "an adapted model's stage")
    try:
        gnnpipe.features(gs, model=cmdmodel)
        fail("a model's command ran without allow_command")
    except ValueError as e:
        want("allow_command=True" in str(e), str(e))
    cmd = gnnpipe.features(gs, model=cmdmodel, allow_command=True)
    rw = gnnpipe.features(gs, stage="nodefeat -q --set rwse --rw-steps 4")
    want(cmd[0].shape[1] == 4 and all((a == b).all() for a, b in zip(cmd, rw)),
         "a command stage: %s" % (cmd[0].shape,))
    try:
        gnnpipe.features(gs, stage="nodefeat -q --no-such-option")
        fail("a failing stage raised nothing")
    except gnnpipe.ProgramError as e:
        want(str(e).startswith("nodefeat: ") and e.status == 2, "ProgramError %r" % str(e))


def head(model, pred, graphs):
    import torch
    import gnnpipe_torch as gt
    t = [r for r in gnnstream.read(pred) if r.kind == "tensor" and r.name == "predictions"]
    want(len(t) == 1, "%s: %d predictions records" % (pred, len(t)))
    t = t[0]
    for dt, tol in ((torch.float64, 1e-4), (torch.float32, 1e-4)):
        m = gt.Adapted.from_stream(model, dt)
        want(isinstance(m.head, torch.nn.Module) and isinstance(m.encoder, gt.Encoder),
             "Adapted: head and encoder")
        r = gnnpipe.predict_stream(m, graphs, path=model)
        C = m.head.classes
        s = t.data[:, 3:3 + C]
        want(r["scores"].shape == s.shape, "scores %s, want %s" % (r["scores"].shape, s.shape))
        diff = np.abs(r["scores"] - s).max()
        want(diff < tol, "%s head (%s task) in %s: scores differ by %g" % (
            m.head.kind, m.head.task, dt, diff))
        # the predicted classes: those of gcn-adapt, but where two scores tie
        # within the tolerance
        top = np.sort(s, 1)
        clear = top[:, -1] - top[:, -2] > 2 * tol
        want((r["pred"][clear] == t.data[clear, 2]).all(), "predicted classes differ")
    print("%s %s %d items %g" % (m.head.kind, m.head.task, len(s), diff))


def nopath():
    import networkx as nx
    os.environ["PATH"] = "/nonexistent"
    try:
        gnnpipe.features(nx.path_graph(3))
    except FileNotFoundError as e:
        want(str(e).startswith("gnnpipe: nodefeat: not found in PATH") and "\n" not in str(e),
             "message %r" % str(e))
        return
    fail("no FileNotFoundError")


def main(a):
    cmds = {"nx-write": nx_write, "nx-back": nx_back, "gml": gml, "bad": bad, "pyg": pyg,
            "features": features, "head": head, "nopath": nopath}
    if not a or a[0] not in cmds:
        fail("usage: pypkg_check.py %s ..." % "|".join(cmds))
    cmds[a[0]](*a[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
