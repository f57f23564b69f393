"""gnnpipe_torch.py - the encoder of a gnnpipe model in PyTorch: load the
safetensors file that gcn-export writes and compute what gcn-embed
computes, for a graph and its input features.

The model is that of gcn-train(1), section THE MODEL:

    H_0 = tanh(X E + e)                                  E: F x d
    H_l = relu(Â norm_l(relu(H_(l-1) W1_l) W2_l))        l = 1 ... L
    Â   = D^-1/2 (A + I) D^-1/2                          D: degree + 1
    norm_l(T) = gamma_l (T - mu_G) / sqrt(var_G + eps) + beta_l

with mu_G and var_G (biased) each column's mean and variance over the
nodes of the node's own graph, eps the config's model.bn_eps.  Weights are
stored as the model multiplies by them ([in, out]), biases and gamma, beta
as 1 x d rows.  gcn-embed --embedding blocks (its default) writes
[H_1 ... H_L] side by side (L d columns); blockN writes H_N; rec, rank and
cluster a task's mix alpha_t * sum_l softmax(psi_t)_l H_l; --pool mean,
max, sum one row per graph.  Encoder.embed() gives each of them.

The input features.  X must be the features gcn-embed computes, to the
bit: the model's feature stage (features.stage in the config; a model
without it, such as the shipped one, has the paper's four) applied to the
graph as gcn-embed reads it.  nodefeat(1) computes the same, from the same
code, and writes them as the tensor 'features' after each graph:

    nodefeat --set paper graph.gs > feat.gs      # stage paper (default)
    nodefeat --set rwse graph.gs > feat.gs       # stage rwse
    nodefeat --scale both graph.gs > feat.gs     # stage both

(a plain edge list is read as gcn-embed reads it, self-loops and repeated
pairs dropped; nodefeat writes the graph it computed on, so use the graph
of feat.gs, not the list).  For a model of stage stream, the input's own
features tensors are the features.

    PYTHONPATH=python python3
    >>> import gnnpipe_torch as gt
    >>> enc = gt.Encoder.from_safetensors("model.safetensors")
    >>> # or straight from a model stream: gt.Encoder.from_stream("model.gs")
    >>> rows = gt.embed_stream(enc, "feat.gs")          # (nodes, L d) numpy
    >>> # or by hand, one graph at a time:
    >>> import gnnstream
    >>> for g in gnnstream.graphs("feat.gs"):
    ...     A = gt.normalized_adjacency(g.nodes, g.u, g.v)
    ...     X = torch.from_numpy(g.tensors["features"].data).float()
    ...     H = enc.embed(X, A)                         # (nodes, L d) tensor

From the shell, the rows of gcn-embed --npy (the model a safetensors file
or the model stream itself):

    python3 python/gnnpipe_torch.py -o emb.npy model.safetensors feat.gs
    python3 python/gnnpipe_torch.py -o emb.npy models/gcn-pretrain.gs feat.gs

Precision.  The encoder computes in float32 by default, as gcn-embed
--precision fp32 does (its default; --precision bf16 rounds the products'
operands to 8 bits and differs by up to several per cent, see
gcn-embed(1)); dtype=torch.float64 (--double) computes in double, the
reference the tests compare gcn-embed's float32 rows with.  Graph
boundaries: Encoder.forward takes a batch vector (graph of each node,
PyTorch Geometric's layout) and normalises over each graph's nodes;
without one, the nodes are one graph.

An adapted model (gcn-adapt --save-model's file): Adapted, its encoder
(an Encoder of the adapted values) and its head (Head: the layer mix, the
2-layer GCN head, gcn or sage, and the link task's decoder), each a
torch.nn.Module; its logits are gcn-adapt's, and the package's
gnnpipe.predict_stream() gives gcn-adapt --predict's scores for a stream,
the input features from the model's feature stage (gnnpipe.features,
which runs nodefeat):

    >>> m = gt.Adapted.from_stream("adapted.gs")
    >>> p = gnnpipe.predict_stream(m, "g.gs", path="adapted.gs")
    >>> p["scores"], p["pred"]                          # numpy, one row an item

Needs PyTorch (Debian: python3-torch) and numpy; gnnstream.py (beside this
file) for streams.  It imports nothing of the package gnnpipe, which
imports it (gnnpipe.torch, gnnpipe.predict_stream).
"""
import json
import re
import struct
import sys

import numpy as np
import torch

__all__ = ["load_safetensors", "config_of", "normalized_adjacency", "Encoder", "Head", "Adapted",
           "embed_stream"]

TASKS = ("rec", "rank", "cluster")
POOLS = ("mean", "max", "sum")
TYPES = {"F32": torch.float32, "F64": torch.float64, "I32": torch.int32, "I64": torch.int64}


def load_safetensors(path):
    """(state, meta) of a safetensors file: state maps each tensor's name
    to a torch tensor of its dtype and shape, meta the __metadata__ strings
    (gnnpipe.config, gnnpipe.model, ...).  gcn-export(1)'s loader."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if len(data) < 8:
        raise ValueError("%s: not a safetensors file (shorter than 8 bytes)" % path)
    n = struct.unpack("<Q", data[:8])[0]
    if 8 + n > len(data):
        raise ValueError("%s: not a safetensors file (header of %d bytes in a file of %d)"
                         % (path, n, len(data)))
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    state = {}
    for name, t in header.items():
        begin, end = t["data_offsets"]
        raw = data[8 + n + begin:8 + n + end]
        x = torch.empty(0, dtype=TYPES[t["dtype"]])
        if raw:
            x = torch.frombuffer(raw, dtype=TYPES[t["dtype"]])
        state[name] = x.reshape(t["shape"])
    return state, meta


def config_of(text):
    """The flat 'key: value' lines of a gnnpipe model's YAML config, as a
    dict of strings (quotes removed)."""
    cfg = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z0-9_.]+):\s*(.*?)\s*$", line)
        if m:
            v = m.group(2)
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
                v = v[1:-1]
            cfg[m.group(1)] = v
    return cfg


def normalized_adjacency(n, u, v, dtype=torch.float32):
    """Â = D^-1/2 (A + I) D^-1/2 of a simple undirected graph of n nodes
    with the edges (u[i], v[i]), each once, as a sparse (n, n) tensor; D
    the degrees plus 1.  Time: O(n + m)."""
    u = torch.as_tensor(np.asarray(u), dtype=torch.int64)
    v = torch.as_tensor(np.asarray(v), dtype=torch.int64)
    loops = torch.arange(n, dtype=torch.int64)
    rows = torch.cat([u, v, loops])
    cols = torch.cat([v, u, loops])
    deg = torch.bincount(rows, minlength=n).to(torch.float64)  # degree + 1
    val = (deg[rows] * deg[cols]).rsqrt().to(dtype)
    return torch.sparse_coo_tensor(torch.stack([rows, cols]), val, (n, n)).coalesce()


def _graph_norm(T, gamma, beta, eps, batch, ngraphs):
    """gamma (T - mu_G) / sqrt(var_G + eps) + beta, mu_G and the biased
    var_G over the rows of each graph (batch: the graph of each row)."""
    if batch is None:
        mu = T.mean(dim=0, keepdim=True)
        var = ((T - mu) ** 2).mean(dim=0, keepdim=True)
        return (T - mu) / torch.sqrt(var + eps) * gamma + beta
    cnt = torch.bincount(batch, minlength=ngraphs).to(T.dtype).clamp(min=1).unsqueeze(1)
    mu = torch.zeros(ngraphs, T.shape[1], dtype=T.dtype).index_add_(0, batch, T) / cnt
    dev = T - mu[batch]
    var = torch.zeros(ngraphs, T.shape[1], dtype=T.dtype).index_add_(0, batch, dev * dev) / cnt
    return dev / torch.sqrt(var[batch] + eps) * gamma + beta


class Encoder(torch.nn.Module):
    """The encoder of a pre-trained gnnpipe model (gcn-train(1), THE
    MODEL), its parameters those of the state dict of a gcn-export file.
    The parameters keep the stored layout ([in, out]); they are
    torch.nn.Parameter, so the encoder can be trained further."""

    def __init__(self, state, meta, dtype=torch.float32):
        super().__init__()
        self.config = config_of(meta.get("gnnpipe.config", ""))
        if "embed.W" not in state or "block1.W1" not in state:
            raise ValueError("not a gnnpipe encoder: no embed.W or block1.W1 (gnnpipe.model %r)"
                             % meta.get("gnnpipe.model"))
        self.eps = float(self.config.get("model.bn_eps", "1e-5"))
        self.stage = self.config.get("features.stage", "paper")
        P = lambda name: torch.nn.Parameter(state[name].to(dtype).clone())  # noqa: E731
        self.E, self.e = P("embed.W"), P("embed.b")
        self.layers = 0
        while "block%d.W1" % (self.layers + 1) in state:
            self.layers += 1
        self.W1 = torch.nn.ParameterList([P("block%d.W1" % l) for l in range(1, self.layers + 1)])
        self.W2 = torch.nn.ParameterList([P("block%d.W2" % l) for l in range(1, self.layers + 1)])
        self.gamma = torch.nn.ParameterList([P("block%d.gamma" % l)
                                             for l in range(1, self.layers + 1)])
        self.beta = torch.nn.ParameterList([P("block%d.beta" % l)
                                            for l in range(1, self.layers + 1)])
        self.mixes = torch.nn.ParameterDict()
        for t in TASKS:
            if "mix.%s.alpha" % t in state:
                self.mixes[t + "_alpha"] = P("mix.%s.alpha" % t)
                self.mixes[t + "_psi"] = P("mix.%s.psi" % t)
        self.features = self.E.shape[0]
        self.hidden = self.E.shape[1]
        self.dtype = dtype

    @classmethod
    def from_safetensors(cls, path, dtype=torch.float32):
        """The encoder of a file written by gcn-export."""
        state, meta = load_safetensors(path)
        return cls(state, meta, dtype)

    @classmethod
    def from_stream(cls, path, dtype=torch.float32):
        """The encoder of the first model record of a gnnstream (the
        model file of gcn-train, models/gcn-pretrain.gs), read by
        gnnstream.py: the same as from_safetensors of its export."""
        import gnnstream
        rec = gnnstream.model(path)
        state = {k: torch.from_numpy(v.copy()) for k, v in rec.params.items()}
        return cls(state, {"gnnpipe.config": rec.config, "gnnpipe.model": rec.name}, dtype)

    def forward(self, x, adj, batch=None):
        """[H_1, ..., H_L] for the features x (N, F), the normalised
        adjacency adj (N, N, sparse or dense: normalized_adjacency() of
        each graph, block-diagonal for several), and batch (N,), the graph
        of each node (None: one graph)."""
        if x.shape[1] != self.features:
            raise ValueError("features of %d columns for a model of %d (stage %s)"
                             % (x.shape[1], self.features, self.stage))
        x = x.to(self.dtype)
        ngraphs = int(batch.max()) + 1 if batch is not None and batch.numel() else 1
        H = torch.tanh(x @ self.E + self.e)
        out = []
        for l in range(self.layers):
            T = torch.relu(H @ self.W1[l]) @ self.W2[l]
            T = _graph_norm(T, self.gamma[l], self.beta[l], self.eps, batch, ngraphs)
            H = torch.relu(torch.sparse.mm(adj, T) if adj.is_sparse else adj @ T)
            out.append(H)
        return out

    def mix(self, Hs, task):
        """Task task's layer mix alpha * sum_l softmax(psi)_l H_l."""
        if task + "_alpha" not in self.mixes:
            raise ValueError("the model was not trained on the task %r" % task)
        w = torch.softmax(self.mixes[task + "_psi"].reshape(-1).to(torch.float64), 0)
        F = sum(w[l].to(Hs[l].dtype) * Hs[l] for l in range(len(Hs)))
        return F * self.mixes[task + "_alpha"]

    def embed(self, x, adj, kind="blocks", batch=None, pool=None):
        """The rows gcn-embed writes: kind blocks (every block's output side
        by side), blockN, rec, rank or cluster, as --embedding; pool, a
        list of mean, max and sum, as --pool (one row per graph)."""
        Hs = self.forward(x, adj, batch)
        if kind == "blocks":
            rows = torch.cat(Hs, dim=1)
        elif re.fullmatch(r"block[1-9][0-9]*", kind) and int(kind[5:]) <= self.layers:
            rows = Hs[int(kind[5:]) - 1]
        elif kind in TASKS:
            rows = self.mix(Hs, kind)
        else:
            raise ValueError("embedding %r: blocks, block1..block%d, rec, rank or cluster"
                             % (kind, self.layers))
        if not pool:
            return rows
        return pool_rows(rows, pool, batch)


class Head(torch.nn.Module):
    """The head of an adapted model (gcn-adapt(1), The adapted model),
    its parameters the record's head.* tensors, beside the Encoder:

        F   = es * alpha * sum_l softmax(psi)_l H_l   [; attributes]
        Z   = relu(A F W1 + F S1 + b1)                 (S1: head sage)
        out = A Z W2 + Z S2 + b2                       (S2: head sage)
        node   the logits are out (N x C)
        graph  the logits of a graph, the mean of its nodes' rows of out
        link   h = relu(out); an edge's logits relu([h_u ; h_v] W3 + b3) W4 + b4

    es is adapt.encoder_scale, the attributes the input's 'attributes'
    tensor where adapt.attributes > 0.  Evaluation: no dropout."""

    def __init__(self, state, config, dtype=torch.float32):
        super().__init__()
        cfg = config if isinstance(config, dict) else config_of(config)
        self.task = cfg.get("adapt.task")
        if self.task not in ("node", "graph", "link") or "head.gcn1.W" not in state:
            raise ValueError("not an adapted model (gcn-adapt --save-model): adapt.task %r, "
                             "head.gcn1.W %s" % (self.task, "head.gcn1.W" in state))
        self.kind = cfg.get("adapt.head", "gcn")
        self.classes = int(cfg.get("adapt.classes", "0"))
        self.attributes = int(cfg.get("adapt.attributes", "0"))
        self.encoder_scale = float(cfg.get("adapt.encoder_scale", "1"))
        self.class_values = cfg.get("adapt.class_values", "")
        P = lambda name: torch.nn.Parameter(state[name].to(dtype).clone())  # noqa: E731
        self.alpha, self.psi = P("head.mix.alpha"), P("head.mix.psi")
        self.W1, self.b1 = P("head.gcn1.W"), P("head.gcn1.b")
        self.W2, self.b2 = P("head.gcn2.W"), P("head.gcn2.b")
        self.S1 = P("head.gcn1.S") if self.kind == "sage" else None
        self.S2 = P("head.gcn2.S") if self.kind == "sage" else None
        if self.task == "link":
            self.W3, self.b3 = P("head.link1.W"), P("head.link1.b")
            self.W4, self.b4 = P("head.link2.W"), P("head.link2.b")
        self.dtype = dtype

    def forward(self, Hs, adj, attributes=None, batch=None, edges=None):
        """The logits: node task (N, C); graph task (G, C), the graphs of
        batch (None: one graph); link task (E, C) of the edges, a (2, E)
        tensor of node pairs (u, v).  Hs: the encoder's [H_1, ..., H_L]
        (Encoder.forward); adj: the normalised adjacency."""
        w = torch.softmax(self.psi.reshape(-1).to(torch.float64), 0)
        F = sum(w[l].to(Hs[l].dtype) * Hs[l] for l in range(len(Hs))) * self.alpha
        if self.encoder_scale != 1:
            F = F * self.encoder_scale
        if self.attributes:
            if attributes is None or attributes.shape != (F.shape[0], self.attributes):
                raise ValueError("the model was adapted with %d attribute columns: give the "
                                 "'attributes' tensor (nodes x %d)" % (self.attributes,
                                                                       self.attributes))
            F = torch.cat([F, attributes.to(F.dtype)], dim=1)
        mm = (lambda a, b: torch.sparse.mm(a, b)) if adj.is_sparse else (lambda a, b: a @ b)
        Z = mm(adj, F @ self.W1)
        if self.S1 is not None:
            Z = Z + F @ self.S1
        Z = torch.relu(Z + self.b1)
        out = mm(adj, Z @ self.W2)
        if self.S2 is not None:
            out = out + Z @ self.S2
        out = out + self.b2
        if self.task == "graph":
            if batch is None:
                return out.mean(dim=0, keepdim=True)
            G = int(batch.max()) + 1 if batch.numel() else 0
            s = torch.zeros(G, out.shape[1], dtype=out.dtype).index_add_(0, batch, out)
            return s / torch.bincount(batch, minlength=G).to(out.dtype).unsqueeze(1)
        if self.task == "link":
            if edges is None:
                raise ValueError("the link task's head scores node pairs: give edges (2, E)")
            h = torch.relu(out)
            z = torch.relu(torch.cat([h[edges[0]], h[edges[1]]], dim=1) @ self.W3 + self.b3)
            return z @ self.W4 + self.b4
        return out


class Adapted(torch.nn.Module):
    """An adapted model (gcn-adapt --save-model): encoder and head, its
    logits those of gcn-adapt --predict for the same input features."""

    def __init__(self, state, config, dtype=torch.float32):
        super().__init__()
        text = config if isinstance(config, str) else ""
        cfg = config_of(text) if text else dict(config)
        self.config = cfg
        self.encoder = Encoder(state, {"gnnpipe.config": text or "\n".join(
            "%s: %s" % kv for kv in cfg.items())}, dtype)
        self.head = Head(state, cfg, dtype)
        self.dtype = dtype

    @classmethod
    def from_stream(cls, path, dtype=torch.float32):
        """The adapted model of a file written by gcn-adapt --save-model
        (its model record gcn-adapted), read by gnnstream.py."""
        import gnnstream
        rec = gnnstream.model(path)
        state = {k: torch.from_numpy(v.copy()) for k, v in rec.params.items()}
        return cls(state, rec.config, dtype)

    @classmethod
    def from_safetensors(cls, path, dtype=torch.float32):
        """The adapted model of gcn-export's file of it."""
        state, meta = load_safetensors(path)
        return cls(state, meta.get("gnnpipe.config", ""), dtype)

    def forward(self, x, adj, attributes=None, batch=None, edges=None):
        """The head's logits (Head.forward) for the input features x."""
        return self.head(self.encoder(x, adj, batch), adj, attributes, batch, edges)


def pool_rows(rows, pool, batch=None):
    """One row per graph: for each pooling of the list pool (mean, max,
    sum) the column-wise mean, maximum or sum over the graph's rows, side
    by side, as gcn-embed --pool."""
    if batch is None:
        batch = torch.zeros(rows.shape[0], dtype=torch.int64)
    G = int(batch.max()) + 1 if batch.numel() else 0
    out = []
    for p in pool:
        if p not in POOLS:
            raise ValueError("pool %r: mean, max or sum" % p)
        acc = rows.to(torch.float64)  # summed in double, as gcn-embed does
        if p == "max":
            r = torch.stack([acc[batch == g].max(dim=0).values for g in range(G)])
        else:
            r = torch.zeros(G, rows.shape[1], dtype=torch.float64).index_add_(0, batch, acc)
            if p == "mean":
                r = r / torch.bincount(batch, minlength=G).to(torch.float64).unsqueeze(1)
        out.append(r.to(rows.dtype))
    return torch.cat(out, dim=1)


def embed_stream(encoder, src, kind="blocks", pool=None, features="features"):
    """gcn-embed --npy's rows for the graphs of a stream (a path or a
    binary file) whose graphs carry their input features as the tensor
    named features (nodefeat's output; see the module's doc): a numpy
    float32 array, the graphs' rows in input order."""
    import gnnstream
    out = []
    with torch.no_grad():
        for g in gnnstream.graphs(src):
            if features not in g.tensors:
                raise ValueError("graph %d has no '%s' tensor (run nodefeat first)"
                                 % (g.id, features))
            X = torch.from_numpy(g.tensors[features].data).to(encoder.dtype)
            A = normalized_adjacency(g.nodes, g.u, g.v, encoder.dtype)
            out.append(encoder.embed(X, A, kind, pool=pool).numpy().astype(np.float32))
    if not out:
        raise ValueError("%s: no graph" % src)
    return np.concatenate(out)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(
        prog="gnnpipe_torch.py",
        description="gcn-embed's rows in PyTorch, from a gcn-export file and a stream whose "
                    "graphs carry their features (nodefeat's output), as a .npy file")
    ap.add_argument("-o", "--output", required=True, help="the .npy file to write")
    ap.add_argument("--embedding", default="blocks",
                    help="blocks, blockN, rec, rank or cluster (gcn-embed's) [blocks]")
    ap.add_argument("--pool", default=None, help="mean,max,sum: one row per graph")
    ap.add_argument("--double", action="store_true", help="compute in float64")
    ap.add_argument("--features", default="features", help="the features tensor [features]")
    ap.add_argument("model", help="a safetensors file written by gcn-export, or a model "
                    "stream (gcn-train's)")
    ap.add_argument("stream", help="a gnnstream, '-' for standard input")
    a = ap.parse_args(argv)
    dt = torch.float64 if a.double else torch.float32
    with open(a.model, "rb") as f:
        head = f.read(9)  # safetensors: a header's length, then its '{'
    st = len(head) == 9 and head[8:] == b"{"
    enc = Encoder.from_safetensors(a.model, dt) if st else Encoder.from_stream(a.model, dt)
    rows = embed_stream(enc, a.stream, a.embedding, a.pool.split(",") if a.pool else None,
                        a.features)
    np.save(a.output, rows)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (ValueError, OSError) as e:
        print("gnnpipe_torch.py: %s" % e, file=sys.stderr)
        sys.exit(1)
