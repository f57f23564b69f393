"""embed_torch.py - the PyTorch reference encoder's forward on one graph, for
bench/embed.sh: the model of ../shared/bench/torch_gcn_ref.py (build_model,
its encode(): tanh embedding, 3 GCN blocks with graph norm and a sparse CSR
product) at d = 512, random weights, under torch.no_grad(), on the graph of a
gnnstream file (its edge list read from the text form) and the features
nodefeat wrote.  Prints "forward_s S" (median of --runs), "peak_rss_mib M",
"torch_version V"."""
import argparse
import gzip
import importlib.util
import os
import resource
import subprocess
import sys
import time

import numpy as np


def edges_of(path):
    """(n, edges) of the one graph record of a gnnstream, via nodefeat -t (the
    text form, which any gnnpipe filter writes)."""
    bin_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bin")
    txt = subprocess.run([os.path.join(bin_dir, "nodefeat"), "-q", "-t", "-l", "0", path],
                         check=True, capture_output=True).stdout
    lines = txt.split(b"\n")
    for i, l in enumerate(lines):
        if l.startswith(b"@graph "):
            kv = dict(x.split(b"=", 1) for x in l.split()[1:] if b"=" in x)
            n, m = int(kv[b"nodes"]), int(kv[b"edges"])
            e = np.loadtxt(lines[i + 1:i + 1 + m], dtype=np.int64)
            return n, e
    raise SystemExit("embed_torch.py: no graph record")


def features_of(path, n):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    for i, l in enumerate(lines):
        if l.startswith(b"@tensor ") and b" name=features " in l:
            return np.loadtxt(lines[i + 1:i + 1 + n], dtype=np.float32)
    raise SystemExit("embed_torch.py: no features tensor")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", required=True)
    ap.add_argument("--features", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bench", required=True, help="the directory of torch_gcn_ref.py")
    a = ap.parse_args()
    import torch
    torch.set_num_threads(a.threads)
    spec = importlib.util.spec_from_file_location("torch_gcn_ref",
                                                  os.path.join(a.bench, "torch_gcn_ref.py"))
    ref = importlib.util.module_from_spec(spec)
    sys.path.insert(0, a.bench)
    spec.loader.exec_module(ref)
    n, e = edges_of(a.graph)
    X = torch.from_numpy(features_of(a.features, n))
    A, _ = ref.normalized_adjacency(n, e, "csr")
    args = argparse.Namespace(layers=3, hidden=512, norm="graph", att_hidden=512)
    model, _ = ref.build_model(args)
    model.eval()
    times = []
    with torch.no_grad():
        for _ in range(a.runs):
            t = time.perf_counter()
            Hs = model.encode(X, A, [n])
            times.append(time.perf_counter() - t)
            del Hs
    times.sort()
    print("forward_s %.2f" % times[len(times) // 2])
    print("peak_rss_mib %.0f" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
    print("torch_version %s" % torch.__version__)


if __name__ == "__main__":
    main()
