"""python_check.py - the checks of tests/cli/python.test.sh: python/gnnstream.py
and python/gnnpipe_torch.py against the programs' own output (PYTHONPATH
holds python/).

  python_check.py dump SRC OUT        every record of SRC (any form) in the text
                                      form, as the programs write it (no pg
                                      record of its own, no segment lines):
                                      compared with a program's -t output
  python_check.py rewrite SRC OUT OPTS
                                      SRC's records written again by a Writer
                                      (OPTS: text, level=N), pg records first
  python_check.py rebuild TEXT OUT    the graphs of a text stream (their edges
                                      and 'features' taken by plain line
                                      parsing, not by gnnstream.py) written
                                      anew by Writer.graph and Writer.tensor
  python_check.py error SRC CERR      reading SRC raises StreamError, and its
                                      line is the program's (CERR, one line
                                      'prog: message')
  python_check.py model GS ST         the model record of GS read by
                                      gnnstream.py equals the tensors and
                                      config of ST, gcn-export's file of it
  python_check.py writer DIR          Writer refuses what the programs would
                                      (self-loop, repeated edge, bad names,
                                      a record after another graph), and an
                                      exception leaves no file
  python_check.py encode ST GS OUT KIND...
                                      gnnpipe_torch.embed_stream's rows of the
                                      features of GS by the encoder of ST (a
                                      safetensors file, or a model stream .gs), for
                                      each KIND (DTYPE:EMBEDDING[:POOL], DTYPE
                                      f32 or f64), to OUT-KIND.npy (one
                                      process: PyTorch takes seconds to load)
  python_check.py close GOT WANT [TOL]
                                      two float32 .npy arrays of one shape agree:
                                      |got - want| <= TOL max(1, |want|) at
                                      every element (absolute up to 1, relative
                                      above; TOL 1e-5 by default)

Every failure prints one line "python_check: what" and exits 1.
"""
import os
import sys
import zlib

import numpy as np

import gnnstream


def fail(msg):
    print("python_check: " + msg)
    sys.exit(1)


def cmd_dump(src, out):
    """A Writer in the text form whose own pg record and segment lines are
    left out: the bytes of the records as a program's -t writes them."""
    with open(out + ".tmp", "wb") as f:
        with gnnstream.Writer(f, text=True, prog="dump", cmd="dump") as w:
            for rec in gnnstream.read(src):
                w.write(rec)
    with open(out + ".tmp", "rb") as f, open(out, "wb") as g:
        lines = f.read().split(b"\n")
        # ##gnnstream, the writer's @pg, ...records..., @end, ""
        g.write(b"\n".join(lines[2:-2]) + b"\n")
    os.unlink(out + ".tmp")


def cmd_rewrite(src, out, *opts):
    kw = {"text": "text" in opts}
    for o in opts:
        if o.startswith("level="):
            kw["level"] = int(o[6:])
    recs = list(gnnstream.read(src))
    with gnnstream.Writer(out, prog="rewrite", cmd="rewrite", **kw) as w:
        for r in recs:
            if r.kind == "pg":
                w.write(r)
        for r in recs:
            if r.kind != "pg":
                w.write(r)


def cmd_rebuild(text, out):
    """Graphs and features from the text form by splitting lines: an
    independent reading of what the programs wrote."""
    graphs, cur, what = [], None, None
    with open(text) as f:
        for line in f:
            if line.startswith("@"):
                kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
                what = None
                if line.startswith("@graph "):
                    cur = {"id": int(kv["id"]), "n": int(kv["nodes"]), "e": [], "x": []}
                    graphs.append(cur)
                    what = "e"
                elif line.startswith("@tensor ") and kv["name"] == "features":
                    what = "x"
            elif what and not line.startswith("#"):
                cur[what].append(line.split())
    with gnnstream.Writer(out, prog="rebuild", cmd="rebuild") as w:
        for g in graphs:
            e = np.array(g["e"], dtype=np.int64).reshape(-1, 2)
            w.graph(g["id"], g["n"], e[:, 0], e[:, 1])
            if g["x"]:
                w.tensor(g["id"], "features", np.array(g["x"], dtype=np.float64),
                         columns="degree,core,ci1,clustering")


def cmd_error(src, cerr):
    with open(cerr) as f:
        lines = f.read().splitlines()
    if len(lines) != 1 or ": " not in lines[0]:
        fail("%s: the program's stderr is not one line: %r" % (cerr, lines[:3]))
    want = lines[0].split(": ", 1)[1]
    try:
        n = len(gnnstream.read_all(src))
    except gnnstream.StreamError as e:
        if str(e) != want or "\n" in str(e):
            fail("%s: StreamError %r, the program said %r" % (src, str(e), want))
        print("%s: %s" % (src, e))
        return
    fail("%s: read %d records without an error; the program said %r" % (src, n, want))


def cmd_model(gs, st):
    import json
    import struct
    m = gnnstream.model(gs)
    with open(st, "rb") as f:
        buf = f.read()
    n = struct.unpack("<Q", buf[:8])[0]
    header = json.loads(buf[8:8 + n])
    meta = header.pop("__metadata__")
    if meta["gnnpipe.config"] != m.config or meta["gnnpipe.model"] != m.name:
        fail("%s: the config or name differs from %s's" % (gs, st))
    if sorted(header) != sorted(m.params):
        fail("%s: parameters %s, %s has %s" % (gs, sorted(m.params)[:4], st, sorted(header)[:4]))
    types = {"F32": "<f4", "F64": "<f8", "I32": "<i4", "I64": "<i8"}
    for name, t in header.items():
        b, e = t["data_offsets"]
        want = np.frombuffer(buf[8 + n + b:8 + n + e], types[t["dtype"]]).reshape(t["shape"])
        got = m.params[name]
        if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
            fail("%s: parameter %s differs from %s's" % (gs, name, st))
    for k, v in m.attrs.items():
        if meta.get("gnnpipe.model." + k) != v:
            fail("%s: attribute %s=%s, %s has %r" % (gs, k, v, st, meta.get("gnnpipe.model." + k)))
    print("%s: %d parameters, config and %d attributes as in %s"
          % (gs, len(m.params), len(m.attrs), st))


def refused(what, fn, text):
    try:
        fn()
    except ValueError as e:
        if text not in str(e):
            fail("%s: refused, but with %r (want %r)" % (what, str(e), text))
        return
    fail("%s: not refused" % what)


def cmd_writer(d):
    path = os.path.join(d, "never.gs")

    def inside(fn):
        def run():
            with gnnstream.Writer(path) as w:
                fn(w)
        return run

    refused("a self-loop", inside(lambda w: w.graph(0, 3, [0, 1], [1, 1])), "self-loop on node 1")
    refused("an edge twice", inside(lambda w: w.graph(0, 3, [0, 1], [1, 0])), "listed twice")
    refused("a node out of range", inside(lambda w: w.graph(0, 3, [0], [3])), "out of range")
    refused("a NaN", inside(lambda w: w.tensor(0, "x", np.array([[np.nan]]))), "not finite")
    refused("a tensor name with a blank", inside(lambda w: w.tensor(0, "a b", np.zeros((1, 1)))),
            "want 1..63 bytes")
    refused("a record after another graph",
            inside(lambda w: (w.graph(0, 2, [0], [1]), w.graph(1, 2, [0], [1]),
                              w.tensor(0, "x", np.zeros((2, 1))))), "would follow graph 1")
    refused("names of a wrong count",
            inside(lambda w: (w.graph(0, 2, [0], [1]), w.names(0, ["a"]))), "1 names for 2 nodes")
    refused("a name twice",
            inside(lambda w: (w.graph(0, 2, [0], [1]), w.names(0, ["a", "a"]))),
            "name 1 ('a') is also node 0's")
    refused("a name with a tab",
            inside(lambda w: (w.graph(0, 2, [0], [1]), w.names(0, ["a", "b\tc"]))),
            "holds a control character")
    refused("a structural attribute", inside(lambda w: w.graph(0, 2, [0], [1], edges=3)),
            "attribute edges is the record's own")
    left = [f for f in os.listdir(d) if "never" in f]
    if left:
        fail("a refused stream left files: %s" % left)
    print("the writer refused 10 bad records, and left no file")


def cmd_close(got, want, tol="1e-5"):
    tol = float(tol)
    a, b = np.load(got), np.load(want)
    if a.dtype != np.float32 or b.dtype != np.float32 or a.shape != b.shape:
        fail("%s is %s %s, %s is %s %s" % (got, a.dtype, a.shape, want, b.dtype, b.shape))
    d = np.abs(a.astype(np.float64) - b)
    r = d / np.maximum(1.0, np.abs(b.astype(np.float64)))
    i = np.unravel_index(r.argmax(), r.shape)
    if not r[i] <= tol:
        fail("%s: row %d column %d: %.9g, %s has %.9g (differ by %.3g, more than %g x "
             "max(1, |value|))" % (got, i[0], i[1], a[i], want, b[i], d[i], tol))
    print("%s = %s: %s, max abs difference %.2g, max scaled %.2g (tolerance %g)"
          % (got, want, a.shape, d.max(), r.max(), tol))


def cmd_members(gz, least):
    """A gzip file of at least that many members, each read by zlib."""
    b = open(gz, "rb").read()
    n = 0
    while b:
        d = zlib.decompressobj(31)
        d.decompress(b)
        if not d.eof:
            fail(f"{gz}: member {n + 1} is cut short")
        b = d.unused_data
        n += 1
    if n < int(least):
        fail(f"{gz}: {n} gzip member(s), expected at least {least}")


def cmd_encode(st, gs, out, *kinds):
    import torch
    import gnnpipe_torch as gt
    enc = {}
    for k in kinds:
        dt, emb, pool = (k.split(":") + [""])[:3]
        if dt not in enc:
            load = gt.Encoder.from_stream if st.endswith(".gs") else gt.Encoder.from_safetensors
            enc[dt] = load(st, torch.float64 if dt == "f64" else torch.float32)
        rows = gt.embed_stream(enc[dt], gs, emb, pool.split(",") if pool else None)
        np.save("%s-%s.npy" % (out, k.replace(":", "-").replace(",", "_")), rows)


COMMANDS = {"dump": cmd_dump, "rewrite": cmd_rewrite, "rebuild": cmd_rebuild, "error": cmd_error,
            "model": cmd_model, "writer": cmd_writer, "encode": cmd_encode,
            "close": cmd_close, "members": cmd_members}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        fail("usage: python_check.py %s ARGS" % "|".join(COMMANDS))
    try:
        COMMANDS[sys.argv[1]](*sys.argv[2:])
    except gnnstream.StreamError as e:
        fail("StreamError: %s" % e)
