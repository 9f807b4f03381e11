"""A float64 NumPy reimplementation of the forward pass of AlexeyAB's Darknet, for the layers
and keys SwiftDarknet supports. Developer tooling: it produces reference outputs for the
tests (Tools/make-alexeyab-fixtures.sh); the library never runs it.

Written from the semantics of AlexeyAB's parser.c and layer sources (convolutional with
stride_x/stride_y, dilation and groups; maxpool with stride_x/stride_y; route groups;
multi-source shortcut; scale_channels; sam; upsample; yolo with scale_x_y and new_coords;
Gaussian_yolo; reorg3d; contrastive), in float64 so that it is an independent check of a
float32 implementation.
"""
import math
import re
import struct

import numpy as np


# ---------------------------------------------------------------- cfg

def parse_cfg(path):
    """[(section, {key: value}, line)] like Darknet's read_cfg: whitespace removed, '#'/';'
    comment lines skipped; the first occurrence of a key wins."""
    sections = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = "".join(raw.split())
            if not line or line[0] in "#;":
                continue
            if line[0] == "[":
                sections.append((line[1:-1], {}, number))
            else:
                key, value = line.split("=", 1)
                sections[-1][1].setdefault(key, value)
    return sections


def ints(value):
    return [int(v) for v in value.split(",") if v.strip()]


def floats(value):
    return [float(v) for v in value.split(",") if v.strip()]


def c_atof(text):
    """C's atof on a decimal number: the longest leading number of `text`, 0 without one."""
    m = re.match(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text)
    return float(m.group(0)) if m else 0.0


def anchors(o, total, kind):
    """The anchor values AlexeyAB's parse_yolo / parse_gaussian_yolo keep: `total` pairs of
    0.5, overwritten by atof of each comma-separated item of the (whitespace-free) value, at
    most 2 * total of them ([yolo]; [Gaussian_yolo] would write past the array with more)."""
    biases = [0.5] * (2 * total)
    value = o.get("anchors")
    if value is None:
        return biases
    counted = value.split("#")[0] if kind == "yolo" else value
    items = value.split(",")[:counted.count(",") + 1]
    if kind != "yolo" and len(items) > 2 * total:
        raise ValueError("[Gaussian_yolo] anchors past num (AlexeyAB writes past its array)")
    for i, item in enumerate(items[:2 * total]):
        biases[i] = float(np.float32(c_atof(item)))
    return biases


# ---------------------------------------------------------------- activations (activations.c)

def activate(x, name):
    if name == "linear":
        return x
    if name in ("leaky", "revleaky"):
        return np.where(x > 0, x, 0.1 * x)
    if name == "logistic":
        return 1 / (1 + np.exp(-x))
    if name == "relu":
        return np.where(x > 0, x, 0.0)
    if name == "relu6":
        return np.clip(x, 0, 6)
    if name == "relie":
        return np.where(x > 0, x, 0.01 * x)
    if name == "ramp":
        return np.where(x > 0, x, 0.0) + 0.1 * x
    if name == "tanh":
        return np.tanh(x)
    if name == "elu":
        return np.where(x >= 0, x, np.exp(x) - 1)
    if name == "selu":
        return np.where(x >= 0, 1.0507 * x, 1.0507 * 1.6732 * (np.exp(x) - 1))
    if name == "gelu":
        return 0.5 * x * (1 + np.tanh(0.797885 * x + 0.035677 * x ** 3))
    if name == "loggy":
        return 2 / (1 + np.exp(-x)) - 1
    if name == "swish":
        return x / (1 + np.exp(-x))
    if name == "mish":
        threshold = 20.0
        softplus = np.where(x > threshold, x, np.where(x < -threshold, np.exp(x), np.log1p(np.exp(np.minimum(x, threshold)))))
        return x * np.tanh(softplus)
    if name == "hard_mish":
        return np.where(x > 0, x, np.where(x > -2, x * x / 2 + x, 0.0))
    if name == "hardtan":
        return np.clip(x, -1, 1)
    if name == "lhtan":
        return np.where(x < 0, 0.001 * x, np.where(x > 1, 0.001 * (x - 1) + 1, x))
    if name == "plse":
        return np.where(x < -4, 0.01 * (x + 4), np.where(x > 4, 0.01 * (x - 4) + 1, 0.125 * x + 0.5))
    raise ValueError("activation not in the reference: " + name)


# ---------------------------------------------------------------- layers

class Conv:
    def __init__(self, o, c):
        self.filters = int(o.get("filters", 1))
        self.size = int(o.get("size", 1))
        stride = int(o.get("stride", 1))
        self.sx = int(o.get("stride_x", stride))
        self.sy = int(o.get("stride_y", stride))
        self.dilation = int(o.get("dilation", 1)) if self.size > 1 else 1
        self.padding = self.size // 2 if int(o.get("pad", 0)) else int(o.get("padding", 0))
        self.groups = int(o.get("groups", 1))
        self.bn = int(o.get("batch_normalize", 0)) == 1 or int(o.get("cbn", 0)) == 1
        self.activation = o.get("activation", "logistic")
        self.c = c
        self.weight_count = self.filters * (c // self.groups) * self.size * self.size

    def shape(self, h, w):
        return (self.filters, (h + 2 * self.padding - self.size) // self.sy + 1,
                (w + 2 * self.padding - self.size) // self.sx + 1)

    def forward(self, x, params):
        return self.finish(self.linear(x, params["weights"]), params)

    def linear(self, x, flat_weights):
        """The convolution alone (no bias, batch norm or activation)."""
        c, h, w = x.shape
        f, oh, ow = self.shape(h, w)
        k, d = self.size, self.dilation
        pad = self.padding * d
        xp = np.zeros((c, h + 2 * pad + k * d, w + 2 * pad + k * d))
        xp[:, pad:pad + h, pad:pad + w] = x
        cg, fg = c // self.groups, f // self.groups
        weights = flat_weights.reshape(f, cg, k, k)
        out = np.zeros((f, oh, ow))
        for g in range(self.groups):
            cols = np.empty((cg, k, k, oh, ow))
            for ky in range(k):
                for kx in range(k):
                    y0, x0 = ky * d, kx * d
                    cols[:, ky, kx] = xp[g * cg:(g + 1) * cg, y0:y0 + (oh - 1) * self.sy + 1:self.sy,
                                         x0:x0 + (ow - 1) * self.sx + 1:self.sx]
            wg = weights[g * fg:(g + 1) * fg].reshape(fg, -1)
            out[g * fg:(g + 1) * fg] = (wg @ cols.reshape(cg * k * k, -1)).reshape(fg, oh, ow)
        return out

    def finish(self, out, params):
        """Batch norm (AlexeyAB's epsilon), bias and activation after the convolution."""
        return finish(out, params, self.bn, self.activation)

    def blobs(self, p, variance_shift=0.0):
        """The arrays of the .weights file in Darknet's order for a convolution."""
        norm = [p["scales"], p["mean"], p["variance"] + variance_shift] if self.bn else []
        return [p["biases"]] + norm + [p["weights"]]


def normalize(out, params):
    """AlexeyAB's inference batch norm (normalize_cpu + scale_bias): (x - mean) / sqrt(var + 1e-5) * scale."""
    scale = params["scales"] / np.sqrt(params["variance"] + 0.00001)   # AlexeyAB's epsilon
    return (out - params["mean"][:, None, None]) * scale[:, None, None]


def finish(out, params, bn, activation):
    if bn:
        out = normalize(out, params)
    out = out + params["biases"][:, None, None]
    return activate(out, activation)


class Connected:
    """[connected]: outputs x inputs weights on the flattened input, then batch norm, bias, activation."""
    def __init__(self, o, inputs):
        self.filters = int(o.get("output", 1))
        self.inputs = inputs
        self.bn = int(o.get("batch_normalize", 0)) == 1
        self.activation = o.get("activation", "logistic")
        self.weight_count = self.filters * inputs

    def shape(self, h, w):
        return (self.filters, 1, 1)

    def linear(self, x, flat_weights):
        return (flat_weights.reshape(self.filters, self.inputs) @ x.reshape(-1)).reshape(self.filters, 1, 1)

    def finish(self, out, params):
        return finish(out, params, self.bn, self.activation)

    def blobs(self, p, variance_shift=0.0):
        """load_connected_weights' order: biases, weights, then the batch-norm arrays."""
        norm = [p["scales"], p["mean"], p["variance"] + variance_shift] if self.bn else []
        return [p["biases"], p["weights"]] + norm


class BatchNorm:
    """[batchnorm]: batch norm alone (no bias of its own)."""
    def __init__(self, c):
        self.filters = c
        self.bn = True
        self.weight_count = 0

    def blobs(self, p, variance_shift=0.0):
        return [p["scales"], p["mean"], p["variance"] + variance_shift]


def pool_geometry(o):
    """size, stride_x, stride_y, padding as AlexeyAB's parse_maxpool (and parse_local_avgpool) read them."""
    stride = int(o.get("stride", 1))
    size = int(o.get("size", stride))
    return size, int(o.get("stride_x", stride)), int(o.get("stride_y", stride)), int(o.get("padding", size - 1))


def maxpool(x, o):
    size, sx, sy, padding = pool_geometry(o)
    c, h, w = x.shape
    oh, ow = (h + padding - size) // sy + 1, (w + padding - size) // sx + 1
    off = -(padding // 2)
    big = np.full((c, h + size + padding, w + size + padding), -np.inf)
    big[:, -off:-off + h, -off:-off + w] = x
    out = np.full((c, oh, ow), -np.inf)
    for ky in range(size):
        for kx in range(size):
            out = np.maximum(out, big[:, ky:ky + (oh - 1) * sy + 1:sy, kx:kx + (ow - 1) * sx + 1:sx])
    return out


def local_avgpool(x, o):
    """AlexeyAB's [local_avgpool]: maxpool's windows, the mean of the cells inside the input."""
    size, sx, sy, padding = pool_geometry(o)
    c, h, w = x.shape
    oh, ow = (h + padding - size) // sy + 1, (w + padding - size) // sx + 1
    off = -(padding // 2)
    out = np.zeros((c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            y0, x0 = max(0, off + i * sy), max(0, off + j * sx)
            y1, x1 = min(h, off + i * sy + size), min(w, off + j * sx + size)
            out[:, i, j] = x[:, y0:y1, x0:x1].mean(axis=(1, 2))
    return out


def yolo(x, o):
    classes = int(o.get("classes", 20))
    mask = ints(o["mask"]) if "mask" in o else list(range(int(o.get("num", 1))))
    scale = float(o.get("scale_x_y", 1))
    new_coords = int(o.get("new_coords", 0))
    c, h, w = x.shape
    y = x.copy().reshape(len(mask), classes + 5, h, w)
    if not new_coords:
        y[:, 0:2] = 1 / (1 + np.exp(-y[:, 0:2]))
        y[:, 4:] = 1 / (1 + np.exp(-y[:, 4:]))
    y[:, 0:2] = y[:, 0:2] * scale - 0.5 * (scale - 1)
    return y.reshape(c, h, w)


def logistic(x):
    return 1 / (1 + np.exp(-x))


def gaussian_yolo(x, o):
    """forward_gaussian_yolo_layer: per anchor 9 + classes planes (x, sigma x, y, sigma y, w,
    sigma w, h, sigma h, objectness, classes); the logistic on every plane but the w and h
    means, and scale_x_y on the x and y means only."""
    classes = int(o.get("classes", 20))
    mask = ints(o["mask"]) if "mask" in o else list(range(int(o.get("num", 1))))
    scale = float(o.get("scale_x_y", 1))
    c, h, w = x.shape
    y = x.copy().reshape(len(mask), classes + 9, h, w)
    for plane in [0, 1, 2, 3, 5, 7] + list(range(8, classes + 9)):
        y[:, plane] = logistic(y[:, plane])
    for plane in (0, 2):
        y[:, plane] = y[:, plane] * scale - 0.5 * (scale - 1)
    return y.reshape(c, h, w)


def reorg_cpu(x, w, h, c, stride, forward):
    """AlexeyAB's blas.c reorg_cpu on flat arrays, index by index: the w x h x c grid against
    a grid `stride` times wider and higher with c / stride^2 channels."""
    x = x.reshape(-1)
    out = np.zeros_like(x)
    in_c = c // (stride * stride)
    k, j, i = np.meshgrid(np.arange(c), np.arange(h), np.arange(w), indexing="ij")
    small = i + w * (j + h * k)
    c2, offset = k % in_c, k // in_c
    big = (i * stride + offset % stride) + w * stride * ((j * stride + offset // stride) + h * stride * c2)
    if forward:
        out[big.reshape(-1)] = x[small.reshape(-1)]
    else:
        out[small.reshape(-1)] = x[big.reshape(-1)]
    return out


def reorg3d_shape(o, c, h, w):
    s = int(o.get("stride", 1))
    if int(o.get("reverse", 0)):
        return (c // (s * s), h * s, w * s)
    return (c * s * s, h // s, w // s)


def reorg3d(x, o):
    """AlexeyAB's [reorg3d] (forward_reorg_layer): reorg_cpu on the output's dimensions,
    forward=0 (the default) or forward=1 with reverse=1."""
    s = int(o.get("stride", 1))
    oc, oh, ow = reorg3d_shape(o, *x.shape)
    return reorg_cpu(x, ow, oh, oc, s, int(o.get("reverse", 0))).reshape(oc, oh, ow)


def resolve(value, index):
    return value + index if value < 0 else value


def forward(sections, params, x, calibrate=False):
    """Runs every layer; returns the list of outputs (float64, CHW). With `calibrate`, each
    convolution's weights are first rescaled (in place, then rounded to float32) so that its
    output before bias and batch norm has a standard deviation of `params[i]["target"]`:
    activations stay O(1) through any depth and the output still depends on the input."""
    outputs = []
    for index, (kind, o, _) in enumerate(sections[1:]):
        prev = x if index == 0 else outputs[-1]
        if kind in ("convolutional", "conv", "connected", "conn"):
            p, conv = params[index], params[index]["layer"]
            raw = conv.linear(prev, p["weights"])
            if calibrate:
                p["weights"] = (p["weights"] * (p["target"] / max(raw.std(), 1e-6))).astype(np.float32).astype(np.float64)
                raw = conv.linear(prev, p["weights"])
            y = conv.finish(raw, p)
        elif kind == "batchnorm":
            y = normalize(prev, params[index])
        elif kind in ("maxpool", "max"):
            y = maxpool(prev, o)
        elif kind == "local_avgpool":
            y = local_avgpool(prev, o)
        elif kind == "route":
            groups, gid = int(o.get("groups", 1)), int(o.get("group_id", 0))
            parts = []
            for s in ints(o["layers"]):
                src = outputs[resolve(s, index)]
                n = src.shape[0] // groups
                parts.append(src[gid * n:(gid + 1) * n])
            y = np.concatenate(parts, axis=0)
        elif kind == "shortcut":
            y = prev.copy()
            for s in ints(o["from"]):
                y = y + outputs[resolve(s, index)]
            y = activate(y, o.get("activation", "linear"))
        elif kind == "upsample":
            s = int(o.get("stride", 2))
            y = np.repeat(np.repeat(prev, s, axis=1), s, axis=2) * float(o.get("scale", 1))
        elif kind == "scale_channels":
            src = outputs[resolve(ints(o["from"])[0], index)]
            y = src * (prev if int(o.get("scale_wh", 0)) else prev.reshape(-1, 1, 1))
            y = activate(y, o.get("activation", "linear"))
        elif kind == "sam":
            src = outputs[resolve(ints(o["from"])[0], index)]
            y = activate(prev * src, o.get("activation", "linear"))
        elif kind == "yolo":
            y = yolo(prev, o)
        elif kind == "Gaussian_yolo":
            y = gaussian_yolo(prev, o)
        elif kind == "reorg3d":
            y = reorg3d(prev, o)
        elif kind == "contrastive":
            # Inference: AlexeyAB's GPU forward copies the input, its CPU one leaves zeros.
            y = prev.copy()
        else:
            raise ValueError("section not in the reference: " + kind)
        outputs.append(y)
    return outputs


# ---------------------------------------------------------------- shapes and random weights

def conv_layers(sections):
    """{index: Conv} with input channels tracked through every supported layer."""
    c = int(sections[0][1]["channels"])
    h, w = int(sections[0][1]["height"]), int(sections[0][1]["width"])
    shapes, convs = [], {}
    for index, (kind, o, _) in enumerate(sections[1:]):
        pc, ph, pw = (c, h, w) if index == 0 else shapes[-1]
        if kind in ("convolutional", "conv"):
            conv = Conv(o, pc)
            convs[index] = conv
            shape = conv.shape(ph, pw)
        elif kind in ("connected", "conn"):
            convs[index] = Connected(o, pc * ph * pw)
            shape = convs[index].shape(ph, pw)
        elif kind == "batchnorm":
            convs[index] = BatchNorm(pc)
            shape = (pc, ph, pw)
        elif kind in ("maxpool", "max", "local_avgpool"):
            size, sx, sy, padding = pool_geometry(o)
            shape = (pc, (ph + padding - size) // sy + 1, (pw + padding - size) // sx + 1)
        elif kind == "route":
            srcs = [shapes[resolve(s, index)] for s in ints(o["layers"])]
            shape = (sum(s[0] for s in srcs) // int(o.get("groups", 1)), srcs[0][1], srcs[0][2])
        elif kind == "upsample":
            s = int(o.get("stride", 2))
            shape = (pc, ph * s, pw * s)
        elif kind == "scale_channels":
            shape = shapes[resolve(ints(o["from"])[0], index)]
        elif kind == "reorg3d":
            shape = reorg3d_shape(o, pc, ph, pw)
        else:
            shape = (pc, ph, pw)
        shapes.append(shape)
    return convs, shapes


def write_weights(params, path, variance_shift=0.0):
    """Writes the parameters as a .weights file. OpenCV's importer divides by
    sqrt(variance + 1e-6); with variance_shift = 1e-5 - 1e-6 it computes AlexeyAB's
    sqrt(variance + 1e-5) exactly."""
    with open(path, "wb") as f:
        f.write(struct.pack("<iiiQ", 0, 2, 0, 0))
        for index in sorted(params):
            p = params[index]
            for b in p["layer"].blobs(p, variance_shift):
                f.write(np.asarray(b).astype("<f4").tobytes())


OPENCV_VARIANCE_SHIFT = 0.00001 - 0.000001


def random_weights(sections, seed, path, x):
    """Writes a .weights file (header 0.2.0, 64-bit seen) with seeded random parameters,
    calibrated on the input `x` so activations stay O(1) through deep networks; returns the
    per-layer parameters and every layer's output for `x`."""
    rng = np.random.default_rng(seed)
    convs, _ = conv_layers(sections)
    kinds = [s[0] for s in sections[1:]]
    params = {}
    for index, conv in sorted(convs.items()):
        following = kinds[index + 1] if index + 1 < len(kinds) else ""
        p = {"layer": conv, "target": 0.5 if following == "shortcut" else 1.0}
        if not isinstance(conv, BatchNorm):
            fan_in = conv.weight_count // conv.filters
            p["biases"] = rng.normal(0, 0.05, conv.filters)
            p["weights"] = rng.normal(0, math.sqrt(2.0 / fan_in), conv.weight_count)
        if isinstance(conv, Conv) and conv.bn:
            p["scales"] = rng.uniform(0.8, 1.2, conv.filters)
            p["mean"] = rng.normal(0, 0.05, conv.filters)
            p["variance"] = rng.uniform(0.6, 1.4, conv.filters)
        elif conv.bn:
            # Tiny variances, scales in proportion: the output stays O(1) while the two Darknets'
            # batch norms differ by 10-25 % (sqrt(var) + 1e-6 against sqrt(var + 1e-5)).
            p["variance"] = rng.uniform(1e-5, 4e-5, conv.filters)
            p["scales"] = rng.uniform(0.8, 1.2, conv.filters) * np.sqrt(p["variance"])
            p["mean"] = rng.normal(0, 0.05, conv.filters) * np.sqrt(p["variance"])
        # What the file holds is float32: the reference uses exactly those values.
        for key in ("biases", "scales", "mean", "variance", "weights"):
            if key in p:
                p[key] = p[key].astype(np.float32).astype(np.float64)
        params[index] = p
    outputs = forward(sections, params, x, calibrate=True)
    write_weights(params, path)
    return params, outputs
