"""Makes Frigate's ZmqIpcDetector as Frigate would and asks it for detections of one photo.

    drive.py ENDPOINT MODEL_PATH IMAGE SIZE REQUEST_TIMEOUT_MS TENSOR_PNG
"""
import json
import logging
import sys
import time

import numpy as np
from PIL import Image

from frigate.detectors.detector_config import ModelConfig
from frigate.detectors.plugins.zmq_ipc import ZmqDetectorConfig, ZmqIpcDetector

logging.basicConfig(level=logging.INFO, format="plugin %(levelname)s: %(message)s", stream=sys.stdout)
endpoint, model_path, image, size, timeout_ms, png = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
config = ZmqDetectorConfig(type="zmq", endpoint=endpoint, request_timeout_ms=timeout_ms,
                           model=ModelConfig(path=model_path, width=size, height=size))
start = time.time()
detector = ZmqIpcDetector(config)
print(json.dumps({"model_ready": detector._model_ready, "handshake_seconds": round(time.time() - start, 3)}))
tensor = np.asarray(Image.open(image).convert("RGB").resize((size, size)), dtype=np.uint8)
Image.fromarray(tensor).save(png)
for attempt in range(2):
    rows = np.asarray(detector.detect_raw(tensor[np.newaxis]))
    print(json.dumps({"detection": attempt, "rows": [[round(float(v), 4) for v in row] for row in rows if row[1] > 0]}))
