#!/usr/bin/env bash
# Peer comparison: SwiftDarknet vs ONNX Runtime vs OpenCV DNN, round-robin, at 1 and 2 threads,
# for YOLOv3-tiny (real weights) and YOLOv3 at 416 (seeded random weights).
#
#   Benchmarks/peers/compare.sh [extra compare.py options, e.g. --rounds 9 --runs 5]
#   Benchmarks/peers/compare.sh --systems ours,ort,ort-int8 --calibrate DIR   # + ONNX Runtime int8
#
# ort-int8 quantizes the same ONNX graph with ONNX Runtime's quantize_static, calibrated on the
# images in DIR (not Darknet's sample images: calibration_images.py makes such a folder from
# other photos, with crops, flips and rescales).
#
# Environment: PEERS_VENV (default ~/.cache/swiftdarknet-peers-venv) is created on first use
# with opencv-python-headless<5 (5.x dropped readNetFromDarknet), numpy, onnx, onnxruntime;
# SKIP_BUILD=1 skips `swift build -c release`; BUILD_PATH=DIR builds there (--scratch-path) instead
# of .build; MODELS="tiny" or "yolov3" runs only one network.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
venv="${PEERS_VENV:-$HOME/.cache/swiftdarknet-peers-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'opencv-python-headless<5' numpy onnx onnxruntime
fi
build="${BUILD_PATH:-$root/.build}"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release --scratch-path "$build" --product darknet-bench
    swift build -c release --scratch-path "$build" --product swift-darknet
fi
binaries=(--bench "$build/release/darknet-bench" --cli "$build/release/swift-darknet")
for file in Weights/darknet/cfg/yolov3-tiny.cfg Weights/darknet/cfg/yolov3.cfg Weights/yolov3-tiny.weights \
            Weights/darknet/data/dog.jpg; do
    [ -e "$file" ] || { echo "missing $file: run Weights/fetch.sh (or scripts/setup.sh)" >&2; exit 1; }
done
models="${MODELS:-tiny yolov3}"
for model in $models; do
    case "$model" in
        tiny) "$venv/bin/python" Benchmarks/peers/compare.py --cfg Weights/darknet/cfg/yolov3-tiny.cfg \
                  --weights Weights/yolov3-tiny.weights --size 416 --threads 1,2 --check "${binaries[@]}" "$@" ;;
        yolov3) "$venv/bin/python" Benchmarks/peers/compare.py --cfg Weights/darknet/cfg/yolov3.cfg \
                  --random --seed 1 --size 416 --threads 1,2 --check "${binaries[@]}" "$@" ;;
        *) echo "unknown model $model (tiny, yolov3)" >&2; exit 1 ;;
    esac
    echo
done
