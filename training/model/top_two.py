"""Gives an exported symbol model a head that returns each pixel's two best classes.

    /usr/bin/python3 training/model/top_two.py models/symbols.onnx

The page reader needs, per pixel, the best class and how far it leads the second
(segment.ts). Without the head, every window copied all 40 logit planes out of
the runtime and searched them in JavaScript, which cost as much as a third of
the model's own time. The head keeps the graph's `logits` output (tests compare
backends on it) and adds, computed by the runtime:

- `top`: the two highest logits per pixel, best first (1 x 2 x H/2 x W/2, float);
- `best`: the index of the highest, as one byte (1 x H/2 x W/2, uint8).

ONNX TopK puts the lower index first among equal values, as the JavaScript
search did, so the class map is the same bit for bit. The convolutions are not
touched. Running it again on a model that has the head changes nothing.
Needs Debian's python3-onnx.
"""
import sys

import onnx
from onnx import TensorProto, helper


def add_top_two(path):
    model = onnx.load(path)
    graph = model.graph
    if any(o.name == "best" for o in graph.output):
        return False
    graph.initializer.append(helper.make_tensor("top_k", TensorProto.INT64, [1], [2]))
    graph.initializer.append(helper.make_tensor("first", TensorProto.INT64, [1], [0]))
    graph.node.extend([
        helper.make_node("TopK", ["logits", "top_k"], ["top", "top_index"], axis=1, largest=1, sorted=1, name="top_two"),
        helper.make_node("Gather", ["top_index", "first"], ["best_index"], axis=1, name="best_of_two"),
        helper.make_node("Squeeze", ["best_index", "first_axis"], ["best_long"], name="one_plane"),
        helper.make_node("Cast", ["best_long"], ["best"], to=TensorProto.UINT8, name="as_byte"),
    ])
    graph.initializer.append(helper.make_tensor("first_axis", TensorProto.INT64, [1], [1]))
    graph.output.extend([
        helper.make_tensor_value_info("top", TensorProto.FLOAT, [1, 2, "h2", "w2"]),
        helper.make_tensor_value_info("best", TensorProto.UINT8, [1, "h2", "w2"]),
    ])
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return True


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(path, "head added" if add_top_two(path) else "already has the head")
