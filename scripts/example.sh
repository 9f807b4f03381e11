#!/usr/bin/env bash
# Builds Examples/DetectApp (a package of its own that depends on this one by path) in release,
# as an app would be, and runs its three modes on YOLOv3-tiny: a photo to JSON, a video made by
# ffmpeg frame by frame, and the model "hosted" at file:// URLs, downloaded into a cache on the
# first run and loaded from it on the second (no network).
#   ./scripts/example.sh
# Needs the weights (Weights/fetch.sh) and ffmpeg (scripts/setup.sh --fixtures installs both).
# Prints one `example:` line per step with its time; exits 1 on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
fail() { echo "example: failed: $*" >&2; exit 1; }
cfg=$root/Weights/darknet/cfg/yolov3-tiny.cfg
weights=$root/Weights/yolov3-tiny.weights
names=$root/Weights/darknet/data/coco.names
dog=$root/Weights/darknet/data/dog.jpg
for f in "$cfg" "$weights" "$names" "$dog"; do [ -f "$f" ] || fail "$f is missing: run Weights/fetch.sh"; done
command -v ffmpeg > /dev/null || fail "ffmpeg is needed for the video (apt-get install ffmpeg)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$SECONDS
# Its own .build beside its Package.swift: the first release build compiles SwiftDarknet too.
# The app's source is touched so that its warnings show in every build, not only the first.
touch Examples/DetectApp/Sources/DetectApp/DetectApp.swift
(cd Examples/DetectApp && swift build -c release > "$work/build.log" 2>&1) || { tail -40 "$work/build.log" >&2; fail "the release build"; }
grep -E "warning:" "$work/build.log" | grep "Examples/DetectApp/" >&2 && fail "the example's own code gives warnings (above)"
echo "example: release build in $((SECONDS - start)) s"
app=$root/Examples/DetectApp/.build/release/DetectApp

step=$SECONDS
"$app" photo "$cfg" "$weights" "$names" "$dog" > "$work/photo.json" || fail "photo"
python3 - "$work/photo.json" <<'PY' || fail "photo: unexpected JSON (above)"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
photo = json.loads(lines[0])
assert (photo["width"], photo["height"]) == (768, 576), photo
labels = sorted(d["label"] for d in photo["detections"])
assert "dog" in labels and "bicycle" in labels, labels
PY
echo "example: photo: $(python3 -c 'import json,sys; print(", ".join(d["label"] for d in json.load(open(sys.argv[1]))["detections"]))' "$work/photo.json") ($((SECONDS - step)) s)"

step=$SECONDS
ffmpeg -loglevel error -loop 1 -i "$dog" -vf "crop=640:480:x=16*n:y=48,format=yuv420p" -frames:v 5 -r 10 -c:v libx264 "$work/pan.mp4" \
    || fail "ffmpeg could not make the clip"
"$app" video "$cfg" "$weights" "$names" "$work/pan.mp4" > "$work/video.jsonl" || fail "video"
python3 - "$work/video.jsonl" <<'PY' || fail "video: unexpected JSON lines (above)"
import json, sys
frames = [json.loads(line) for line in open(sys.argv[1]).read().splitlines()]
assert [f["frame"] for f in frames] == list(range(5)), [f["frame"] for f in frames]
assert all(any(d["label"] == "dog" for d in f["detections"]) for f in frames), frames
PY
echo "example: video: 5 frames, a dog in each ($((SECONDS - step)) s)"

step=$SECONDS
digest=$(sha256sum "$weights" | cut -d' ' -f1)
cache=$work/cache
"$app" hosted "file://$cfg" "file://$weights" "file://$names" "$digest" "$cache" "$dog" > "$work/hosted.json" 2> "$work/hosted.err" \
    || { cat "$work/hosted.err" >&2; fail "hosted, first run"; }
grep -q "DetectApp: downloaded " "$work/hosted.err" || { cat "$work/hosted.err" >&2; fail "hosted: the first run did not download"; }
cmp -s "$work/hosted.json" "$work/photo.json" || fail "hosted: other detections than the photo's"
# The second run: from the cache, even with the URLs gone.
"$app" hosted "file://$work/gone.cfg" "file://$work/gone.weights" "file://$work/gone.names" "$digest" "$cache" "$dog" \
    > /dev/null 2> "$work/hosted.err" && fail "hosted: other URLs should be another model, not the cache"
"$app" hosted "file://$cfg" "file://$weights" "file://$names" "$digest" "$cache" "$dog" > "$work/hosted2.json" 2> "$work/hosted.err" \
    || { cat "$work/hosted.err" >&2; fail "hosted, second run"; }
grep -q "DetectApp: cached " "$work/hosted.err" || { cat "$work/hosted.err" >&2; fail "hosted: the second run did not use the cache"; }
cmp -s "$work/hosted2.json" "$work/photo.json" || fail "hosted: the cached model detects differently"
# A malformed digest is refused before anything is read.
if "$app" hosted "file://$cfg" "file://$weights" "file://$names" "xyz" "$work/cache2" "$dog" > /dev/null 2> "$work/hosted.err"; then
    fail "hosted: a malformed SHA-256 was accepted"
fi
grep -q "'sha256': invalid value 'xyz', expected 64 hex digits" "$work/hosted.err" || { cat "$work/hosted.err" >&2; fail "hosted: not the ArgumentError"; }
[ ! -e "$work/cache2" ] || fail "hosted: a cache was made for a malformed SHA-256"
echo "example: hosted: downloaded into the cache, then loaded from it; a malformed SHA-256 refused ($((SECONDS - step)) s)"
echo "example: all done in $((SECONDS - start)) s"
