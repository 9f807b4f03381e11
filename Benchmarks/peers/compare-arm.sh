#!/usr/bin/env bash
# The peer comparison for a machine we do not have (a Raspberry Pi 5, a Graviton, any aarch64
# Linux; it runs the same on x86-64): SwiftDarknet float and int8, ONNX Runtime float and int8,
# ncnn with fp32 options and with its defaults (fp16 on ARMv8.2), on YOLOv3-tiny (real weights)
# and YOLOv4-tiny (seeded random weights) at 416, 1 thread and all cores, interleaved; prints
# the README's table at the end and keeps everything in a log file to send back.
#
#   scripts/setup.sh                       # once: system libraries and Weights/ (needs apt-get)
#   Benchmarks/peers/compare-arm.sh        # builds in release, runs (~10-20 min on a Pi 5)
#   Benchmarks/peers/compare-arm.sh --rounds 1 --runs 5    # a quick try; options go to compare.py
#
# A sibling of compare.sh rather than a mode of it: a venv of its own (ncnn and pnnx instead of
# OpenVINO, whose wheels this does not need), other networks, and all cores instead of 2.
#
# Environment: PEERS_ARM_VENV (default ~/.cache/swiftdarknet-arm-peers-venv), created on first
# use with opencv-python-headless<5 (letterbox only), numpy, onnx, onnxruntime, ncnn, and pnnx
# with --no-deps (its wheel lists torch, which only its Python API uses; we run its binary);
# SKIP_BUILD=1 skips `swift build -c release`; BUILD_PATH=DIR builds there instead of .build;
# THREADS (default "1,N", N = the CPUs this process may use: `taskset -c 4-7 ...` on a
# big.LITTLE board keeps every run, and the 1-thread pin, on the big cores); MODELS="v3tiny"
# or "v4tiny" runs one network; LOG=FILE names the log (default peers-arm-HOST-DATE.txt here).
#
# Run it on an otherwise idle machine: ncnn's OpenMP threads (libgomp) spin at every barrier, so
# when another process takes a core its all-core forwards stretch several-fold (on the 2-core
# VM with two other jobs: 742 ms at 2 threads against 136 ms with OMP_WAIT_POLICY=passive). If
# ncnn's CPU time per forward at N threads is far above its 1-thread time, the machine was busy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
venv="${PEERS_ARM_VENV:-$HOME/.cache/swiftdarknet-arm-peers-venv}"
if ! "$venv/bin/python" -c 'import cv2, numpy, onnx, onnxruntime, ncnn, importlib.util as u; assert u.find_spec("pnnx")' 2> /dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'opencv-python-headless<5' numpy onnx onnxruntime ncnn
    "$venv/bin/pip" install --quiet --no-deps pnnx
fi
for file in Weights/darknet/cfg/yolov3-tiny.cfg Weights/yolov3-tiny.weights Weights/alexeyab/yolov4-tiny.cfg \
            Weights/darknet/data/dog.jpg Weights/calibration; do
    [ -e "$file" ] || { echo "missing $file: run scripts/setup.sh (or Weights/fetch.sh)" >&2; exit 1; }
done
build="${BUILD_PATH:-$root/.build}"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release --scratch-path "$build" --product darknet-bench
    swift build -c release --scratch-path "$build" --product swift-darknet
fi
cpus="$(nproc)"
threads="${THREADS:-$([ "$cpus" -gt 1 ] && echo "1,$cpus" || echo 1)}"
log="${LOG:-$root/peers-arm-$(hostname -s 2> /dev/null || echo host)-$(date -u +%Y%m%d-%H%M).txt}"
exec > >(tee "$log") 2>&1

cpu_model() {
    local model
    model="$(lscpu 2> /dev/null | sed -n 's/^Model name:[[:space:]]*//p' | sort -u | paste -sd '+' -)"
    [ -r /proc/device-tree/model ] && model="$(tr -d '\0' < /proc/device-tree/model) ($model)"
    echo "${model:-unknown}"
}
echo "# compare-arm.sh at $(git rev-parse --short HEAD 2> /dev/null || echo '?')$(git diff --quiet 2> /dev/null || echo ' (modified)'), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# machine: $(uname -m), $(cpu_model), $cpus CPUs usable ($(getconf _NPROCESSORS_ONLN) online), $(free -m | awk '/^Mem:/ {print $2}') MB, kernel $(uname -r)"
echo "# CPU flags: $(grep -m1 -E '^(Features|flags)' /proc/cpuinfo | cut -d: -f2 | tr ' ' '\n' | grep -E -x 'asimdhp|asimddp|i8mm|bf16|sve|sve2|avx2|avx512f|avx512_vnni|avx_vnni|fma' | paste -sd ' ' -)"
echo "# $("$venv/bin/python" -c 'import sys, numpy, onnxruntime, ncnn; from importlib.metadata import version; pnnx = version("pnnx"); print(f"Python {sys.version.split()[0]}, numpy {numpy.__version__}, onnxruntime {onnxruntime.__version__}, ncnn {ncnn.__version__}, pnnx {pnnx}")')"
echo "# $(swift --version 2>&1 | head -1)"
echo "# threads $threads; OMP_WAIT_POLICY ${OMP_WAIT_POLICY:-unset} (ncnn's OpenMP); log $log"
echo

common=(--size 416 --threads "$threads" --check --json --interleave --rounds 3 --runs 8 --warmup 2
        --bench "$build/release/darknet-bench" --cli "$build/release/swift-darknet"
        --systems ours,ours-int8,ort,ort-int8,ncnn,ncnn-default --calibrate Weights/calibration)
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
for model in ${MODELS:-v3tiny v4tiny}; do
    case "$model" in
        v3tiny) network=(--cfg Weights/darknet/cfg/yolov3-tiny.cfg --weights Weights/yolov3-tiny.weights) ;;
        v4tiny) network=(--cfg Weights/alexeyab/yolov4-tiny.cfg --random --seed 1) ;;
        *) echo "unknown model $model (v3tiny, v4tiny)" >&2; exit 1 ;;
    esac
    "$venv/bin/python" Benchmarks/peers/compare.py "${network[@]}" "${common[@]}" "$@" | tee -a "$output"
    echo
done
echo "Medians (ms) of every timed forward, interleaved; bold: the fastest of the row."
"$venv/bin/python" Benchmarks/peers/table.py "$output"
echo
echo "# done at $(date -u '+%H:%M UTC'); please send $log"
