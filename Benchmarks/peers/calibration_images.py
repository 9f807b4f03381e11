#!/usr/bin/env python3
"""A calibration folder for int8 quantization, made from photos that are not Darknet's samples.

Usage: python Benchmarks/peers/calibration_images.py --source DIR [--source DIR ...] --out DIR
           [--per-image 5] [--seed 1]

Every image in the source folders (jpg/png; Darknet's seven sample images dog, eagle, giraffe,
horses, kite, person and scream are refused, so calibration never sees the evaluation set) gives
--per-image pictures: the image itself, its mirror image, and seeded random crops (40-90 % of
each side) and rescales (0.5x, 1.5x), written as PNG. The consumer letterboxes them as Darknet
does (darknet_model.letterbox), so crops and rescales change what the network sees, not only
the pixels.

Photos that ship in a package are one source, e.g. scikit-image's bundled data
(skimage/data: astronaut, chelsea, coffee, motorcycle_left/right, rocket, camera, ...; with
scikit-image installed: --source "$(python -c 'import skimage, os; print(os.path.join(os.path.dirname(skimage.__file__), "data"))')").
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True

DARKNET_SAMPLES = {"dog", "eagle", "giraffe", "horses", "kite", "person", "scream"}
EXTENSIONS = (".jpg", ".jpeg", ".png")


def source_images(folders):
    """Sorted paths of the usable images in `folders`; exits on a Darknet sample image."""
    import cv2
    paths = []
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            stem, extension = os.path.splitext(name)
            if extension.lower() not in EXTENSIONS:
                continue
            if stem.lower() in DARKNET_SAMPLES:
                sys.exit(f"{os.path.join(folder, name)}: one of Darknet's sample images (the evaluation set); "
                         "calibrate on other images")
            image = cv2.imread(os.path.join(folder, name), cv2.IMREAD_COLOR)
            if image is None or min(image.shape[:2]) < 64:
                continue  # unreadable or too small to crop
            paths.append(os.path.join(folder, name))
    return paths


def variants(image, count, rng):
    """The image, its mirror image, then random crops and rescales, `count` in all."""
    import cv2
    result = [image, image[:, ::-1]]
    height, width = image.shape[:2]
    while len(result) < count:
        kind = len(result) % 3
        if kind == 2:
            factor = (0.5, 1.5)[int(rng.integers(2))]
            result.append(cv2.resize(image, (max(1, int(width * factor)), max(1, int(height * factor))),
                                     interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR))
        else:
            crop_h, crop_w = int(height * rng.uniform(0.4, 0.9)), int(width * rng.uniform(0.4, 0.9))
            top, left = int(rng.integers(0, height - crop_h + 1)), int(rng.integers(0, width - crop_w + 1))
            crop = image[top:top + crop_h, left:left + crop_w]
            result.append(crop[:, ::-1] if rng.integers(2) else crop)
    return result[:count]


def main():
    ap = argparse.ArgumentParser(description="Calibration images (crops, flips, rescales) from non-sample photos.")
    ap.add_argument("--source", action="append", required=True, help="folder of photos (repeatable)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-image", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    import cv2
    import numpy as np
    rng = np.random.default_rng(a.seed)
    paths = source_images(a.source)
    if not paths:
        sys.exit("no usable images in " + ", ".join(a.source))
    os.makedirs(a.out, exist_ok=True)
    written = 0
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        for index, picture in enumerate(variants(image, a.per_image, rng)):
            cv2.imwrite(os.path.join(a.out, f"{stem}-{index}.png"), np.ascontiguousarray(picture))
            written += 1
    print(f"{written} calibration images from {len(paths)} photos in {a.out}")


if __name__ == "__main__":
    main()
