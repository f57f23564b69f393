"""gstext.py - readers shared by the tests' Python checks (rwse_ref.py,
refex_ref.py): the graphs of a gnnstream in text form (`prog -t`), and the
tables of a program's --tsv output.  Plain Python and numpy; nothing of
the programs under test.
"""
import numpy as np


def graphs(path):
    """(id, n, edges) of every graph record of a text-form stream."""
    out, cur = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("@") or line.startswith("##"):
                cur = None
                if line.startswith("@graph "):
                    kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
                    cur = (int(kv["id"]), int(kv["nodes"]), [])
                    out.append(cur)
                continue
            if cur is not None and line.strip():
                u, v = line.split()[:2]
                cur[2].append((int(u), int(v)))
    return out


def tables(path):
    """({graph id: (n, columns) array}, header fields) of --tsv output."""
    out, rows, gid = {}, [], None
    with open(path) as f:
        header = next(f).rstrip("\n").split("\t")
        for line in f:
            if line.startswith("# graph "):
                if gid is not None:
                    out[gid] = np.array(rows)
                gid, rows = int(line.split()[2]), []
            else:
                rows.append([float(x) for x in line.split("\t")[1:]])
    if gid is not None:
        out[gid] = np.array(rows)
    return out, header
