"""gnnpipe - the Python side of gnnpipe's programs (gnnpipe(7)).

    import networkx as nx, gnnpipe
    G = nx.karate_club_graph()                 # node attribute 'club'
    gnnpipe.write("karate.gs", G)              # a stream the programs read
    H = gnnpipe.embed(G, as_networkx=True)     # gcn-embed's rows, back in G:
    H.nodes[0]["embedding"].shape              # (1536,); 'club' kept
    X = gnnpipe.features(G)                    # the feature stage: (34, 4)
    [g] = gnnpipe.graphs("karate.gs")          # read a stream
    G2 = gnnpipe.to_networkx(g)                # names, classes, labels
    data = gnnpipe.to_pyg(g, x="features", y="club")  # PyG's Data

What is here, each module's doc has the details:

    gnnstream        the stream (gnnstream(5)): Reader, Writer, graphs,
                     read, model, StreamError (also importable as
                     gnnpipe.stream, and as the top-level gnnstream)
    gnnpipe.convert  to_networkx, from_networkx, write, to_pyg
    gnnpipe.programs run, features, feature_stage, embed: the programs
                     called on graphs (found in PATH)
    gnnpipe.predict  predict_stream: gcn-adapt --predict's scores for a
                     stream, from gnnpipe_torch's Adapted (PyTorch)
    gnnpipe_torch    (PyTorch) Encoder, the encoder of a model; Head, the
                     head of an adapted model (gcn-adapt --save-model);
                     Adapted, both together (also as gnnpipe.torch); it
                     imports nothing of this package

Needs numpy; networkx for the networkx converters (Debian:
python3-networkx), PyTorch for to_pyg and gnnpipe_torch (python3-torch);
torch_geometric is used when it is there.
"""
import gnnstream
import gnnstream as stream
from gnnstream import Graph, Reader, Record, StreamError, Writer, graphs, model, read, read_all

from .convert import GraphData, from_networkx, to_networkx, to_pyg, write
from .programs import ProgramError, embed, feature_stage, features, model_config, run
from .predict import predict_stream

__all__ = ["stream", "Graph", "Reader", "Record", "StreamError", "Writer", "graphs", "model",
           "read", "read_all", "GraphData", "from_networkx", "to_networkx", "to_pyg", "write",
           "ProgramError", "embed", "feature_stage", "features", "model_config", "run",
           "predict_stream", "torch"]
__version__ = gnnstream.__version__


def __getattr__(name):
    """gnnpipe.torch: gnnpipe_torch, imported when first used (PyTorch is
    optional)."""
    if name == "torch":
        import gnnpipe_torch
        return gnnpipe_torch
    raise AttributeError("module 'gnnpipe' has no attribute %r" % name)
