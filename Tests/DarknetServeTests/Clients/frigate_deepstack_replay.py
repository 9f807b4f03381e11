"""Frigate's DeepStack detector plugin (frigate/detectors/plugins/deepstack.py) replayed against a
swift-darknet server: the same request and the same walk over the response.

    frigate_deepstack_replay.py PORT LABELS IMAGE SIZE OUTDIR

Frigate hands the plugin the region it wants searched, already resized to the model's input
(SIZE x SIZE, RGB, uint8, [1, H, W, 3]); the plugin squeezes it, encodes it as JPEG with
Pillow's defaults, posts it as the form file "image" with the form field "api_key", then walks the
predictions in order into a 20x6 array [label index, confidence, y_min/h, x_min/w, y_max/h,
x_max/w], stopping at the first prediction below 0.4 or with a label outside its label map
("truck" counts as "car"). The JPEG is written to OUTDIR/frame.jpg, so the test can run
`swift-darknet detect` on the very bytes the server saw. Prints {"jpeg", "width", "height",
"detections": 20 rows}.

The timeout is 60 s, not Frigate's 0.1 s default: the test server is a debug build on a shared
machine. Everything else is the plugin's.
"""
import io
import json
import os
import sys

import numpy as np
import requests
from PIL import Image


def frigate_tensor(path, size):
    """What Frigate passes a detector: the frame region resized to the model input, NHWC uint8."""
    image = Image.open(path).convert("RGB").resize((size, size))
    return np.asarray(image, dtype=np.uint8)[np.newaxis]


def label_index(labels, label_value):
    if label_value.lower() == "truck":
        label_value = "car"
    for index, value in labels.items():
        if value == label_value.lower():
            return index
    return -1


def main():
    port, labels_path, image_path, size, outdir = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    with open(labels_path) as names:
        labels = {index: line.strip() for index, line in enumerate(names) if line.strip()}
    tensor_input = frigate_tensor(image_path, size)

    image_data = np.squeeze(tensor_input).astype(np.uint8)
    image = Image.fromarray(image_data)
    w, h = image.size
    with io.BytesIO() as output:
        image.save(output, format="JPEG")
        image_bytes = output.getvalue()
    jpeg = os.path.join(outdir, "frame.jpg")
    with open(jpeg, "wb") as file:
        file.write(image_bytes)
    response = requests.post(f"http://127.0.0.1:{port}/v1/vision/detection", data={"api_key": ""},
                             files={"image": image_bytes}, timeout=60)
    response_json = response.json()
    detections = np.zeros((20, 6), np.float32)
    if response_json.get("predictions") is None:
        print(json.dumps({"error": response_json}))
        return
    for i, detection in enumerate(response_json.get("predictions")):
        if detection["confidence"] < 0.4:
            break
        label = label_index(labels, detection["label"])
        if label < 0:
            break
        detections[i] = [label, float(detection["confidence"]), detection["y_min"] / h, detection["x_min"] / w,
                         detection["y_max"] / h, detection["x_max"] / w]
    print(json.dumps({"jpeg": jpeg, "width": w, "height": h, "detections": detections.tolist()}))


if __name__ == "__main__":
    main()
