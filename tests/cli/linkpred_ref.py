"""linkpred_ref.py - independent checks of gcn-adapt --task linkpred and of
evalf1's AUC and AP (tests/cli/linkpred.test.sh).  Plain Python, no numpy
(Debian's python3 alone), nothing of the programs under test: streams are
read in their text form (`prog -t`).

  linkpred_ref.py scores PRED          per run: "run auc ap", the AUC by
                                       counting every (positive, negative)
                                       pair, the AP by its definition
  linkpred_ref.py split GRAPH PRED SEEN VAL TEST
                                       the split's properties, run by run,
                                       against SEEN, the graphs the feature
                                       stage was given (the last one per run)
Exit 0 when every check holds, 1 with a line per failure otherwise.
"""
import sys


def records(path):
    """(kind, attributes, columns or None, rows) of every record of a text stream."""
    out, cur = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("##"):
                cur = None
                continue
            if line.startswith("@"):
                w = line.split()
                kv = dict(x.split("=", 1) for x in w[1:] if "=" in x)
                cur = (w[0][1:], kv, kv.get("columns", "").split(","), [])
                out.append(cur)
                continue
            if cur is not None and line.strip():
                cur[3].append(line.split())
    return out


def graphs(path):
    return [(int(a["nodes"]), {frozenset((int(r[0]), int(r[1]))) for r in rows})
            for k, a, _, rows in records(path) if k == "graph"]


def runs(path):
    """{run: list of row dicts} of the predictions records."""
    out = {}
    for k, a, cols, rows in records(path):
        if k == "tensor" and a.get("name") == "predictions":
            out[int(a["id"])] = [dict(zip(cols, (float(x) for x in r))) for r in rows]
    return out


def auc_ap(rows):
    pos = [r["score"] for r in rows if r["true"] == 1]
    neg = [r["score"] for r in rows if r["true"] == 0]
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    auc = wins / (len(pos) * len(neg))
    # AP: for each distinct score t from the top, (recall step) * precision
    # of the items scoring t or more
    ap, tp, fp, prev = 0.0, 0, 0, 0.0
    for t in sorted({r["score"] for r in rows}, reverse=True):
        tp += sum(1 for r in rows if r["score"] == t and r["true"] == 1)
        fp += sum(1 for r in rows if r["score"] == t and r["true"] == 0)
        rec = tp / len(pos)
        ap += (rec - prev) * tp / (tp + fp)
        prev = rec
    return auc, ap


def scores(pred):
    for run, rows in sorted(runs(pred).items()):
        auc, ap = auc_ap(rows)
        print("%d %.9f %.9f" % (run, auc, ap))
    return 0


def split(graph, pred, seen, val, test):
    bad = []
    n, E = graphs(graph)[0]
    R = runs(pred)
    G = graphs(seen)[-len(R):]   # the first is the stage's width probe
    m = len(E)
    held = int(m * (val + test) + 0.5)
    nte = int(held * test / (val + test) + 0.5)
    allpairs = {}
    for (run, rows), (sn, S) in zip(sorted(R.items()), G):
        P = [frozenset((int(r["u"]), int(r["v"]))) for r in rows]
        pos = [p for p, r in zip(P, rows) if r["true"] == 1]
        neg = [p for p, r in zip(P, rows) if r["true"] == 0]
        if len(pos) != nte or len(neg) != nte:
            bad.append("run %d: %d test edges and %d non-edges, want %d each" % (run, len(pos), len(neg), nte))
        if len(set(P)) != len(P) or any(len(p) != 2 for p in P):
            bad.append("run %d: a test pair twice, or a self-pair" % run)
        if any(p not in E for p in pos):
            bad.append("run %d: a test edge that is not an edge of the graph" % run)
        if any(p in E for p in neg):
            bad.append("run %d: a test non-edge that is an edge of the graph" % run)
        if sn != n or not S <= E or len(S) != m - held:
            bad.append("run %d: the encoder's graph is not the graph less %d edges (%d of %d edges, subset %s)"
                       % (run, held, len(S), m, S <= E))
        if any(p in S for p in pos):
            bad.append("run %d: a test edge is in the encoder's graph" % run)
        allpairs[run] = set(P)
    if len(R) > 1 and len({frozenset(s) for s in allpairs.values()}) != len(R):
        bad.append("two runs have the same test pairs")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "scores":
        sys.exit(scores(a[1]))
    sys.exit(split(a[1], a[2], a[3], float(a[4]), float(a[5])))
