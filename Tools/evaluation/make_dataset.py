#!/usr/bin/env python3
"""Builds the labelled validation set the map/valid/recall tests score (test tooling).

    make_dataset.py SAMPLES_DIR COCO_NAMES OUT_DIR

From Darknet's sample photos and hand_labels.txt (boxes drawn by eye), writes OUT_DIR/:
  images/NAME.png, NAME.txt         each photo as PNG (lossless, so every decoder reads the same
                                    pixels) with its YOLO labels;
  images/NAME-mirror.png, .txt      mirrored left to right, every third box perturbed (moved by 12%
                                    of its width, 15% lower), so IoUs spread around the thresholds;
  images/NAME-small.png, .txt       scaled to 55% (small objects get smaller);
  images/sky.png, sky.txt           a crop of kite.jpg's sky: an image without objects (empty file);
  difficult/NAME*.txt               the boxes marked difficult, line for line with valid.txt;
  eval.data, valid.txt, difficult.txt
Extra truths: a toothbrush (class 79, which no photo shows) on dog.png, a class the detector never
finds; person-mirror's horse box stretched past the left edge (a label outside the image).
Images go through ffmpeg (scale, hflip, crop); labels are written with six decimals.
"""
import os
import subprocess
import sys

SIZES = {}


def ffmpeg(args):
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y"] + args, check=True)


def image_size(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                          "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout.strip()
    w, h = out.split(",")
    return int(w), int(h)


def yolo(box, width, height):
    c, left, top, right, bottom = box
    return "%d %.6f %.6f %.6f %.6f\n" % (c, (left + right) / 2 / width, (top + bottom) / 2 / height,
                                         (right - left) / width, (bottom - top) / height)


def main():
    samples, names, out = sys.argv[1:4]
    here = os.path.dirname(os.path.abspath(__file__))
    boxes = {}
    for line in open(os.path.join(here, "hand_labels.txt")):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        photo = fields[0]
        c, left, top, right, bottom = (int(v) for v in fields[1:6])
        boxes.setdefault(photo, []).append(((c, left, top, right, bottom), len(fields) > 6 and fields[6] == "difficult"))
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    os.makedirs(os.path.join(out, "difficult"), exist_ok=True)
    entries = []  # (stem, width, height, boxes, difficult boxes)

    for photo in sorted(boxes):
        stem = photo.rsplit(".", 1)[0]
        source = os.path.join(samples, photo)
        width, height = image_size(source)
        plain = [b for b, hard in boxes[photo] if not hard]
        hard = [b for b, hard in boxes[photo] if hard]
        if stem == "dog":
            plain.append((79, 430, 130, 470, 150))
        ffmpeg(["-i", source, os.path.join(out, "images", stem + ".png")])
        entries.append((stem, width, height, plain, hard))

        def mirror(b):
            c, left, top, right, bottom = b
            return (c, width - right, top, width - left, bottom)
        mirrored = []
        for i, b in enumerate(mirror(b) for b in plain):
            if i % 3 == 2:
                c, left, top, right, bottom = b
                dx, dy = 0.12 * (right - left), 0.15 * (bottom - top)
                b = (c, left + dx, top + dy, right + dx, bottom + dy)
            mirrored.append(b)
        if stem == "person":
            mirrored = [(c, l - 100, t, r, bm) if c == 17 else (c, l, t, r, bm) for c, l, t, r, bm in mirrored]
        ffmpeg(["-i", source, "-vf", "hflip", os.path.join(out, "images", stem + "-mirror.png")])
        entries.append((stem + "-mirror", width, height, mirrored, [mirror(b) for b in hard]))

        small_w, small_h = round(width * 0.55), round(height * 0.55)
        ffmpeg(["-i", source, "-vf", "scale=%d:%d:flags=area" % (small_w, small_h), os.path.join(out, "images", stem + "-small.png")])
        def scale(b):
            c, left, top, right, bottom = b
            return (c, left * small_w / width, top * small_h / height, right * small_w / width, bottom * small_h / height)
        entries.append((stem + "-small", small_w, small_h, [scale(b) for b in plain], [scale(b) for b in hard]))

    ffmpeg(["-i", os.path.join(samples, "kite.jpg"), "-vf", "crop=652:300:700:0", os.path.join(out, "images", "sky.png")])
    entries.append(("sky", 652, 300, [], []))

    valid, difficult = [], []
    for stem, width, height, plain, hard in entries:
        with open(os.path.join(out, "images", stem + ".txt"), "w") as f:
            f.writelines(yolo(b, width, height) for b in plain)
        with open(os.path.join(out, "difficult", stem + ".txt"), "w") as f:
            f.writelines(yolo(b, width, height) for b in hard)
        valid.append(os.path.join(out, "images", stem + ".png"))
        difficult.append(os.path.join(out, "difficult", stem + ".png"))
    with open(os.path.join(out, "valid.txt"), "w") as f:
        f.write("\n".join(valid) + "\n")
    with open(os.path.join(out, "difficult.txt"), "w") as f:
        f.write("\n".join(difficult) + "\n")
    with open(os.path.join(out, "eval.data"), "w") as f:
        f.write("classes = 80\nnames = %s\nvalid = %s\ndifficult = %s\neval = coco\nresults = %s\n"
                % (os.path.abspath(names), os.path.join(out, "valid.txt"), os.path.join(out, "difficult.txt"),
                   os.path.join(out, "results")))


if __name__ == "__main__":
    main()
