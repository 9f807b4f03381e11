#!/usr/bin/env bash
# Checks the benchmark executables' contracts (issue 4) on YOLOv3-tiny, release build: that
# `darknet-bench --json` prints exactly one JSON line with every documented key and sane values,
# that `darknet-bench --serve` answers one line per forward, that `--batch --json` prints one line
# with its documented keys, that `--video --json` (on a 20-frame clip ffmpeg makes) prints one
# line with its documented keys and reads a capture device, that a classifier and networks whose input is not an image are
# timed, and that `darknet-microbench` runs.
# Timings are not judged here (see Benchmarks/README.md): only that the tools work.
#
# Environment: BENCH_CHECK_SCRATCH (build directory, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${BENCH_CHECK_SCRATCH:-$PWD/.build}
cfg=Weights/darknet/cfg/yolov3-tiny.cfg
weights=Weights/yolov3-tiny.weights
[ -f "$cfg" ] && [ -f "$weights" ] || bash Weights/fetch.sh

start=$(date +%s)
for product in darknet-bench darknet-microbench; do
    if ! swift build -c release --product "$product" --scratch-path "$scratch" > "$scratch/bench-check-build.log" 2>&1; then
        tail -40 "$scratch/bench-check-build.log" >&2
        echo "bench-check: building $product failed" >&2
        exit 1
    fi
done
bench="$scratch/release/darknet-bench"

json=$("$bench" --cfg "$cfg" --weights "$weights" --threads 2 --runs 3 --warmup 1 --json)
serve=$(printf 'forward\nforward\n' | "$bench" --cfg "$cfg" --weights "$weights" --threads 2 --warmup 1 --serve)
python3 - "$json" "$serve" <<'EOF'
import json, sys
lines = sys.argv[1].splitlines()
assert len(lines) == 1, f"--json printed {len(lines)} lines, expected exactly 1"
report = json.loads(lines[0])
for key in ("cfg", "size", "threads", "runs", "load_ms", "median_ms", "min_ms", "max_ms", "gflops",
            "detect_median_ms", "peak_rss_mb"):
    assert key in report, f"--json lacks {key}"
assert report["size"] == 416 and report["threads"] == 2 and report["runs"] == 3, report
assert 0 < report["min_ms"] <= report["median_ms"] <= report["max_ms"], report
assert len(report["forward_ms"]) == 3 and report["gflops"] > 0 and report["peak_rss_mb"] > 0, report
assert abs(sum(report["load_phases_ms"].values()) - report["load_ms"]) < 0.05 * report["load_ms"] + 1, report

replies = [json.loads(line) for line in sys.argv[2].splitlines()]
assert len(replies) == 4, f"--serve answered {len(replies)} lines for 2 forwards, expected 4"
assert replies[0]["ready"] and replies[0]["load_ms"] > 0, replies[0]
assert all(reply["forward_ms"] > 0 and reply["forward_cpu_ms"] > 0 for reply in replies[1:3]), replies
assert replies[3]["peak_rss_mb"] > 0, replies[3]
print(f"bench-check: --json and --serve OK (tiny, 2 threads: median {report['median_ms']:.1f} ms, "
      f"load {report['load_ms']:.1f} ms)")
EOF
batch=$("$bench" --cfg "$cfg" --weights "$weights" --batch Weights/darknet/data --threads 2 --runs 2 --warmup 0 --json)
python3 - "$batch" <<'EOF'
import json, sys
lines = sys.argv[1].splitlines()
assert len(lines) == 1, f"--batch --json printed {len(lines)} lines, expected exactly 1"
report = json.loads(lines[0])
for key in ("batch", "cfg", "size", "images", "threads", "passes", "look_ahead", "sequential_images_per_s",
            "overlapped_images_per_s", "parallel_images_per_s", "ceiling_images_per_s", "forward_median_ms",
            "prepare_median_ms", "blas"):
    assert key in report, f"--batch --json lacks {key}"
assert report["images"] == 7 and report["threads"] == 2 and report["passes"] == 2, report
assert min(report["sequential_images_per_s"], report["overlapped_images_per_s"], report["parallel_images_per_s"],
           report["ceiling_images_per_s"]) > 0, report
print(f"bench-check: --batch OK ({report['images']} images, 2 threads: {report['sequential_images_per_s']:.1f}, "
      f"{report['overlapped_images_per_s']:.1f} and, 2 at once, {report['parallel_images_per_s']:.1f} images/s)")
EOF
clip="$scratch/bench-check-clip.mp4"
ffmpeg -nostdin -loglevel error -y -loop 1 -i Weights/darknet/data/dog.jpg -vf scale=640:-2 -frames:v 20 -r 30 \
    -c:v libx264 -pix_fmt yuv420p "$clip"
video=$("$bench" --cfg "$cfg" --weights "$weights" --video "$clip" --threads 2 --json)
python3 - "$video" <<'EOF'
import json, sys
lines = sys.argv[1].splitlines()
assert len(lines) == 1, f"--video --json printed {len(lines)} lines, expected exactly 1"
report = json.loads(lines[0])
for key in ("video", "width", "height", "codec", "decode_frames", "decode_fps", "frames", "processed", "dropped",
            "end_to_end_fps", "forward_median_ms", "lag_p50_ms", "lag_p95_ms", "policy"):
    assert key in report, f"--video --json lacks {key}"
assert report["decode_frames"] == 20 and report["frames"] == 20 and report["processed"] == 20, report
assert report["codec"] == "h264" and report["width"] == 640 and report["policy"] == "every", report
assert min(report["decode_fps"], report["end_to_end_fps"], report["lag_p50_ms"]) > 0, report
print(f"bench-check: --video OK (decode {report['decode_fps']:.0f} fps, end to end {report['end_to_end_fps']:.1f} fps)")
EOF
# A capture device (libavdevice's lavfi input, as a camera's v4l2 would be) defaults to the latest
# frame, and an option the input does not have is refused by name.
device=$("$bench" --cfg "$cfg" --weights "$weights" --video "testsrc2=size=640x480:rate=30" --input-format lavfi \
    --frames 20 --json)
python3 - "$device" <<'EOF'
import json, sys
report = json.loads(sys.argv[1])
assert report["codec"] == "rawvideo" and report["width"] == 640 and report["policy"] == "latest", report
assert report["frames"] == 20 and report["processed"] >= 1 and report["processed"] + report["dropped"] == 20, report
print(f"bench-check: --video on a device OK (processed {report['processed']} of 20, policy latest)")
EOF
if refused=$("$bench" --cfg "$cfg" --weights "$weights" --video testsrc2 --input-format lavfi --input-option nosuch=1 2>&1); then
    echo "bench-check: --input-option nosuch=1 was accepted" >&2
    exit 1
fi
grep -q "lavfi has no option 'nosuch'" <<< "$refused" || { echo "bench-check: unexpected refusal: $refused" >&2; exit 1; }
# Networks without a detection head are timed as classifiers (the top 5 a Classifier reads), and an
# input that is not an RGB image (Go's 19x19 board, a recurrent network's vector) gets noise.
for network in darknet go rnn; do
    classifier=$("$bench" --cfg "Weights/darknet/cfg/$network.cfg" --random --runs 2 --warmup 1 --json)
    python3 - "$network" "$classifier" <<'EOF'
import json, sys
report = json.loads(sys.argv[2])
assert report["detect_median_ms"] is None and report["classify_median_ms"] > 0, report
assert 0 < report["median_ms"], report
print(f"bench-check: {sys.argv[1]}.cfg timed as a classifier ({report['classify_median_ms']:.1f} ms)")
EOF
done
if "$bench" --cfg "$cfg" --weights "$weights" --runs 1 --memory-limit 1 > /dev/null 2>&1; then
    echo "bench-check: --memory-limit 1 (MiB) planned YOLOv3-tiny" >&2
    exit 1
fi
if printf 'bogus\n' | "$bench" --cfg "$cfg" --weights "$weights" --warmup 1 --serve > /dev/null 2>&1; then
    echo "bench-check: --serve accepted an unknown command" >&2
    exit 1
fi
"$scratch/release/darknet-microbench" --cfg "$cfg" --filter "L4 " --runs 2 --threads 2 > "$scratch/bench-check-micro.txt"
grep -q "conv L4 winograd bands \*" "$scratch/bench-check-micro.txt" ||
    { cat "$scratch/bench-check-micro.txt" >&2; echo "bench-check: darknet-microbench output lacks the planned L4 path" >&2; exit 1; }
echo "bench-check: OK in $(( $(date +%s) - start )) s"
