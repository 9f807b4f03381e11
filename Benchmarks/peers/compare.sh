#!/usr/bin/env bash
# Peer comparison, round-robin, at 1 and 2 threads, for YOLOv3-tiny (real weights) and YOLOv3 at
# 416 (seeded random weights): SwiftDarknet in float and int8, ONNX Runtime in float and int8,
# OpenVINO in f32 and in its default precision, and OpenCV DNN.
#
#   Benchmarks/peers/compare.sh                       # the README's table (every system)
#   Benchmarks/peers/compare.sh --rounds 9 --runs 5   # extra compare.py options are passed on
#   Benchmarks/peers/compare.sh --systems ours,ort    # a subset
#
# The int8 systems calibrate on Weights/calibration (scikit-image's photos, not Darknet's sample
# images; --calibrate DIR picks another folder): SwiftDarknet writes its sidecar once, ONNX
# Runtime quantizes the same ONNX graph with quantize_static.
#
# Environment: PEERS_VENV (default ~/.cache/swiftdarknet-peers-venv) is created on first use
# with opencv-python-headless<5 (5.x dropped readNetFromDarknet), numpy, onnx, onnxruntime, openvino;
# SKIP_BUILD=1 skips `swift build -c release`; BUILD_PATH=DIR builds there (--scratch-path) instead
# of .build; MODELS="tiny" or "yolov3" runs only one network, MODELS="v4tiny" AlexeyAB's YOLOv4-tiny
# (random weights; not in the default "tiny yolov3").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
venv="${PEERS_VENV:-$HOME/.cache/swiftdarknet-peers-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'opencv-python-headless<5' numpy onnx onnxruntime openvino
fi
"$venv/bin/python" -c 'import openvino' 2> /dev/null || "$venv/bin/pip" install --quiet openvino
build="${BUILD_PATH:-$root/.build}"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release --scratch-path "$build" --product darknet-bench
    swift build -c release --scratch-path "$build" --product swift-darknet
fi
binaries=(--bench "$build/release/darknet-bench" --cli "$build/release/swift-darknet")
defaults=(--systems ours,ours-bf16,ours-int8,ours-int8-all,ort,ort-int8,openvino,openvino-default,openvino-int8,opencv --calibrate Weights/calibration)
for file in Weights/darknet/cfg/yolov3-tiny.cfg Weights/darknet/cfg/yolov3.cfg Weights/yolov3-tiny.weights \
            Weights/darknet/data/dog.jpg Weights/calibration; do
    [ -e "$file" ] || { echo "missing $file: run Weights/fetch.sh (or scripts/setup.sh)" >&2; exit 1; }
done
models="${MODELS:-tiny yolov3}"
for model in $models; do
    case "$model" in
        tiny) "$venv/bin/python" Benchmarks/peers/compare.py --cfg Weights/darknet/cfg/yolov3-tiny.cfg \
                  --weights Weights/yolov3-tiny.weights --size 416 --threads 1,2 --check "${binaries[@]}" "${defaults[@]}" "$@" ;;
        yolov3) "$venv/bin/python" Benchmarks/peers/compare.py --cfg Weights/darknet/cfg/yolov3.cfg \
                  --random --seed 1 --size 416 --threads 1,2 --check "${binaries[@]}" "${defaults[@]}" "$@" ;;
        v4tiny) "$venv/bin/python" Benchmarks/peers/compare.py --cfg Weights/alexeyab/yolov4-tiny.cfg \
                  --random --seed 1 --size 416 --threads 1,2 --check "${binaries[@]}" "${defaults[@]}" "$@" ;;
        *) echo "unknown model $model (tiny, yolov3, v4tiny)" >&2; exit 1 ;;
    esac
    echo
done
