"""gnnpipe.predict - what gcn-adapt --predict computes, in PyTorch, from
an adapted model's file (gnnpipe_torch.Adapted) and a stream: the feature
stage of the model (programs.features) beside the torch modules.  Here,
not in gnnpipe_torch, so that gnnpipe_torch needs nothing of this
package (the package imports it, as gnnpipe.torch).  Needs PyTorch
(Debian: python3-torch), imported when called."""
import gnnstream

from .programs import features


def predict_stream(model, src, path=None, allow_command=False):
    """What gcn-adapt --predict computes, in PyTorch: a dict of numpy
    arrays logits, scores (softmax) and pred (argmax), one row per item of
    the stream src (its nodes: node task; its graphs: graph task; the
    edges of its graph record: link task), the input features from the
    model's feature stage (features(), which runs nodefeat), and,
    with adapt.attributes, the graph's 'attributes' tensor.  model: an
    Adapted, or the path of the model file (then also path)."""
    import numpy as np
    import torch
    import gnnpipe_torch as gt
    if not isinstance(model, gt.Adapted):
        path, model = model, gt.Adapted.from_stream(model)
    if path is None:
        raise ValueError("predict_stream: the model's file (path=) names its feature stage")
    gs = list(gnnstream.graphs(src))
    X = features(gs, model=path, allow_command=allow_command)
    out = []
    with torch.no_grad():
        for g, x in zip(gs, X):
            A = gt.normalized_adjacency(g.nodes, g.u, g.v, model.dtype)
            att = None
            if model.head.attributes:
                t = g.tensors.get("attributes")
                if t is None:
                    raise ValueError("graph %d has no 'attributes' tensor (the model was adapted "
                                     "with attributes)" % g.id)
                att = torch.from_numpy(t.data).to(model.dtype)
            edges = torch.from_numpy(np.stack([g.u, g.v]).astype(np.int64)) \
                if model.head.task == "link" else None
            out.append(model(torch.from_numpy(x).to(model.dtype), A, att, None, edges))
    if model.head.task != "graph" and len(out) != 1:
        raise ValueError("%s: %d graphs: the %s task's input is one graph" % (
            src, len(out), model.head.task))
    logits = torch.cat(out).to(torch.float64)
    return {"logits": logits.numpy(), "scores": torch.softmax(logits, 1).numpy(),
            "pred": logits.argmax(1).numpy()}
