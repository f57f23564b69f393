#!/usr/bin/python3
"""The `make bench` section "Node features and centralities": times of our
four node features and four centralities (features_bench) against
python-igraph and networkx on the same graphs, and the full labelling of
DCBM graphs against LAPACK dsyevd alone.  Run by bench/features_bench.sh,
which builds the binary and the graphs; markdown on stdout, progress on
stderr, raw TSVs in --out.

  /usr/bin/python3 bench/features_table.py --bin BIN --graphs DIR --out DIR
        [--reps 5] [--long 2] [--timeout 120] [--dense-max 5000]
        [--big dcbm_n100000_k2.5.txt] [--label-count 1024] [--label-split]

Graphs: DCBM n = 2,000 and 10,000 (the peer harness's), Cora, Pubmed (all 8
quantities) and one DCBM graph with over 10^6 edges (--big; the 4
linear-time features only).

Order: graph by graph (smallest first), ours, then igraph, then networkx on
each, so that the cells compared ran under about the same load when the
machine is shared; the labelling run last.

Rules (printed under the tables as well):
* Ours run exact everywhere (features_bench -x 1000000000): the comparison
  is exact against exact.  A second table shows our default options
  (exact up to 2,000 nodes, sampled sources / 32 Lanczos pairs above).
* Per (tool, graph, quantity): a first call, then the median of --reps
  calls; a first call of at least --long seconds is the only one.
* Subgraph centrality is a dense n x n eigendecomposition for every tool
  (ours: LAPACK dsyevd per component; igraph and networkx: numpy eigh): it is
  run only up to --dense-max nodes (n^3 time: about 150 s per tool at
  n = 10,000 on one core).
* Peers: every call is killed after --timeout seconds; a peer cell is not
  run when the same tool's time on a smaller graph, scaled by the cost model
  (n m for betweenness/closeness, n^3 for subgraph), predicts more than
  --timeout seconds.
"""
import sys
sys.dont_write_bytecode = True

import argparse
import math
import os
import subprocess
import time

PY = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
EXACT = "1000000000"

LINEAR = ["degree", "core", "ci1", "clustering"]
CENTR = ["eigenvector", "betweenness", "closeness", "subgraph"]
PAR = ["betweenness", "closeness"]  # OpenMP-parallel in ours
QLABEL = {"degree": "degree", "core": "core number", "ci1": "CI_1", "clustering":
          "clustering", "eigenvector": "eigenvector", "betweenness": "betweenness",
          "closeness": "closeness", "subgraph": "subgraph"}


T_SAY = time.time()


def say(*a):
    print("features_table: [%4.0f s]" % (time.time() - T_SAY), *a, file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def read_tsv(text):
    lines = [ln.split("\t") for ln in text.strip().splitlines() if ln.strip()]
    head = lines[0]
    return [dict(zip(head, ln)) for ln in lines[1:]]


def run_tsv(cmd, out_path, env=None):
    say(" ".join(os.path.basename(c) if os.path.sep in c else c for c in cmd))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, env=env, check=True, text=True)
    with open(out_path, "a") as f:
        f.write(r.stdout)
    return read_tsv(r.stdout)


def fmt_t(t):
    if t is None or math.isnan(t):
        return "—"
    if t < 1e-3:
        return "%.3g µs" % (t * 1e6)
    if t < 1:
        return "%.3g ms" % (t * 1e3)
    return "%.3g s" % t


def cost(q, n, m):
    if q in PAR:
        return float(n) * float(m)
    if q == "subgraph":
        return float(n) ** 3
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--graphs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--long", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--dense-max", type=int, default=5000)
    ap.add_argument("--big", default="dcbm_n100000_k2.5.txt")
    ap.add_argument("--label-count", type=int, default=1024)
    ap.add_argument("--label-split", action="store_true")
    a = ap.parse_args()
    t_start = float(os.environ.get("FEATURES_T0", time.time()))
    loads = [("start", loadavg())]
    os.makedirs(a.out, exist_ok=True)
    for f in ("ours_exact.tsv", "ours_default.tsv", "igraph.tsv", "networkx.tsv",
              "labelling.tsv"):
        if os.path.exists(os.path.join(a.out, f)):
            os.unlink(os.path.join(a.out, f))

    # graphs, in increasing n m (the peers' extrapolation goes up this list)
    specs = [("DCBM n=2,000", "dcbm_n2000.txt", True), ("Cora", "cora.txt", True),
             ("DCBM n=10,000", "dcbm_n10000.txt", True), ("Pubmed", "pubmed.txt", True)]
    if a.big:
        specs.append(("DCBM n=%s" % "{:,}".format(int(a.big.split("_n")[1].split("_")[0]))
                      if a.big.startswith("dcbm_n") else a.big, a.big, False))
    graphs = []
    for label, fname, full in specs:
        path = os.path.join(a.graphs, fname)
        with open(path) as f:
            n = int(f.readline().split()[2])
        m = 0
        with open(path, "rb") as f:
            m = sum(1 for ln in f if not ln.startswith(b"#"))
        graphs.append({"label": label, "path": path, "n": n, "m": m, "full": full,
                       "key": fname + "#0"})
    big = [g for g in graphs if not g["full"]]
    if big:
        big[0]["label"] += " (mean degree %.3g)" % (2.0 * big[0]["m"] / big[0]["n"])

    def wanted(g):
        qs = list(LINEAR)
        if g["full"]:
            qs += ["eigenvector", "betweenness", "closeness"]
            if g["n"] <= a.dense_max:
                qs.append("subgraph")
        return qs

    # ---- ours and the peers, graph by graph -------------------------------
    # One graph at a time, ours then igraph then networkx, so that the
    # cells compared share (roughly) the same load on a shared machine.
    T = {}  # (tool, threads, graph key, quantity) -> (seconds, calls, status)
    D = {}  # our default options: (threads, graph key, quantity) -> (seconds, approx)
    SKIP = {}  # (tool, key, q) -> text
    measured = {}  # (tool, q) -> list of (cost, seconds or inf)
    base = [a.bin, "-r", str(a.reps), "-L", str(a.long)]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    for g in graphs:
        for j, qs in ((1, wanted(g)), (2, [q for q in PAR if q in wanted(g)])):
            if not qs:
                continue
            rows = run_tsv(base + ["-j", str(j), "-x", EXACT, "-q", ",".join(qs),
                                   "centrality", g["path"]],
                           os.path.join(a.out, "ours_exact.tsv"))
            for r in rows:
                T["ours", j, r["graph"], r["quantity"]] = (float(r["seconds"]), int(r["calls"]),
                                                           "ok")
        if g["full"] and g["n"] > 2000:  # our defaults past exact_max
            for j, qs in ((1, ["betweenness", "closeness", "subgraph"]), (2, PAR)):
                rows = run_tsv(base + ["-j", str(j), "-q", ",".join(qs), "centrality",
                                       g["path"]], os.path.join(a.out, "ours_default.tsv"))
                for r in rows:
                    D[j, r["graph"], r["quantity"]] = (float(r["seconds"]), r["approx"] == "1")
        for tool in ("igraph", "networkx"):
            qs = []
            for q in wanted(g):
                c = cost(q, g["n"], g["m"])
                prev = [(pc, pt) for pc, pt in measured.get((tool, q), []) if pc <= c] if c else []
                if prev:
                    pc, pt = max(prev)
                    est = pt * c / pc
                    if est > a.timeout:
                        SKIP[tool, g["key"], q] = (
                            "skipped (> %.0f s on a smaller graph)" % a.timeout
                            if math.isinf(est) else
                            "skipped (est. %.0f s > %.0f s)" % (est, a.timeout))
                        continue
                qs.append(q)
            if not qs:
                continue
            rows = run_tsv([PY, os.path.join(HERE, "features_peers.py"), "--tool", tool,
                            "-r", str(a.reps), "--long", str(a.long),
                            "--timeout", str(a.timeout), "--quantities", ",".join(qs),
                            g["path"]], os.path.join(a.out, tool + ".tsv"), env=env)
            for r in rows:
                q = r["quantity"]
                t = float(r["seconds"])
                T[tool, 1, r["graph"], q] = (t, int(r["calls"]), r["status"])
                c = cost(q, g["n"], g["m"])
                if c:
                    measured.setdefault((tool, q), []).append(
                        (c, t if r["status"] == "ok" else float("inf")))
        loads.append(("after " + g["label"].split(" (")[0], loadavg()))

    # ---- labelling ----------------------------------------------------------
    lab = None
    if a.label_count > 0:
        path = os.path.join(a.graphs, "labelling_%d.txt" % a.label_count)
        cmd = [a.bin, "-j", "2"] + (["-s"] if a.label_split else []) + ["labelling", path]
        say(" ".join([os.path.basename(cmd[0])] + cmd[1:]))
        r = subprocess.run(cmd, stdout=subprocess.PIPE, check=True, text=True)
        with open(os.path.join(a.out, "labelling.tsv"), "w") as f:
            f.write(r.stdout)
        lab = dict(ln.split("\t") for ln in r.stdout.strip().splitlines())
        loads.append(("after labelling", loadavg()))

    # ---- markdown -----------------------------------------------------------
    import igraph
    import networkx
    notes = []

    def peer_cell(tool, g, q):
        if (tool, g["key"], q) in SKIP:
            return SKIP[tool, g["key"], q]
        if q not in wanted(g):
            return "— ¹" if q == "subgraph" and g["full"] else ""
        t, calls, status = T.get((tool, 1, g["key"], q), (None, 0, "missing"))
        if status == "ok":
            return fmt_t(t)
        if status == "timeout":
            return "killed (> %.0f s)" % a.timeout
        return status

    def ratio(x, tool, g, q):
        o = T.get(("ours", x, g["key"], q))
        p = T.get((tool, 1, g["key"], q))
        if not o or not p or p[2] != "ok" or o[0] <= 0 or p[0] <= 0:
            return None
        return o[0] / p[0]

    print("## Node features and centralities")
    print()
    print("Seconds per call of `common/nodefeat.c` and `common/centrality*.c` "
          "(bench/features_bench.c) against python-igraph %s and networkx %s "
          "on the same graphs; ours exact (no sampling) in this table.  "
          "ratio = ours / igraph: below 1 means ours is faster."
          % (igraph.__version__, networkx.__version__))
    print()
    print("| quantity | graph | n | m | ours, 1 thr | ours, 2 thr | igraph, 1 thr | networkx "
          "| ours/igraph, 1 thr | ours/igraph, 2 thr |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for q in LINEAR + CENTR:
        for g in graphs:
            if q in CENTR and not g["full"]:
                continue
            o1 = T.get(("ours", 1, g["key"], q))
            o2 = T.get(("ours", 2, g["key"], q))
            r1, r2 = ratio(1, "igraph", g, q), ratio(2, "igraph", g, q)
            print("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |" % (
                QLABEL[q], g["label"], g["n"], g["m"],
                fmt_t(o1[0]) if o1 else ("— ¹" if q == "subgraph" else ""),
                fmt_t(o2[0]) if o2 else "",
                peer_cell("igraph", g, q), peer_cell("networkx", g, q),
                "%.2f" % r1 if r1 is not None else "",
                "%.2f" % r2 if r2 is not None else ""))
    print()
    print("¹ not run: subgraph centrality is a dense n × n eigendecomposition for every "
          "tool (ours LAPACK dsyevd per connected component, igraph and networkx numpy "
          "`eigh`), O(n³): about 150 s per tool at n = 10,000 on one core; run up to "
          "DENSE_MAX_N = %d nodes.  Our default (Lanczos) estimate is in the next table."
          % a.dense_max)
    print()

    # targets, from the numbers above
    def worst(qs, x, strict):
        rs = []
        for q in qs:
            for g in graphs:
                r = ratio(x, "igraph", g, q)
                if r is not None:
                    rs.append((r, q, g["label"]))
        if not rs:
            return "not measured"
        r, q, lab_ = max(rs)
        ok = all((r_ < 1.0) if strict else (r_ <= 1.0) for r_, _, _ in rs)
        bad = sum(1 for r_, _, _ in rs if not ((r_ < 1.0) if strict else (r_ <= 1.0)))
        return "**%s** (%d cells; worst ours/igraph %.2f, %s on %s%s)" % (
            "met" if ok else "not met", len(rs), r, QLABEL[q], lab_,
            "" if ok else "; %d cells above 1" % bad)

    targets = [
        "linear-time features (degree, core, CI_1, clustering) at least igraph's speed "
        "on 1 thread: " + worst(LINEAR, 1, False),
        "betweenness and closeness at least igraph's speed on 1 thread: " +
        worst(PAR, 1, False),
        "betweenness and closeness faster than igraph with 2 threads: " + worst(PAR, 2, True),
    ]

    # our defaults
    if D:
        print("### Ours with the default options")
        print()
        print("`centrality` as the pipeline runs it: exact up to 2,000 nodes; above, "
              "betweenness and closeness from 512 sampled BFS sources and subgraph "
              "centrality of a component over 2,000 nodes from its 32 leading eigenpairs "
              "(see centrality.h).  Not comparable with the exact peers; for scale only.")
        print()
        print("| quantity | graph | n | default, 1 thr | default, 2 thr | estimated? "
              "| exact, 1 thr | igraph (exact), 1 thr |")
        print("|---|---|---:|---:|---:|---|---:|---:|")
        for q in ["betweenness", "closeness", "subgraph"]:
            for g in graphs:
                d1 = D.get((1, g["key"], q))
                if not d1:
                    continue
                d2 = D.get((2, g["key"], q))
                o1 = T.get(("ours", 1, g["key"], q))
                print("| %s | %s | %d | %s | %s | %s | %s | %s |" % (
                    QLABEL[q], g["label"], g["n"], fmt_t(d1[0]), fmt_t(d2[0]) if d2 else "",
                    "yes" if d1[1] else "no (exact)", fmt_t(o1[0]) if o1 else "— ¹",
                    peer_cell("igraph", g, q)))
        print()

    if lab:
        ratio_l = float(lab["labelling_s"]) / float(lab["dsyevd_alone_s"])
        print("### Full labelling of %s DCBM graphs against LAPACK dsyevd alone"
              % "{:,}".format(int(lab["graphs"])))
        print()
        print("The labelling graphs: n uniform in 100..2,000, (K, p/q, k, gamma) from the "
              "paper's ranges, %s nodes in all; %s threads (OpenMP and OpenBLAS).  "
              "Labelling = the 4 features (`features_raw`) + the 4 centralities "
              "(`centrality_compute`, default options) of every graph; dsyevd = one "
              "LAPACKE_dsyevd with eigenvectors of each dense adjacency matrix, nothing "
              "else.  Target: labelling within 1.25× of dsyevd alone."
              % ("{:,}".format(int(lab["nodes"])), lab["threads"]))
        print()
        hdr = "| graphs | dsyevd alone | full labelling | labelling / dsyevd |"
        sep = "|---:|---:|---:|---:|"
        row = "| %s | %s | %s | %.2f |" % (lab["graphs"], fmt_t(float(lab["dsyevd_alone_s"])),
                                           fmt_t(float(lab["labelling_s"])), ratio_l)
        if "features_s" in lab:
            hdr += " of which: features | betweenness + closeness | eigenvector + subgraph |"
            sep += "---:|---:|---:|"
            row += " %s | %s | %s |" % (fmt_t(float(lab["features_s"])),
                                        fmt_t(float(lab["betweenness+closeness_s"])),
                                        fmt_t(float(lab["eigenvector+subgraph_s"])))
        print(hdr)
        print(sep)
        print(row)
        print()
        targets.append("full labelling within 1.25× of dsyevd alone: **%s** (%.2f)"
                       % ("met" if ratio_l <= 1.25 else "not met", ratio_l))

    print("**Targets**, computed from the measurements above:")
    print()
    for s in targets:
        print("* " + s)
    print()
    print("Notes:")
    print()
    notes.append("Load average (1, 5, 15 min) on this %d-core machine: %s.  Anything well "
                 "above 0 means other work shared the cores during the run."
                 % (os.cpu_count() or 0, "; ".join("%s %s" % kv for kv in loads)))
    notes.append("1 vs 2 threads: '1 thr' runs ours with one OpenMP and one OpenBLAS thread, "
                 "like the single-threaded peers (igraph and networkx run with "
                 "OPENBLAS_NUM_THREADS=1, so their numpy parts use one core too).  '2 thr' "
                 "(features_bench -j 2) is given for betweenness and closeness only, the "
                 "OpenMP-parallel searches; the features are sequential.  The machine has "
                 "2 cores, so the 2-thread column needs both: with a load average near or "
                 "above 1 the second core is shared and that column is the least reliable.")
    notes.append("Median of %d timed calls after a first (warm-up) call; a first call of "
                 "%g s or more is the only one.  Graph loading and conversion are not timed.  "
                 "igraph's CI_1 is degree() + knn(), its subgraph centrality numpy `eigh` of "
                 "the dense adjacency; networkx's CI_1 is a Python loop (as in the paper), "
                 "eigenvector is `eigenvector_centrality_numpy` (implementations: the peer "
                 "harness's peer_impls.py)." % (a.reps, a.long))
    notes.append("networkx and igraph cells: each call is killed after %.0f s ('killed'); "
                 "a cell is not run ('skipped (est. ...)') when the same tool's time on a "
                 "smaller graph, scaled by n·m (betweenness, closeness), predicts more than "
                 "%.0f s." % (a.timeout, a.timeout))
    notes.append("Graphs: DCBM from the peer harness's gen_graphs.py (K = 5, p/q = 4, k = 1, "
                 "gamma = 3; the big one k = %s); Cora (LINQS cites) and Pubmed (Planetoid "
                 "edges) as undirected simple graphs."
                 % (a.big.split("_k")[1].rsplit(".txt", 1)[0] if "_k" in a.big else "?"))
    notes.append("Section run time: %.1f min." % ((time.time() - t_start) / 60.0))
    for s in notes:
        print("* " + s)


if __name__ == "__main__":
    main()
