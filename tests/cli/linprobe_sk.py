"""linprobe_sk.py - the independent check of tests/cli/linprobe.test.sh.

  linprobe_sk.py make OUT.txt
      write a node-task stream (text form) of a problem a linear classifier
      solves only in part: 600 nodes, 4 classes, 'embedding' of 12 columns
      (class means 1 apart in 4 of them, unit Gaussian noise, 8 columns of
      noise alone and one constant column), 'label' (20 nodes without a class)
  linprobe_sk.py check IN.txt PRED.txt TENSOR LABEL
      refit every run of linprobe's predictions (text form) with
      scikit-learn's LogisticRegression on the same split (the run's test
      items; its training items: the other labelled nodes) at the run's C,
      on the same standardisation, one-vs-rest; exit 1 unless each run's
      accuracy is within 0.03 of linprobe's, their means within 0.01, and
      the predictions agree on 95% of the test items.

LIBLINEAR penalises its bias like a weight: scikit-learn gets it as a
constant column instead of its own (unpenalised) intercept, so that both
minimise the same objective, each with its own solver (trust-region Newton,
L-BFGS) and tolerance: close accuracies, not equal ones, are the test."""
import sys

import numpy as np


def make(out):
    rng = np.random.default_rng(38)
    n, k, d = 600, 4, 12
    y = np.arange(n) % k
    X = rng.standard_normal((n, d))
    X[np.arange(n), y] += 1.0
    X[:, d - 1] = 0.25
    lab = y.copy()
    lab[rng.choice(n, 20, replace=False)] = -1
    with open(out, "w") as f:
        f.write("##gnnstream 1\n@graph id=0 nodes=%d edges=0 dataset=sk\n" % n)
        f.write("@tensor id=0 name=embedding rows=%d cols=%d type=f64\n" % (n, d))
        for row in X:
            f.write(" ".join("%.17g" % v for v in row) + "\n")
        f.write("@tensor id=0 name=label rows=%d cols=1 type=i32\n" % n)
        f.write("".join("%d\n" % c for c in lab))
        f.write("@end\n")


def records(path):
    """(header dict, rows) of every @tensor record of a text stream."""
    recs, cur = [], None
    for line in open(path):
        if line.startswith("@"):
            cur = None
            if line.startswith("@tensor"):
                kv = {}
                for w in line.split()[1:]:
                    if "=" in w:
                        a, b = w.split("=", 1)
                        kv[a] = b.strip('"')
                cur = (kv, [])
                recs.append(cur)
        elif cur is not None:
            cur[1].append([float(x) for x in line.split()])
    return recs


def check(inp, pred, tensor, label):
    from sklearn.linear_model import LogisticRegression

    recs = records(inp)
    X = np.array(next(r for k, r in recs if k["name"] == tensor))
    y = np.array(next(r for k, r in recs if k["name"] == label))[:, 0].astype(int)
    ours, theirs, agree, total = [], [], 0, 0
    for kv, rows in records(pred):
        if kv["name"] != "predictions":
            continue
        P = np.array(rows)
        cols = kv["columns"].split(",")
        test = P[:, cols.index("item")].astype(int)
        mine = P[:, cols.index("pred")].astype(int)
        train = np.setdiff1d(np.flatnonzero(y >= 0), test)
        mu = X[train].mean(0)
        sd = X[train].std(0)
        same = (X[train] == X[train][0]).all(0)
        sd[same] = 1
        Z = (X - mu) / sd
        Z[:, same] = 0
        Z = np.hstack([Z, np.ones((len(Z), 1))])   # LIBLINEAR's bias: a weight
        clf = LogisticRegression(C=float(kv["C"]), multi_class="ovr", fit_intercept=False,
                                 max_iter=10000, tol=1e-10)
        clf.fit(Z[train], y[train])
        sk = clf.predict(Z[test])
        ours.append((mine == y[test]).mean())
        theirs.append((sk == y[test]).mean())
        agree += (sk == mine).sum()
        total += len(test)
    ours, theirs = np.array(ours), np.array(theirs)
    print("linprobe %.4f, scikit-learn %.4f (mean accuracy of %d runs), predictions "
          "agree on %.4f" % (ours.mean(), theirs.mean(), len(ours), agree / total))
    ok = (len(ours) > 0 and np.abs(ours - theirs).max() <= 0.03 and
          abs(ours.mean() - theirs.mean()) <= 0.01 and agree / total >= 0.95)
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
        sys.exit(0)
    sys.exit(check(*sys.argv[2:6]))
