"""gnnpipe.programs - the gnnpipe programs called from Python: a graph (a
networkx graph, a gnnstream.Graph, a list of them, or a stream file) goes
to a program's standard input as a stream, and what the program writes
comes back as gnnstream.Graph objects.

    import networkx as nx, gnnpipe
    G = nx.karate_club_graph()
    X = gnnpipe.features(G)                 # (34, 4): the paper's four
    E = gnnpipe.embed(G)                    # (34, 1536): gcn-embed's rows
    H = gnnpipe.embed(G, as_networkx=True)  # G, H.nodes[v]["embedding"]
    [g] = gnnpipe.run(["nodefeat", "--set", "rwse"], G)

The programs are looked up in PATH (the tree's bin/, or PREFIX/bin after
make install); one that is not there raises FileNotFoundError with one
line that says so, and one that fails raises ProgramError with the
program's own line.
"""
import os
import shutil
import subprocess
import tempfile

import gnnstream
from . import convert

__all__ = ["ProgramError", "run", "features", "feature_stage", "embed", "model_config"]


class ProgramError(RuntimeError):
    """A program exited with a status other than 0: its one-line message
    and its exit status (.status)."""

    def __init__(self, msg, status):
        super().__init__(msg)
        self.status = status


def _program(name):
    path = shutil.which(name)
    if path is None:
        raise FileNotFoundError("gnnpipe: %s: not found in PATH (put the gnnpipe programs' "
                                "directory, the tree's bin/ or PREFIX/bin, in PATH)" % name)
    return path


def _as_graphs(x):
    """The input as a list of gnnstream.Graph, or None for a path."""
    if isinstance(x, (str, os.PathLike)):
        return None
    if isinstance(x, gnnstream.Graph):
        return [x]
    if not isinstance(x, (list, tuple)):
        x = [x]  # a networkx graph
    if all(isinstance(g, gnnstream.Graph) for g in x):
        return list(x)
    if any(isinstance(g, gnnstream.Graph) for g in x):
        return [g if isinstance(g, gnnstream.Graph) else convert.from_networkx(g) for g in x]
    return convert.from_networkx(list(x))


def run(cmd, graphs, shell=False, timeout=None):
    """The graphs (a list of gnnstream.Graph) that the program cmd writes
    when given graphs (see the module's doc; a path is given as it is) on
    its standard input.  cmd: a list of arguments, the program first, or
    with shell=True a command line for /bin/sh -c (a model's
    features.command).  timeout: seconds, or None."""
    if shell:
        argv = ["/bin/sh", "-c", cmd]
        name = (cmd.split() or ["sh"])[0]
    else:
        argv = [cmd] if isinstance(cmd, str) else list(cmd)
        name = argv[0]
        argv[0] = _program(argv[0])
    gs = _as_graphs(graphs)
    with tempfile.TemporaryDirectory(prefix="gnnpipe.") as d:
        if gs is None:
            src = os.fspath(graphs)
        else:
            src = os.path.join(d, "in.gs")
            convert.write(src, gs, level=0, prog="gnnpipe")
        out = os.path.join(d, "out.gs")
        with open(src, "rb") as fi, open(out, "wb") as fo:
            try:
                p = subprocess.run(argv, stdin=fi, stdout=fo, stderr=subprocess.PIPE,
                                   timeout=timeout)
            except subprocess.TimeoutExpired:
                raise ProgramError("gnnpipe: %s: no answer in %g s" % (name, timeout),
                                   -1) from None
        if p.returncode != 0:
            err = p.stderr.decode("utf-8", "replace").strip().splitlines()
            if p.returncode == 127 and shell:
                raise FileNotFoundError("gnnpipe: %s" % (err[-1] if err else name))
            raise ProgramError(err[-1] if err else "gnnpipe: %s: exit status %d"
                               % (name, p.returncode), p.returncode)
        return list(gnnstream.graphs(out, name="%s's output" % os.path.basename(name)))


def model_config(model):
    """The flat 'key: value' lines of the config of the first model record
    of the file model (a gcn-train or gcn-adapt model), as a dict of
    strings."""
    rec = gnnstream.model(model)
    cfg = {}
    for line in rec.config.splitlines():
        k, sep, v = line.partition(":")
        if sep and k and k == k.strip() and not k.startswith("#"):
            v = v.strip()
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
                v = v[1:-1]
            cfg[k] = v
    return cfg


def feature_stage(model=None, stage=None, allow_command=False):
    """The feature stage as (argv, shell): argv a program's arguments (a
    command line when shell), or None for the stage 'stream' (the graphs'
    own 'features' tensors).  stage: paper, rwse, both (the built-in sets,
    nodefeat's), stream, or a command line; None: the stage the model
    records (model: a model file of gcn-train or gcn-adapt; None, the
    paper's four), as gcn-embed and gcn-adapt apply it.  A command runs
    only with allow_command, as those programs ask for
    --allow-features-command."""
    cfg = model_config(model) if model is not None else {}
    if stage is None:
        stage = cfg.get("features.stage", "paper")
        if stage == "command":
            stage = cfg.get("features.command", "")
            if not stage:
                raise ValueError("gnnpipe: %s: features.stage is command, but there is no "
                                 "features.command" % model)
            if not allow_command:
                raise ValueError("gnnpipe: %s: the model's feature stage is the command '%s': "
                                 "run it with allow_command=True" % (model, stage[:80]))
    base = ["nodefeat", "-q"]
    if stage == "paper":
        scale = cfg.get("adapt.scale", "minmax")
        return base + ["--set", "paper"] + (["--scale", "log"] if scale == "log" else []), False
    if stage == "rwse":
        return base + ["--set", "rwse"], False
    if stage == "both":
        return base + ["--scale", "both"], False
    if stage == "stream":
        return None, False
    return stage, True


def features(graphs, model=None, stage=None, allow_command=False, timeout=None):
    """The model's input features of graphs (a networkx graph, a
    gnnstream.Graph, a list of them, or a stream file): for one graph a
    numpy array (nodes, F), for several a list of them, from the feature
    stage feature_stage(model, stage, allow_command) names, run as a
    program (nodefeat, found in PATH).  When the model records its width
    and columns (features.width, features.columns), the features must have
    them, as in the programs."""
    argv, shell = feature_stage(model, stage, allow_command)
    if argv is None:
        gs = _as_graphs(graphs)
        if gs is None:
            gs = list(gnnstream.graphs(graphs))
    else:
        gs = run(argv, graphs, shell=shell, timeout=timeout)
    cfg = model_config(model) if model is not None else {}
    out = []
    for g in gs:
        t = g.tensors.get("features")
        if t is None:
            raise ValueError("gnnpipe: graph %d: no 'features' tensor from the feature stage "
                             "(%s)" % (g.id, "the graphs' own" if argv is None else
                                       argv if shell else " ".join(argv)))
        w, cols = cfg.get("features.width"), cfg.get("features.columns")
        if w and t.data.shape[1] != int(w):
            raise ValueError("gnnpipe: graph %d: the feature stage gives %d columns, the model "
                             "was trained on %s" % (g.id, t.data.shape[1], w))
        if cols and t.columns and ",".join(t.columns) != cols:
            raise ValueError("gnnpipe: graph %d: the feature stage gives the columns %s, the "
                             "model was trained on %s" % (g.id, ",".join(t.columns), cols))
        out.append(t.data)
    single = isinstance(graphs, gnnstream.Graph) or not isinstance(
        graphs, (list, tuple, str, os.PathLike))
    return out[0] if single and len(out) == 1 else out


def embed(graphs, model=None, embedding="blocks", args=(), as_networkx=False, timeout=None):
    """gcn-embed's rows of graphs (as features() takes them): for one
    graph a numpy array (nodes, D) float32 in node order, for several a
    list; model: the model file (None: gcn-embed's default, the shipped
    model); embedding: gcn-embed's --embedding; args: more of its options.
    as_networkx: instead, networkx graphs with each node's row as its
    attribute 'embedding' (the keys of the networkx graphs given; a
    stream's names)."""
    cmd = ["gcn-embed", "-q", "-l", "0", "--embedding", embedding]
    if model is not None:
        cmd += ["--model", os.fspath(model)]
    gs = run(cmd + list(args), graphs, timeout=timeout)
    single = isinstance(graphs, gnnstream.Graph) or not isinstance(
        graphs, (list, tuple, str, os.PathLike))
    if as_networkx:
        out = convert.to_networkx(gs)
        given = graphs if isinstance(graphs, (list, tuple)) else [graphs]
        for i, H in enumerate(out):
            G = given[i] if i < len(given) else None
            if G is not None and hasattr(G, "nodes") and not isinstance(G, gnnstream.Graph):
                import networkx as nx
                out[i] = nx.relabel_nodes(H, dict(zip(list(H.nodes), list(G.nodes))))
        return out[0] if single and len(out) == 1 else out
    rows = [g.tensors["embedding"].data for g in gs]
    return rows[0] if single and len(rows) == 1 else rows
