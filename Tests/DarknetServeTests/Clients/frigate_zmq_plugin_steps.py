"""Frigate's ZMQ detector as Frigate runs it since September 2025 (frigate/detectors/plugins/zmq_ipc.py),
step by step against a swift-darknet server: the model handshake, tensors, a timeout that resets the
socket, and the handshake again.

    frigate_zmq_plugin_steps.py ENDPOINT MODEL_PATH IMAGE SIZE OUTDIR [HANDSHAKE_MS] [REQUEST_MS]

The plugin's steps, written here from its behaviour:
- a REQ socket with RCVTIMEO and SNDTIMEO of request_timeout_ms (200 by default; REQUEST_MS here,
  since the test server is a debug build on a shared machine) and LINGER 0;
- first a one-frame {"model_request": true, "model_name": basename(MODEL_PATH)}, its reply read with a
  30 s timeout (HANDSHAKE_MS); a one-frame JSON reply with model_available and model_loaded true means
  ready; available but not loaded is a failure; not available sends [{"model_data": true, "model_name"},
  the file's bytes] and reads {"model_saved", "model_loaded"} with the same 30 s timeout; any other reply
  is a failure;
- then tensors: [{"shape", "dtype", "model_type"}, the NHWC uint8 bytes], the reply decoded as 20x6 rows;
- a request that times out (zmq.Again) closes the socket, opens a new one and repeats the handshake.

The photo resized to SIZE x SIZE is saved as OUTDIR/tensor.png so the test can run `swift-darknet
detect` on the same pixels. Prints one JSON line per step: handshakes {"step", "frames", "replies",
"ready"}, tensors {"step", "detections"} (null unless a 20x6 reply), the forced timeout {"step",
"timed_out"}.
"""
import json
import os
import sys

import numpy as np
import zmq
from PIL import Image


class PluginSteps:
    def __init__(self, endpoint, model_path, handshake_ms, request_ms):
        self.context = zmq.Context()
        self.endpoint, self.model_path = endpoint, model_path
        self.handshake_ms, self.request_ms = handshake_ms, request_ms
        self.socket = None
        self.reset()

    def reset(self):
        if self.socket is not None:
            self.socket.close(linger=0)
        self.socket = self.context.socket(zmq.REQ)
        self.socket.setsockopt(zmq.RCVTIMEO, self.request_ms)
        self.socket.setsockopt(zmq.SNDTIMEO, self.request_ms)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.connect(self.endpoint)

    def ask(self, frames):
        """Sends frames and reads the reply with the handshake's long timeout; None on a timeout."""
        self.socket.send_multipart(frames)
        self.socket.setsockopt(zmq.RCVTIMEO, self.handshake_ms)
        try:
            return self.socket.recv_multipart()
        except zmq.Again:
            return None
        finally:
            self.socket.setsockopt(zmq.RCVTIMEO, self.request_ms)

    def handshake(self, step):
        name = os.path.basename(self.model_path)
        replies, ready = [], False
        reply = self.ask([json.dumps({"model_request": True, "model_name": name}).encode("utf-8")])
        if reply is not None and len(reply) == 1:
            answer = json.loads(reply[0].decode("utf-8"))
            replies.append(answer)
            if answer.get("model_available", False):
                ready = bool(answer.get("model_loaded", False))
            else:
                with open(self.model_path, "rb") as model:
                    data = model.read()
                reply = self.ask([json.dumps({"model_data": True, "model_name": name}).encode("utf-8"), data])
                if reply is not None and len(reply) == 1:
                    answer = json.loads(reply[0].decode("utf-8"))
                    replies.append(answer)
                    ready = bool(answer.get("model_saved", False) and answer.get("model_loaded", False))
        print(json.dumps({"step": step, "frames": None if reply is None else len(reply), "replies": replies, "ready": ready}), flush=True)
        if reply is None:
            self.reset()  # a REQ socket that sent and got nothing cannot send again
        return ready

    def detect(self, tensor):
        header = json.dumps({"shape": list(tensor.shape), "dtype": tensor.dtype.name, "model_type": "yolo-generic"}).encode("utf-8")
        self.socket.send_multipart([header, tensor.tobytes(order="C")])
        frames = self.socket.recv_multipart()
        if len(frames) >= 2:
            reply = json.loads(frames[0].decode("utf-8"))
            rows = np.frombuffer(frames[1], dtype=np.dtype(reply.get("dtype", "float32")))
            if reply.get("shape") == [20, 6] and rows.size == 120:
                return rows.reshape((20, 6)).tolist()
        return None


def main():
    endpoint, model_path, image_path, size, outdir = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    handshake_ms = int(sys.argv[6]) if len(sys.argv) > 6 else 30000
    request_ms = int(sys.argv[7]) if len(sys.argv) > 7 else 200
    square = np.asarray(Image.open(image_path).convert("RGB").resize((size, size)), dtype=np.uint8)
    Image.fromarray(square).save(os.path.join(outdir, "tensor.png"))
    tensor = square[np.newaxis]

    client = PluginSteps(endpoint, model_path, handshake_ms, request_ms)
    if not client.handshake("handshake"):
        return
    print(json.dumps({"step": "tensor", "detections": client.detect(tensor)}), flush=True)
    # A reply later than the timeout: the plugin resets its socket and shakes hands again.
    client.socket.setsockopt(zmq.RCVTIMEO, 1)
    try:
        client.detect(tensor)
        print(json.dumps({"step": "timeout", "timed_out": False}), flush=True)
    except zmq.Again:
        print(json.dumps({"step": "timeout", "timed_out": True}), flush=True)
        client.reset()
    if client.handshake("handshake after reset"):
        print(json.dumps({"step": "tensor after reset", "detections": client.detect(tensor)}), flush=True)
    client.socket.close(linger=0)
    client.context.term()


if __name__ == "__main__":
    main()
