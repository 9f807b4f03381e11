#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/, a package of its own) with AddressSanitizer and runs
# each for SECONDS (default 60). Fails on any crash, sanitizer report, leak, timeout or
# out-of-memory; prints executions per second and total executions per target.
#
#   ./scripts/fuzz.sh [SECONDS]
#   FUZZ_RUNS=1000000 ./scripts/fuzz.sh 7200   # stop each target after N executions instead
#   FUZZ_TARGETS="FuzzWeights FuzzVideo" ./scripts/fuzz.sh 7200   # run only these targets
#   FUZZ_JOBS=1 ./scripts/fuzz.sh   # one target at a time (default: as many at once as CPUs)
#
#   FuzzCfg      .cfg bytes -> parser, planner; small networks also run (random weights) and decode
#   FuzzWeights  .weights bytes -> loader against Fuzz/Seeds/cfg/small-*.cfg and yolov3-tiny.cfg;
#                small networks that load also run and decode
#   FuzzImage    image bytes (JPEG, PNG, BMP, TIFF, WebP, Netpbm, HEIC, AVIF) -> decoders (1 megapixel limit),
#                letterbox, PNG round trip
#   FuzzVideo    video file bytes -> VideoReader from memory (libavformat probing, libavcodec
#                decoding, 1 megapixel limit, at most 32 frames), letterbox
#   FuzzData     Darknet .data bytes -> DataFile (syntax, classes, names lookup)
#   FuzzServe    what swift-darknet serve parses: DeepStack multipart forms (DetectionRequest) and
#                Frigate ZMQ requests (TensorRequest, then the tensor's image)
#
# Seeds: Darknet's cfg files (Weights/darknet/cfg), the hand-made seeds in Fuzz/Seeds (with
# forms and ZMQ requests for FuzzServe, whose dictionary is Fuzz/serve.dict), the first
# 64 KiB of yolov3-tiny.weights and Darknet's label PNGs, copied into a fresh corpus per run;
# for FuzzVideo, tiny clips (H.264 MP4, MPEG-4 AVI, MJPEG AVI, VP8 WebM, MPEG-TS, GIF) that the
# ffmpeg command makes from dog.jpg.
# Environment: FUZZ_SCRATCH (build directory, default .build/fuzz), FUZZ_WORK (corpora, logs
# and crash artifacts, default .build/fuzz-work). A crash leaves its input in
# $FUZZ_WORK/artifacts; reproduce it with `$FUZZ_SCRATCH/release/<Target> <file>`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
# FUZZ_RUNS: stop each target after this many executions (SECONDS stays the upper bound).
runs_limit=${FUZZ_RUNS:-}
# FUZZ_TARGETS: the targets to run, in order (default: all).
targets=${FUZZ_TARGETS:-FuzzCfg FuzzWeights FuzzImage FuzzVideo FuzzData FuzzServe}
scratch=${FUZZ_SCRATCH:-$root/.build/fuzz}
work=${FUZZ_WORK:-$root/.build/fuzz-work}

log() { echo "fuzz: $*" >&2; }

[ -f Weights/darknet/cfg/yolov3-tiny.cfg ] && [ -f Weights/yolov3-tiny.weights ] || bash Weights/fetch.sh

rm -rf "$work"
mkdir -p "$work/artifacts"
start=$(date +%s)
log "building Fuzz/ (release, -sanitize=fuzzer,address)"
# Release (-O keeps Swift's overflow and bounds traps) runs 3 to 10 times as many inputs as debug.
# SwiftPM passes its sanitizers as separate -sanitize= flags in no fixed order and the compiler
# keeps only the last, so half the builds lost libFuzzer's coverage instrumentation; the
# -Xswiftc flag comes last and names both.
if ! swift build --package-path Fuzz -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
        --scratch-path "$scratch" > "$work/build.log" 2>&1; then
    grep -v "ld.gold: warning" "$work/build.log" | tail -40 >&2
    log "build failed (full log: $work/build.log)"
    exit 1
fi
bin=$scratch/release
log "built in $(( $(date +%s) - start )) s"

# Fresh corpora from the seeds.
mkdir -p "$work/corpus/cfg" "$work/corpus/weights" "$work/corpus/image" "$work/corpus/video" "$work/corpus/data" "$work/corpus/serve"
cp Weights/darknet/cfg/*.cfg Fuzz/Seeds/cfg/*.cfg "$work/corpus/cfg/"
cp Fuzz/Seeds/weights/* "$work/corpus/weights/"
head -c 65536 Weights/yolov3-tiny.weights > "$work/corpus/weights/yolov3-tiny-head.weights"
cp Fuzz/Seeds/image/* "$work/corpus/image/"
command -v ffmpeg >/dev/null || { log "ffmpeg is missing (./scripts/setup.sh --fixtures installs it)"; exit 1; }
clip() { ffmpeg -nostdin -loglevel error -y -loop 1 -i Weights/darknet/data/dog.jpg -vf scale=32:24 -frames:v 3 -r 10 "$@"; }
clip -c:v libx264 -pix_fmt yuv420p "$work/corpus/video/h264.mp4"
clip -c:v mpeg4 "$work/corpus/video/mpeg4.avi"
clip -c:v mjpeg "$work/corpus/video/mjpeg.avi"
clip -c:v libvpx "$work/corpus/video/vp8.webm"
clip -c:v mpeg2video -f mpegts "$work/corpus/video/mpeg2.ts"
clip "$work/corpus/video/anim.gif"
cp Fuzz/Seeds/video/* "$work/corpus/video/"   # inputs of past findings (see Fuzz/README.md)
cp Fuzz/Seeds/data/* "$work/corpus/data/"
cp Fuzz/Seeds/serve/* "$work/corpus/serve/"
find Weights/darknet/data/labels -name '*_0.png' | sort | sed -n '1,40p' | xargs -r cp -t "$work/corpus/image/"  # sed, not head: no SIGPIPE under pipefail

# Swift's own crash backtracer reads memory ASan has poisoned and buries the real report.
export SWIFT_BACKTRACE=enable=no
# Each target is one single-threaded process: FUZZ_JOBS of them (default: the CPU count) run at
# once, each for its whole SECONDS, and are judged in order when all are done.
jobs=${FUZZ_JOBS:-$(nproc)}
running=0
launched=()
# launch TARGET CORPUS MAX_LEN [LIBFUZZER OPTION...]
launch() {
    case " $targets " in *" $1 "*) ;; *) return 0 ;; esac
    local target=$1 corpus=$2 max_len=$3
    shift 3
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    log "$target: ${seconds} s${runs_limit:+ or $runs_limit runs}, -max_len=$max_len, $(ls "$corpus" | wc -l) seeds"
    # Seeds and newly found inputs go to the corpus directory; libFuzzer's own exit code says
    # whether it found anything (crash, sanitizer report, leak, timeout, rss limit).
    (
        status=0
        LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
        "$bin/$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=4096 -max_len="$max_len" \
            -timeout=30 -print_final_stats=1 -artifact_prefix="$work/artifacts/$target-" ${runs_limit:+-runs=$runs_limit} "$@" \
            > "$work/$target.log" 2>&1 || status=$?
        echo "$status" > "$work/$target.status"
    ) &
    running=$((running + 1))
    launched+=("$target")
}

failed=()
summary=()
# judge TARGET: its exit status and log, after it ended.
judge() {
    local target=$1 out="$work/$1.log" status runs rate
    status=$(cat "$work/$target.status" 2>/dev/null || echo 1)
    grep -q "inline 8-bit counters" "$out" || { log "$target is not instrumented for coverage"; status=1; }
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out" | tail -1)
    if [ "$status" != 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY: |Fatal error|runtime error" "$out"; then
        failed+=("$target")
        grep -E -A30 "ERROR: |Fatal error|runtime error|SUMMARY: " "$out" | head -60 >&2 || tail -40 "$out" >&2
        log "$target FAILED (exit $status); log $out; artifacts:"
        ls -l "$work/artifacts" | grep "$target-" >&2 || true
    fi
    summary+=("$(printf '%-12s %10s exec/s %12s execs  %s' "$target" "${rate:-?}" "${runs:-?}" "$([ "$status" = 0 ] && echo ok || echo FAILED)")")
}

launch FuzzCfg "$work/corpus/cfg" 16384 -dict=Fuzz/cfg.dict
launch FuzzWeights "$work/corpus/weights" 65536
launch FuzzImage "$work/corpus/image" 16384
launch FuzzVideo "$work/corpus/video" 16384
launch FuzzData "$work/corpus/data" 4096
launch FuzzServe "$work/corpus/serve" 16384 -dict=Fuzz/serve.dict
wait
for target in "${launched[@]}"; do judge "$target"; done

echo "fuzz summary (${seconds} s${runs_limit:+ or $runs_limit runs} per target, $(( $(date +%s) - start )) s in all):"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    log "failures in ${failed[*]}"
    exit 1
fi
