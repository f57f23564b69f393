"""gnnstream.py - read and write gnnstream, the record stream of gnnpipe's
programs (the format: gnnstream(5), man/man5/gnnstream.5), in Python.

Pure Python: numpy, zlib and the standard library; nothing to build.  Put
the directory python/ of the gnnpipe tree on the path (PYTHONPATH=python)
and import it.

Reading.  Every form the programs write is read: binary and text
segments, gzip (any number of members) or plain, several segments one
after another (`cat a.gs b.gs`).  Each segment's end trailer is checked
(its record count and CRC-32), as the programs check it, so a truncated or
corrupt stream raises StreamError with one line in the programs' words:
"FILE: record N: what".

    import gnnstream
    for rec in gnnstream.read("g.gs"):          # every record, in order
        print(rec.kind, rec.id, rec.name)

    for g in gnnstream.graphs("feat.gs"):       # a graph and its records
        X = g.tensors["features"].data          # (nodes, 4) float64
        ei = g.edge_index()                     # (2, 2 edges), both ways
        print(g.id, g.nodes, X.shape, g.names)  # names: None or [str]

    model = gnnstream.model("models/gcn-pretrain.gs")
    print(model.config)                         # YAML text
    W = model.params["embed.W"]                 # (4, 512) float32

A Record has kind ('pg', 'graph', 'tensor', 'pairs', 'label', 'model' or
'names'), id (the graph id; None for pg and model records), pg (the id of
the pg record of the program that made it; a pg record's own id), name
(tensors, pairs, labels, models), attrs (every other header attribute, as
strings, in order) and, by kind: nodes, u, v, labels (graph; u, v and
labels for pairs), data and columns (tensor), value (label), config and
params (model), names (names, a list of str; nodes its count).

Writing.  A Writer writes one segment: the header, its own pg record, the
records, and at close the end trailer with the record count and CRC-32.
Binary gzip is the default, as for the programs; text=True writes the
text form (plain unless a level is given).  With a path, the stream goes
to a temporary file beside it, renamed when the segment is closed, so an
exception leaves no partial file.

    with gnnstream.Writer("karate.gs", prog="karate.py") as w:
        w.graph(0, 34, u, v)                    # each edge once
        w.names(0, ["Mr. Hi", ...])             # one name a node
        w.tensor(0, "club", club.reshape(-1, 1), columns=["club"])
        w.label(0, "class", 1)

Records read from one stream are passed on to another by w.write(rec),
keeping their pg; copy the pg records too, so the history stays whole.

A plain edge list ("u v" lines, or named nodes "Napoleon Myriel") is read
by the programs where a stream is expected (gnnstream(5), Plain edge
lists), not by this module: pass it through one of them first, e.g.
`nodefeat list.el > feat.gs` (graph, names record, features), and read
that.
"""
import dataclasses
import os
import re
import sys
import tempfile
import zlib

import numpy as np

__all__ = ["Record", "Graph", "StreamError", "Reader", "Writer", "read", "read_all", "graphs",
           "model"]
__version__ = "0.1.0"

VERSION = 1  # the format version this module reads and writes
MAGIC = b"\x89GNS"
TXT_MAGIC = b"##gnnstream"
BOM = b"\xef\xbb\xbf"
# the programs' hard limits (stream.h), checked before anything is read
MAX_HEADER = 1 << 20
MAX_LINE = 64 << 20
MAX_NODES = 1 << 26
MAX_EDGES = 1 << 34
MAX_ELEMS = 1 << 36
MAX_TEXT = 64 << 20
MAX_PARAMS = 65536
MAX_NAMES_BYTES = 1 << 36  # bytes of a names record's body
NAME_MAX = 63       # bytes of a tensor's, pair set's, label's or model's name
NODE_NAME_MAX = 1024  # bytes of a node's name (names records)
KINDS = ("pg", "graph", "tensor", "pairs", "label", "model", "names")
DTYPES = {"f32": np.dtype("<f4"), "f64": np.dtype("<f8"), "i32": np.dtype("<i4"),
          "i64": np.dtype("<i8")}
LABEL_DTYPES = ("i32", "f64")
# the attributes a record's shape gives: the writer writes them from the
# arrays, not from attrs
STRUCTURAL = {"pg": ("id",), "graph": ("id", "nodes", "edges", "labels", "pg"),
              "tensor": ("id", "name", "rows", "cols", "type", "columns", "pg"),
              "pairs": ("id", "name", "count", "labels", "pg"),
              "label": ("id", "name", "value", "pg"),
              "model": ("name", "config", "params", "pg"),
              "names": ("id", "count", "bytes", "pg")}


class StreamError(ValueError):
    """Bad input: one line, "FILE: record N: what" (text form: "FILE:
    record N (line L): what"), as the programs say it."""


@dataclasses.dataclass(repr=False, eq=False)
class Record:
    """One record of a stream.  Arrays are numpy arrays: u, v int32 (m,);
    labels int32 or float64 (m,) or None; data (rows, cols) of the tensor's
    type; params name -> (rows, cols) array, in the record's order."""
    kind: str
    id: int = None
    pg: str = ""
    name: str = ""
    attrs: dict = dataclasses.field(default_factory=dict)
    nodes: int = None
    u: np.ndarray = None
    v: np.ndarray = None
    labels: np.ndarray = None
    data: np.ndarray = None
    columns: list = None
    value: int = None
    config: str = None
    params: dict = None
    names: list = None

    def __repr__(self):
        s = "Record(%s" % self.kind
        if self.id is not None:
            s += " id=%d" % self.id
        if self.name:
            s += " name=%s" % self.name
        if self.kind == "graph":
            s += " nodes=%d edges=%d" % (self.nodes, len(self.u))
        elif self.kind == "pairs":
            s += " count=%d" % len(self.u)
        elif self.kind == "tensor":
            s += " %s %s" % (self.data.dtype, self.data.shape)
        elif self.kind == "label":
            s += " value=%d" % self.value
        elif self.kind == "model":
            s += " params=%d" % len(self.params)
        elif self.kind == "names":
            s += " count=%d" % len(self.names)
        return s + (" pg=%s)" % self.pg if self.pg else ")")


@dataclasses.dataclass(repr=False, eq=False)
class Graph:
    """A graph record with the records that follow it about the same graph:
    tensors, pairs and labels by name, the node names (None when the
    stream has none), and every record in order (the graph's first)."""
    record: Record
    tensors: dict
    pairs: dict
    labels: dict
    names: list
    records: list

    id = property(lambda self: self.record.id)
    nodes = property(lambda self: self.record.nodes)
    u = property(lambda self: self.record.u)
    v = property(lambda self: self.record.v)
    edge_labels = property(lambda self: self.record.labels)
    attrs = property(lambda self: self.record.attrs)

    def edge_index(self):
        """(2, 2m) int64: each undirected edge in both directions, the
        layout of PyTorch Geometric's edge_index."""
        u = self.u.astype(np.int64)
        v = self.v.astype(np.int64)
        return np.stack([np.concatenate([u, v]), np.concatenate([v, u])])

    def adjacency(self, dtype=np.float64):
        """The dense (nodes, nodes) symmetric adjacency matrix (O(n^2)
        memory: for small graphs)."""
        a = np.zeros((self.nodes, self.nodes), dtype=dtype)
        a[self.u, self.v] = 1
        a[self.v, self.u] = 1
        return a

    def __repr__(self):
        return "Graph(id=%d nodes=%d edges=%d tensors=%s pairs=%s labels=%s names=%s)" % (
            self.id, self.nodes, len(self.u), sorted(self.tensors), sorted(self.pairs),
            self.labels, "yes" if self.names is not None else "no")


# ---------------------------------------------------------------------------
# the header line: "kind key=value key=\"quoted value\" ..."
# ---------------------------------------------------------------------------

def _split_header(text):
    """(kind, [(key, value), ...]) of a header line, or a str saying what
    is wrong.  Values may be quoted, with \\" \\\\ \\n \\t escapes."""
    s = text.lstrip(" ")
    i = 0
    while i < len(s) and s[i] not in " \t":
        i += 1
    kind, pairs, n = s[:i], [], len(s)
    while True:
        while i < n and s[i] in " \t":
            i += 1
        if i == n:
            return kind, pairs
        j = i
        while j < n and s[j] not in "= \t":
            j += 1
        if j == n or s[j] != "=":
            return "malformed record header (want key=value pairs)"
        key, i = s[i:j], j + 1
        if i < n and s[i] == '"':
            i += 1
            out = []
            while True:
                if i >= n:
                    return "malformed record header (want key=value pairs)"
                c = s[i]
                if c == '"':
                    break
                if c == "\\":
                    e = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}.get(s[i + 1:i + 2])
                    if e is None:
                        return "malformed record header (want key=value pairs)"
                    out.append(e)
                    i += 2
                    continue
                out.append(c)
                i += 1
            i += 1
            if i < n and s[i] not in " \t":
                return "malformed record header (want key=value pairs)"
            val = "".join(out)
        else:
            j = i
            while j < n and s[j] not in " \t":
                j += 1
            val, i = s[i:j], j
        pairs.append((key, val))


def _int(val, lo, hi):
    """The decimal integer val within [lo, hi], or None (no '+', no blank)."""
    if not re.fullmatch(r"-?[0-9]+", val):
        return None
    x = int(val)
    return x if lo <= x <= hi else None


def _quote(v):
    """A header value, quoted when it holds blanks, quotes, '=' or is empty."""
    if v and not any(c in v for c in " \t\n\"\\="):
        return v
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") \
        .replace("\t", "\\t") + '"'


# ---------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------

class _Input:
    """Decoded bytes of a file: plain data copied, gzip members inflated
    one after another (their CRC and length checked by zlib).  After each
    member, and at the start, the next bytes decide: another member or
    plain data.  A gzip member after plain data is found at a segment's
    start (unread_plain), as in the programs' reader."""

    CHUNK = 1 << 20

    def __init__(self, f):
        self.f = f
        self.raw = bytearray()
        self.reof = False
        self.z = None          # a decompressor inside a gzip member
        self.boundary = True   # a gzip member may start here
        self.buf = bytearray()
        self.pos = 0
        self.eof = False

    def _raw_fill(self, want):
        while len(self.raw) < want and not self.reof:
            chunk = self.f.read(self.CHUNK)
            if not chunk:
                self.reof = True
            else:
                self.raw += chunk

    def _more(self):
        """Append decoded bytes to buf: True, or False at the end of the
        input.  Raises ValueError for corrupt or cut gzip data."""
        while True:
            if self.z is None:
                self._raw_fill(2)
                if not self.raw:
                    self.eof = True
                    return False
                if self.boundary and self.raw[:2] == b"\x1f\x8b":
                    self.z = zlib.decompressobj(16 + 15)
                    self.boundary = False
                    continue
                self.boundary = False
                self.buf += self.raw
                self.raw = bytearray()
                return True
            if not self.raw:
                self._raw_fill(1)
                if not self.raw:
                    raise ValueError("truncated gzip data (input ends inside a compressed member)")
            try:
                out = self.z.decompress(bytes(self.raw), self.CHUNK)
            except zlib.error as e:  # "Error -3 while decompressing data: why"
                why = str(e).split(": ", 1)[-1]
                raise ValueError("corrupt gzip data (%s)" % why) from None
            if self.z.eof:
                self.raw = bytearray(self.z.unused_data)
                self.z = None
                self.boundary = True
            else:
                self.raw = bytearray(self.z.unconsumed_tail)
            if out:
                self.buf += out
                return True

    def fill(self, want):
        """At least want bytes buffered, if the input has them."""
        if self.pos > self.CHUNK and self.pos * 2 > len(self.buf):
            del self.buf[:self.pos]
            self.pos = 0
        while len(self.buf) - self.pos < want and not self.eof:
            if not self._more():
                break
        return len(self.buf) - self.pos

    def peek(self, n):
        self.fill(n)
        return bytes(self.buf[self.pos:self.pos + n])

    def take(self, n):
        """Up to n bytes (fewer at the end of the input)."""
        self.fill(n)
        b = bytes(self.buf[self.pos:self.pos + n])
        self.pos += len(b)
        return b

    def line(self):
        """The next line with its newline (without one at the end of the
        input), b"" at the end; None when it exceeds MAX_LINE."""
        start = self.pos
        while True:
            k = self.buf.find(b"\n", start)
            if k >= 0:
                b = bytes(self.buf[self.pos:k + 1])
                self.pos = k + 1
                return b
            if len(self.buf) - self.pos > MAX_LINE:
                return None
            start = len(self.buf)
            if not self._more():
                b = bytes(self.buf[self.pos:])
                self.pos = len(self.buf)
                return b

    def lines(self, n):
        """The bytes of the next n lines, newlines included (fewer at the
        end of the input, the last maybe without one), and whether a line
        longer than MAX_LINE stopped them: then only the complete lines
        before it are taken (as the programs' reader refuses it, and a
        gzip bomb's one line costs no more than MAX_LINE of memory).
        Time: O(bytes)."""
        start = i = j = self.pos  # i: after the last whole line; j: scanned
        while n > 0:
            c = self.buf.count(b"\n", j)
            if c >= n:
                tail = np.frombuffer(bytes(self.buf[j:]), np.uint8)
                i = j + int(np.flatnonzero(tail == 10)[n - 1]) + 1
                break
            if c:
                n -= c
                i = self.buf.rfind(b"\n", j) + 1
            j = len(self.buf)
            if j - i > MAX_LINE:
                b = bytes(self.buf[start:i])
                self.pos = i
                return b, True
            if not self._more():
                i = len(self.buf)
                break
        b = bytes(self.buf[start:i])
        self.pos = i
        return b, False

    def unread_plain(self):
        """Hand plain bytes not yet read back to the raw layer and mark a
        boundary, so that a gzip member after plain data is inflated."""
        if self.z is not None or self.pos == len(self.buf):
            return
        self.raw = self.buf[self.pos:] + self.raw
        self.buf = bytearray()
        self.pos = 0
        self.eof = False
        self.boundary = True


class Reader:
    """The records of a stream, one at a time (iterate over it).  src is a
    path ("-" for standard input) or a binary file object; name is the
    file's name in messages.  Raises StreamError on bad input."""

    def __init__(self, src, name=None):
        self._own = False
        if isinstance(src, (str, os.PathLike)):
            if str(src) == "-":
                f, name = sys.stdin.buffer, name or "<stdin>"
            else:
                try:
                    f = open(src, "rb")
                except OSError as e:
                    raise StreamError("%s: %s" % (src, e.strerror)) from None
                self._own = True
                name = name or str(src)
        else:
            f = src
            name = name or getattr(src, "name", None) or "<stream>"
        self.name = str(name)
        self._in = _Input(f)
        self._f = f
        self.segments = 0
        self._recno = 0
        self._lineno = 0
        self._text = False
        self._inseg = False
        self._crc = 0
        self._crc_line_start = 0
        self._nrec = 0
        self._first = None  # text form: the line of the body's first row
        self._graph = None  # the last graph record read: (id, nodes)

    def close(self):
        if self._own:
            self._f.close()
            self._own = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        try:
            while True:
                if not self._inseg and not self._segment_start():
                    return
                rec = self._record()
                if rec is not None:
                    yield rec
        except ValueError as e:  # corrupt gzip data
            if isinstance(e, StreamError):
                raise
            raise self._fail(str(e)) from None
        finally:
            self.close()

    # -- messages --

    def _fail(self, what, line=None):
        """The StreamError of what, at the place the reader is (a text
        form's line: line, else the last line read)."""
        if self._inseg and self._text:
            where = "%s: record %d (line %d): " % (self.name, self._recno,
                                                   self._lineno if line is None else line)
        elif self._inseg:
            where = "%s: record %d: " % (self.name, self._recno)
        elif self._lineno:
            where = "%s: line %d: " % (self.name, self._lineno)
        else:
            where = "%s: " % self.name
        return StreamError(where + what)

    def _row_fail(self, i, what):
        """The StreamError of row, edge or pair i of the body being read:
        in the text form, at its line."""
        line = None if self._first is None else self._first + i
        return self._fail(what, line)

    # -- bytes and lines of record data, checksummed --

    def _bytes(self, n):
        b = self._in.take(n)
        if len(b) < n:
            raise self._fail("truncated stream (input ends inside a record)")
        self._crc = zlib.crc32(b, self._crc)
        return b

    def _line(self, checksum=True):
        """The next text line without its newline or CR, and whether it
        had a newline; (None, False) at the end of the input."""
        b = self._in.line()
        if b is None:
            raise self._fail("line longer than %d bytes" % MAX_LINE)
        if not b:
            return None, False
        self._crc_line_start = self._crc
        if checksum:
            self._crc = zlib.crc32(b, self._crc)
        self._lineno += 1
        nl = b.endswith(b"\n")
        if nl:
            b = b[:-1]
        if b.endswith(b"\r"):
            b = b[:-1]
        if b"\0" in b:
            raise self._fail("NUL byte in text (binary data where text was expected)")
        return b, nl

    # -- segments --

    def _segment_start(self):
        """Read a segment's header: True for a segment, False at a clean
        end of input."""
        inp = self._in
        if self.segments > 0 and inp.peek(2) == b"\x1f\x8b":
            inp.unread_plain()  # a gzip member after plain data
        head = inp.peek(16)
        if head.startswith(BOM):
            inp.take(3)  # a byte-order mark (Windows editors): not data
            head = inp.peek(16)
        if not head:
            if self.segments == 0:
                raise self._fail("empty input (no gnnstream header)")
            return False
        if head.startswith(MAGIC):
            if len(head) < 12:
                raise self._fail("truncated stream header")
            inp.take(12)
            ver = int.from_bytes(head[4:8], "little")
            self._check_version(ver)
            self._text = False
        elif head.startswith(TXT_MAGIC):
            line, _ = self._line(checksum=False)
            m = re.fullmatch(rb"##gnnstream (-?[0-9]+)( .*)?", line)
            if not m:
                raise self._fail("bad stream header '%s'" % line[:60].decode("utf-8", "replace"))
            self._check_version(int(m.group(1)))
            self._text = True
        elif self.segments == 0:
            raise self._fail("not a gnnstream (bad magic)%s" % (
                "; a plain edge list is read by the programs (nodefeat, graph-import -f "
                "edgelist), not by gnnstream.py" if _looks_like_text(head) else ""))
        else:
            raise self._fail("garbage after the end of a stream segment")
        self.segments += 1
        self._inseg = True
        self._crc = 0
        self._nrec = 0
        return True

    def _check_version(self, ver):
        if ver > VERSION:
            raise self._fail("stream version %d is newer than this program reads (%d): "
                             "upgrade gnnpipe" % (ver, VERSION))
        if ver <= 0:
            raise self._fail("bad stream version %d" % ver)

    # -- records --

    def _record(self):
        """The next record, or None after a segment's end record."""
        self._recno += 1
        if self._text:
            line, nl = self._line()
            if line is None:
                raise self._fail("truncated stream (no end record)")
            if not line.startswith(b"@"):
                raise self._fail("expected a record header ('@kind ...'), got '%s'"
                                 % line[:40].decode("utf-8", "replace"))
            hdr = line[1:]
        else:
            crc_before = self._crc
            if not self._in.peek(1):
                raise self._fail("truncated stream (no end record)")
            hdr = self._bin_header()
            if hdr[:3] == b"end" and hdr[3:4] in (b"", b" "):
                self._crc = crc_before  # the trailer is not checksummed
        kind, rec, end = self._parse(hdr, param=False)
        if kind == "end":
            self._recno -= 1
            self._end(end, nl if self._text else True)
            return None
        if self._text:
            self._text_body(rec)
        else:
            self._bin_body(rec)
        if kind == "names":
            self._names_follow(rec)
        elif kind == "graph":
            self._graph = (rec.id, rec.nodes)
        self._nrec += 1
        return rec

    def _names_follow(self, rec):
        """A names record names the nodes of the graph record it follows,
        one name a node, as the programs' reader checks (gs_read1)."""
        if self._graph is None:
            raise self._fail("names record for graph %d before any graph (a names "
                             "record follows its graph)" % rec.id)
        if rec.id != self._graph[0]:
            raise self._fail("names record for graph %d does not follow its graph (it "
                             "follows graph %d)" % (rec.id, self._graph[0]))
        if len(rec.names) != self._graph[1]:
            raise self._fail("names record: count=%d, but graph %d has %d nodes"
                             % (len(rec.names), rec.id, self._graph[1]))

    def _end(self, end, nl):
        records, crc = end
        # the end record is not checksummed: the @end line, or the
        # trailer's length and header (not added, see _record)
        want = self._crc_line_start if self._text else self._crc
        if self._text and not nl:
            raise self._fail("truncated stream (end record cut short)")
        if not self._text and (records is None or crc is None):
            raise self._fail("end record lacks records= or crc32=")
        if records is not None and records != self._nrec:
            raise self._fail("end record says %d records, the segment has %d "
                             "(records lost or added)" % (records, self._nrec))
        if crc is not None and crc != want:
            raise self._fail("checksum mismatch (stream corrupted)")
        self._inseg = False

    def _bin_header(self):
        n = int.from_bytes(self._bytes(4), "little")
        if n == 0 or n > MAX_HEADER:
            raise self._fail("corrupt record (header length %d)" % n)
        h = self._bytes(n)
        if b"\0" in h:
            raise self._fail("corrupt record header (NUL byte)")
        return h

    def _parse(self, hdr, param):
        """(kind, Record, (records, crc) of an end record) of a header."""
        sp = _split_header(hdr.decode("utf-8", "surrogateescape"))
        if isinstance(sp, str):
            raise self._fail(sp)
        kind, pairs = sp
        if param:
            if kind != "param":
                raise self._fail("expected a param header")
            kind = "tensor"
        elif kind == "end":
            return kind, None, self._end_keys(pairs)
        elif kind not in KINDS:
            raise self._fail("unknown record kind '%s'" % kind[:40])
        rec = Record(kind)
        have = set()
        for key, val in pairs:
            self._key(rec, kind, key, val, have)
        self._complete(rec, kind, have, param)
        return kind, rec, None

    def _end_keys(self, pairs):
        records = crc = None
        for key, val in pairs:
            if key == "records":
                records = _int(val, 0, (1 << 63) - 1)
                if records is None:
                    raise self._fail("end: bad records=%s" % val[:40])
            elif key == "crc32":
                if not re.fullmatch(r"[0-9a-fA-F]{1,8}", val):
                    raise self._fail("end: bad crc32=%s" % val[:40])
                crc = int(val, 16)
            else:
                raise self._fail("end: unknown key '%s'" % key[:40])
        return records, crc

    def _key(self, rec, kind, key, val, have):
        """One key=value of a header: a field of rec, or an attribute."""
        def size(limit):
            x = _int(val, 0, (1 << 63) - 1)
            if x is None:
                raise self._fail("bad %s=%s" % (key, val[:40]))
            if x > limit:
                raise self._fail("%s=%d exceeds the limit %d" % (key, x, limit))
            have.add(key)
            return x

        if key == "id":
            if kind == "pg":
                rec.pg = val
            else:
                rec.id = _int(val, 0, (1 << 63) - 1)
                if rec.id is None:
                    raise self._fail("bad id=%s (want an integer >= 0)" % val[:40])
            have.add(key)
        elif key == "pg" and kind != "pg":
            rec.pg = val
        elif key == "name" and kind not in ("pg", "graph", "names"):
            if len(val.encode("utf-8", "surrogateescape")) > NAME_MAX:
                raise self._fail("name too long (max %d)" % NAME_MAX)
            rec.name = val
        elif key == "nodes" and kind == "graph":
            rec.nodes = size(MAX_NODES)
        elif (key == "edges" and kind == "graph") or (key == "count" and kind == "pairs"):
            rec.attrs["\0m"] = size(MAX_EDGES)
        elif key in ("count", "bytes") and kind == "names":
            lim = MAX_NODES if key == "count" else MAX_NAMES_BYTES
            x = _int(val, 0, lim)
            if x is None:
                raise self._fail("bad %s=%s (at most %d%s)" % (key, val[:40], lim,
                                                             " names" if key == "count" else ""))
            if key == "count":
                rec.nodes = x
            else:
                rec.attrs["\0bytes"] = x
            have.add(key)
        elif key in ("rows", "cols") and kind == "tensor":
            rec.attrs["\0" + key] = size(MAX_ELEMS)
        elif key == "labels" and kind in ("graph", "pairs"):
            if val not in ("none",) + LABEL_DTYPES:
                raise self._fail("bad labels=%s (none, i32 or f64)" % val[:40])
            rec.attrs["\0labels"] = None if val == "none" else val
        elif key == "type" and kind == "tensor":
            if val not in DTYPES:
                raise self._fail("bad type=%s (f32, f64, i32 or i64)" % val[:40])
            rec.attrs["\0type"] = val
            have.add(key)
        elif key == "columns" and kind == "tensor":
            rec.columns = val.split(",") if val else None
        elif key == "value" and kind == "label":
            rec.value = _int(val, -(1 << 63), (1 << 63) - 1)
            if rec.value is None:
                raise self._fail("bad value=%s (want an integer)" % val[:40])
            have.add(key)
        elif key in ("config", "params") and kind == "model":
            lim, what = (MAX_TEXT, "bytes, at most") if key == "config" else (MAX_PARAMS, "at most")
            x = _int(val, 0, lim)
            if x is None:
                raise self._fail("bad %s=%s (%s %d)" % (key, val[:40], what, lim))
            rec.attrs["\0" + key] = x
            have.add(key)
        else:
            rec.attrs[key] = val

    def _complete(self, rec, kind, have, param):
        """The keys kind requires are there; the shape is within limits."""
        if "id" not in have and kind != "model" and not param:
            raise self._fail("%s record without id=" % kind)
        need = {"graph": (("nodes", "edges"), "graph record needs nodes= and edges="),
                "pairs": (("count",), "pairs record needs count="),
                "tensor": (("rows", "cols", "type"), "tensor record needs rows=, cols= and type="),
                "label": (("value",), "label record needs value="),
                "model": (("config", "params"), "model record needs config= and params="),
                "names": (("count", "bytes"), "names record needs count= and bytes=")}
        if kind == "names" and self._text:
            need["names"] = (("count",), need["names"][1])  # text: a name a line
        if kind in need and not all(k in have for k in need[kind][0]):
            raise self._fail(need[kind][1])
        if kind == "tensor":
            rows, cols = rec.attrs["\0rows"], rec.attrs["\0cols"]
            if cols > 0 and rows > MAX_ELEMS // cols:
                raise self._fail("tensor of %d x %d exceeds the limit of %d elements"
                                 % (rows, cols, MAX_ELEMS))
            if rec.columns is not None and len(rec.columns) != cols:
                k = len(rec.columns)
                raise self._fail("columns= names %d column%s, but cols=%d"
                                 % (k, "" if k == 1 else "s", cols))

    @staticmethod
    def _take_private(rec, key, default=None):
        return rec.attrs.pop("\0" + key, default)

    # -- bodies, binary form --

    def _array(self, n, dtype):
        return np.frombuffer(self._bytes(n * dtype.itemsize), dtype=dtype).copy()

    def _bin_body(self, rec):
        k = rec.kind
        if k in ("graph", "pairs"):
            m = self._take_private(rec, "m")
            lt = self._take_private(rec, "labels")
            rec.u = self._array(m, DTYPES["i32"])
            rec.v = self._array(m, DTYPES["i32"])
            rec.labels = self._array(m, DTYPES[lt]) if lt else None
            self._check_pairs(rec.kind, rec.nodes, rec.u, rec.v, rec.labels)
        elif k == "tensor":
            rows, cols = self._take_private(rec, "rows"), self._take_private(rec, "cols")
            dt = DTYPES[self._take_private(rec, "type")]
            rec.data = self._array(rows * cols, dt).reshape(rows, cols)
            self._check_finite(rec.data, rec.name)
        elif k == "model":
            cfg = self._take_private(rec, "config")
            n = self._take_private(rec, "params")
            rec.config = self._bytes(cfg).decode("utf-8", "surrogateescape")
            rec.params = {}
            for i in range(n):
                if not self._in.peek(1):
                    raise self._fail("truncated stream (model parameter %d missing)" % i)
                _, p, _ = self._parse(self._bin_header(), param=True)
                rows, cols = self._take_private(p, "rows"), self._take_private(p, "cols")
                dt = DTYPES[self._take_private(p, "type")]
                a = self._array(rows * cols, dt).reshape(rows, cols)
                self._check_finite(a, p.name)
                rec.params[p.name] = a
        elif k == "names":
            self._set_names(rec, self._bytes(self._take_private(rec, "bytes")))

    # -- bodies, text form --

    def _text_body(self, rec):
        k = rec.kind
        if k in ("graph", "pairs"):
            self._text_pairs(rec)
        elif k == "tensor":
            rows, cols = self._take_private(rec, "rows"), self._take_private(rec, "cols")
            dt = self._take_private(rec, "type")
            rec.data = self._text_matrix(rows, cols, dt, rec.name)
        elif k == "model":
            cfg = self._take_private(rec, "config")
            n = self._take_private(rec, "params")
            raw = self._bytes(cfg)
            self._lineno += raw.count(b"\n")
            rec.config = raw.decode("utf-8", "surrogateescape")
            rec.params = {}
            for i in range(n):
                line, _ = self._line()
                if line is None or not line.startswith(b"@param "):
                    raise self._fail("model parameter %d: expected '@param'" % i)
                _, p, _ = self._parse(line[1:], param=True)
                rows, cols = self._take_private(p, "rows"), self._take_private(p, "cols")
                dt = self._take_private(p, "type")
                rec.params[p.name] = self._text_matrix(rows, cols, dt, p.name)
        elif k == "names":
            want = self._take_private(rec, "bytes")
            lines = []
            for i in range(rec.nodes):
                b, _ = self._line()
                if b is None:
                    raise self._fail("names: %d names where count=%d" % (i, rec.nodes))
                lines.append(b + b"\n")
            body = b"".join(lines)
            if want and want != len(body):
                raise self._fail("names: bytes=%d but the names are %d bytes"
                                 % (want, len(body)))
            self._set_names(rec, body)

    def _body_lines(self, n, what):
        """The next n body lines of a text record (without newline or CR,
        commas made blanks) up to the first that cannot be a body line (a
        NUL byte, a record header, the end of the input), and that fault
        as (index, message, line) or None.  The programs read line by line
        and name the first fault: callers check the lines before it first.
        Sets self._first, the line of the first."""
        self._first = self._lineno + 1
        chunk, long_line = self._in.lines(n)
        self._crc = zlib.crc32(chunk, self._crc)
        lines = chunk.replace(b",", b" ").split(b"\n")
        if not chunk or chunk.endswith(b"\n"):
            lines.pop()
        self._lineno += len(lines)
        bad = None
        if b"\r" in chunk:
            lines = [x[:-1] if x.endswith(b"\r") else x for x in lines]
        if b"\0" in chunk:
            i = next(i for i, x in enumerate(lines) if b"\0" in x)
            bad = (i, "NUL byte in text (binary data where text was expected)", self._first + i)
        if b"@" in chunk:
            for i, x in enumerate(lines[:bad[0] if bad else None]):
                if x.startswith(b"@"):
                    bad = (i, "record ends early: expected %s, got a record header" % what,
                           self._first + i)
                    break
        if bad is None and long_line:  # the line after the last read, as the programs say
            bad = (len(lines), "line longer than %d bytes" % MAX_LINE, self._lineno)
        if bad is None and len(lines) < n:
            bad = (len(lines), "truncated stream (input ends inside a record, expected %s)"
                   % what, self._lineno)
        return (lines[:bad[0]] if bad else lines), bad

    @staticmethod
    def _first_width(lines, width):
        """The first line whose fields are not width, or len(lines)."""
        lens = list(map(len, map(bytes.split, lines)))
        if lens and min(lens) == width == max(lens):
            return len(lines)
        return next((i for i, k in enumerate(lens) if k != width), len(lines))

    def _text_pairs(self, rec):
        m = self._take_private(rec, "m")
        lt = self._take_private(rec, "labels")
        what = "edge" if rec.kind == "graph" else "pair"
        want = 3 if lt else 2
        lines, bad = self._body_lines(m, "an edge" if rec.kind == "graph" else "a pair")
        k = self._first_width(lines, want)
        flat = b" ".join(lines[:k]).split()
        u, eu = self._convert(flat[0::want], k, "i32")
        v, ev = self._convert(flat[1::want], k, "i32")
        labels, el = self._convert(flat[2::want], k, lt) if lt else (None, None)
        ri = min(e[0] if e is not None else k for e in (eu, ev))
        if el is not None and el[0] < ri:  # the first bad line, as read
            raise self._row_fail(el[0], "%s %d: bad or missing label" % (what, el[0]))
        if ri < k:
            raise self._row_fail(ri, "%s %d: want two node ids" % (what, ri))
        self._check_pairs(rec.kind, rec.nodes, u, v, labels)
        if k < len(lines):
            f = lines[k].split()
            if len(f) >= 2 and self._convert(f[:2], 1, "i32")[1] is not None or len(f) < 2:
                raise self._row_fail(k, "%s %d: want two node ids" % (what, k))
            raise self._row_fail(k, "%s %d: %s" % (what, k, "bad or missing label"
                                                    if len(f) < want else "extra fields"))
        if bad:
            raise self._fail(bad[1], bad[2])
        rec.u, rec.v, rec.labels = u, v, labels
        self._first = None

    @staticmethod
    def _convert(flat, rows, dt):
        """The byte tokens flat (rows of len(flat) // rows, or columns of
        rows values for ids) as an array of type dt: f32 read as a double
        then rounded, as the programs do; integers within their type, no
        '+' or '_'.  Returns (array, None), or (None, (row, column)) of the
        first bad token, counted row by row."""
        dtype = np.float64 if dt[0] == "f" else np.int64
        lim = 1 << (31 if dt == "i32" else 63)
        try:
            if not flat:
                return np.zeros(0, DTYPES[dt]), None
            j = b" ".join(flat)
            if b"_" in j or b"+" in j:
                raise ValueError
            a = np.array(flat, dtype=bytes).astype(dtype)
            if dt == "i32" and (a.min() < -lim or a.max() >= lim):
                raise ValueError
            return a.astype(DTYPES[dt]), None
        except (ValueError, OverflowError):
            pass
        bad = []
        for k, x in enumerate(flat):
            try:
                if b"_" in x or b"+" in x:
                    raise ValueError
                y = float(x) if dt[0] == "f" else int(x)
                if dt[0] == "i" and not -lim <= y < lim:
                    raise ValueError
            except (ValueError, OverflowError):
                bad.append(k)
        per = max(len(flat) // max(rows, 1), 1)
        return None, min(((k // per, k % per) for k in bad), default=(0, 0))

    def _text_matrix(self, rows, cols, dt, what):
        lines, bad = self._body_lines(rows, "a row of values")
        k = self._first_width(lines, cols)
        a, e = self._convert(b" ".join(lines[:k]).split(), k, dt)
        if e is not None:
            raise self._row_fail(e[0], "%s: row %d: bad or missing value %d (want %d of type %s)"
                                 % (what, e[0], e[1], cols, dt))
        a = a.reshape(k, cols)
        self._check_finite(a, what)
        if k < len(lines):
            f = lines[k].split()
            if len(f) > cols:
                raise self._row_fail(k, "%s: row %d: more than %d values" % (what, k, cols))
            e = self._convert(f, 1, dt)[1] if f else None
            raise self._row_fail(k, "%s: row %d: bad or missing value %d (want %d of type %s)"
                                 % (what, k, e[1] if e else len(f), cols, dt))
        if bad:
            raise self._fail(bad[1], bad[2])
        self._first = None
        return a

    # -- checks of the values --

    def _check_pairs(self, kind, n, u, v, labels):
        """Edges: ids in 0..n-1, no self-loop; pairs: ids in range; float
        labels finite."""
        if kind == "graph":
            bad = (u < 0) | (u >= n) | (v < 0) | (v >= n)
            if bad.any():
                i = int(np.argmax(bad))
                node = u[i] if (u[i] < 0 or u[i] >= n) else v[i]
                raise self._row_fail(i, "edge %d: node %d out of range (nodes %d)" % (i, node, n))
            loop = u == v
            if loop.any():
                i = int(np.argmax(loop))
                raise self._row_fail(i, "edge %d: self-loop on node %d" % (i, u[i]))
            # a graph is simple: the lowest pair listed twice, as the
            # programs name it (at the graph's header line)
            key = np.sort(np.minimum(u, v).astype(np.int64) * n + np.maximum(u, v))
            twice = key[1:][key[1:] == key[:-1]]
            if twice.size:
                lo, hi = divmod(int(twice.min()), n)
                raise self._fail("duplicate edge %d-%d" % (lo, hi),
                                 None if self._first is None else self._first - 1)
        else:
            bad = (u < 0) | (u >= MAX_NODES) | (v < 0) | (v >= MAX_NODES)
            if bad.any():
                i = int(np.argmax(bad))
                node = u[i] if (u[i] < 0 or u[i] >= MAX_NODES) else v[i]
                raise self._row_fail(i, "pair %d: bad node id %d" % (i, node))
        if labels is not None and labels.dtype.kind == "f":
            nf = ~np.isfinite(labels)
            if nf.any():
                i = int(np.argmax(nf))
                raise self._row_fail(i, "label %d is not finite" % i)

    def _check_finite(self, a, what):
        """The values of a 2-D array are finite (text form: the message
        names the line of the row)."""
        if a.dtype.kind == "f":
            nf = ~np.isfinite(a.reshape(-1))
            if nf.any():
                k = int(np.argmax(nf))
                raise self._row_fail(k // max(a.shape[1], 1),
                                     "%s: value %d is not finite" % (what, k))

    def _set_names(self, rec, body):
        """The names of a names record from its body, each name ended by a
        newline: count of them, each 1..1024 bytes without a control
        character, all distinct (decoded as UTF-8; bytes that are not are
        kept as surrogates, as the programs keep them)."""
        names, seen, at = [], {}, 0
        for i in range(rec.nodes):
            nl = body.find(b"\n", at)
            if nl < 0:
                raise self._fail("names: %d bytes hold %d names, not count=%d"
                                 % (len(body), i, rec.nodes))
            b = body[at:nl]
            why = "holds a NUL byte" if b"\0" in b else _name_invalid(b)
            if why:
                raise self._fail("names: name %d %s" % (i, why))
            if b in seen:
                raise self._fail("names: name %d ('%s') is also node %d's"
                                 % (i, b[:40].decode("utf-8", "replace"), seen[b]))
            seen[b] = i
            names.append(b.decode("utf-8", "surrogateescape"))
            at = nl + 1
        if at != len(body):
            raise self._fail("names: bytes=%d but the %d names end at byte %d"
                             % (len(body), rec.nodes, at))
        rec.names = names


def _name_invalid(b):
    """None if the bytes b are a valid node name, else what is wrong."""
    if not b:
        return "is empty"
    if len(b) > NODE_NAME_MAX:
        return "is longer than %d bytes" % NODE_NAME_MAX
    if any(c < 0x20 or c == 0x7f for c in b):
        return "holds a control character (a tab, a newline, ...)"
    return None


def _looks_like_text(head):
    return all(c >= 0x20 or c in b"\t\r\n" for c in head) and 0x7f not in head


# ---------------------------------------------------------------------------
# convenience
# ---------------------------------------------------------------------------

def read(src, name=None):
    """Iterate over the records of src (a path, "-" or a binary file)."""
    return iter(Reader(src, name))


def read_all(src, name=None):
    """The records of src as a list."""
    return list(Reader(src, name))


def graphs(src, name=None):
    """Iterate over the graphs of src, each a Graph with the records about
    it that follow it (tensors, pairs, labels, names by name; pg and model
    records are not graphs' and are left out).  A record about another
    graph than the one before it is an error, as in the programs, and so is
    a second record of one name, or a names record whose count is not the
    graph's node count."""
    cur = None
    rd = Reader(src, name)
    for rec in rd:
        if rec.kind in ("pg", "model"):
            continue
        if rec.kind == "graph":
            if cur is not None:
                yield cur
            cur = Graph(rec, {}, {}, {}, None, [rec])
            continue
        if cur is None or rec.id != cur.id:
            raise StreamError("%s: record %d: %s record for graph %d does not follow its "
                              "graph (%s)" % (rd.name, rd._recno, rec.kind, rec.id,
                                              "no graph before it" if cur is None
                                              else "it follows graph %d" % cur.id))
        if rec.kind == "names":
            if cur.names is not None:
                raise StreamError("%s: record %d: graph %d has a second 'names' record"
                                  % (rd.name, rd._recno, rec.id))
            if len(rec.names) != cur.nodes:
                raise StreamError("%s: graph %d has %d nodes but %d names"
                                  % (rd.name, rec.id, cur.nodes, len(rec.names)))
            cur.names = rec.names
        else:
            by = {"tensor": cur.tensors, "pairs": cur.pairs, "label": cur.labels}[rec.kind]
            if rec.name in by:
                raise StreamError("%s: record %d: graph %d has a second '%s' record"
                                  % (rd.name, rd._recno, rec.id, rec.name))
            by[rec.name] = rec.value if rec.kind == "label" else rec
        cur.records.append(rec)
    if cur is not None:
        yield cur


def model(src, name=None, model_name=None):
    """The first model record of src (the first named model_name), as
    gcn-export takes it; StreamError when there is none."""
    rd = Reader(src, name)
    seen = []
    for rec in rd:
        if rec.kind == "model":
            if model_name is None or rec.name == model_name:
                rd.close()
                return rec
            seen.append(rec.name)
    if model_name is not None and seen:
        raise StreamError("%s: no model record named '%s' (there is '%s')"
                          % (rd.name, model_name, "', '".join(seen)))
    raise StreamError("%s: no model record%s" % (
        rd.name, "" if model_name is None else " named '%s'" % model_name))


# ---------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------

def _fmt_values(a, dt):
    """The text of the values of a 2-D array, one row a line: f32 with 9
    significant digits, f64 with 17 (they read back exactly), integers in
    decimal, as the programs write them."""
    fmt = {"f32": "%.9g", "f64": "%.17g"}.get(dt)
    out = []
    for row in a.tolist():
        if fmt:
            out.append("\t".join(fmt % x for x in row))
        else:
            out.append("\t".join(str(x) for x in row))
    return "".join(s + "\n" for s in out).encode("ascii")


def _dtype_name(a):
    for k, d in DTYPES.items():
        if a.dtype == d or a.dtype == d.newbyteorder("="):
            return k
    return None


def _cmd_line(argv):
    """The command line as the programs record it: the program by its name,
    each argument that needs it in single quotes."""
    out = []
    for i, a in enumerate(argv):
        if i == 0:
            a = os.path.basename(a)
        out.append("'%s'" % a if a == "" or any(c in a for c in " \t\n\"'\\") else a)
    return " ".join(out)


class Writer:
    """Write one stream segment to dst (a path, "-" for standard output, or
    a binary file object): the segment header and a pg record at once,
    each record as it is given, the end trailer (record count, CRC-32) at
    close().  text: the text form; level: gzip level, 0 for none (default
    1 in binary, 0 in text).  prog, version, seed, cmd: the pg record's
    (cmd by default this process's command line).  Use it in a with
    statement: an exception inside leaves no file at a path."""

    def __init__(self, dst, text=False, level=None, prog=None, version=__version__, seed=None,
                 cmd=None):
        if level is None:
            level = 0 if text else 1
        if not 0 <= level <= 9:
            raise ValueError("level %r: want 0..9" % (level,))
        self.text = bool(text)
        self._tmp = self._path = None
        self._own = False
        if isinstance(dst, (str, os.PathLike)) and str(dst) != "-":
            self._path = os.fspath(dst)
            d = os.path.dirname(os.path.abspath(self._path))
            fd, self._tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(self._path),
                                             suffix=".tmp", dir=d)
            self._f = os.fdopen(fd, "wb")
            self._own = True
            self.name = self._path
        elif isinstance(dst, (str, os.PathLike)):
            if sys.stdout.isatty() and (not text or level > 0):
                raise ValueError("refusing to write binary data to a terminal (text=True, a "
                                 "path or a pipe)")
            self._f, self.name = sys.stdout.buffer, "<stdout>"
        else:
            self._f, self.name = dst, getattr(dst, "name", "<stream>")
        self._z = zlib.compressobj(level, zlib.DEFLATED, 16 + 15) if level > 0 else None
        self._crc = 0
        self._nrec = 0
        self._graph = None  # (id, nodes) of the last graph written
        self._closed = False
        self._sink(TXT_MAGIC + b" %d\n" % VERSION if self.text
                   else MAGIC + VERSION.to_bytes(4, "little") + (0).to_bytes(4, "little"))
        prog = prog or os.path.basename(sys.argv[0] or "python")
        seed = "-" if seed is None else str(seed)
        cmd = _cmd_line(sys.argv) if cmd is None else cmd
        h = zlib.crc32(("%s\t%s\t%s\t" % (prog, version, seed)).encode("utf-8"))
        self.pg = "%08x" % zlib.crc32(cmd.encode("utf-8", "surrogateescape"), h)
        self._header("pg id=%s" % self.pg, dict(prog=prog, version=version, seed=seed, cmd=cmd))
        self._nrec += 1

    # -- bytes --

    def _sink(self, b):
        if self._z is not None:
            b = self._z.compress(b)
        if b:
            self._f.write(b)

    def _put(self, b):
        """Record bytes: checksummed."""
        self._crc = zlib.crc32(b, self._crc)
        self._sink(b)

    def _header(self, head, attrs):
        for k, v in attrs.items():
            if not isinstance(k, str) or not re.fullmatch(r"[^\s=\"\\\0@]+", k):
                raise ValueError("attribute key %r: want a word without blanks, '=', "
                                 "quotes, '@' or NUL" % (k,))
            v = str(v)
            if "\0" in v or "\r" in v:
                raise ValueError("attribute %s: a value cannot hold NUL or CR" % k)
            head += " %s=%s" % (k, _quote(v))
        b = head.encode("utf-8", "surrogateescape")
        if len(b) > MAX_HEADER:
            raise ValueError("a record header of %d bytes (at most %d)" % (len(b), MAX_HEADER))
        if self.text:
            self._put(b"@" + b + b"\n")
        else:
            self._put(len(b).to_bytes(4, "little") + b)

    def _matrix(self, a, dt):
        if self.text:
            self._put(_fmt_values(a, dt))
        else:
            self._put(np.ascontiguousarray(a, dtype=DTYPES[dt]).tobytes())

    def _attrs(self, kind, attrs):
        bad = [k for k in attrs if k in STRUCTURAL[kind]]
        if bad:
            raise ValueError("%s record: attribute %s is the record's own (given by its "
                             "arguments)" % (kind, bad[0]))
        return attrs

    def _pg(self, pg):
        if pg is None:
            return self.pg
        if not re.fullmatch(r"[0-9a-f]{1,15}", pg):
            raise ValueError("pg %r: want the hex id of a pg record" % (pg,))
        return pg

    def _check_open(self):
        if self._closed:
            raise ValueError("%s: the writer is closed" % self.name)

    # -- records --

    @staticmethod
    def _name(name, what):
        b = name.encode("utf-8") if isinstance(name, str) else b""
        if not b or len(b) > NAME_MAX or not re.fullmatch(r"[^\s=\"\\,@]+", name):
            raise ValueError("%s name %r: want 1..%d bytes without blanks, '=', ',', quotes "
                             "or '@'" % (what, name, NAME_MAX))
        return name

    @staticmethod
    def _id(gid):
        if isinstance(gid, (bool, np.bool_)) or not isinstance(gid, (int, np.integer)) \
                or gid < 0:
            raise ValueError("graph id %r: want an integer >= 0" % (gid,))
        return int(gid)

    def _about(self, kind, gid):
        """A record about graph gid follows that graph (when there was one)."""
        if self._graph is not None and self._graph[0] != gid:
            raise ValueError("%s record for graph %d: it would follow graph %d (write it "
                             "after its graph)" % (kind, gid, self._graph[0]))

    @staticmethod
    def _pairs_arrays(u, v, labels, what):
        u = np.asarray(u)
        v = np.asarray(v)
        if u.ndim != 1 or u.shape != v.shape or (u.size and u.dtype.kind not in "iu") \
                or (v.size and v.dtype.kind not in "iu"):
            raise ValueError("%s: u and v must be integer arrays of one length" % what)
        lt = None
        if labels is not None:
            labels = np.asarray(labels)
            if labels.shape != u.shape:
                raise ValueError("%s: %d labels for %d pairs" % (what, labels.size, u.size))
            if labels.dtype.kind in "iub":
                lt = "i32"
                if labels.size and (labels.min() < -(1 << 31) or labels.max() >= 1 << 31):
                    raise ValueError("%s: integer labels beyond int32" % what)
            elif labels.dtype.kind == "f":
                lt = "f64"
                if not np.isfinite(labels).all():
                    raise ValueError("%s: a label is not finite" % what)
            else:
                raise ValueError("%s: labels must be integers or floats" % what)
        return u.astype(np.int64), v.astype(np.int64), labels, lt

    def _put_pairs(self, u, v, labels, lt):
        if self.text:
            uv = zip(u.tolist(), v.tolist())
            if lt:
                fmt = "%d\t%d\t%.17g\n" if lt == "f64" else "%d\t%d\t%d\n"
                text = "".join(fmt % (a, b, c) for (a, b), c in zip(uv, labels.tolist()))
            else:
                text = "".join("%d\t%d\n" % ab for ab in uv)
            self._put(text.encode("ascii"))
        else:
            self._put(u.astype("<i4").tobytes() + v.astype("<i4").tobytes())
            if lt:
                self._put(labels.astype(DTYPES[lt]).tobytes())

    def graph(self, id, nodes, u, v, labels=None, pg=None, **attrs):
        """A graph record: nodes nodes 0..nodes-1, the undirected edges
        (u[i], v[i]) each once (no self-loop, no pair twice in either
        orientation), optional edge labels (integers: i32, floats: f64)."""
        self._check_open()
        id = self._id(id)
        if isinstance(nodes, bool) or not isinstance(nodes, (int, np.integer)) \
                or not 0 <= nodes <= MAX_NODES:
            raise ValueError("graph %d: nodes=%r: want 0..%d" % (id, nodes, MAX_NODES))
        nodes = int(nodes)
        u, v, labels, lt = self._pairs_arrays(u, v, labels, "graph %d" % id)
        bad = (u < 0) | (u >= nodes) | (v < 0) | (v >= nodes)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError("graph %d: edge %d: node out of range (nodes %d)" % (id, i, nodes))
        if (u == v).any():
            i = int(np.argmax(u == v))
            raise ValueError("graph %d: edge %d: self-loop on node %d" % (id, i, u[i]))
        key = np.minimum(u, v) * nodes + np.maximum(u, v)
        if np.unique(key).size != key.size:
            raise ValueError("graph %d: an edge is listed twice (in either orientation)" % id)
        head = "graph id=%d nodes=%d edges=%d" % (id, nodes, u.size)
        if lt:
            head += " labels=%s" % lt
        self._header(head + " pg=%s" % self._pg(pg), self._attrs("graph", attrs))
        self._put_pairs(u, v, labels, lt)
        self._nrec += 1
        self._graph = (id, nodes)

    def pairs(self, id, name, u, v, labels=None, pg=None, **attrs):
        """A pairs record: node pairs of graph id, such as masked edges
        (label 1) and non-edges (label 0)."""
        self._check_open()
        id = self._id(id)
        self._about("pairs", id)
        name = self._name(name, "pairs")
        u, v, labels, lt = self._pairs_arrays(u, v, labels, "pairs %s" % name)
        lim = self._graph[1] if self._graph else MAX_NODES
        if ((u < 0) | (u >= lim) | (v < 0) | (v >= lim)).any():
            raise ValueError("pairs %s: a node id out of range (0..%d)" % (name, lim - 1))
        head = "pairs id=%d name=%s count=%d" % (id, name, u.size)
        if lt:
            head += " labels=%s" % lt
        self._header(head + " pg=%s" % self._pg(pg), self._attrs("pairs", attrs))
        self._put_pairs(u, v, labels, lt)
        self._nrec += 1

    def tensor(self, id, name, data, columns=None, pg=None, **attrs):
        """A tensor record: data a 2-D array (a 1-D one is a column) of
        float32, float64, int32 or int64 (other types: say which with
        data.astype); per-node tensors have a row per node.  columns: the
        column names (a list, or the comma-separated text)."""
        self._check_open()
        id = self._id(id)
        self._about("tensor", id)
        name = self._name(name, "tensor")
        a = np.asarray(data)
        if a.ndim == 1:
            a = a.reshape(-1, 1)
        dt = _dtype_name(a)
        if a.ndim != 2 or dt is None:
            raise ValueError("tensor %s: want a 2-D array of float32, float64, int32 or int64, "
                             "not %s %s" % (name, a.dtype, a.shape))
        if dt[0] == "f" and not np.isfinite(a).all():
            raise ValueError("tensor %s: value %d is not finite"
                             % (name, int(np.argmax(~np.isfinite(a.reshape(-1))))))
        head = "tensor id=%d name=%s rows=%d cols=%d type=%s" % (id, name, a.shape[0],
                                                                 a.shape[1], dt)
        if columns is not None:
            cols = columns.split(",") if isinstance(columns, str) else list(columns)
            if len(cols) != a.shape[1]:
                raise ValueError("tensor %s: %d column names for %d columns"
                                 % (name, len(cols), a.shape[1]))
            for c in cols:
                self._name(c, "column")
            head += " columns=%s" % ",".join(cols)
        self._header(head + " pg=%s" % self._pg(pg), self._attrs("tensor", attrs))
        self._matrix(a, dt)
        self._nrec += 1

    def label(self, id, name, value, pg=None, **attrs):
        """A label record: a graph-level integer label."""
        self._check_open()
        id = self._id(id)
        self._about("label", id)
        name = self._name(name, "label")
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not -(1 << 63) <= value < 1 << 63:
            raise ValueError("label %s: value %r: want an integer" % (name, value))
        self._header("label id=%d name=%s value=%d pg=%s" % (id, name, value, self._pg(pg)),
                     self._attrs("label", attrs))
        self._nrec += 1

    def names(self, id, names, pg=None, **attrs):
        """A names record: node i of graph id is named names[i]; each name
        1..1024 bytes of UTF-8 without a control character (tab, newline,
        CR, NUL, ...), all distinct, one a node of the graph."""
        self._check_open()
        id = self._id(id)
        self._about("names", id)
        names = [str(s) for s in names]
        if self._graph is not None and len(names) != self._graph[1]:
            raise ValueError("names of graph %d: %d names for %d nodes"
                             % (id, len(names), self._graph[1]))
        raw, seen = [], {}
        for i, s in enumerate(names):
            b = s.encode("utf-8", "surrogateescape")
            why = _name_invalid(b)
            if why:
                raise ValueError("names of graph %d: name %d (%r) %s" % (id, i, s[:60], why))
            if b in seen:
                raise ValueError("names of graph %d: name %d (%r) is also node %d's"
                                 % (id, i, s[:60], seen[b]))
            seen[b] = i
            raw.append(b + b"\n")
        body = b"".join(raw)
        self._header("names id=%d count=%d bytes=%d pg=%s" % (id, len(names), len(body),
                                                              self._pg(pg)),
                     self._attrs("names", attrs))
        self._put(body)
        self._nrec += 1

    def model(self, name, config, params, pg=None, **attrs):
        """A model record: config (str, YAML text) and params, a dict of
        name -> 2-D array (float32, float64, int32, int64), in order."""
        self._check_open()
        name = self._name(name, "model")
        cfg = config.encode("utf-8", "surrogateescape") if isinstance(config, str) else config
        if len(params) > MAX_PARAMS or len(cfg) > MAX_TEXT:
            raise ValueError("model %s: too many parameters or too long a config" % name)
        arrays = []
        for pname, a in params.items():
            self._name(pname, "parameter")
            a = np.asarray(a)
            if a.ndim == 1:
                a = a.reshape(1, -1)
            dt = _dtype_name(a)
            if a.ndim != 2 or dt is None:
                raise ValueError("model %s: parameter %s: want a 2-D array of float32, float64, "
                                 "int32 or int64" % (name, pname))
            if dt[0] == "f" and not np.isfinite(a).all():
                raise ValueError("model %s: parameter %s: a value is not finite" % (name, pname))
            arrays.append((pname, a, dt))
        self._header("model name=%s config=%d params=%d pg=%s" % (name, len(cfg), len(arrays),
                                                                 self._pg(pg)),
                     self._attrs("model", attrs))
        self._put(cfg)
        for pname, a, dt in arrays:
            h = ("param name=%s rows=%d cols=%d type=%s" % (pname, a.shape[0], a.shape[1], dt)) \
                .encode("utf-8")
            self._put(b"@" + h + b"\n" if self.text else len(h).to_bytes(4, "little") + h)
            self._matrix(a, dt)
        self._nrec += 1

    def write(self, rec):
        """Write a Record (read from a stream, say), keeping its pg: a pg
        record is passed on as it is, so provenance accumulates."""
        a = dict(rec.attrs)
        if rec.kind == "pg":
            self._check_open()
            self._header("pg id=%s" % self._pg(rec.pg), a)
            self._nrec += 1
        elif rec.kind == "graph":
            self.graph(rec.id, rec.nodes, rec.u, rec.v, rec.labels, pg=rec.pg or None, **a)
        elif rec.kind == "pairs":
            self.pairs(rec.id, rec.name, rec.u, rec.v, rec.labels, pg=rec.pg or None, **a)
        elif rec.kind == "tensor":
            self.tensor(rec.id, rec.name, rec.data, rec.columns, pg=rec.pg or None, **a)
        elif rec.kind == "label":
            self.label(rec.id, rec.name, rec.value, pg=rec.pg or None, **a)
        elif rec.kind == "names":
            self.names(rec.id, rec.names, pg=rec.pg or None, **a)
        elif rec.kind == "model":
            self.model(rec.name, rec.config, rec.params, pg=rec.pg or None, **a)
        else:
            raise ValueError("record kind %r" % (rec.kind,))

    # -- the end --

    def close(self):
        """Write the end trailer, flush, and rename the file into place.
        A failure (a full disk) leaves no file at a path: the temporary
        file is removed, and the error raised."""
        if self._closed:
            return
        self._closed = True
        try:
            h = b"end records=%d crc32=%08x" % (self._nrec, self._crc)
            self._sink(b"@" + h + b"\n" if self.text else len(h).to_bytes(4, "little") + h)
            if self._z is not None:
                self._f.write(self._z.flush())
            self._f.flush()
            if self._own:
                os.fsync(self._f.fileno())
                self._f.close()
                os.replace(self._tmp, self._path)
                self._tmp = None
        except BaseException:
            self._remove()
            raise

    def abort(self):
        """Give up: no trailer; a file at a path is removed, even when
        closing it fails (its buffer cannot be written: a full disk)."""
        if self._closed:
            return
        self._closed = True
        self._remove()

    def _remove(self):
        """Close the file of a path, whatever that raises, and remove it."""
        if not self._own or self._tmp is None:
            return
        try:
            self._f.close()
        except OSError:
            pass  # its buffer is lost with the file
        finally:
            try:
                os.unlink(self._tmp)
            except FileNotFoundError:
                pass
            self._tmp = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abort()
