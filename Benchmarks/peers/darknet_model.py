"""Darknet cfg/weights handling for the peer comparison (development-time, not the library).

- read_cfg / network_layers: a cfg's sections and every layer's shapes, for the sections
  SwiftDarknet runs ([convolutional], [maxpool], [route] with groups/group_id, [shortcut],
  [upsample], [yolo]);
- write_cfg_at: a copy of a cfg with width/height set and batch=subdivisions=1, so all three
  systems read the same file at the same size;
- write_random_weights: a valid .weights file with seeded values that keep activations O(1);
- build_onnx: the network as an ONNX graph (batch norm folded as Darknet folds it, Darknet's
  maxpool padding, route groups as channel slices, nearest upsample); its outputs are the
  inputs of the [yolo] layers.
"""
import struct

import numpy as np

CONV = ("convolutional", "conv")
POOL = ("maxpool", "max")


def read_cfg(path):
    """[(section, {key: value}, line)], with Darknet's rules: whitespace inside a line is
    dropped, '#' and ';' start comment lines."""
    sections = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, raw in enumerate(handle, 1):
            line = "".join(raw.split())
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                if not line.endswith("]"):
                    raise ValueError(f"{path}:{number}: malformed section {raw.strip()!r}")
                sections.append((line[1:-1].lower(), {}, number))
            elif "=" in line and sections:
                key, value = line.split("=", 1)
                sections[-1][1][key] = value
            else:
                raise ValueError(f"{path}:{number}: not a key=value line: {raw.strip()!r}")
    if not sections or sections[0][0] not in ("net", "network"):
        raise ValueError(f"{path}: the first section must be [net]")
    return sections


def _int(options, key, default):
    return int(float(options[key])) if key in options else default


def network_layers(cfg, size):
    """(channels, layers) at a square input of `size`. Each layer is a dict: index, type,
    options, in/out (c, h, w), sources, and for convolutions n, size, stride, pad, bn,
    activation, flops; `params` lists (name, count) in .weights order."""
    sections = read_cfg(cfg)
    channels = _int(sections[0][1], "channels", 3)
    c, h, w = channels, size, size
    layers = []
    for kind, options, line in sections[1:]:
        index = len(layers)
        layer = {"index": index, "type": kind, "options": options, "in": (c, h, w),
                 "sources": [index - 1], "params": [], "flops": 0, "line": line}

        def refuse(reason):
            raise ValueError(f"{cfg}:{line}: layer {index} [{kind}]: {reason}")

        def resolve(value):
            j = value if value >= 0 else index + value
            if not 0 <= j < index:
                refuse(f"bad layer reference {value}")
            return j

        if kind in CONV:
            n = _int(options, "filters", 1)
            k = _int(options, "size", 1)
            stride = _int(options, "stride", 1)
            pad = k // 2 if _int(options, "pad", 0) else _int(options, "padding", 0)
            groups = _int(options, "groups", 1)
            if groups != 1:
                refuse("groups are not supported by the comparison")
            bn = _int(options, "batch_normalize", 0)
            oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
            layer.update(n=n, size=k, stride=stride, pad=pad, bn=bn,
                         activation=options.get("activation", "logistic"),
                         flops=2 * n * c * k * k * oh * ow, fan_in=c * k * k)
            layer["params"] = [("biases", n)]
            if bn:
                layer["params"] += [("scales", n), ("rolling_mean", n), ("rolling_variance", n)]
            layer["params"].append(("weights", n * c * k * k))
            c, h, w = n, oh, ow
        elif kind in POOL:
            stride = _int(options, "stride", 1)
            k = _int(options, "size", stride)
            padding = _int(options, "padding", k - 1)
            layer.update(size=k, stride=stride, padding=padding)
            h, w = (h + padding - k) // stride + 1, (w + padding - k) // stride + 1
        elif kind == "route":
            # groups/group_id (YOLOv4-tiny's CSP blocks): each input contributes the group_id-th
            # of its `groups` equal channel slices, as Darknet's route layer copies them.
            groups, group_id = _int(options, "groups", 1), _int(options, "group_id", 0)
            if groups < 1 or not 0 <= group_id < groups:
                refuse(f"bad groups={groups} group_id={group_id}")
            sources = [resolve(int(v)) for v in options["layers"].split(",") if v]
            shapes = [layers[j]["out"] for j in sources]
            if any(s[1:] != shapes[0][1:] for s in shapes):
                refuse(f"route inputs differ in size: {shapes}")
            if any(s[0] % groups for s in shapes):
                refuse(f"route input channels {[s[0] for s in shapes]} not divisible by groups={groups}")
            layer.update(sources=sources, groups=groups, group_id=group_id)
            c, h, w = sum(s[0] // groups for s in shapes), shapes[0][1], shapes[0][2]
        elif kind == "shortcut":
            source = resolve(int(options["from"]))
            if layers[source]["out"] != (c, h, w):
                refuse("shortcut shapes differ")
            if options.get("activation", "linear") != "linear":
                refuse("only linear shortcuts are supported")
            layer["sources"] = [index - 1, source]
        elif kind == "upsample":
            stride = _int(options, "stride", 2)
            if stride < 1:
                refuse("downsampling is not supported")
            layer["stride"] = stride
            h, w = h * stride, w * stride
        elif kind == "yolo":
            classes = _int(options, "classes", 20)
            mask = [int(v) for v in options["mask"].split(",") if v] if "mask" in options \
                else list(range(_int(options, "num", 1)))
            if len(mask) * (classes + 5) != c:
                refuse(f"expects {len(mask) * (classes + 5)} input channels, got {c}")
        else:
            refuse("section not supported by the comparison")
        layer["out"] = (c, h, w)
        layers.append(layer)
    return channels, layers


def write_cfg_at(cfg, size, out_path):
    """Copies `cfg` with [net] width/height = size and batch = subdivisions = 1."""
    lines, in_net, done = [], False, set()
    with open(cfg, encoding="utf-8", errors="replace") as handle:
        for raw in handle:
            stripped = "".join(raw.split())
            if stripped.startswith("["):
                if in_net:
                    lines += [f"{k}={v}\n" for k, v in (("width", size), ("height", size),
                                                         ("batch", 1), ("subdivisions", 1)) if k not in done]
                in_net = stripped.lower() in ("[net]", "[network]")
            elif in_net and "=" in stripped and not stripped.startswith(("#", ";")):
                key = stripped.split("=", 1)[0]
                value = {"width": size, "height": size, "batch": 1, "subdivisions": 1}.get(key)
                if value is not None:
                    lines.append(f"{key}={value}\n")
                    done.add(key)
                    continue
            lines.append(raw)
    with open(out_path, "w", encoding="utf-8") as handle:
        handle.writelines(lines)


def _gain(layers, i):
    """Shrinks the weights of a convolution feeding a [shortcut] (residual growth) or a
    [yolo] (keeps exp(w), exp(h) finite) so random networks stay numerically tame."""
    following = layers[i + 1]["type"] if i + 1 < len(layers) else None
    return {"shortcut": 0.3, "yolo": 0.1}.get(following, 1.0)


def write_random_weights(layers, out_path, seed):
    """A .weights file (header 0.2.0, 64-bit `seen`) with values drawn from numpy's PCG64
    seeded with `seed`: weights N(0, gain * sqrt(2 / fan_in)), biases and means N(0, 0.01),
    scales U(0.9, 1.1), variances U(0.8, 1.25). Returns the number of floats written."""
    rng = np.random.default_rng(seed)
    total = 0
    with open(out_path, "wb") as handle:
        handle.write(struct.pack("<iiiQ", 0, 2, 0, 0))
        for i, layer in enumerate(layers):
            for name, count in layer["params"]:
                if name == "weights":
                    values = rng.standard_normal(count) * (_gain(layers, i) * (2.0 / layer["fan_in"]) ** 0.5)
                elif name in ("biases", "rolling_mean"):
                    values = rng.standard_normal(count) * 0.01
                elif name == "scales":
                    values = rng.uniform(0.9, 1.1, count)
                else:
                    values = rng.uniform(0.8, 1.25, count)
                handle.write(values.astype("<f4").tobytes())
                total += count
    return total


def read_weights(path, layers):
    """{layer index: {param name: float32 array}}; checks that every byte is accounted for."""
    major, minor, _ = struct.unpack("<iii", open(path, "rb").read(12))
    header = 20 if major * 10 + minor >= 2 else 16
    data = np.fromfile(path, dtype="<f4", offset=header)
    offset, params = 0, {}
    for layer in layers:
        for name, count in layer["params"]:
            if offset + count > data.size:
                raise ValueError(f"{path}: too short for layer {layer['index']} {name}")
            params.setdefault(layer["index"], {})[name] = data[offset:offset + count]
            offset += count
    if offset != data.size:
        raise ValueError(f"{path}: {data.size - offset} floats left over")
    return params


def build_onnx(cfg, weights, size):
    """The network as an ONNX model (opset 13): input `input` [1, C, size, size]; one output
    per [yolo] layer, the raw map that layer reads."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    channels, layers = network_layers(cfg, size)
    params = read_weights(weights, layers)
    nodes, initializers, outputs, names = [], [], [], []
    current = "input"
    for layer in layers:
        i, kind = layer["index"], layer["type"]
        if kind in CONV:
            p = params[i]
            c_in = layer["in"][0]
            weight = p["weights"].reshape(layer["n"], c_in, layer["size"], layer["size"]).astype(np.float64)
            bias = p["biases"].astype(np.float64)
            if layer["bn"]:
                factor = p["scales"] / (np.sqrt(p["rolling_variance"].astype(np.float64)) + 1e-6)
                weight = weight * factor[:, None, None, None]
                bias = bias - p["rolling_mean"] * factor
            initializers += [numpy_helper.from_array(weight.astype(np.float32), f"w{i}"),
                             numpy_helper.from_array(bias.astype(np.float32), f"b{i}")]
            out = f"conv{i}"
            nodes.append(helper.make_node("Conv", [current, f"w{i}", f"b{i}"], [out],
                                          kernel_shape=[layer["size"]] * 2, strides=[layer["stride"]] * 2,
                                          pads=[layer["pad"]] * 4))
            activation = layer["activation"]
            if activation != "linear":
                op = {"leaky": ("LeakyRelu", {"alpha": 0.1}), "relu": ("Relu", {}),
                      "logistic": ("Sigmoid", {})}.get(activation)
                if op is None:
                    raise ValueError(f"layer {i}: activation {activation} not supported in ONNX")
                nodes.append(helper.make_node(op[0], [out], [f"act{i}"], **op[1]))
                out = f"act{i}"
            current = out
        elif kind in POOL:
            before = layer["padding"] // 2
            after = layer["padding"] - before   # Darknet puts the odd pixel right/bottom
            out = f"pool{i}"
            nodes.append(helper.make_node("MaxPool", [current], [out], kernel_shape=[layer["size"]] * 2,
                                          strides=[layer["stride"]] * 2, pads=[before, before, after, after]))
            current = out
        elif kind == "route":
            sources = [names[j] for j in layer["sources"]]
            if layer["groups"] > 1:
                sliced = []
                for k, (j, source) in enumerate(zip(layer["sources"], sources)):
                    part = layers[j]["out"][0] // layer["groups"]
                    bounds = [np.array([v], np.int64) for v in (part * layer["group_id"], part * (layer["group_id"] + 1), 1)]
                    initializers += [numpy_helper.from_array(v, f"slice{i}_{k}_{what}")
                                     for v, what in zip(bounds, ("start", "end", "axis"))]
                    sliced.append(f"slice{i}_{k}")
                    nodes.append(helper.make_node("Slice", [source, f"slice{i}_{k}_start", f"slice{i}_{k}_end",
                                                            f"slice{i}_{k}_axis"], [sliced[-1]]))
                sources = sliced
            if len(sources) == 1:
                current = sources[0]
            else:
                current = f"route{i}"
                nodes.append(helper.make_node("Concat", sources, [current], axis=1))
        elif kind == "shortcut":
            out = f"shortcut{i}"
            nodes.append(helper.make_node("Add", [current, names[layer["sources"][1]]], [out]))
            current = out
        elif kind == "upsample":
            s = layer["stride"]
            initializers.append(numpy_helper.from_array(np.array([1, 1, s, s], np.float32), f"scales{i}"))
            out = f"upsample{i}"
            nodes.append(helper.make_node("Resize", [current, "", f"scales{i}"], [out], mode="nearest",
                                          coordinate_transformation_mode="asymmetric", nearest_mode="floor"))
            current = out
        elif kind == "yolo":
            outputs.append(helper.make_tensor_value_info(current, TensorProto.FLOAT, [1, *layer["in"]]))
        names.append(current)
    graph = helper.make_graph(nodes, "darknet", [helper.make_tensor_value_info(
        "input", TensorProto.FLOAT, [1, channels, size, size])], outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def letterbox(image_bgr, size):
    """Darknet's letterbox geometry (aspect kept, integer division, centred on 0.5 grey) as a
    1x3xSxS float32 RGB blob in [0, 1]. The resize is OpenCV's bilinear, so values differ a
    little from Darknet's own resize; latency does not depend on them."""
    import cv2
    height, width = image_bgr.shape[:2]
    if size / width < size / height:
        new_w, new_h = size, height * size // width
    else:
        new_w, new_h = width * size // height, size
    resized = cv2.resize(image_bgr, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    canvas = np.full((size, size, 3), 0.5, np.float32)
    top, left = (size - new_h) // 2, (size - new_w) // 2
    canvas[top:top + new_h, left:left + new_w] = resized[:, :, ::-1].astype(np.float32) / 255.0
    return np.ascontiguousarray(canvas.transpose(2, 0, 1)[None])
