#!/usr/bin/env bash
# Runs `swift-darknet info` (release build) many times in a row, half of them with another
# process keeping a core busy, and fails if any run does not exit 0: a library must never crash
# its host, at exit included (a BLAS probe still running when exit handlers ran once did). Then
# a tenth as many `detect` runs on a malformed cfg, which fail fast (status 1) right after the
# library starts loading: the other moment a background thread could outlive the process.
#
#   ./scripts/exit-check.sh [RUNS]        default 10000 (CI runs fewer: see .ci/run)
#
# Environment: EXIT_CHECK_SCRATCH (build directory, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000}
scratch=${EXIT_CHECK_SCRATCH:-$PWD/.build}
cfg=Weights/darknet/cfg/yolov3-tiny.cfg
[ -f "$cfg" ] || bash Weights/fetch.sh

if ! swift build -c release --product swift-darknet --scratch-path "$scratch" > "$scratch/exit-check-build.log" 2>&1; then
    tail -40 "$scratch/exit-check-build.log" >&2
    echo "exit-check: build failed" >&2
    exit 1
fi
binary="$scratch/release/swift-darknet"

bad_cfg="$scratch/exit-check-malformed.cfg"
printf '[net]\nwidth=416\nheight=416\nchannels=3\n[convolutional]\nfilters=oops\n' > "$bad_cfg"

# One batch of COUNT runs of `info` (or, with `fail-fast`, of the malformed detect); prints how
# many did not exit as expected and the statuses seen.
batch() {
    local count=$1 mode=${2:-info} failures=0 status expected=0
    [ "$mode" = fail-fast ] && expected=1
    declare -A seen=()
    for ((i = 0; i < count; i++)); do
        status=0
        if [ "$mode" = fail-fast ]; then
            "$binary" detect --cfg "$bad_cfg" --weights Weights/yolov3-tiny.weights Weights/darknet/data/dog.jpg \
                > /dev/null 2> "$scratch/exit-check-stderr.txt" || status=$?
        else
            "$binary" info --cfg "$cfg" > /dev/null 2> "$scratch/exit-check-stderr.txt" || status=$?
        fi
        if [ "$status" != "$expected" ]; then
            failures=$((failures + 1))
            seen[$status]=$(( ${seen[$status]:-0} + 1 ))
            [ "$failures" -le 3 ] && { echo "exit-check: run $i exited $status:" >&2; cat "$scratch/exit-check-stderr.txt" >&2; }
        fi
    done
    echo "$failures ${!seen[*]}"
}

start=$(date +%s)
quiet=$((runs / 2)) busy=$((runs - runs / 2))
read -r quiet_failures quiet_statuses <<< "$(batch "$quiet")"
# A busy core: the case where a probe on another thread could still be running at exit.
( while :; do :; done ) &
spinner=$!
trap 'kill "$spinner" 2>/dev/null || true' EXIT
read -r busy_failures busy_statuses <<< "$(batch "$busy")"
fast=$((runs / 10))
read -r fast_failures fast_statuses <<< "$(batch "$fast" fail-fast)"
kill "$spinner" 2>/dev/null || true
echo "exit-check: info: $quiet runs quiet, $quiet_failures failed${quiet_statuses:+ (statuses $quiet_statuses)};" \
     "$busy runs with a core busy, $busy_failures failed${busy_statuses:+ (statuses $busy_statuses)};" \
     "detect on a malformed cfg: $fast runs with a core busy, $fast_failures failed${fast_statuses:+ (statuses $fast_statuses)};" \
     "$(( $(date +%s) - start )) s"
[ "$quiet_failures" = 0 ] && [ "$busy_failures" = 0 ] && [ "$fast_failures" = 0 ]
