"""ncnn's model files for the peer comparison (development-time, not the library).

ncnn cannot read Darknet's cfg/weights from Python, and its darknet2ncnn and onnx2ncnn tools
are not on PyPI. pnnx is: its wheel ships a self-contained `pnnx` binary that converts an
ONNX graph (the one darknet_model.build_onnx writes, batch norm already folded) to ncnn's
.param/.bin. The wheel declares a dependency on torch, which only its Python API (tracing
PyTorch modules) uses: install it with `pip install --no-deps pnnx` and run the binary.
fp16=0 keeps the weights fp32 in the .bin (pnnx's default, fp16=1, would round every weight
to half precision before ncnn reads it); ncnn converts them itself at load when its fp16
storage option is on. pnnx fuses each Conv + LeakyRelu into one ncnn Convolution, names the
graph input `in0` and the outputs (the [yolo] layers' inputs, in order) `out0`, `out1`, ...
"""
import importlib.util
import os
from importlib import metadata
import subprocess
import sys


def pnnx_binary():
    """The `pnnx` executable inside the installed pnnx package, found without importing it
    (its __init__ imports torch)."""
    spec = importlib.util.find_spec("pnnx")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(list(spec.submodule_search_locations)[0], "pnnx")
    return path if os.access(path, os.X_OK) else None


def convert(onnx_path, prefix, shape):
    """Writes `prefix`.param and `prefix`.bin from the ONNX graph at `onnx_path` whose input has
    `shape` ([1, C, H, W]). pnnx's intermediate files go next to `prefix`."""
    binary = pnnx_binary()
    if binary is None:
        sys.exit("the ncnn systems need pnnx: `pip install --no-deps pnnx` (torch is not needed)")
    side = {key: f"{prefix}.{suffix}" for key, suffix in (("pnnxparam", "pnnx.param"), ("pnnxbin", "pnnx.bin"),
                                                          ("pnnxpy", "pnnx.py"), ("pnnxonnx", "pnnx.onnx"),
                                                          ("ncnnpy", "ncnn.py"))}
    command = [binary, os.path.abspath(onnx_path), "inputshape=[" + ",".join(map(str, shape)) + "]", "fp16=0",
               f"ncnnparam={prefix}.param", f"ncnnbin={prefix}.bin"] + [f"{k}={v}" for k, v in side.items()]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=os.path.dirname(prefix))
    if completed.returncode != 0 or not os.path.exists(prefix + ".param"):
        sys.exit(f"pnnx failed ({completed.returncode}): {' '.join(command)}\n{completed.stdout}\n{completed.stderr}")
    # Only the .param/.bin are needed; the rest (and pnnx's simplified ONNX next to the input)
    # each hold another copy of the weights.
    for path in list(side.values()) + [os.path.splitext(onnx_path)[0] + ".pnnxsim.onnx"]:
        if os.path.exists(path):
            os.remove(path)
    return metadata.version("pnnx")
