#!/usr/bin/python3
"""python-igraph or networkx timings of the 8 quantities, in the TSV form of
features_bench, so the two can be joined line by line.

  /usr/bin/python3 bench/features_peers.py [--tool igraph|networkx] [-r REPS]
        [--long S] [--timeout S] [--quantities a,b] FILE...

FILE: "# n N" then "u v" lines (the first graph of the file is used).
The implementations are the peer harness's (peer_impls.py of $PEER_BENCH,
default ../shared/bench beside the repository): igraph's native calls, CI_1
from degree() and knn(), subgraph centrality with numpy.linalg.eigh;
networkx's calls as the paper used them, CI_1 by a Python loop.
Timing rule, the same as features_bench: a first call, then the median of
REPS more calls, each after gc.collect(); when the first call takes at least
--long seconds (default 2) it is the only one.  Loading is not timed.
Each (graph, quantity) cell runs in a forked child that shares the loaded
graph; a call running longer than --timeout seconds (default 0: no limit)
is killed and the cell reported as status "timeout".
Output columns: graph n m quantity threads seconds calls status (status ok,
timeout or error:<message>; seconds "nan" unless ok).  igraph and networkx
are single-threaded; run with OPENBLAS_NUM_THREADS=1 so that their numpy
parts (igraph/networkx subgraph, networkx eigenvector) are too.
"""
import sys
sys.dont_write_bytecode = True

import argparse
import gc
import os
import select
import signal
import struct
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("PEER_BENCH", os.path.join(HERE, "..", "..", "shared", "bench")))
import peer_impls  # noqa: E402


def load_edges(path):
    """(n, edges) of the first graph of a features_bench graph file."""
    with open(path) as f:
        n = int(f.readline().split()[2])
        lines = []
        for line in f:
            if line.startswith("#"):
                break
            lines.append(line)
    e = np.array(" ".join(lines).split(), dtype=np.int64).reshape(-1, 2)
    return n, e


def child(tool, q, g, reps, long_call, wfd):
    """Runs in the forked child: writes one double per timed call, then -1."""
    def put(x):
        os.write(wfd, struct.pack("d", x))
    try:
        gc.collect()
        t0 = time.perf_counter()
        peer_impls.compute(tool, q, g)
        t1 = time.perf_counter() - t0
        put(t1)
        if t1 < long_call:
            for _ in range(reps):
                gc.collect()
                t0 = time.perf_counter()
                peer_impls.compute(tool, q, g)
                put(time.perf_counter() - t0)
        put(-1.0)
    except BaseException as ex:  # report, never fall back into the parent's code
        msg = ("%s: %s" % (type(ex).__name__, ex)).replace("\t", " ").replace("\n", " ")
        os.write(wfd, struct.pack("d", -2.0) + msg[:200].encode())
    finally:
        os.close(wfd)
        os._exit(0)


def cell(tool, q, g, reps, long_call, timeout):
    """(median seconds, calls, status)."""
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        child(tool, q, g, reps, long_call, w)
    os.close(w)
    ts, status, buf = [], None, b""
    try:
        while status is None:
            ready, _, _ = select.select([r], [], [], timeout if timeout > 0 else None)
            if not ready:
                status = "timeout"
                os.kill(pid, signal.SIGKILL)
                break
            data = os.read(r, 4096)
            if not data:
                status = "error:worker died"
                break
            buf += data
            while len(buf) >= 8 and status is None:
                (x,) = struct.unpack("d", buf[:8])
                if x == -2.0:
                    rest = buf[8:]
                    while True:
                        more = os.read(r, 4096)
                        if not more:
                            break
                        rest += more
                    status = "error:" + rest.decode(errors="replace")
                    break
                buf = buf[8:]
                if x == -1.0:
                    status = "ok"
                else:
                    ts.append(x)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    if status != "ok":
        return float("nan"), 0, status
    if len(ts) > 1:
        ts = ts[1:]  # the first call was the warm-up
    ts.sort()
    return ts[len(ts) // 2], len(ts), "ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default="igraph", choices=["igraph", "networkx"])
    ap.add_argument("-r", type=int, default=5)
    ap.add_argument("--long", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=0.0)
    ap.add_argument("--quantities", default=",".join(peer_impls.QUANTITIES))
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    print("graph\tn\tm\tquantity\tthreads\tseconds\tcalls\tstatus", flush=True)
    for path in a.files:
        n, e = load_edges(path)
        g = peer_impls.load(a.tool, n, e)
        m = len(e)
        for q in a.quantities.split(","):
            if q not in peer_impls.QUANTITIES:
                raise SystemExit("features_peers: unknown quantity %s" % q)
            t, calls, status = cell(a.tool, q, g, a.r, a.long, a.timeout)
            print("%s#0\t%d\t%d\t%s\t1\t%.3g\t%d\t%s" % (os.path.basename(path), n, m, q,
                                                      t, calls, status), flush=True)
        del g
        gc.collect()


if __name__ == "__main__":
    main()
