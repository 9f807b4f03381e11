"""Frigate's ZMQ detector client (frigate/detectors/plugins/zmq_ipc.py) against a swift-darknet
server: a REQ socket, each request two frames (a JSON header with shape, dtype and model_type,
then the tensor's bytes in C order), each reply decoded as the plugin decodes it.

    frigate_zmq_client.py ENDPOINT IMAGE SIZE OUTDIR

Good requests: the photo resized to SIZE x SIZE (what Frigate sends: NHWC uint8), the same as
NCHW, as float32 in 0..1, and a 300x200 tensor (not the network's size: letterboxed). Each
tensor's pixels are saved as OUTDIR/NAME.png so the test can run `swift-darknet detect` on them.
Bad requests: a wrong dtype, a shape that is not an image, a byte count that does not match, a
header that is not JSON, one frame, three frames. Prints one JSON line per request: {"name",
"frames": count, "header": the reply's first frame, "detections": 20x6 rows or null}.
"""
import json
import os
import sys

import numpy as np
import zmq
from PIL import Image


def decode_response(frames):
    """zmq_ipc.py's _decode_response, without its zero fallback: None where it would use it."""
    try:
        if len(frames) == 1:
            buf = frames[0]
            if len(buf) != 20 * 6 * 4:
                return None
            return np.frombuffer(buf, dtype=np.float32).reshape((20, 6))
        if len(frames) >= 2:
            header = json.loads(frames[0].decode("utf-8"))
            shape = tuple(header.get("shape", []))
            dtype = np.dtype(header.get("dtype", "float32"))
            return np.frombuffer(frames[1], dtype=dtype).reshape(shape)
        return None
    except Exception:  # noqa: BLE001 - the plugin catches everything here too
        return None


def main():
    endpoint, image_path, size, outdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    context = zmq.Context()
    socket = context.socket(zmq.REQ)
    socket.setsockopt(zmq.RCVTIMEO, 60000)
    socket.setsockopt(zmq.SNDTIMEO, 60000)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(endpoint)

    photo = Image.open(image_path).convert("RGB")
    square = np.asarray(photo.resize((size, size)), dtype=np.uint8)
    wide = np.asarray(photo.resize((300, 200)), dtype=np.uint8)
    Image.fromarray(square).save(os.path.join(outdir, "square.png"))
    Image.fromarray(wide).save(os.path.join(outdir, "wide.png"))

    def header(tensor, model_type="yolo-generic"):
        return json.dumps({"shape": list(tensor.shape), "dtype": str(tensor.dtype.name), "model_type": model_type}).encode("utf-8")

    nhwc = square[np.newaxis]
    requests = [
        ("nhwc", "square.png", [header(nhwc), nhwc.tobytes(order="C")]),
        ("nchw", "square.png", [header(nhwc.transpose(0, 3, 1, 2)), np.ascontiguousarray(nhwc.transpose(0, 3, 1, 2)).tobytes()]),
        ("float32", "square.png", [header(nhwc.astype(np.float32) / 255), (nhwc.astype(np.float32) / 255).tobytes()]),
        ("letterboxed", "wide.png", [header(wide[np.newaxis]), wide[np.newaxis].tobytes()]),
        ("bad dtype", None, [json.dumps({"shape": list(nhwc.shape), "dtype": "int16"}).encode(), nhwc.tobytes()]),
        ("bad shape", None, [json.dumps({"shape": [1, size, size, 4], "dtype": "uint8"}).encode(), nhwc.tobytes()]),
        ("bad byte count", None, [header(nhwc), nhwc.tobytes()[:-1]]),
        ("bad header", None, [b"{not json", nhwc.tobytes()]),
        ("one frame", None, [nhwc.tobytes()]),
        ("three frames", None, [header(nhwc), nhwc.tobytes(), b"extra"]),
        ("nhwc again", "square.png", [header(nhwc), nhwc.tobytes(order="C")]),
    ]
    for name, png, frames in requests:
        socket.send_multipart(frames)
        reply = socket.recv_multipart()
        detections = decode_response(reply)
        print(json.dumps({"name": name, "png": png and os.path.join(outdir, png), "frames": len(reply),
                          "header": reply[0].decode("utf-8", "replace"),
                          "detections": None if detections is None or detections.shape != (20, 6) else detections.tolist()}),
              flush=True)
    socket.close()
    context.term()


if __name__ == "__main__":
    main()
