"""export_check.py - an independent reader for gcn-export's safetensors
files and for the binary gnnstream layout of gnnstream(5), used by
tests/cli/export.test.sh.  It reads files from their bytes alone (struct,
json, zlib; numpy where a command needs arrays), never through gnnpipe's
code or the safetensors package.

  export_check.py check ST TEXT         ST holds exactly the model record of the
                                        text stream TEXT: tensors, types, shapes,
                                        values, config, attributes, provenance
  export_check.py same ST1 ST2          the same tensors and metadata but the
                                        provenance
  export_check.py stream GS TEXT        GS, a plain or gzip binary stream, read by
                                        the layout of gnnstream(5), holds the
                                        model record of TEXT (segment CRC checked)
  export_check.py build GS              write a binary stream holding a hand-made
                                        model record, by gnnstream(5)'s layout
  export_check.py built ST              ST is the export of that hand-made record
  export_check.py embed ST NODEFEAT [NPY]
                                        the encoder's block outputs H1..HL, in
                                        numpy from ST's weights, for the graphs
                                        and 'features' of the text stream
                                        NODEFEAT; equal to NPY (gcn-embed's) to
                                        1e-5, or printed when NPY is absent
  export_check.py torch ST PYFILE       the loader of PYFILE (gcn-export(1))
                                        gives ST's tensors as torch tensors

Every failure prints one line "export_check: what" and exits 1.
"""
import json
import struct
import sys
import zlib

SIZES = {"F32": 4, "F64": 8, "I32": 4, "I64": 8}
NPTYPE = {"F32": "<f4", "F64": "<f8", "I32": "<i4", "I64": "<i8"}
GSTYPE = {"f32": "F32", "f64": "F64", "i32": "I32", "i64": "I64"}


def fail(msg):
    print("export_check: " + msg)
    sys.exit(1)


# ---- safetensors, strictly ----

def no_duplicates(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            fail("key %r appears twice in the header" % k)
        d[k] = v
    return d


def read_safetensors(path):
    """(header entries in file order, metadata, data buffer), every rule of
    the format and every documented choice of gcn-export checked."""
    with open(path, "rb") as f:
        buf = f.read()
    if len(buf) < 8:
        fail("%s: shorter than 8 bytes" % path)
    n = struct.unpack("<Q", buf[:8])[0]
    if n > 100000000 or 8 + n > len(buf):
        fail("%s: header length %d does not fit" % (path, n))
    if n % 8:
        fail("%s: header length %d is not a multiple of 8" % (path, n))
    try:
        text = buf[8:8 + n].decode("utf-8")
    except UnicodeDecodeError as e:
        fail("%s: header is not UTF-8: %s" % (path, e))
    if not text.startswith("{"):
        fail("%s: header does not start with '{'" % path)
    body = text.rstrip(" ")
    if not body.endswith("}") or len(text) - len(body) > 7:
        fail("%s: header padding is not 0..7 spaces after the object" % path)
    order = json.loads(body, object_pairs_hook=lambda p: p)
    header = no_duplicates(order)
    names = [k for k, _ in order]
    meta = header.pop("__metadata__", None)
    if meta is not None:
        if names[0] != "__metadata__":
            fail("%s: __metadata__ is not first" % path)
        meta = no_duplicates(meta)
        for k, v in meta.items():
            if not isinstance(v, str):
                fail("%s: metadata %r is not a string" % (path, k))
    data = buf[8 + n:]
    at = 0
    entries = []
    for name, e in order:
        if name == "__metadata__":
            continue
        e = dict(e)
        if sorted(e) != ["data_offsets", "dtype", "shape"]:
            fail("%s: %s: keys %s" % (path, name, sorted(e)))
        if e["dtype"] not in SIZES:
            fail("%s: %s: dtype %r" % (path, name, e["dtype"]))
        count = 1
        for d in e["shape"]:
            if not isinstance(d, int) or d < 0:
                fail("%s: %s: bad shape %r" % (path, name, e["shape"]))
            count *= d
        b, end = e["data_offsets"]
        if b != at:
            fail("%s: %s starts at %d, want %d (no gap, data order)" % (path, name, b, at))
        if end - b != count * SIZES[e["dtype"]]:
            fail("%s: %s: %d bytes for shape %r" % (path, name, end - b, e["shape"]))
        if b % SIZES[e["dtype"]]:
            fail("%s: %s at %d is not aligned to its element size" % (path, name, b))
        at = end
        entries.append((name, e))
    if at != len(data):
        fail("%s: data of %d bytes, the header covers %d" % (path, len(data), at))
    return entries, meta or {}, data


def tensor(data, e):
    """The values of a header entry, as a flat list (no numpy needed)."""
    b, end = e["data_offsets"]
    fmt = {"F32": "f", "F64": "d", "I32": "i", "I64": "q"}[e["dtype"]]
    return list(struct.unpack("<%d%s" % ((end - b) // SIZES[e["dtype"]], fmt), data[b:end]))


def array(data, e):
    import numpy as np
    b, end = e["data_offsets"]
    a = np.frombuffer(data, NPTYPE[e["dtype"]], (end - b) // SIZES[e["dtype"]], b)
    return a.reshape(e["shape"])


# ---- gnnstream, text form and binary form ----

def attrs(words):
    """key=value pairs of a record header (gnnstream(5), Records)."""
    out, i = [], 0
    while i < len(words):
        while i < len(words) and words[i] in " \t":
            i += 1
        if i == len(words):
            break
        j = words.index("=", i)
        key, i = words[i:j], j + 1
        if i < len(words) and words[i] == '"':
            i += 1
            val = []
            while words[i] != '"':
                if words[i] == "\\":
                    i += 1
                    val.append({"n": "\n", "t": "\t"}.get(words[i], words[i]))
                else:
                    val.append(words[i])
                i += 1
            i += 1
            val = "".join(val)
        else:
            j = i
            while j < len(words) and words[j] not in " \t":
                j += 1
            val, i = words[i:j], j
        out.append((key, val))
    return out


def record(kind, header, config=b"", params=None):
    a = attrs(header)
    return {"kind": kind, "attrs": a, "header": kind + (" " if header else "") + header,
            "config": config, "params": params or []}


def read_text(path):
    """The records of a plain text stream."""
    with open(path, "rb") as f:
        buf = f.read()
    pos, recs = 0, []

    def line():
        nonlocal pos
        e = buf.index(b"\n", pos)
        s = buf[pos:e].decode("utf-8")
        pos = e + 1
        return s

    while pos < len(buf):
        s = line()
        if s.startswith("##"):
            continue
        kind, _, rest = s[1:].partition(" ")
        r = record(kind, rest)
        a = dict(r["attrs"])
        if kind == "model":
            r["config"] = buf[pos:pos + int(a["config"])]
            pos += int(a["config"])
            for _ in range(int(a["params"])):
                h = line()
                pa = dict(attrs(h[len("@param "):]))
                rows, cols = int(pa["rows"]), int(pa["cols"])
                vals = []
                for _ in range(rows):
                    vals += line().split()
                r["params"].append((pa["name"], GSTYPE[pa["type"]], rows, cols, vals))
        elif kind in ("graph", "pairs"):
            m = int(a["edges"] if kind == "graph" else a["count"])
            r["rows"] = [line().split() for _ in range(m)]
        elif kind == "tensor":
            r["rows"] = [line().split() for _ in range(int(a["rows"]))]
        recs.append(r)
    return recs


def read_binary(path):
    """The records of a binary stream, by the layout of gnnstream(5): the
    12-byte segment header, then records framed by a 32-bit length, the
    end trailer's count and CRC-32 checked."""
    with open(path, "rb") as f:
        buf = f.read()
    if buf[:2] == b"\x1f\x8b":
        import gzip
        buf = gzip.decompress(buf)
    pos, recs = 0, []

    def take(n):
        nonlocal pos
        if pos + n > len(buf):
            fail("%s: ends inside a record" % path)
        pos += n
        return buf[pos - n:pos]

    def header():
        n = struct.unpack("<I", take(4))[0]
        if not 1 <= n <= 1 << 20:
            fail("%s: header length %d" % (path, n))
        return take(n).decode("utf-8")

    while pos < len(buf):
        magic, version, flags = take(4), *struct.unpack("<II", take(8))
        if magic != b"\x89GNS" or version != 1 or flags != 0:
            fail("%s: segment header %r %d %d" % (path, magic, version, flags))
        start, nrec = pos, 0
        while True:
            h = header()
            kind, _, rest = h.partition(" ")
            if kind == "end":
                a = dict(attrs(rest))
                crc = zlib.crc32(buf[start:pos - 4 - len(h.encode())])
                if int(a["records"]) != nrec or int(a["crc32"], 16) != crc:
                    fail("%s: end record %r: %d records, crc32 %08x" % (path, h, nrec, crc))
                break
            nrec += 1
            r = record(kind, rest)
            a = dict(r["attrs"])
            if kind == "model":
                r["config"] = take(int(a["config"]))
                for _ in range(int(a["params"])):
                    p = header()
                    if not p.startswith("param "):
                        fail("%s: %r is not a param header" % (path, p))
                    pa = dict(attrs(p[len("param "):]))
                    t = GSTYPE[pa["type"]]
                    rows, cols = int(pa["rows"]), int(pa["cols"])
                    raw = take(rows * cols * SIZES[t])
                    fmt = "<%d%s" % (rows * cols, {"F32": "f", "F64": "d", "I32": "i", "I64": "q"}[t])
                    r["params"].append((pa["name"], t, rows, cols, list(struct.unpack(fmt, raw))))
            elif kind in ("graph", "pairs"):
                m = int(a["edges"] if kind == "graph" else a["count"])
                take(8 * m + m * {"none": 0, "i32": 4, "f64": 8}[a.get("labels", "none")])
            elif kind == "tensor":
                take(int(a["rows"]) * int(a["cols"]) * SIZES[GSTYPE[a["type"]]])
            recs.append(r)
    return recs


def model_of(recs, path):
    for r in recs:
        if r["kind"] == "model":
            return r
    fail("%s: no model record" % path)


def value(t, s):
    """A text value as the number the binary form holds (f32 rounded)."""
    if t in ("I32", "I64"):
        return int(s)
    x = float(s)
    return struct.unpack("<f", struct.pack("<f", x))[0] if t == "F32" else x


# ---- the commands ----

def same_params(got, want, what):
    """got: name -> (dtype, shape, flat values); want: model record params."""
    if sorted(got) != sorted(p[0] for p in want):
        fail("%s: tensors %s, the record has %s" % (what, sorted(got), sorted(p[0] for p in want)))
    for name, t, rows, cols, vals in want:
        gt, shape, gv = got[name]
        if gt != t or list(shape) != [rows, cols]:
            fail("%s: %s is %s %s, the record has %s [%d, %d]" % (what, name, gt, shape, t, rows, cols))
        wv = [value(t, v) if isinstance(v, str) else v for v in vals]
        for i, (a, b) in enumerate(zip(gv, wv)):
            if a != b:
                fail("%s: %s[%d] = %r, the record has %r" % (what, name, i, a, b))


def cmd_check(st, text):
    entries, meta, data = read_safetensors(st)
    recs = read_text(text)
    m = model_of(recs, text)
    got = {n: (e["dtype"], e["shape"], tensor(data, e)) for n, e in entries}
    same_params(got, m["params"], st)
    a = dict(m["attrs"])
    want = {"producer": meta.get("producer", ""), "gnnpipe.export_version": "1",
            "gnnpipe.model": a.pop("name"), "gnnpipe.config": m["config"].decode("utf-8"),
            "gnnpipe.pg": "\n".join(r["header"] for r in recs if r["kind"] == "pg")}
    for k in ("config", "params"):
        a.pop(k)
    want["gnnpipe.model.pg"] = a.pop("pg")
    for k, v in a.items():
        want["gnnpipe.model." + k] = v
    if not meta.get("producer", "").startswith("gcn-export (gnnpipe) "):
        fail("%s: producer %r" % (st, meta.get("producer")))
    if meta != want:
        diff = sorted(set(meta.items()) ^ set(want.items()))
        fail("%s: metadata differs from the record: %r" % (st, diff[:4]))
    print("%s: %d tensors, %d metadata keys, as in %s" % (st, len(entries), len(meta), text))


def cmd_same(st1, st2):
    e1, m1, d1 = read_safetensors(st1)
    e2, m2, d2 = read_safetensors(st2)
    if e1 != e2 or d1 != d2:
        fail("%s and %s hold different tensors" % (st1, st2))
    for k in ("gnnpipe.pg", "gnnpipe.model.pg"):  # the ids of other command lines
        m1.pop(k, None)
        m2.pop(k, None)
    if m1 != m2:
        fail("%s and %s: metadata differs beyond provenance" % (st1, st2))
    print("%s, %s: the same %d tensors" % (st1, st2, len(e1)))


def cmd_stream(gs, text):
    mb = model_of(read_binary(gs), gs)
    mt = model_of(read_text(text), text)
    got = {n: (t, [r, c], v) for n, t, r, c, v in mb["params"]}
    same_params(got, mt["params"], gs)
    strip = lambda a: [kv for kv in a if kv[0] != "pg"]
    if mb["config"] != mt["config"] or strip(mb["attrs"]) != strip(mt["attrs"]):
        fail("%s: the model's config or attributes differ from %s" % (gs, text))
    print("%s: read by gnnstream(5)'s layout, its model is that of %s" % (gs, text))


# The hand-made record: every parameter type, in an order that is not the
# exported one, and a config that needs every kind of JSON escape.
BUILT_CONFIG = 'name: "a \\"b\\""\r\npath: C:\\x\tend\x01\x1f caf\u00e9 \u2713\n'.encode("utf-8")
BUILT = [("w", "F32", 1, 3, [1.5, -2.0, 0.25]),
         ("d", "F64", 2, 2, [0.1, -1e300, 3.0, 5e-324]),
         ("i", "I32", 1, 2, [-7, 2147483647]),
         ("q", "I64", 2, 1, [-(1 << 62), 12345678901234]),
         ("empty", "F32", 0, 4, [])]


def cmd_build(gs):
    def framed(h):
        h = h.encode("utf-8")
        return struct.pack("<I", len(h)) + h

    fmt = {"F32": "f", "F64": "d", "I32": "i", "I64": "q"}
    body = framed("model name=hand config=%d params=%d epoch=7 note=\"x y\""
                  % (len(BUILT_CONFIG), len(BUILT))) + BUILT_CONFIG
    for name, t, rows, cols, vals in BUILT:
        body += framed("param name=%s rows=%d cols=%d type=%s" % (name, rows, cols, t.lower()))
        body += struct.pack("<%d%s" % (len(vals), fmt[t]), *vals)
    seg = b"\x89GNS" + struct.pack("<II", 1, 0) + body
    seg += framed("end records=1 crc32=%08x" % zlib.crc32(body))
    with open(gs, "wb") as f:
        f.write(seg)


def cmd_built(st):
    entries, meta, data = read_safetensors(st)
    got = {n: (e["dtype"], e["shape"], tensor(data, e)) for n, e in entries}
    same_params(got, BUILT, st)
    order = [n for n, _ in entries]
    if order != ["d", "q", "w", "i", "empty"]:
        fail("%s: data order %s, want 8-byte types first, then the record's order" % (st, order))
    if meta.get("gnnpipe.config", "").encode("utf-8") != BUILT_CONFIG:
        fail("%s: config %r" % (st, meta.get("gnnpipe.config")))
    if meta.get("gnnpipe.model") != "hand" or meta.get("gnnpipe.model.epoch") != "7" \
            or meta.get("gnnpipe.model.note") != "x y" or meta.get("gnnpipe.pg") != "":
        fail("%s: metadata %r" % (st, meta))
    print("%s: the hand-made record, every value and byte of config" % st)


def encoder(W, X, A, eps):
    """H1..HL of gcn-train(1), THE MODEL, for one graph, in float64."""
    import numpy as np
    n = X.shape[0]
    deg = A.sum(axis=1) + 1                             # D: degree with the self-loop
    Ahat = (A + np.eye(n)) / np.sqrt(np.outer(deg, deg))  # D^-1/2 (A + I) D^-1/2
    H = np.tanh(X @ W["embed.W"] + W["embed.b"])
    out, l = [], 1
    while "block%d.W1" % l in W:
        T = np.maximum(H @ W["block%d.W1" % l], 0) @ W["block%d.W2" % l]
        mu, var = T.mean(axis=0), T.var(axis=0)         # biased, over the graph's nodes
        T = (T - mu) / np.sqrt(var + eps) * W["block%d.gamma" % l] + W["block%d.beta" % l]
        H = np.maximum(Ahat @ T, 0)
        out.append(H)
        l += 1
    return np.hstack(out)


def cmd_embed(st, nodefeat, npy=None):
    import re
    import numpy as np
    entries, meta, data = read_safetensors(st)
    W = {n: array(data, e).astype(np.float64) for n, e in entries}
    eps = float(re.search(r"^model\.bn_eps: *(\S+)$", meta["gnnpipe.config"], re.M).group(1))
    Hs, graph, n = [], None, 0
    for r in read_text(nodefeat):
        a = dict(r["attrs"])
        if r["kind"] == "graph":
            n = int(a["nodes"])
            graph = np.zeros((n, n))
            for e in r["rows"]:
                graph[int(e[0]), int(e[1])] = graph[int(e[1]), int(e[0])] = 1
        elif r["kind"] == "tensor" and a["name"] == "features":
            X = np.array(r["rows"], dtype=np.float64)
            Hs.append(encoder(W, X, graph, eps))
    if not Hs:
        fail("%s: no graph with 'features'" % nodefeat)
    H = np.vstack(Hs)
    if npy is None:
        print("%s: %d x %d embeddings, max |H| %.4g" % (st, H.shape[0], H.shape[1], abs(H).max()))
        return
    got = np.load(npy)
    if got.dtype != np.float32 or got.shape != H.shape:
        fail("%s: %s %s, want float32 %s" % (npy, got.dtype, got.shape, H.shape))
    diff = np.abs(got - H)
    tol = 1e-5 * max(1.0, float(np.abs(H).max()))
    i = np.unravel_index(diff.argmax(), diff.shape)
    if diff[i] > tol:
        fail("%s: node %d column %d: %.9g, numpy %.9g (differ by %.3g > %.3g)"
             % (npy, i[0], i[1], got[i], H[i], diff[i], tol))
    print("%s: %d x %d equal to numpy's to %.2g (tolerance %.2g)" % (npy, H.shape[0], H.shape[1],
                                                                       diff.max(), tol))


def cmd_torch(st, pyfile):
    import numpy as np
    scope = {}
    exec(compile(open(pyfile).read(), pyfile, "exec"), scope)
    state, meta = scope["load_safetensors"](st)
    entries, want_meta, data = read_safetensors(st)
    if meta != want_meta or sorted(state) != sorted(n for n, _ in entries):
        fail("%s: the manual's loader gives other names or metadata" % pyfile)
    for n, e in entries:
        if not np.array_equal(state[n].numpy(), array(data, e)):
            fail("%s: the manual's loader gives another %s" % (pyfile, n))
    print("%s: the manual's loader gives %d torch tensors" % (st, len(state)))


COMMANDS = {"check": cmd_check, "same": cmd_same, "stream": cmd_stream, "build": cmd_build,
            "built": cmd_built, "embed": cmd_embed, "torch": cmd_torch}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        fail("usage: export_check.py %s ARGS" % "|".join(COMMANDS))
    COMMANDS[sys.argv[1]](*sys.argv[2:])
