#!/usr/bin/env bash
# The demo: detects objects in Darknet's dog.jpg with the real YOLOv3-tiny weights and
# writes an annotated PNG.
#   ./scripts/demo.sh [IMAGE...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product swift-darknet
images=("$@")
[ ${#images[@]} -gt 0 ] || images=(Weights/darknet/data/dog.jpg)
mkdir -p predictions
.build/release/swift-darknet detect \
    --cfg Weights/darknet/cfg/yolov3-tiny.cfg \
    --weights Weights/yolov3-tiny.weights \
    --names Weights/darknet/data/coco.names \
    --out predictions "${images[@]}"
echo "annotated image(s) written to predictions/"
