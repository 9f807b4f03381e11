"""AlexeyAB's detection post-processing in NumPy (developer tooling for the reference data):
get_yolo_detections with new_coords, get_gaussian_yolo_detections (yolo_point, the
uncertainty-weighted probability), correct_yolo_boxes with letterboxing, and do_nms_sort /
diounms_sort (greedynms, diounms) chosen by the last [yolo] layer's nms_kind, as in
AlexeyAB's detector.c. Input: the [yolo] layers' outputs."""
import math

import numpy as np

import darknet_numpy as dn


def head_predictions(output, o, coords, thresh):
    """The predictions of a [yolo]-style head whose objectness passes thresh, in AlexeyAB's
    order (cell, then anchor): (row, col, anchor index, objectness, the entries' floats,
    class scores last), with the head's classes. coords: the entries before objectness
    (4 for [yolo], 8 for [Gaussian_yolo])."""
    classes = int(o.get("classes", 20))
    num = int(o.get("num", 1))
    mask = dn.ints(o["mask"]) if "mask" in o else list(range(num))
    c, h, w = output.shape
    y = output.reshape(len(mask), classes + coords + 1, h, w)
    for cell in range(h * w):
        row, col = divmod(cell, w)
        for n, a in enumerate(mask):
            objectness = float(y[n, coords, row, col])
            if objectness <= thresh:
                continue
            yield row, col, a, objectness, [float(v) for v in y[n, :, row, col]]


def class_probabilities(objectness, scores, thresh, certainty=1.0):
    """objectness * score * certainty per class, 0 where not above thresh (times 1.0 is
    exact: [yolo]'s objectness * score)."""
    probs = []
    for score in scores:
        p = objectness * score * certainty
        probs.append(p if p > thresh else 0.0)
    return probs


def yolo_candidates(output, o, netw, neth, thresh):
    anchors = dn.floats(o["anchors"])
    new_coords = int(o.get("new_coords", 0))
    c, h, w = output.shape
    found = []
    for row, col, a, objectness, v in head_predictions(output, o, 4, thresh):
        tx, ty, tw, th = v[:4]
        if new_coords:
            bw = tw * tw * 4 * anchors[2 * a] / netw
            bh = th * th * 4 * anchors[2 * a + 1] / neth
        else:
            bw = math.exp(tw) * anchors[2 * a] / netw
            bh = math.exp(th) * anchors[2 * a + 1] / neth
        box = [(col + tx) / w, (row + ty) / h, bw, bh]
        found.append({"box": box, "objectness": objectness, "probs": class_probabilities(objectness, v[5:], thresh)})
    return found


def gaussian_yolo_candidates(output, o, netw, neth, thresh):
    """get_gaussian_yolo_detections: the box from the four means, the probability
    objectness * class score * (1 - the mean of the four sigmas)."""
    biases = dn.anchors(o, int(o.get("num", 1)), "Gaussian_yolo")
    point = o.get("yolo_point", "center")
    c, h, w = output.shape
    found = []
    for row, col, a, objectness, v in head_predictions(output, o, 8, thresh):
        bw = math.exp(v[4]) * biases[2 * a] / netw
        bh = math.exp(v[6]) * biases[2 * a + 1] / neth
        bx, by = (col + v[0]) / w, (row + v[2]) / h
        if point == "left_top":
            bx, by = bx + bw / 2, by + bh / 2
        elif point == "right_bottom":
            bx, by = bx - bw / 2, by - bh / 2
        sigmas = [v[1], v[3], v[5], v[7]]
        certainty = 1 - sum(sigmas) / 4
        found.append({"box": [bx, by, bw, bh], "objectness": objectness,
                      "probs": class_probabilities(objectness, v[9:], thresh, certainty), "uncertainty": sigmas})
    return found


def correct_letterbox(candidates, imw, imh, netw, neth):
    if netw / imw < neth / imh:
        new_w, new_h = netw, (imh * netw) // imw
    else:
        new_h, new_w = neth, (imw * neth) // imh
    for d in candidates:
        x, y, w, h = d["box"]
        d["box"] = [(x - (netw - new_w) / 2 / netw) / (new_w / netw), (y - (neth - new_h) / 2 / neth) / (new_h / neth),
                    w * netw / new_w, h * neth / new_h]


def overlaps(a, boxes, kind, beta):
    """IoU (AlexeyAB's box_iou: 0 when the intersection or union is 0) or DIoU of box `a`
    with every row of `boxes` (x, y, w, h)."""
    def overlap(x1, w1, x2, w2):
        return np.minimum(x1 + w1 / 2, x2 + w2 / 2) - np.maximum(x1 - w1 / 2, x2 - w2 / 2)
    x, y, w, h = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    ow, oh = overlap(a[0], a[2], x, w), overlap(a[1], a[3], y, h)
    inter = np.where((ow < 0) | (oh < 0), 0.0, ow * oh)
    union = a[2] * a[3] + w * h - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where((inter == 0) | (union == 0), 0.0, inter / union)
    if kind == "default":
        return iou
    power = 0.6 if kind == "greedynms" else beta
    cw = np.maximum(a[0] + a[2] / 2, x + w / 2) - np.minimum(a[0] - a[2] / 2, x - w / 2)
    ch = np.maximum(a[1] + a[3] / 2, y + h / 2) - np.minimum(a[1] - a[3] / 2, y - h / 2)
    c = cw * cw + ch * ch
    d = (a[0] - x) ** 2 + (a[1] - y) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(c == 0, iou, iou - (d / c) ** power)


def nms(candidates, classes, thresh, kind, beta):
    """do_nms_sort / diounms_sort: zero-objectness boxes swapped to the end and dropped; per
    class a stable sort by probability, then every later box overlapping a kept one by more
    than `thresh` loses that class."""
    order = list(candidates)
    last = len(order) - 1
    i = 0
    while i <= last:
        if order[i]["objectness"] == 0:
            order[i], order[last] = order[last], order[i]
            last -= 1
        else:
            i += 1
    kept = order[:last + 1]
    if not kept:
        return kept
    boxes = np.array([d["box"] for d in kept])
    probs = np.array([d["probs"] for d in kept])
    position = np.arange(len(kept))  # position -> candidate
    for k in range(classes):
        position = position[np.argsort(-probs[position, k], kind="stable")]
        nonzero = [p for p in position if probs[p, k] != 0]
        for a_index, a in enumerate(nonzero):
            if probs[a, k] == 0:
                continue
            later = np.array(nonzero[a_index + 1:], dtype=int)
            if later.size:
                hit = later[overlaps(boxes[a], boxes[later], kind, beta) > thresh]
                probs[hit, k] = 0
    result = []
    for p in position:
        d = dict(kept[p])
        d["probs"] = list(probs[p])
        result.append(d)
    return result


def detections(sections, outputs, imw, imh, thresh=0.5, nms_thresh=0.45):
    """[{class, prob, x, y, w, h}] in print order, from the [yolo] outputs {index: CHW}."""
    net = sections[0][1]
    netw, neth = int(net["width"]), int(net["height"])
    found, last = [], None
    for index, (kind, o, _) in enumerate(sections[1:]):
        if kind == "yolo":
            found += yolo_candidates(outputs[index], o, netw, neth, thresh)
            last = o
        elif kind == "Gaussian_yolo":
            found += gaussian_yolo_candidates(outputs[index], o, netw, neth, thresh)
            last = o
    correct_letterbox(found, imw, imh, netw, neth)
    classes = int(last.get("classes", 20))
    kept = nms(found, classes, nms_thresh, last.get("nms_kind", "default"), float(last.get("beta_nms", 0.6)))
    result = []
    for d in kept:
        for k, p in enumerate(d["probs"]):
            if p > thresh:
                entry = {"class": k, "prob": p, "x": d["box"][0], "y": d["box"][1], "w": d["box"][2], "h": d["box"][3]}
                if "uncertainty" in d:
                    entry["uncertainty"] = d["uncertainty"]
                result.append(entry)
    return result
