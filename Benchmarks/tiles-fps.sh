#!/usr/bin/env bash
# Frames per second of `swift-darknet video` with and without --tiles auto, on 1080p and 4K
# clips (FRAMES frames panning over dog.jpg, H.264), YOLOv3-tiny (real weights) and YOLOv4-tiny
# (random weights from Tools/make-alexeyab-fixtures.sh, speed only: run at --thresh 0.999, since
# at 0.5 its thousands of random boxes make the run a benchmark of NMS). Release build; the runs of
# each round are interleaved and the table shows each configuration's median over the rounds.
#   Benchmarks/tiles-fps.sh [ROUNDS] [THREADS] [FRAMES]      (default 3 rounds, 2 threads, 60 frames)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
threads=${2:-2}
frames=${3:-60}
tool=.build/release/swift-darknet
[ -x "$tool" ] || swift build -c release --product swift-darknet >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in 1080p:1920:1080 4k:3840:2160; do
    IFS=: read -r name width height <<< "$size"
    ffmpeg -nostdin -loglevel error -y -loop 1 -framerate 30 -i Weights/darknet/data/dog.jpg \
        -vf "scale=$((2 * width)):-2,crop=$width:$height:'min(n*$((width / 120)),iw-$width)':(ih-$height)/2" \
        -frames:v "$frames" -r 30 -c:v libx264 -preset fast -pix_fmt yuv420p "$work/$name.mp4"
done
networks=("YOLOv3-tiny:Weights/darknet/cfg/yolov3-tiny.cfg:Weights/yolov3-tiny.weights:0.5"
          "YOLOv4-tiny:Weights/alexeyab/yolov4-tiny.cfg:Fixtures/generated/alexeyab/yolov4-tiny/yolov4-tiny.weights:0.999")
for round in $(seq "$rounds"); do
    for network in "${networks[@]}"; do
        IFS=: read -r label cfg weights thresh <<< "$network"
        for clip in 1080p 4k; do
            for tiles in off auto; do
                extra=()
                [ "$tiles" = auto ] && extra=(--tiles auto)
                fps=$("$tool" video --cfg "$cfg" --weights "$weights" --thresh "$thresh" --every --json --threads "$threads" "${extra[@]}" \
                      "$work/$clip.mp4" 2>&1 >/dev/null | sed -nE 's/.*processed ([0-9.]+) fps.*/\1/p')
                echo "$label $clip $tiles $fps" >> "$work/runs.txt"
                echo "round $round: $label $clip tiles=$tiles: $fps fps" >&2
            done
        done
    done
done
echo "| network | frame | no tiles (fps) | --tiles auto (fps) | passes a frame |"
echo "|---|---|---|---|---|"
for network in "${networks[@]}"; do
    label=${network%%:*}
    for clip in 1080p 4k; do
        median() { grep "^$label $clip $1 " "$work/runs.txt" | awk '{print $4}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
        passes=$([ "$clip" = 1080p ] && echo "1 + 5x3" || echo "1 + 9x5")
        echo "| $label | $clip | $(median off) | $(median auto) | $passes |"
    done
done
