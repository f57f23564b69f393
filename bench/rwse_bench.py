#!/usr/bin/python3
"""rwse_bench.py - times of `nodefeat --set rwse` (see bench/rwse.sh).

Each cell runs the program RUNS times on a file made once (dcbm-gen with
fixed seeds, or data/*.gs), binary plain output to /dev/null, and reports
the median wall time, the CPU time and the peak resident memory of the
median run, the method the records say (exact, or walks with the bound),
and the load average before and after the cell.  The peer, numpy's dense
diag((D^+ A)^k) by repeated products, runs once per graph where n^2
doubles fit in 1 GiB, in one process per input (its time excludes reading).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

BIN = "bin"
K = 16


def run(cmd, out=subprocess.DEVNULL):
    """(wall s, cpu s, peak RSS MiB, stderr) of one run of cmd."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE)
    err = p.stderr.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit("rwse_bench: %s failed: %s" % (" ".join(cmd), err.strip()))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, err


def make(path, cmd):
    if not os.path.exists(path):
        print("rwse_bench: making %s" % path, file=sys.stderr)
        with open(path + ".tmp", "wb") as f:
            subprocess.run(cmd, stdout=f, check=True)
        os.rename(path + ".tmp", path)
    return path


def sizes(path):
    """graphs, nodes, edges of a stream (from its text form's headers)."""
    p = subprocess.run([BIN + "/nodefeat", "-q", "-t", "-l", "0", path],
                       stdout=subprocess.PIPE, check=True)
    g = n = m = 0
    for line in p.stdout.split(b"\n"):
        if line.startswith(b"@graph "):
            kv = dict(w.split(b"=", 1) for w in line.split()[1:] if b"=" in w)
            g, n, m = g + 1, n + int(kv[b"nodes"]), m + int(kv[b"edges"])
    return g, n, m


def method(path, extra):
    """The method attributes of the first features record."""
    p = subprocess.run([BIN + "/nodefeat", "-q", "--set", "rwse", "-t"] + extra + [path],
                       stdout=subprocess.PIPE, check=True)
    for line in p.stdout.split(b"\n"):
        if line.startswith(b"@tensor") and b" name=features " in line:
            s = line.decode()
            if "method=exact" in s:
                return "exact"
            e = re.search(r" error=(\S+)", s).group(1)
            a = re.search(r" error_all=(\S+)", s).group(1)
            w = re.search(r" walks=(\S+)", s).group(1)
            return "walks (%s in all): error <= %s per value, %s all at once (p 0.99)" % (
                w, e, a)
    return "?"


def peer(path, outdir, timeout):
    """numpy dense powers of every graph of path, seconds, or None."""
    code = r'''
import sys, time, numpy as np
K = %d
graphs, cur = [], None
for line in open(sys.argv[1]):
    if line.startswith("@"):
        cur = None
        if line.startswith("@graph "):
            kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
            cur = (int(kv["nodes"]), [])
            graphs.append(cur)
    elif cur is not None and line.strip() and not line.startswith("#"):
        u, v = line.split()[:2]
        cur[1].append((int(u), int(v)))
t0 = time.perf_counter()
for n, e in graphs:
    A = np.zeros((n, n))
    for u, v in e:
        A[u, v] = A[v, u] = 1
    d = A.sum(1)
    P = np.divide(1.0, d, out=np.zeros(n), where=d > 0)[:, None] * A
    M = P.copy()
    for k in range(K):
        np.diag(M).copy()
        M = M @ P
print(time.perf_counter() - t0)
''' % K
    txt = os.path.join(outdir, os.path.basename(path) + ".txt")
    if not os.path.exists(txt):
        with open(txt, "wb") as f:
            subprocess.run([BIN + "/nodefeat", "-q", "-t", "-l", "0", path], stdout=f,
                           check=True)
    try:
        p = subprocess.run(["/usr/bin/python3", "-c", code, txt], stdout=subprocess.PIPE,
                           timeout=timeout, check=True)
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
        return None
    return float(p.stdout.decode().split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/gnnpipe-rwsebench")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big-n", type=int, default=1000000)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    dg = BIN + "/dcbm-gen"
    cells = [("Cora", "data/cora.gs", [], True)]
    if os.path.exists("data/pubmed.gs"):
        cells.append(("Pubmed", "data/pubmed.gs", [], False))
    cells.append(("32 DCBM graphs, 100..2000 nodes (pre-training batch)",
                  make(a.out + "/batch.gs", [dg, "-q", "-s", "1", "--count", "32"]), [], True))
    cells.append(("32 DCBM graphs, 1000..2000 nodes",
                  make(a.out + "/batch1000.gs", [dg, "-q", "-s", "2", "--count", "32",
                                                 "--nodes", "1000..2000"]), [], True))
    if a.big_n > 0:
        big = make(a.out + "/big.gs", [dg, "-q", "-s", "3", "--count", "1", "--nodes",
                                       str(a.big_n), "--mean-degree", "10", "-l", "0"])
        cells.append(("DCBM %d nodes, mean degree 10" % a.big_n, big, [], False))
        cells.append(("DCBM %d nodes, mean degree 10" % a.big_n, big,
                      ["--rw-error", "0.1"], False))
    print("## Random-walk return probabilities (nodefeat --set rwse, K = %d)" % K)
    print()
    print("`nodefeat --set rwse -l 0 FILE > /dev/null`, %d threads, median of %d runs "
          "(reading, the CSR and writing included); the peer is numpy's dense "
          "diag(P^k), k = 1..%d, by repeated products (OpenBLAS), run once." % (
              os.cpu_count() or 0, a.runs, K))
    print()
    print("| input | graphs | nodes | edges | options | wall s | CPU s | peak RSS MiB "
          "| method | numpy dense s | load before/after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, path, extra, dense in cells:
        g, n, m = sizes(path)
        load0 = os.getloadavg()[0]
        cmd = [BIN + "/nodefeat", "-q", "--set", "rwse", "-l", "0"] + extra + [path]
        print("rwse_bench: %s %s" % (name, " ".join(extra)), file=sys.stderr)
        runs = sorted((run(cmd) for _ in range(a.runs)), key=lambda r: r[0])
        med = runs[len(runs) // 2]
        walls = [r[0] for r in runs]
        pt = peer(path, a.out, 600) if dense else None
        print("| %s | %d | %d | %d | %s | %.3f (%.3f..%.3f) | %.2f | %.0f | %s | %s | %.2f / %.2f |"
              % (name, g, n, m, " ".join(extra) or "defaults", statistics.median(walls),
                 walls[0], walls[-1], med[1], med[2], method(path, extra),
                 "%.2f" % pt if pt is not None else "not run (n^2 too large)" if not dense
                 else "over 600 s", load0, os.getloadavg()[0]))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
