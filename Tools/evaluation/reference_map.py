#!/usr/bin/env python3
"""Independent references for swift-darknet's `map` scoring (test tooling, not the library).

Reads a scoring input (JSON, written by Tests/DarknetEvaluationTests):
    {"classes": K, "iou_thresh": "0.5", "thresh": "0.25", "points": [0, 11, 101],
     "images": [{"width": W, "height": H,
                 "truths": [[class, "x", "y", "w", "h"], ...],      # relative, float32 as text
                 "difficult": [[class, "x", "y", "w", "h"], ...],
                 "detections": [[class, "prob", "x", "y", "w", "h"], ...]}]}   # Darknet's order
and prints (JSON) what two references compute on it:
  - "alexeyab": a literal transcription of AlexeyAB's validate_detector_map (src/detector.c):
    float32 box_iou, the per-image matching, the qsort ranking (stable: glibc's merge sort),
    the pr[class][rank] table over every rank, and its AP loops for each -points value;
  - "coco": pycocotools' COCOeval (iouType bbox) on the same boxes in pixels, skipped when there
    are no detections (loadRes cannot take an empty list) or no truths.
"""
import contextlib
import io
import json
import sys

import numpy as np

f32 = np.float32


def box_iou(a, b):
    """AlexeyAB's box_iou (box.c) in float32: 0 when the intersection or the union is 0."""
    def overlap(x1, w1, x2, w2):
        l1 = x1 - w1 / f32(2)
        l2 = x2 - w2 / f32(2)
        left = l1 if l1 > l2 else l2
        r1 = x1 + w1 / f32(2)
        r2 = x2 + w2 / f32(2)
        right = r1 if r1 < r2 else r2
        return right - left
    w = overlap(a[0], a[2], b[0], b[2])
    h = overlap(a[1], a[3], b[1], b[3])
    i = f32(0) if (w < 0 or h < 0) else w * h
    u = a[2] * a[3] + b[2] * b[3] - i
    if i == 0 or u == 0:
        return f32(0)
    return i / u


def parse_box(values):
    return tuple(f32(float(v)) for v in values)


def alexeyab(data):
    classes = data["classes"]
    iou_thresh = f32(float(data["iou_thresh"]))
    thresh_calc_avg_iou = f32(float(data["thresh"]))
    detections = []  # dicts: p, class_id, truth_flag, unique_truth_index
    truth_classes_count = [0] * classes
    unique_truth_count = 0
    avg_iou = f32(0)
    tp_for_thresh = fp_for_thresh = 0
    tp_per_class = [0] * classes
    fp_per_class = [0] * classes
    for image in data["images"]:
        truth = [(t[0], parse_box(t[1:])) for t in image["truths"]]
        truth_dif = [(t[0], parse_box(t[1:])) for t in image["difficult"]]
        for t in truth:
            truth_classes_count[t[0]] += 1
        checkpoint = len(detections)
        for det in image["detections"]:
            class_id, prob, bbox = det[0], f32(float(det[1])), parse_box(det[2:])
            if not prob > 0:
                continue
            truth_index, max_iou = -1, f32(0)
            for j, (t_class, t_box) in enumerate(truth):
                current_iou = box_iou(bbox, t_box)
                if current_iou > iou_thresh and class_id == t_class:
                    if current_iou > max_iou:
                        max_iou = current_iou
                        truth_index = unique_truth_count + j
            entry = {"p": prob, "class_id": class_id, "truth_flag": 1 if truth_index > -1 else 0,
                     "unique_truth_index": truth_index}
            detections.append(entry)
            if truth_index == -1:
                for t_class, t_box in truth_dif:
                    if box_iou(bbox, t_box) > iou_thresh and class_id == t_class:
                        detections.pop()
                        break
            if prob > thresh_calc_avg_iou:
                found = any(d["unique_truth_index"] == truth_index for d in detections[checkpoint:len(detections) - 1])
                if truth_index > -1 and not found:
                    avg_iou += max_iou
                    tp_for_thresh += 1
                    tp_per_class[class_id] += 1
                else:
                    fp_for_thresh += 1
                    fp_per_class[class_id] += 1
        unique_truth_count += len(truth)
    if tp_for_thresh + fp_for_thresh > 0:
        avg_iou = avg_iou / f32(tp_for_thresh + fp_for_thresh)

    # qsort with detections_comparator; glibc's qsort is a merge sort here: stable.
    detections.sort(key=lambda d: -float(d["p"]))
    count = len(detections)
    tp = [[0] * count for _ in range(classes)]
    fp = [[0] * count for _ in range(classes)]
    precision = [[0.0] * count for _ in range(classes)]
    recall = [[0.0] * count for _ in range(classes)]
    truth_flags = [0] * unique_truth_count
    for rank, d in enumerate(detections):
        if rank > 0:
            for c in range(classes):
                tp[c][rank] = tp[c][rank - 1]
                fp[c][rank] = fp[c][rank - 1]
        c = d["class_id"]
        if d["truth_flag"] == 1 and truth_flags[d["unique_truth_index"]] == 0:
            truth_flags[d["unique_truth_index"]] = 1
            tp[c][rank] += 1
        else:
            fp[c][rank] += 1
        for i in range(classes):
            t, f = tp[i][rank], fp[i][rank]
            fn = truth_classes_count[i] - t
            precision[i][rank] = t / (t + f) if t + f > 0 else 0.0
            recall[i][rank] = t / (t + fn) if t + fn > 0 else 0.0

    result = {"ap": {}, "map": {}}
    for points in data["points"]:
        aps = []
        for i in range(classes):
            ap = 0.0
            if count == 0:
                pass  # AlexeyAB reads pr[i][-1] here; the library reports 0
            elif points == 0:
                last_recall, last_precision = recall[i][count - 1], precision[i][count - 1]
                for rank in range(count - 2, -1, -1):
                    delta_recall = last_recall - recall[i][rank]
                    last_recall = recall[i][rank]
                    if precision[i][rank] > last_precision:
                        last_precision = precision[i][rank]
                    ap += delta_recall * last_precision
                ap += (last_recall - 0) * last_precision
            else:
                for point in range(points):
                    cur_recall = point * 1.0 / (points - 1)
                    cur_precision = 0.0
                    for rank in range(count):
                        if recall[i][rank] >= cur_recall and precision[i][rank] > cur_precision:
                            cur_precision = precision[i][rank]
                    ap += cur_precision
                ap = ap / points
            aps.append(ap)
        mean = 0.0
        for ap in aps:
            mean += ap
        result["ap"][str(points)] = aps
        result["map"][str(points)] = mean / classes
    result.update({"detections_count": count, "unique_truth_count": unique_truth_count,
                   "tp": tp_for_thresh, "fp": fp_for_thresh, "tp_per_class": tp_per_class, "fp_per_class": fp_per_class,
                   "average_iou": float(avg_iou)})
    return result


def pixel_box(box, width, height):
    x, y, w, h = (float(v) for v in box)
    return [(x - w / 2) * width, (y - h / 2) * height, w * width, h * height]


def coco(data):
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    classes = data["classes"]
    images, annotations, results = [], [], []
    for index, image in enumerate(data["images"]):
        image_id = index + 1
        images.append({"id": image_id, "width": image["width"], "height": image["height"]})
        for t in image["truths"]:
            bbox = pixel_box(parse_box(t[1:]), image["width"], image["height"])
            annotations.append({"id": len(annotations) + 1, "image_id": image_id, "category_id": t[0] + 1, "bbox": bbox,
                                "area": bbox[2] * bbox[3], "iscrowd": 0})
        for d in image["detections"]:
            prob = f32(float(d[1]))
            if prob > 0:
                results.append({"image_id": image_id, "category_id": d[0] + 1, "score": float(prob),
                                "bbox": pixel_box(parse_box(d[2:]), image["width"], image["height"])})
    if not results or not annotations:
        return None
    with contextlib.redirect_stdout(io.StringIO()):
        truth = COCO()
        truth.dataset = {"images": images, "annotations": annotations,
                         "categories": [{"id": c + 1, "name": str(c)} for c in range(classes)]}
        truth.createIndex()
        evaluation = COCOeval(truth, truth.loadRes(results), "bbox")
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    precision = evaluation.eval["precision"][:, :, :, 0, 2]  # [iou, recall, class], area all, 100 detections
    per_class = []
    for c in range(classes):
        values = precision[:, :, c]
        per_class.append(float(np.mean(values)) if (values > -1).any() else None)
    return {"map": float(evaluation.stats[0]), "ap": per_class}


def main():
    data = json.load(open(sys.argv[1]))
    print(json.dumps({"alexeyab": alexeyab(data), "coco": coco(data)}))


if __name__ == "__main__":
    main()
