#!/usr/bin/python3
"""dcbm_gen.py - time dcbm-gen against the peer SBM generators.

usage: /usr/bin/python3 bench/dcbm_gen.py [--bin bin/dcbm-gen]
           [--sizes 2000,10000,100000,1000000] [--cap 60] [--reps 3]

Prints markdown tables on stdout (progress on stderr):

1. One graph per size n, K = 5, p_div_q = 4, gamma = 3, mean degree 20:
   - dcbm-gen, the whole command (start-up, model, exact sampling, sorting,
     writing the stream to /dev/null), with -l 0 (plain) and -l 1 (the
     default gzip level), on 1 and 2 threads;
   - networkx.stochastic_block_model(sparse=True): a plain SBM with the same
     block sizes and the same block densities p_in / p_out (networkx has no
     degree correction);
   - graph_tool.generate_sbm(out_degs=theta): a Poisson degree-corrected SBM
     with the same labels and expected block edge counts, followed by
     remove_parallel_edges + remove_self_loops for a simple graph, on 1 and 2
     OpenMP threads.
   Peers run in a fresh process each; building their inputs (labels, theta,
   block matrix) is not timed, only the generator call.  Best of --reps
   runs (one run when a call takes over 10 s): the least disturbed by other
   work on the machine.  networkx is skipped when the
   previous size predicts more than --cap seconds and killed at --cap.
2. The default 1024-graph paper set (dcbm-gen -s 1), -l 0 and -l 1, 1 and 2
   threads.

The parameters mirror the shared peer benchmark (../shared/bench,
gen_graphs.py: K = 5, p_div_q = 4, gamma = 3); the mean degree is 20, as the
paper's densest graphs (k = 2).
"""
import sys
sys.dont_write_bytecode = True

import argparse
import json
import os
import struct
import subprocess
import tempfile
import time

K, PDQ, GAMMA, MEAN_DEG, SEED = 5, 4.0, 3.0, 20.0, 1
PY = "/usr/bin/python3"


def say(*a):
    print(*a, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------
# our output: the plain binary gnnstream (man gnnstream(5), "Binary form")
# ----------------------------------------------------------------------------
def parse_header(text):
    """'graph id=0 nodes=10 ...' -> (kind, {key: value}); pg's quoted cmd is skipped."""
    kind, _, rest = text.partition(" ")
    attrs = {}
    for tok in rest.split(" "):
        if "=" in tok and not tok.startswith('"'):
            k, _, v = tok.partition("=")
            attrs[k] = v
    return kind, attrs


def read_stream(path, want_clusters=True):
    """Graph records of a plain binary stream: list of (attrs, cluster sizes)."""
    import numpy as np
    graphs = []
    with open(path, "rb") as f:
        head = f.read(12)
        if head[:4] != b"\x89GNS":
            raise SystemExit("%s: not a plain binary gnnstream" % path)
        while True:
            b = f.read(4)
            if len(b) < 4:
                break
            (hl,) = struct.unpack("<I", b)
            kind, a = parse_header(f.read(hl).decode())
            if kind == "end":
                nb = f.read(12)  # a following segment, if any
                if len(nb) < 12:
                    break
                continue
            if kind == "graph":
                m = int(a["edges"])
                f.seek(8 * m, os.SEEK_CUR)
                graphs.append([a, None])
            elif kind == "tensor":
                rows, cols = int(a["rows"]), int(a["cols"])
                if want_clusters and a.get("name") == "cluster":
                    lab = np.frombuffer(f.read(4 * rows * cols), dtype="<i4")
                    graphs[-1][1] = lab.copy()
                else:
                    f.seek(4 * rows * cols, os.SEEK_CUR)
    return graphs


# ----------------------------------------------------------------------------
# timing
# ----------------------------------------------------------------------------
def time_cmd(cmd, reps):
    """Best wall time of reps runs of cmd (stdout to /dev/null); dies if it fails."""
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        dt = time.perf_counter() - t0
        if r.returncode != 0:
            raise SystemExit("failed: %s: %s" % (" ".join(cmd), r.stderr.decode()))
        ts.append(dt)
        if dt > 10:
            break
    return min(ts)


def worker(tool, npz, threads, reps):
    """Runs in a fresh process: time one peer generator; prints JSON."""
    import gc
    import numpy as np
    d = np.load(npz)
    labels, p_in, p_out = d["labels"], float(d["p_in"]), float(d["p_out"])
    n = labels.size
    sizes = np.bincount(labels, minlength=K)
    P = np.full((K, K), p_out)
    np.fill_diagonal(P, p_in)
    if tool == "networkx":
        import networkx as nx

        def run():
            return nx.stochastic_block_model(sizes.tolist(), P.tolist(), seed=SEED,
                                             sparse=True)
        count = lambda g: g.number_of_edges()
    elif tool == "graph-tool":
        import graph_tool.all as gt
        gt.openmp_set_num_threads(threads)
        rng = np.random.default_rng(SEED)
        theta = (1.0 - rng.random(n)) ** (-1.0 / (GAMMA - 1.0))
        theta /= theta.mean()
        Th = np.bincount(labels, weights=theta, minlength=K)
        Th2 = np.bincount(labels, weights=theta ** 2, minlength=K)
        E = P * np.outer(Th, Th)                       # expected edges r != s
        E[np.diag_indices(K)] = P.diagonal() * (Th ** 2 - Th2) / 2.0
        probs = E.copy()
        probs[np.diag_indices(K)] *= 2.0               # graph-tool: 2 x edges on the diagonal

        def run():
            g = gt.generate_sbm(labels, probs, out_degs=theta, directed=False)
            gt.remove_parallel_edges(g)
            gt.remove_self_loops(g)
            return g
        count = lambda g: g.num_edges()
    else:
        raise SystemExit("unknown tool " + tool)
    ts, m = [], 0
    for _ in range(reps):
        gc.collect()
        t0 = time.perf_counter()
        g = run()
        ts.append(time.perf_counter() - t0)
        m = count(g)
        del g
        if ts[-1] > 10:
            break
    print(json.dumps({"time": min(ts), "m": m}))


def run_peer(tool, npz, threads, reps, cap):
    """(seconds, edges) or (None, reason)."""
    cmd = [PY, os.path.abspath(__file__), "--worker", tool, npz, str(threads), str(reps)]
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=cap * reps + 60)
    except subprocess.TimeoutExpired:
        return None, "killed after %.0f s" % (cap * reps + 60)
    if r.returncode != 0:
        err = r.stderr.decode().strip().splitlines()
        return None, "failed: " + (err[-1] if err else "exit %d" % r.returncode)
    d = json.loads(r.stdout.decode().strip().splitlines()[-1])
    return d["time"], d["m"]


def have(module):
    return subprocess.run([PY, "-c", "import " + module], capture_output=True).returncode == 0


def cell(t, m):
    if t is None:
        return m
    return "%.3g s, %.3g M/s" % (t, m / t / 1e6) if t > 0 else "%.3g s" % t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="bin/dcbm-gen")
    ap.add_argument("--sizes", default="2000,10000,100000,1000000")
    ap.add_argument("--cap", type=float, default=60.0)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--worker", nargs=4)
    a = ap.parse_args()
    if a.worker:
        worker(a.worker[0], a.worker[1], int(a.worker[2]), int(a.worker[3]))
        return
    binp = os.path.abspath(a.bin)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    gt_ok, nx_ok = have("graph_tool.all"), have("networkx")
    load0 = os.getloadavg()[0]
    tmp = tempfile.mkdtemp(prefix="dcbm-bench.")
    notes = []
    rows = []
    nx_prev = None        # (m, seconds) of the last networkx run
    try:
        for n in sizes:
            base = [binp, "-q", "--count", "1", "--nodes", str(n), "--clusters", str(K),
                    "--p-div-q", str(PDQ), "--gamma", str(GAMMA), "--mean-degree",
                    str(MEAN_DEG), "-s", str(SEED)]
            out = os.path.join(tmp, "g.gs")
            subprocess.run(base + ["-l", "0", "-j", "2", "-o", out], check=True)
            (attrs, labels), = read_stream(out)
            os.unlink(out)
            m = int(attrs["edges"])
            row = {"n": n, "m": m}
            for lvl in (0, 1):
                for j in (1, 2):
                    say("dcbm-gen n=%d -l %d -j %d" % (n, lvl, j))
                    t = time_cmd(base + ["-l", str(lvl), "-j", str(j)], a.reps)
                    row["ours", lvl, j] = cell(t, m)
            import numpy as np
            npz = os.path.join(tmp, "model.npz")
            np.savez(npz, labels=labels.astype(np.int64), p_in=float(attrs["p_in"]),
                     p_out=float(attrs["p_out"]))
            if not nx_ok:
                row["nx"] = "n/a (networkx not installed)"
            elif nx_prev and nx_prev[1] * (m / nx_prev[0]) ** 2 > a.cap:
                est = nx_prev[1] * (m / nx_prev[0]) ** 2
                row["nx"] = ("skipped (est. %.0f s > %.0f s)" % (est, a.cap)
                             if est < float("inf") else "skipped (a smaller size failed)")
                nx_prev = (m, est)
            else:
                say("networkx n=%d" % n)
                t, mm = run_peer("networkx", npz, 1, a.reps, a.cap)
                row["nx"] = cell(t, mm)
                nx_prev = (mm, t) if t is not None else (m, float("inf"))
            for j in (1, 2):
                if not gt_ok:
                    row["gt", j] = "n/a (graph-tool not installed)"
                    continue
                say("graph-tool n=%d threads=%d" % (n, j))
                t, mm = run_peer("graph-tool", npz, j, a.reps, a.cap)
                row["gt", j] = cell(t, mm)
            rows.append(row)

        print("### DCBM generation: one graph (K = %d, p_div_q = %g, gamma = %g, "
              "mean degree %g)" % (K, PDQ, GAMMA, MEAN_DEG))
        print()
        print("Wall time and edges per second (best of %d; M/s = millions of "
              "edges of the graph each tool produced per second)." % a.reps)
        print()
        print("| n | edges | dcbm-gen -l 0, 1 thr | dcbm-gen -l 0, 2 thr | "
              "dcbm-gen -l 1, 1 thr | dcbm-gen -l 1, 2 thr | networkx SBM | "
              "graph-tool DC-SBM, 1 thr | graph-tool DC-SBM, 2 thr |")
        print("|---:|---:|---|---|---|---|---|---|---|")
        for r in rows:
            print("| %d | %d | %s | %s | %s | %s | %s | %s | %s |" % (
                r["n"], r["m"], r["ours", 0, 1], r["ours", 0, 2], r["ours", 1, 1],
                r["ours", 1, 2], r["nx"], r["gt", 1], r["gt", 2]))
        print()

        # the paper's set
        prows = []
        out = os.path.join(tmp, "paper.gs")
        subprocess.run([binp, "-q", "-s", str(SEED), "-l", "0", "-o", out], check=True)
        gs = read_stream(out, want_clusters=False)
        os.unlink(out)
        tot = sum(int(g[0]["edges"]) for g in gs)
        for lvl in (0, 1):
            for j in (1, 2):
                say("dcbm-gen paper set -l %d -j %d" % (lvl, j))
                t = time_cmd([binp, "-q", "-s", str(SEED), "-l", str(lvl), "-j", str(j)],
                             a.reps)
                prows.append((lvl, j, t))
        print("### DCBM generation: the paper's set (`dcbm-gen -s 1`: 1024 graphs, "
              "n 100..2000, K 2..10, p_div_q 3..6, k 0.1..2, gamma 2..10)")
        print()
        print("%d graphs, %d edges in all." % (len(gs), tot))
        print()
        print("| level | threads | wall time | edges/s |")
        print("|---:|---:|---:|---:|")
        for lvl, j, t in prows:
            print("| %d | %d | %.3g s | %.3g M/s |" % (lvl, j, t, tot / t / 1e6))
        print()
        notes.append("dcbm-gen times are of the whole command: process start, the "
                     "model, exact Bernoulli sampling, the canonical sort and writing the "
                     "stream (graph + cluster tensor) to /dev/null; -l 1 includes gzip.")
        notes.append("Peers time only the generator call in a fresh process; they write "
                     "nothing.  networkx has no degree correction (plain SBM with the same "
                     "block densities); graph-tool's generate_sbm is a Poisson multigraph "
                     "model made simple by removing parallel edges and self-loops, so its "
                     "edge count differs slightly.")
        notes.append("networkx is skipped when the previous size, scaled by the square "
                     "of the edge ratio (its measured growth here is superlinear), "
                     "predicts more than %.0f s." % a.cap)
        notes.append("Load average (1 min) %.2f at the start, %.2f at the end, on %d cores: "
                     "anything well above 0 means other work shared the cores and the "
                     "2-thread columns in particular are not clean."
                     % (load0, os.getloadavg()[0], os.cpu_count() or 0))
        for s in notes:
            print("* " + s)
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    main()
