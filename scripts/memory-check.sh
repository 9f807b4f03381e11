#!/usr/bin/env bash
# Runs YOLOv3-tiny detection 200 times in one process (Benchmarks/memory-check, release build)
# and fails if its resident memory grows by more than 4 MB after the first 5 runs.
#
#   ./scripts/memory-check.sh [memory-check options]     e.g. --runs 500 --limit-mb 2
#
# Environment: MEMORY_CHECK_SCRATCH (build directory, default .build: the release build sits
# beside the debug one without disturbing it).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${MEMORY_CHECK_SCRATCH:-$PWD/.build}

[ -f Weights/darknet/cfg/yolov3-tiny.cfg ] && [ -f Weights/yolov3-tiny.weights ] || bash Weights/fetch.sh

start=$(date +%s)
if ! swift build -c release --product memory-check --scratch-path "$scratch" > "$scratch/memory-check-build.log" 2>&1; then
    tail -40 "$scratch/memory-check-build.log" >&2
    echo "memory-check: build failed" >&2
    exit 1
fi
built=$(( $(date +%s) - start ))
status=0
"$scratch/release/memory-check" --root "$PWD" "$@" || status=$?
echo "memory-check: build ${built} s, total $(( $(date +%s) - start )) s"
exit "$status"
