"""embed_rank.py MODEL.txt RANK.npy GRAPHS.txt - the check of tests/cli/embed.test.sh:
the rank decoders of a pre-trained model (gcn-train -t text form), applied to
gcn-embed's rank mix of graphs the model never saw, order the graphs'
centralities (their 'centrality' tensors, text form) about as well as the
model's validation did (val.rank_acc): pairwise accuracy over every pair of
nodes of a graph whose centralities differ, averaged over the four
centralities.  Exit 1 when it falls more than 0.05 below validation."""
import sys

import numpy as np

model, rank_npy, graphs = sys.argv[1:4]

# the parameters of the model record, text form: "@param name=N rows=R cols=C"
params, cur, val = {}, None, None
for line in open(model):
    if line.startswith("@model"):
        for kv in line.split():
            if kv.startswith("val.rank_acc="):
                val = float(kv.split("=")[1])
    elif line.startswith("@param"):
        kv = dict(x.split("=", 1) for x in line.split()[1:])
        cur = kv["name"]
        params[cur] = []
    elif line.startswith("@"):
        cur = None
    elif cur is not None:
        params[cur].append([float(x) for x in line.split()])
P = {k: np.array(v, dtype=np.float64) for k, v in params.items()}

F = np.load(rank_npy).astype(np.float64)      # (nodes of every graph, d)
W1, b1, w2, b2 = P["rank.W1"], P["rank.b1"][0], P["rank.w2"], P["rank.b2"][0]
hr = w2.shape[1]
# centrality c's MLP: columns c*hr..(c+1)*hr of W1 and b1, row c of w2
S = np.stack([np.maximum(F @ W1[:, c * hr:(c + 1) * hr] + b1[c * hr:(c + 1) * hr], 0)
              @ w2[c] + b2[c] for c in range(4)], axis=1)

# the centralities of each graph, in input order
cent, cols, rows = [], None, None
for line in open(graphs):
    if line.startswith("@tensor") and " name=centrality " in line:
        kv = dict(x.split("=", 1) for x in line.split()[1:])
        cols = kv["columns"].split(",")
        rows = int(kv["rows"])
        cent.append([])
    elif line.startswith("@"):
        rows = None
    elif rows is not None and len(cent[-1]) < rows:
        cent[-1].append([float(x) for x in line.split()])
want = ["eigenvector", "betweenness", "closeness", "subgraph_log"]
acc, off = [], 0
for g in cent:
    C = np.array(g)[:, [cols.index(w) for w in want]]
    n = C.shape[0]
    s = S[off:off + n]
    off += n
    iu = np.triu_indices(n, 1)
    for c in range(4):
        dc = C[iu[0], c] - C[iu[1], c]
        ds = s[iu[0], c] - s[iu[1], c]
        keep = np.abs(dc) > 1e-9 * np.maximum(np.abs(C[iu[0], c]), np.abs(C[iu[1], c]))
        ok = np.where(ds[keep] == 0, 0.5, (ds[keep] > 0) == (dc[keep] > 0))
        acc.append(ok.mean())
assert off == F.shape[0], (off, F.shape)
got = float(np.mean(acc))
print(f"rank accuracy on unseen graphs {got:.3f}, validation {val:.3f}")
sys.exit(0 if val is not None and got >= val - 0.05 else 1)
