"""gnnpipe.convert - networkx graphs and PyTorch Geometric data to and
from the graphs of a gnnstream (gnnstream.Graph: a graph record and the
records about it).

What travels, both ways:

    gnnstream                          networkx
    node i (its names record: name)    node key: the name (str), or i
                                       when the graph has no names record
    edges (each once)                  edges; edge labels as the edge
                                       attribute edge_label ('label')
    per-node tensor x of 1 column      node attribute x: an int or float
    per-node tensor x of c columns     node attribute x: a numpy row (c,)
                                       (its column names: G.graph
                                       ["columns"][x])
    integer classes with class_names   node attribute x: the class name
      (graph-import --label,           (str); a node without a class
      graph-attach)                    (-1) has no attribute x; the names
                                       in class order: G.graph
                                       ["class_names"][x]
    label record y                     G.graph[y]: the value, or its
                                       class name
    the graph's id                     G.graph["id"]
    a tensor x of one row, not per     G.graph[x]: the row, a number for
      node (graphstat's per=graph)     one column (to_networkx only)

Other records (pairs, other tensors whose rows are not the nodes) are
not converted: they stay in the Graph (g.pairs, g.tensors).

from_networkx() reads node attributes by the value they hold: ints
(an i32 tensor, or i64 beyond int32), floats (f64), strings (classes,
numbered as graph-import and graph-attach number them: sorted, numerically
when every name is an integer, or in the order of G.graph["class_names"]
[x] when it is there), equal-length sequences of numbers (a tensor of as
many columns).  A node without an attribute that other nodes have is a
node without a class (-1) for classes, and an error for numbers.
Anything else raises ValueError with one line that names the attribute.
"""
import numbers

import numpy as np

import gnnstream
from gnnstream import Graph, Record

__all__ = ["from_networkx", "to_networkx", "to_pyg", "write", "class_order"]

# G.graph keys that describe the conversion itself, not graph labels
META_KEYS = ("id", "class_names", "columns", "name")


def _nx():
    try:
        import networkx
    except ImportError:
        raise ImportError("gnnpipe: networkx is not installed (Debian: python3-networkx)") \
            from None
    return networkx


# ---------------------------------------------------------------------------
# gnnstream -> networkx
# ---------------------------------------------------------------------------

def _class_names(rec, count=None):
    """The class names of a record (its class_names=), or None when it has
    none, or when their count is not classes= (a name with a comma): as
    the programs use them (gnnstream(5), Class names)."""
    cn = rec.attrs.get("class_names")
    if not cn:
        return None
    names = cn.split(",")
    classes = rec.attrs.get("classes")
    if classes is not None and classes.isdigit() and int(classes) != len(names):
        return None
    return names


def to_networkx(g, edge_label="label"):
    """A networkx Graph of the gnnstream.Graph g (a graph of
    gnnstream.graphs()), its names, edge labels, per-node tensors and
    graph labels as the table of the module's doc says; a list of them
    for a list of graphs.  Time: O(nodes + edges + tensor values)."""
    if isinstance(g, (list, tuple)):
        return [to_networkx(x, edge_label) for x in g]
    if not isinstance(g, Graph):
        raise TypeError("to_networkx: want a gnnstream.Graph (of gnnstream.graphs()), not %s"
                        % type(g).__name__)
    nx = _nx()
    G = nx.Graph()
    keys = list(g.names) if g.names is not None else list(range(g.nodes))
    G.add_nodes_from(keys)
    G.graph["id"] = g.id
    u, v = g.u.tolist(), g.v.tolist()
    if g.edge_labels is not None:
        G.add_edges_from((keys[a], keys[b], {edge_label: x})
                         for a, b, x in zip(u, v, g.edge_labels.tolist()))
    else:
        G.add_edges_from((keys[a], keys[b]) for a, b in zip(u, v))
    for rec in g.records[1:]:
        if rec.kind == "tensor" and rec.data.shape[0] == g.nodes \
                and rec.attrs.get("per") != "graph":
            _node_tensor(G, keys, rec)
        elif rec.kind == "tensor" and rec.data.shape[0] == 1:
            row = rec.data[0]
            G.graph[rec.name] = row.item() if row.size == 1 else row.copy()
        elif rec.kind == "label":
            names = _class_names(rec)
            G.graph[rec.name] = names[rec.value] if names and 0 <= rec.value < len(names) \
                else rec.value
            if names:
                G.graph.setdefault("class_names", {})[rec.name] = names
    return G


def _node_tensor(G, keys, rec):
    a = rec.data
    name = rec.name
    if a.shape[1] != 1:
        for k, row in zip(keys, a):
            G.nodes[k][name] = row.copy()
        if rec.columns:
            G.graph.setdefault("columns", {})[name] = list(rec.columns)
        return
    col = a[:, 0]
    names = _class_names(rec) if a.dtype.kind == "i" else None
    if names:
        G.graph.setdefault("class_names", {})[name] = names
        for k, c in zip(keys, col.tolist()):
            if 0 <= c < len(names):
                G.nodes[k][name] = names[c]
            # a node without a class (-1) has no attribute
        return
    for k, x in zip(keys, col.tolist()):
        G.nodes[k][name] = x


# ---------------------------------------------------------------------------
# networkx -> gnnstream
# ---------------------------------------------------------------------------

def class_order(values):
    """The classes of the strings values in order, as graph-import and
    graph-attach number them: sorted, numerically when every one is an
    integer."""
    vals = sorted(set(values))
    try:
        return sorted(vals, key=lambda s: (int(s), s))
    except ValueError:
        return vals


def _kind(x):
    """What a node attribute's value makes: 'int', 'float', 'str', 'seq'
    or None."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, numbers.Integral):
        return "int"
    if isinstance(x, numbers.Real):
        return "float"
    if isinstance(x, str):
        return "str"
    if isinstance(x, (list, tuple, np.ndarray)):
        a = np.asarray(x)
        if a.ndim == 1 and a.size and a.dtype.kind in "iuf":
            return "seq"
    return None


def _check_class_name(what, s):
    if not s or "," in s or any(ord(c) < 0x20 for c in s):
        raise ValueError("%s: class name %r: want a non-empty name without a comma or a control "
                         "character (class_names= is a comma-separated list)" % (what, s))


def _given_classes(Gs):
    """The class names the graphs carry (G.graph["class_names"], as
    to_networkx() leaves them): attribute -> names in class order."""
    out = {}
    for G in Gs:
        for key, names in G.graph.get("class_names", {}).items():
            out.setdefault(key, [str(s) for s in names])
    return out


def from_networkx(G, id=None, node_attrs=None, graph_attrs=None, edge_label=None):
    """The gnnstream.Graph of the networkx graph G (undirected, simple):
    G's nodes in iteration order as nodes 0..n-1, their names (str of each
    key) in a names record unless the keys are 0..n-1 in order; the node
    attributes node_attrs (None: every one) as tensors, the graph
    attributes graph_attrs (None: every int or str one but id,
    class_names, columns and name) as label records, and the edge
    attribute edge_label (None: none) as the edge labels, as the module's
    doc says.  The graph's id: G.graph["id"] when it is an integer >= 0,
    else 0 (with id given: id).  A list of graphs gives a list of Graphs,
    ids as G.graph["id"] or their positions (with id: id, id + 1, ...),
    their text classes numbered over all of them.  Write them with write()
    or gnnstream.Writer.write() of each of g.records.  Bad input
    raises ValueError with one line.  Time: O(nodes + edges + values)."""
    nx = _nx()
    one = isinstance(G, nx.Graph)
    Gs = [G] if one else list(G)
    if not Gs:
        raise ValueError("from_networkx: no graph")
    for i, H in enumerate(Gs):
        if not isinstance(H, nx.Graph):
            raise TypeError("from_networkx: graph %d: want a networkx graph, not %s"
                            % (i, type(H).__name__))
        if H.is_directed():
            raise ValueError("from_networkx: a directed graph: gnnstream graphs are undirected "
                             "(convert it with G.to_undirected())")
        if H.is_multigraph():
            raise ValueError("from_networkx: a multigraph: gnnstream graphs are simple (merge "
                             "the parallel edges with nx.Graph(G))")
    classes = _given_classes(Gs)
    # string attributes: their classes over every graph, in the programs' order
    for H in Gs:
        for key in _attr_keys(H, node_attrs):
            if key in classes:
                continue
            vals = [d[key] for _, d in H.nodes(data=True) if key in d]
            if vals and all(isinstance(x, str) for x in vals):
                classes.setdefault("\0" + key, set()).update(vals)
        for key, x in H.graph.items():
            if key not in META_KEYS and isinstance(x, str) \
                    and (graph_attrs is None or key in graph_attrs):
                classes.setdefault("\0" + key, set()).update([x])
    for key in [k for k in classes if k.startswith("\0")]:
        vals = classes.pop(key)
        if key[1:] not in classes:
            classes[key[1:]] = class_order(vals)
    for key, names in classes.items():
        for s in names:
            _check_class_name("from_networkx: attribute %s" % key, str(s))
    out = [_one(H, _gid(H, id, i), node_attrs, graph_attrs, edge_label, classes)
           for i, H in enumerate(Gs)]
    return out[0] if one else out


def _gid(G, id, i):
    """Graph i's id: id + i, or with id None, G.graph["id"] (to_networkx's)
    when it is an integer >= 0, else i."""
    if id is not None:
        return gnnstream.Writer._id(id) + i
    x = G.graph.get("id")
    return x if _kind(x) == "int" and x >= 0 else i


def _attr_keys(G, node_attrs):
    if node_attrs is not None:
        return list(node_attrs)
    keys = {}
    for _, d in G.nodes(data=True):
        for k in d:
            keys[k] = True
    return list(keys)


def _one(G, gid, node_attrs, graph_attrs, edge_label, classes):
    n = G.number_of_nodes()
    keys = list(G.nodes)
    ix = {k: i for i, k in enumerate(keys)}
    where = "from_networkx: graph %d" % gid
    loops = list(_nx().selfloop_edges(G))
    if loops:
        k = loops[0][0]
        raise ValueError("%s: node %r has a self-loop (gnnstream graphs have none: "
                         "G.remove_edges_from(nx.selfloop_edges(G)))" % (where, k))
    m = G.number_of_edges()
    u = np.empty(m, np.int64)
    v = np.empty(m, np.int64)
    labels = [] if edge_label is not None else None
    for j, e in enumerate(G.edges(data=True)):
        u[j], v[j] = ix[e[0]], ix[e[1]]
        if labels is not None:
            if edge_label not in e[2]:
                raise ValueError("%s: edge %r-%r has no attribute %r (edge_label)"
                                 % (where, e[0], e[1], edge_label))
            labels.append(e[2][edge_label])
    if labels is not None:
        kinds = {_kind(x) for x in labels}
        if not labels:
            labels = None
        elif kinds == {"int"}:
            labels = np.array(labels, np.int64)
        elif kinds <= {"int", "float"}:
            labels = np.array(labels, np.float64)
        else:
            raise ValueError("%s: edge attribute %r: want numbers (the edge labels)"
                             % (where, edge_label))
    recs = [Record("graph", id=gid, nodes=n, u=u, v=v, labels=labels)]
    if keys != list(range(n)):
        names = [str(k) for k in keys]
        seen = {}
        for i, s in enumerate(names):
            why = gnnstream._name_invalid(s.encode("utf-8", "surrogateescape"))
            if why:
                raise ValueError("%s: node %r: its name %s" % (where, keys[i], why))
            if s in seen:
                raise ValueError("%s: nodes %r and %r have one name %r" % (
                    where, keys[seen[s]], keys[i], s))
            seen[s] = i
        recs.append(Record("names", id=gid, nodes=n, names=names))
    for key in _attr_keys(G, node_attrs):
        recs.append(_tensor(G, gid, key, keys, classes, where))
    for key, x in G.graph.items():
        if key in META_KEYS or (graph_attrs is not None and key not in graph_attrs):
            continue
        k = _kind(x)
        if k == "int":
            recs.append(Record("label", id=gid, name=_rname(key, where), value=int(x)))
        elif k == "str":
            names = classes[key]
            recs.append(Record("label", id=gid, name=_rname(key, where), value=names.index(x),
                               attrs={"classes": str(len(names)),
                                      "class_names": ",".join(names)}))
        elif graph_attrs is not None:
            raise ValueError("%s: graph attribute %r: want an int or a str (a label record)"
                             % (where, key))
    g = Graph(recs[0], {}, {}, {}, None, recs)
    for r in recs[1:]:
        if r.kind == "names":
            g.names = r.names
        elif r.kind == "tensor":
            g.tensors[r.name] = r
        elif r.kind == "label":
            g.labels[r.name] = r.value
    return g


def _rname(key, where):
    """key as a record's name, or ValueError."""
    try:
        return gnnstream.Writer._name(str(key), "attribute")
    except ValueError as e:
        raise ValueError("%s: %s" % (where, e)) from None


def _tensor(G, gid, key, keys, classes, where):
    name = _rname(key, where)
    have = [(i, d[key]) for i, (_, d) in enumerate(G.nodes(data=True)) if key in d]
    kinds = {_kind(x) for _, x in have}
    n = len(keys)
    if not have:
        raise ValueError("%s: node attribute %r: no node has it" % (where, key))
    if None in kinds or len(kinds - {"int", "float"}) > 0 and len(kinds) > 1:
        bad = next(x for _, x in have if _kind(x) is None or len(kinds) > 1)
        raise ValueError("%s: node attribute %r: values of several kinds or of none the "
                         "programs hold (%s %r): choose the attributes with node_attrs=[...]"
                         % (where, key, type(bad).__name__, bad))
    kind = "float" if kinds == {"int", "float"} else kinds.pop()
    if kind == "str":
        names = classes[key]
        pos = {s: c for c, s in enumerate(names)}
        col = np.full(n, -1, np.int32)
        for i, x in have:
            if x not in pos:
                raise ValueError("%s: node %r: %s %r is not in G.graph['class_names'][%r]"
                                 % (where, keys[i], key, x, key))
            col[i] = pos[x]
        return Record("tensor", id=gid, name=name, data=col.reshape(-1, 1), columns=[name],
                      attrs={"classes": str(len(names)), "class_names": ",".join(names)})
    if kind == "int":
        col = np.full(n, -1, np.int64)
        for i, x in have:
            if not -(1 << 63) <= int(x) < 1 << 63:
                raise ValueError("%s: node %r: %s = %d is beyond int64" % (where, keys[i], key, x))
            col[i] = int(x)
        lim = 1 << 31
        if col.min() >= -lim and col.max() < lim:
            col = col.astype(np.int32)
        attrs = {}
        if key in classes:  # numbered classes with their names (to_networkx's)
            attrs = {"classes": str(len(classes[key])), "class_names": ",".join(classes[key])}
        return Record("tensor", id=gid, name=name, data=col.reshape(-1, 1), columns=[name],
                      attrs=attrs)
    if len(have) != n:
        i = next(i for i in range(n) if key not in G.nodes[keys[i]])
        raise ValueError("%s: node %r has no %r (a number every node needs; -1 means no class "
                         "for integer classes only)" % (where, keys[i], key))
    if kind == "float":
        col = np.array([x for _, x in have], np.float64)
        if not np.isfinite(col).all():
            raise ValueError("%s: node attribute %r: a value is not finite" % (where, key))
        return Record("tensor", id=gid, name=name, data=col.reshape(-1, 1), columns=[name])
    rows = [np.asarray(x) for _, x in have]
    w = {r.size for r in rows}
    if len(w) != 1:
        raise ValueError("%s: node attribute %r: rows of %s lengths" % (
            where, key, " and ".join(str(x) for x in sorted(w)[:2])))
    a = np.stack(rows)
    if a.dtype.kind == "f":
        a = a.astype(np.float32 if a.dtype == np.float32 else np.float64)
        if not np.isfinite(a).all():
            raise ValueError("%s: node attribute %r: a value is not finite" % (where, key))
    else:
        a = a.astype(np.int64)
    cols = G.graph.get("columns", {}).get(key)
    return Record("tensor", id=gid, name=name, data=a, columns=list(cols) if cols else None)


def write(dst, graphs, **writer):
    """Write graphs (a gnnstream.Graph, a networkx graph, or a list of
    either) to dst (a path, "-" or a binary file) as one stream segment,
    networkx graphs through from_networkx(); writer: gnnstream.Writer's
    options (text, level, prog, ...)."""
    if isinstance(graphs, Graph) or not isinstance(graphs, (list, tuple)) \
            and not hasattr(graphs, "__next__"):
        graphs = [graphs]
    graphs = list(graphs)
    if graphs and not all(isinstance(g, Graph) for g in graphs):
        if any(isinstance(g, Graph) for g in graphs):
            graphs = [g if isinstance(g, Graph) else from_networkx(g) for g in graphs]
        else:
            graphs = from_networkx(graphs)  # string classes numbered over all
    with gnnstream.Writer(dst, **writer) as w:
        for g in graphs:
            for rec in g.records:
                w.write(rec)


# ---------------------------------------------------------------------------
# PyTorch Geometric
# ---------------------------------------------------------------------------

class GraphData:
    """PyTorch Geometric's Data where torch_geometric is not installed:
    the same attributes (edge_index (2, 2m) int64, x, y, num_nodes, and
    names), the tensors torch tensors."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def keys(self):
        return [k for k, v in self.__dict__.items() if v is not None]

    def __repr__(self):
        return "GraphData(%s)" % ", ".join(
            "%s=%s" % (k, list(v.shape) if hasattr(v, "shape") else v)
            for k, v in self.__dict__.items() if v is not None and k != "names")


def to_pyg(g, x="features", y="label", data_class=None):
    """PyTorch Geometric's Data of the gnnstream.Graph g (or a networkx
    graph, through from_networkx; a list gives a list): edge_index (2, 2m)
    int64, each edge in both directions, as PyG expects; x the float
    tensor named x (float32; None when g has none); y the integer tensor
    named y (int64, one class a node), or, when g has no such tensor, the
    label record y (a graph's class, shape (1,)); num_nodes; names (node
    names, or None).  torch_geometric.data.Data when torch_geometric is
    importable, else a GraphData of the same attributes (data_class
    chooses).  A tensor x or y that is not per node raises ValueError."""
    if isinstance(g, (list, tuple)):
        return [to_pyg(h, x, y, data_class) for h in g]
    try:
        import torch
    except ImportError:
        raise ImportError("gnnpipe.to_pyg: PyTorch is not installed (Debian: python3-torch)") \
            from None
    if not isinstance(g, Graph):
        g = from_networkx(g)
    if data_class is None:
        try:
            from torch_geometric.data import Data as data_class
        except ImportError:
            data_class = GraphData
    kw = {"edge_index": torch.from_numpy(g.edge_index()), "num_nodes": g.nodes}
    X = g.tensors.get(x) if x else None
    if X is not None:
        if X.data.shape[0] != g.nodes or X.data.dtype.kind != "f":
            raise ValueError("to_pyg: graph %d: tensor %s is not per-node floats (%s %s)"
                             % (g.id, x, X.data.dtype, X.data.shape))
        kw["x"] = torch.from_numpy(np.ascontiguousarray(X.data, np.float32))
    else:
        kw["x"] = None
    Y = g.tensors.get(y) if y else None
    if Y is not None:
        if Y.data.shape != (g.nodes, 1) or Y.data.dtype.kind != "i":
            raise ValueError("to_pyg: graph %d: tensor %s is not one integer class a node "
                             "(%s %s)" % (g.id, y, Y.data.dtype, Y.data.shape))
        kw["y"] = torch.from_numpy(Y.data[:, 0].astype(np.int64))
    elif y and y in g.labels:
        kw["y"] = torch.tensor([g.labels[y]], dtype=torch.int64)
    else:
        kw["y"] = None
    if g.edge_labels is not None:
        el = np.concatenate([g.edge_labels, g.edge_labels])
        kw["edge_attr"] = torch.from_numpy(el.astype(np.float32 if el.dtype.kind == "f"
                                                     else np.int64)).reshape(-1, 1)
    kw["names"] = list(g.names) if g.names is not None else None
    return data_class(**kw)
