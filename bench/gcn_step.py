#!/usr/bin/python3
"""gcn_step.py - `make bench` section "Pre-training step: gcn-train vs PyTorch"
(driven by bench/gcn_step.sh, which builds, compiles bench/gcn_sgemm.c and
writes the batch).  Markdown on stdout, progress on stderr.

Four trainers on the same batch with the same threads, in this order: ours
in fp32 and in bf16 (gcn-train --precision), PyTorch in fp32 and under
torch.autocast('cpu', dtype=torch.bfloat16) (the reference's --autocast
bf16); and two plain products as the machine's rates: OpenBLAS sgemm and
oneDNN's bf16 matmul (bench/gcn_sgemm.c fp32|bf16).

  gcn_step.py run --stream BATCH.txt --gcn-train bin/gcn-train --sgemm SGEMM
                  [--steps 5] [--warmup 2] [--threads 2] [--idle-wait 20]
                  [--load-before "a b c"] [--workdir DIR] [--no-bf16 WHY]
  gcn_step.py torch --stream BATCH.txt --json OUT [--autocast none|bf16] ...
                  (the PyTorch side, in a fresh process so that its peak RSS
                  is its own)

Both trainers get the same 32 graphs: the text gnnstream written by
`dcbm-gen -t | centrality -t` (graph records, their `cluster` tensor from
dcbm-gen and the `centrality` tensor).

Our side: `gcn-train -j THREADS --precision P --bench-steps WARMUP+STEPS`; the per-step
times it prints on stderr are read, and the median is taken over the steps
after the first WARMUP (gcn-train's own step_s_median covers every step).

PyTorch side: the reference ../shared/bench/torch_gcn_ref.py (directory
$PEER_BENCH, default ../shared/bench beside the repository) is imported and
its own run() does the measuring, unchanged: self-check, prepare_batch() for
WARMUP+STEPS fresh masks, build_model(), Adam, wait for an idle machine, the
timing loop (WARMUP warm-up steps, median of STEPS), the one-GCN-block timing
and ru_maxrss.  Only its make_pool() is replaced by a function returning our
stream's graphs, as pool entries with the keys prepare_batch() and run() read:
n, edges (m x 2 int64, u < v), labels (the cluster tensor), cent (n x 4:
eigenvector, betweenness, closeness, subgraph in networkx conventions, the
first four columns of our centrality tensor), params {"K"} and seed.  Its
arguments are the reference's own defaults (taken from its main()) with
--steps, --warmup, --threads, --idle-wait, --no-profile and --block-graph
(the largest graph of the batch, written as an edge list, since run() also
times one GCN block on it) overridden.

Arithmetic count (one number for both trainers, so that the ratio of the
GFLOP/s equals the inverse ratio of the step times).  The necessary
multiply-adds (2 flop each) of one step, from the batch shape of our batch:
N nodes, P pairs, U distinct pair nodes (= cluster queries), C clusters, d
hidden width (512), L blocks (3), NTN slices k = 4, rank MLP hidden 4 x 256 =
1024, attention hidden a = 512; "x 3" = forward + backward (input gradient and
weight gradient):

  encoder      L * 2 GEMMs * 3 * 2 N d d     (W1 and W2 of every block)
  rec NTN      3 * 2 P d (k d)               (x^T W[1:k] for every pair)
  rank MLPs    3 * 2 U d 1024                (first layers of the 4 MLPs, once
                                              per distinct node; the reference
                                              evaluates all 2P pair ends)
  attention    3 * 2 N d a                   (W_a F_v over every support node)
  cluster NTN  3 * 2 C d (k d)               (W[1:k] c_C once per cluster; the
                                              per-candidate dot products
                                              are O(U K k d), negligible)

Sparse products with Â, normalisation, element-wise ops and Adam are
memory-bound and left out (they are a few per cent of the GEMM flops).
"""
import sys
sys.dont_write_bytecode = True

import argparse
import gzip
import json
import os
import re
import shlex
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
PEER = Path(os.environ.get("PEER_BENCH", str(REPO.parent / "shared" / "bench"))).resolve()
CENT_COLUMNS = ["eigenvector", "betweenness", "closeness", "subgraph"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def import_peer():
    sys.path.insert(0, str(PEER))
    import benchlib  # noqa: E402
    import torch_gcn_ref  # noqa: E402
    return benchlib, torch_gcn_ref


# ============================================================================
# our stream (text form, see man/man5/gnnstream.5)
# ============================================================================
def read_text_stream(path, limit):
    """The first `limit` graphs of a text gnnstream with their cluster and
    centrality tensors, as torch_gcn_ref pool entries."""
    with open(path, "rb") as f:
        magic = f.read(2)
    op = gzip.open if magic == b"\x1f\x8b" else open
    with op(path, "rt") as f:
        lines = f.read().split("\n")
    graphs, order = {}, []
    i, nl = 0, len(lines)
    while i < nl:
        line = lines[i]
        i += 1
        if not line.startswith("@"):
            if line.strip() and not line.startswith("##"):
                raise ValueError("%s: line %d: body line outside a record" % (path, i))
            continue
        words = shlex.split(line[1:])
        kind = words[0]
        att = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        j = i
        while j < nl and not lines[j].startswith("@") and not lines[j].startswith("##"):
            j += 1
        body = lines[i:j]
        i = j
        if kind == "graph":
            gid = int(att["id"])
            n, m = int(att["nodes"]), int(att["edges"])
            e = np.array(" ".join(body).split(), dtype=np.int64)
            if len(e) != 2 * m:
                raise ValueError("graph %d: %d edge values, expected %d" % (gid, len(e), 2 * m))
            e = e.reshape(m, 2)
            e = np.stack([e.min(1), e.max(1)], 1)
            graphs[gid] = {"n": n, "edges": e, "params": {"K": int(att.get("K", 0))},
                           "seed": int(att.get("seed", 0)), "id": gid}
            order.append(gid)
        elif kind == "tensor":
            gid = int(att["id"])
            if gid not in graphs or att["name"] not in ("cluster", "centrality"):
                continue
            rows, cols = int(att["rows"]), int(att["cols"])
            v = np.array(" ".join(body).split(), dtype=np.float64)
            if len(v) != rows * cols:
                raise ValueError("tensor %s of graph %d: %d values, expected %d"
                                 % (att["name"], gid, len(v), rows * cols))
            v = v.reshape(rows, cols)
            if att["name"] == "cluster":
                graphs[gid]["labels"] = v[:, 0].astype(np.int64)
            else:
                names = att.get("columns", "").split(",")
                graphs[gid]["cent"] = v[:, [names.index(c) for c in CENT_COLUMNS]]
        if len(order) > limit and kind == "graph":
            break
    pool = []
    for gid in order[:limit]:
        g = graphs[gid]
        for key in ("labels", "cent"):
            if key not in g:
                raise ValueError("graph %d has no %s tensor" % (gid, "cluster" if key == "labels"
                                                                else "centrality"))
        if not g["params"]["K"]:
            g["params"]["K"] = int(g["labels"].max()) + 1
        pool.append(g)
    return pool


# ============================================================================
# PyTorch side (fresh process)
# ============================================================================
class _GotArgs(Exception):
    pass


def reference_args(ref, argv):
    """The reference's own argparse defaults + argv, taken from its main()
    (its run() is swapped for a catcher, so nothing is run or written)."""
    saved_run, saved_argv = ref.run, sys.argv

    def catch(a):
        raise _GotArgs(a)

    ref.run, sys.argv = catch, [str(PEER / "torch_gcn_ref.py")] + argv
    try:
        ref.main()
    except _GotArgs as e:
        return e.args[0]
    finally:
        ref.run, sys.argv = saved_run, saved_argv
    raise RuntimeError("torch_gcn_ref.main() did not reach run()")


def cmd_torch(a):
    benchlib, ref = import_peer()
    pool = read_text_stream(a.stream, a.graphs)
    # run() also times one GCN block on an edge-list file: the largest graph
    big = max(pool, key=lambda g: g["n"])
    blk = Path(a.workdir) / "block_graph.txt"
    benchlib.write_edgelist(blk, big["edges"])
    with open(benchlib.meta_path(blk), "w") as f:
        json.dump({"n": big["n"]}, f)
    args = reference_args(ref, ["--steps", str(a.steps), "--warmup", str(a.warmup),
                                "--threads", str(a.threads), "--idle-wait", str(a.idle_wait),
                                "--no-profile", "--block-graph", str(blk.resolve()),
                                "--autocast", a.autocast])
    args.batch_graphs = len(pool)
    args.min_n = min(g["n"] for g in pool)
    args.max_n = max(g["n"] for g in pool)
    ref.make_pool = lambda _args: pool      # the only change to the reference
    res = ref.run(args)
    res["ru_maxrss_mib"] = ref.rss_mib()
    with open(a.json, "w") as f:
        json.dump(res, f, indent=1)


# ============================================================================
# our side
# ============================================================================
STEP_RE = re.compile(r"bench step (\d+): ([0-9.]+) s")


def run_ours(a, benchlib, prec):
    cmd = [a.gcn_train, "-j", str(a.threads), "--precision", prec, "--bench-steps",
           str(a.warmup + a.steps), a.stream]
    log("gcn_step: " + " ".join(shlex.quote(c) for c in cmd))
    benchlib.wait_for_idle(a.idle_wait, log=log)
    snap = benchlib.cpu_snapshot()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    steps = {}
    for line in p.stderr:
        sys.stderr.write(line)
        m = STEP_RE.search(line)
        if m:
            steps[int(m.group(1))] = float(m.group(2))
    out = p.stdout.read()
    if p.wait() != 0:
        raise SystemExit("gcn_step: gcn-train failed (exit %d)" % p.returncode)
    load, steal = benchlib.foreign_load(snap, benchlib.cpu_snapshot())
    kv = {}
    for line in out.splitlines():
        k, _, v = line.partition("\t")
        kv[k] = float(v) if re.fullmatch(r"-?[0-9.]+(e[-+]?\d+)?", v) else v
    n = int(kv["steps"])
    if sorted(steps) != list(range(1, n + 1)):
        raise SystemExit("gcn_step: could not read gcn-train's per-step times on stderr")
    t = [steps[i] for i in range(1, n + 1)]
    kv["step_times"] = t
    kv["timed"] = t[a.warmup:]
    kv["step_median"] = float(np.median(kv["timed"]))
    kv["foreign_cores"] = load + steal
    return kv


def run_sgemm(a, prec, why=None):
    """The plain product's rate, or None when prec is unavailable here (the
    reason appended to the list why)."""
    r = subprocess.run([a.sgemm, str(a.sgemm_m), "512", "512", str(a.threads), "5", prec],
                       capture_output=True, text=True)
    if r.returncode != 0:
        log("gcn_step: %s product: %s" % (prec, r.stderr.strip()))
        if why is not None:
            why.append(r.stderr.strip())
        return None
    kv = {}
    for line in r.stdout.splitlines():
        k, _, v = line.partition("\t")
        try:
            kv[k] = float(v)
        except ValueError:
            kv[k] = v
    return kv


def run_torch(a, work, autocast):
    tj = work / ("torch-%s.json" % autocast)
    cmd = [sys.executable, str(Path(__file__).resolve()), "torch", "--stream", a.stream,
           "--json", str(tj), "--workdir", str(work), "--graphs", str(a.graphs),
           "--steps", str(a.steps), "--warmup", str(a.warmup), "--threads", str(a.threads),
           "--idle-wait", str(a.idle_wait), "--autocast", autocast]
    r = subprocess.run(cmd, stdout=sys.stderr)
    if r.returncode != 0:
        raise SystemExit("gcn_step: the PyTorch reference failed (exit %d)" % r.returncode)
    with open(tj) as f:
        return json.load(f)


# ============================================================================
# arithmetic count
# ============================================================================
def step_gflop(N, P, U, C, d=512, L=3, k=4, rank_hidden=1024, att=512):
    """Necessary GEMM arithmetic of one training step (see the docstring)."""
    terms = {
        "encoder": L * 2 * 3 * 2 * N * d * d,
        "rec NTN": 3 * 2 * P * d * (k * d),
        "rank MLPs": 3 * 2 * U * d * rank_hidden,
        "attention": 3 * 2 * N * d * att,
        "cluster NTN": 3 * 2 * C * d * (k * d),
    }
    return sum(terms.values()) / 1e9, {t: v / 1e9 for t, v in terms.items()}


# ============================================================================
# report
# ============================================================================
def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cmd_run(a):
    t_start = time.time()
    benchlib, _ = import_peer()
    load_before = a.load_before or loadavg()
    work = Path(a.workdir or tempfile.mkdtemp(prefix="gcn_step."))
    pool = read_text_stream(a.stream, a.graphs)

    log("gcn_step: plain products %dx512 by 512x512, %d threads" % (a.sgemm_m, a.threads))
    sg = run_sgemm(a, "fp32")
    bg_why = []
    bg = run_sgemm(a, "bf16", bg_why)
    log("gcn_step: sgemm %.1f GFLOP/s, oneDNN bf16 %s" % (
        sg["gflops_median"], "%.1f GFLOP/s" % bg["gflops_median"] if bg else "not available"))
    # bf16 rows run where the CPU has bf16 matrix instructions (--no-bf16:
    # mk/cpu-bf16.sh's reason where it has not): elsewhere bf16 is emulated
    # in software, a measure of the emulation (PyTorch's autocast took
    # minutes a step on an AVX2 CPU), not a comparison
    skipped = []
    if a.no_bf16:
        skipped.append("the bf16 rows (gcn-train and PyTorch): %s" % a.no_bf16)
    elif not bg:
        skipped.append("gcn-train bf16: %s" % "; ".join(bg_why))
    for what in skipped:
        log("gcn_step: SKIP: " + what)

    ours = {}
    for prec in ("fp32", "bf16"):
        if prec == "bf16" and (not bg or a.no_bf16):
            continue
        log("gcn_step: gcn-train --precision %s, %d + %d steps" % (prec, a.warmup, a.steps))
        ours[prec] = run_ours(a, benchlib, prec)
    torch = {}
    for ac in ("none", "bf16"):
        if ac == "bf16" and a.no_bf16:
            continue
        log("gcn_step: PyTorch reference, autocast %s (fresh process), %d + %d steps"
            % (ac, a.warmup, a.steps))
        torch[ac] = run_torch(a, work, ac)
    load_after = loadavg()

    # ---- numbers ----
    o32 = ours["fp32"]
    N, P, U, C = (int(o32[k]) for k in ("nodes", "pairs", "cluster_queries", "clusters"))
    gflop, terms = step_gflop(N, P, U, C)
    tb = torch["none"]["batch"]
    gflop_torch_done = step_gflop(tb["nodes"], tb["pairs"], 2 * tb["pairs"], tb["clusters"])[0]
    cols = [("gcn-train fp32", o32["step_median"], o32["timed"], o32["peak_rss_mib"],
             o32["prep_s_mean"], "%.2f (whole run)" % o32["foreign_cores"], sg["gflops_median"])]
    if "bf16" in ours:
        o = ours["bf16"]
        cols.append(("gcn-train bf16", o["step_median"], o["timed"], o["peak_rss_mib"],
                     o["prep_s_mean"], "%.2f (whole run)" % o["foreign_cores"],
                     bg["gflops_median"]))
    for ac, name in (("none", "PyTorch fp32"), ("bf16", "PyTorch bf16 autocast")):
        if ac not in torch:
            continue
        t = torch[ac]
        cols.append((name, t["step_s_median"], [t["step_s_min"], t["step_s_max"]],
                     t["peak_rss_mib"], t["prep_s_median"],
                     "%.2f median, %.2f max" % (t["foreign_cores_median"],
                                                t["foreign_cores_max"]),
                     (bg or sg)["gflops_median"] if ac == "bf16" else sg["gflops_median"]))
    col = {c[0]: c for c in cols}

    def ratio(x, y, idx):
        return col[x][idx] / col[y][idx] if x in col and y in col else None

    targets = [
        ("step: gcn-train bf16 / gcn-train fp32", ratio("gcn-train bf16", "gcn-train fp32", 1),
         a.bf16_target),
        ("step: gcn-train bf16 / PyTorch bf16", ratio("gcn-train bf16", "PyTorch bf16 autocast", 1),
         a.bf16_target),
        ("step: gcn-train fp32 / PyTorch fp32", ratio("gcn-train fp32", "PyTorch fp32", 1),
         a.time_target),
        ("peak RSS: gcn-train bf16 / PyTorch bf16",
         ratio("gcn-train bf16", "PyTorch bf16 autocast", 3), a.mem_target),
        ("peak RSS: gcn-train fp32 / PyTorch fp32", ratio("gcn-train fp32", "PyTorch fp32", 3),
         a.mem_target),
        ("step: PyTorch bf16 / PyTorch fp32", ratio("PyTorch bf16 autocast", "PyTorch fp32", 1),
         None),
    ]
    ns = sorted(g["n"] for g in pool)
    m_edges = sum(len(g["edges"]) for g in pool)
    n_clu = sum(len(np.unique(g["labels"])) for g in pool)

    # ---- markdown ----
    L = ["## Pre-training step: gcn-train vs PyTorch, fp32 and bf16", "",
         "One training step (zero_grad + forward + backward + Adam; batch preparation "
         "excluded on both sides) of the default configuration, d = %d, L = %d, on the "
         "same batch of %d DCBM graphs (`%s`), %d threads each, in one run: gcn-train "
         "`--precision fp32` and `--precision bf16` (bf16 operands of the large products, "
         "fp32 accumulation, master weights and Adam), and the PyTorch reference "
         "`torch_gcn_ref.py` (%s, %s) in fp32 and under `torch.autocast('cpu', "
         "dtype=torch.bfloat16)` (its `--autocast bf16`), its own timing loop. Median of "
         "%d timed steps after %d warm-up steps, fresh masks every step." % (
             torch["none"]["config"]["hidden"], torch["none"]["config"]["layers"], len(pool),
             a.batch_cmd, a.threads,
             "torch " + str(torch["none"].get("versions", {}).get("torch", "?")),
             torch["none"].get("blas", "?"), a.steps, a.warmup), "",
         "Batch: %d graphs of %d..%d nodes (median %d), %d nodes, %d edges; per step "
         "gcn-train %d pairs, %d cluster queries (distinct pair nodes), %d clusters; "
         "PyTorch %d pairs, %d cluster queries, %d clusters%s, Â nnz %d (masked graphs)."
         % (len(pool), ns[0], ns[-1], ns[len(ns) // 2], N, m_edges, P, U, C,
            tb["pairs"], tb["cluster_queries"], n_clu,
            "" if n_clu == tb["clusters"] else " (%d cluster slots)" % tb["clusters"],
            tb["adj_nnz"]),
         "",
         "| measure | " + " | ".join(c[0] for c in cols) + " |",
         "|---|" + "---|" * len(cols),
         "| **step time, median (s)** | " + " | ".join("**%.3f**" % c[1] for c in cols) + " |",
         "| step time, min / max (s) | " + " | ".join(
             "%.3f / %.3f" % (min(c[2]), max(c[2])) for c in cols) + " |",
         "| achieved GFLOP/s (%.0f GFLOP per step) | " % gflop + " | ".join(
             "%.1f" % (gflop / c[1]) for c in cols) + " |",
         "| share of the plain product's rate (fp32: sgemm; bf16: oneDNN matmul) | " +
         " | ".join("%.0f%% of %.0f" % (100 * gflop / c[1] / c[6], c[6]) for c in cols) + " |",
         "| **peak RSS (MiB)** | " + " | ".join("**%.0f**" % c[3] for c in cols) + " |",
         "| batch preparation per step (s, not in the step) | " + " | ".join(
             "%.3f" % c[4] for c in cols) + " |",
         "| other processes' CPU while timing (cores) | " + " | ".join(c[5] for c in cols) + " |",
         "",
         "| ratio | value | target | met |", "|---|---|---|---|"]
    if skipped:
        L[-2:-2] = ["Not run: " + "; ".join(skipped) + ".", ""]
    for name, v, tgt in targets:
        if v is None:
            L.append("| %s | not measured | %s | |" % (name, "≤ %.2f" % tgt if tgt else ""))
        else:
            L.append("| %s | **%.3f** | %s | %s |" % (
                name, v, "≤ %.2f" % tgt if tgt else "", "" if tgt is None else
                ("**yes**" if v <= tgt else "**no**")))
    L += ["",
          "Plain products on this machine, %dx512 by 512x512, %d threads, median of 5 "
          "calls: OpenBLAS `cblas_sgemm` %.1f GFLOP/s (best %.1f)%s." % (
              a.sgemm_m, a.threads, sg["gflops_median"], sg["gflops_best"],
              "; oneDNN matmul, bf16 operands, f32 result (`%s`) %.1f GFLOP/s (best %.1f), "
              "%.2fx sgemm, relative error %.1e against sgemm" % (
                  bg["impl"], bg["gflops_median"], bg["gflops_best"],
                  bg["gflops_median"] / sg["gflops_median"], bg["rel_err"])
              if bg else "; oneDNN bf16: not available in this build"), "",
          "GFLOP/s = one necessary-arithmetic count of the step divided by each side's "
          "median step time (formula in bench/gcn_step.py, from gcn-train's batch shape: "
          "%s; x3 for forward + backward). The same count is used for every column, so "
          "GFLOP/s ratios are inverse time ratios; PyTorch actually evaluates the rank MLPs "
          "on all 2P pair ends, %.0f GFLOP by that count." % (
              ", ".join("%s %.0f" % (t, v) for t, v in terms.items()), gflop_torch_done), "",
          "Peak RSS is ru_maxrss of each process: gcn-train's own report, and the PyTorch "
          "reference's run() in a fresh Python process (interpreter, torch, %d prepared "
          "batches, the self-check and its one-block timing included, as in the reference)."
          % (a.warmup + a.steps), "",
          "Load average (1, 5, 15 min) before: %s; after: %s (%d cores). Section run "
          "time %.0f s." % (load_before, load_after, os.cpu_count(),
                            time.time() - a.t0 if a.t0 else time.time() - t_start)]
    busy = max([o["foreign_cores"] for o in ours.values()] +
               [t["foreign_cores_max"] for t in torch.values()])
    if busy > 0.2:
        L += ["", "**Note:** other processes used up to %.2f cores of %d while timing; "
              "the step times are inflated by it, not necessarily equally, so the targets "
              "are judged on contended numbers: rerun on an idle machine." % (
                  busy, os.cpu_count())]
    print("\n".join(L))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "torch"):
        s = sub.add_parser(name)
        s.add_argument("--stream", required=True, help="text gnnstream of the batch")
        s.add_argument("--graphs", type=int, default=32)
        s.add_argument("--steps", type=int, default=5)
        s.add_argument("--warmup", type=int, default=2)
        s.add_argument("--threads", type=int, default=2)
        s.add_argument("--idle-wait", type=float, default=10.0)
        s.add_argument("--workdir", default=None)
    r = sub.choices["run"]
    r.add_argument("--gcn-train", default=str(REPO / "bin" / "gcn-train"))
    r.add_argument("--sgemm", required=True, help="the compiled bench/gcn_sgemm.c")
    r.add_argument("--sgemm-m", type=int, default=37000)
    r.add_argument("--load-before", default=None)
    r.add_argument("--batch-cmd", default="dcbm-gen --count 32 | centrality")
    r.add_argument("--time-target", type=float, default=0.6)
    r.add_argument("--bf16-target", type=float, default=0.5)
    r.add_argument("--mem-target", type=float, default=0.5)
    r.add_argument("--t0", type=float, default=None, help="section start (epoch s)")
    r.add_argument("--no-bf16", default="", metavar="WHY",
                   help="skip the bf16 rows, for this reason (no bf16 instructions)")
    sub.choices["torch"].add_argument("--json", required=True)
    sub.choices["torch"].add_argument("--autocast", choices=["none", "bf16"], default="none")
    a = ap.parse_args()
    if a.cmd == "torch":
        cmd_torch(a)
    else:
        cmd_run(a)


if __name__ == "__main__":
    main()
