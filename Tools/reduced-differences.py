#!/usr/bin/env python3
"""How far each 16-bit float kernel set moves a network's layers from float32 (issue 54, item 3).

For each network, one `swift-darknet forward --layers all --dump` in float32 and one per set with
`--precision bf16|fp16 --kernels SET` (a portable set computes that CPU's results bit for bit on
any machine), on one image; prints a Markdown table: the convolutions the plan runs in the set's
arithmetic, the largest absolute difference from float32 over every layer (and where), and at
each `[yolo]` input (with the largest float32 value there).

    swift build -c release --product swift-darknet
    python3 Tools/reduced-differences.py [--networks tiny,yolov3,v4tiny,v7tiny] [--sets ...]

YOLOv3-tiny runs its real weights; YOLOv3 the fixture's random ones at the cfg's 608; YOLOv4-tiny
and the YOLOv7-tiny-like cfg compare.py's random weights (seed 1) at 416. Needs numpy.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "peers"))
from darknet_model import network_layers, write_cfg_at, write_random_weights  # noqa: E402

SETS = {"portable-bf16": "bf16", "portable-arm-bf16": "bf16", "portable-fp16": "fp16", "portable-fmla-fp16": "fp16"}
NETWORKS = {
    "tiny": ("YOLOv3-tiny (real)", "Weights/darknet/cfg/yolov3-tiny.cfg", "Weights/yolov3-tiny.weights"),
    "yolov3": ("YOLOv3 at 608 (random: the fixture's)", "Weights/darknet/cfg/yolov3.cfg",
               "Fixtures/generated/weights/yolov3-random.weights"),
    "v4tiny": ("YOLOv4-tiny (random: compare.py's, seed 1)", "Weights/alexeyab/yolov4-tiny.cfg", None),
    "v7tiny": ("YOLOv7-tiny-like (random: compare.py's, seed 1)", "Fixtures/cfg/alexeyab/yolov7-tiny-like.cfg", None),
}


def forward(cli, cfg, weights, image, out, extra=()):
    """Dumps every layer to `out`; returns what the tool said on standard error."""
    command = [cli, "forward", "--cfg", cfg, "--weights", weights, "--image", image, "--layers", "all", "--dump", out, *extra]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stderr


def differences(reference, other):
    """(largest difference, its layer), and (difference, largest float32 value) at each [yolo] input."""
    layers = json.load(open(os.path.join(reference, "layers.json")))["layers"]

    def values(directory, layer):
        return np.fromfile(os.path.join(directory, layer["file"]), "<f4")

    worst, heads = (0.0, -1), []
    for i, layer in enumerate(layers):
        if layer["type"] == "yolo":
            a, b = values(reference, layers[i - 1]), values(other, layers[i - 1])
            heads.append((float(np.abs(a - b).max()), float(np.abs(a).max())))
            continue
        difference = float(np.abs(values(reference, layer) - values(other, layer)).max())
        if difference > worst[0]:
            worst = (difference, layer["index"])
    return worst, heads


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, ".build/release/swift-darknet"))
    ap.add_argument("--image", default=os.path.join(ROOT, "Weights/darknet/data/dog.jpg"))
    ap.add_argument("--networks", default=",".join(NETWORKS))
    ap.add_argument("--sets", default=",".join(SETS))
    a = ap.parse_args()
    if not os.access(a.cli, os.X_OK):
        sys.exit(f"{a.cli} not found: run `swift build -c release --product swift-darknet` first")
    print("| network (weights) | kernels | convolutions in it | any layer | `[yolo]` inputs |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="reduced-differences-") as directory:
        for key in a.networks.split(","):
            title, cfg, weights = NETWORKS[key]
            cfg = os.path.join(ROOT, cfg)
            if weights is None:
                sized = os.path.join(directory, f"{key}.cfg")
                write_cfg_at(cfg, 416, sized)
                cfg, weights = sized, os.path.join(directory, f"{key}.weights")
                write_random_weights(network_layers(sized, 416)[1], weights, 1)
            else:
                weights = os.path.join(ROOT, weights)
            reference = os.path.join(directory, f"{key}-float32")
            forward(a.cli, cfg, weights, a.image, reference)
            for kernels in a.sets.split(","):
                out = os.path.join(directory, f"{key}-{kernels}")
                said = forward(a.cli, cfg, weights, a.image, out, ["--precision", SETS[kernels], "--kernels", kernels])
                count = re.search(r"(\d+ of \d+) convolutions", said)
                (worst, layer), heads = differences(reference, out)
                inputs = ", ".join(f"{d:.2g} (to {m:.3g})" for d, m in heads)
                print(f"| {title} | `{kernels}` | {count.group(1) if count else '?'} | {worst:.3g} (layer {layer}) | {inputs} |",
                      flush=True)


if __name__ == "__main__":
    main()
