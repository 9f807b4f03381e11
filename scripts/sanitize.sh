#!/usr/bin/env bash
# Runs the tests under the sanitizers, each build in its own scratch directory so the normal
# .build/ is never invalidated:
#   AddressSanitizer  every test but the slow ones that repeat what others cover (asan_skip):
#                     parser, planner, loader, the malformed-input table, kernels, every layer
#                     of YOLOv3-tiny against Darknet, detection, image decoders and resize; in
#                     two processes at once (scripts/side-tests.sh)
#   ThreadSanitizer   DetectionTests.testConcurrentDetectionsEqualSingleThreadedOnes
#                     (one Detector shared by concurrent detect calls), WorkerPoolTests,
#                     ThreadingTests (the spinning helper threads of multi-threaded sessions) and
#                     BatchDetectorTests (images on several threads at once, in order), and the
#                     detection service under load (HTTP thread, workers, watchdog and ZMQ thread:
#                     ServerLimitsTests, RequestPipelineTests, HTTPAPITests.testHealthAndMetrics,
#                     the Frigate ZMQ client)
# Fails on any test failure or sanitizer report. Prints the time each part took.
#
# Leaks: XCTest on Linux leaks its own test objects at exit, and any LeakSanitizer
# suppression broad enough to hide them would hide leaks under test methods too, so leak
# detection is off here. Leaks are checked by scripts/fuzz.sh (LeakSanitizer after every
# input) and scripts/memory-check.sh (resident memory over 200 detections).
#
#   ./scripts/sanitize.sh [address|thread]     (default: both)
#
# Environment: SANITIZE_SCRATCH (directory holding the two builds, default .build/sanitize).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${SANITIZE_SCRATCH:-$PWD/.build/sanitize}
which=${1:-all}
mkdir -p "$scratch"

log() { echo "sanitize: $*" >&2; }

[ -f Weights/darknet/cfg/yolov3-tiny.cfg ] && [ -f Weights/yolov3-tiny.weights ] || bash Weights/fetch.sh

# Swift's crash backtracer reads memory ASan has poisoned and buries the real report.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}

summary=()
# Under ASan (debug) these take 285 of 410 seconds and add nothing the others do not cover:
# YOLOv3 at 416 (the tiny network covers every layer kind but shortcut, KernelTests covers
# that), tiny with random weights (same network as the real weights), detection at 0.25 (0.5
# runs), and the concurrent test (run under TSan).
asan_skip="DarknetFidelityTests.testYoloV3RandomWeightsRoutesUpsamplesAndHeads|DarknetFidelityTests.testYoloV3TinyRandomWeightsEveryLayer"
asan_skip+="|DetectionTests.testSampleImagesAtThreshold025MatchDarknet|DetectionTests.testConcurrentDetectionsEqualSingleThreadedOnes"
# Likewise the large zoo networks: their convolutions, pools and routes are the ones above at
# other sizes; [region] runs in YOLOv2-tiny, [reorg] in ZooSpecTests, the classifier layers
# in the small classifier cfgs, which all stay.
asan_skip+="|ZooFidelityTests.testYoloV2At416|ZooFidelityTests.testYoloV3SPPAt320|ZooFidelityTests.testDarknet19EveryLayer"
asan_skip+="|RegionDetectionTests.testYoloV2At416MatchesDarknet"
# The full YOLOv4-size AlexeyAB networks (about 60 BFLOPs each at 416): their layer kinds are
# covered by the small AlexeyAB cfgs, YOLOv4-tiny and the YOLOv7-style network, which run.
asan_skip+="|AlexeyABFidelityTests.testYoloV4RandomWeights|AlexeyABFidelityTests.testYoloV4SamMishRandomWeights"
asan_skip+="|AlexeyABFidelityTests.testYoloV4Detections|AlexeyABFidelityTests.testYoloV4SamMishDetections"
# 100 and 12 YOLOv3-tiny frames: their memory paths run in PixelLetterboxTests and DetectionPipelineTests.
asan_skip+="|TrackingSequenceTests|PixelDetectionTests.testFramesGiveTheImagePathsDetections"
# 60 1280x720 video frames through swift-darknet video and detect (4 minutes in a plain debug
# build), and the 10 s real-time UDP stream (it judges timing): the decoder, pixel and
# pipeline paths they use run in VideoReaderTests, BadVideoInputTests and VideoCommandTests.
asan_skip+="|VideoFidelityTests|LiveStreamTests"
# int8 accuracy on 14 images (186 s under ASan): its calibration, quantization and int8
# convolutions run in Int8NetworkTests' thread/variant and sidecar tests and in Int8KernelTests.
asan_skip+="|Int8NetworkTests.testTinyInt8RecoversFloatDetections"
# The tracked video command (38 s): the tracker's own tests and the other video commands run.
asan_skip+="|VideoCommandTests.testTrackAndSmoothAddTrackIDsAndSmoothedBoxes"
# Peak memory under ASan's quarantine of freed memory says nothing; the 4K tiles are 46 passes.
asan_skip+="|EvaluationCommandTests.testThousandImagesInBoundedMemory|AlexeyABOutputTests.testMapPrintsAlexeyABsLines"
asan_skip+="|TilingDetectionTests.testSmallObjectsOnA4KFrameAreFoundWithTilesAndNotWithout"
# bfloat16 on whole networks (26 photos in float32 and bfloat16; every layer in the portable set's
# scalar emulation): their memory paths are BFloat16KernelTests' packing and GEMM, which run.
asan_skip+="|BFloat16NetworkTests.testTinyBFloat16KeepsFloatDetections|BFloat16NetworkTests.testSIMDAndThreadsGiveThePortableBits"
# The same for arm64's bfloat16 and for float16, FMLAL's and in half sums (their portable sets'
# scalar emulation): their memory paths are BFloat16KernelTests' and Float16KernelTests', which run.
asan_skip+="|BFloat16NetworkTests.testTinyARMBFloat16KeepsFloatDetections|Float16NetworkTests.testTinyFloat16KeepsFloatDetections"
asan_skip+="|Float16NetworkTests.testSIMDAndThreadsGiveThePortableBits|Float16NetworkTests.testTinyFloat16InHalfSumsKeepsFloatDetections"
asan_skip+="|Float16NetworkTests.testHalfSumSetGivesThePortableBits"
# A grey YOLOv3-tiny on two 4-frame clips, through the library and through swift-darknet video
# (105 s under ASan): the grey conversions' memory paths run in GreyscaleNetworkTests (colour and
# YUV frames, the detect command), the decoder's in VideoReaderTests and BadVideoInputTests.
asan_skip+="|GreyscaleVideoTests.testVideoOfAGreyNetworkDetectsEachFrameAsTheLibrary"

# The ASan tests run as two processes at once, as scripts/test.sh runs them
# (scripts/side-tests.sh), the C kernels at -O1.
# shellcheck source=scripts/side-tests.sh
. scripts/side-tests.sh

# executed_in LOG: XCTest's closing count in LOG ("Executed N tests, with M failures").
executed_in() { grep -E "Executed [0-9]+ tests?," "$1" | tail -1 | sed -E 's/^[[:space:]]*//; s/ \(.*//' || true; }

# failed SANITIZER LOG STATUS: whether a test run failed or a sanitizer reported (and shows why).
failed() {
    local out=$2 status=$3
    [ "$status" != 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread|Leak)Sanitizer" "$out" || return 1
    grep -E -B2 -A40 "ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer" "$out" | head -80 >&2 || true
    grep -E "error: |failed" "$out" | head -20 >&2 || true
    log "$1: FAILED (exit $status, log $out)"
}

# run SANITIZER --filter|--skip REGEX [SIDE_CLASSES]   (swift test's selection; with
# SIDE_CLASSES, a --skip run: their tests not matching REGEX run beside it from the bundle)
run() {
    local sanitizer=$1 option=$2 regex=$3 side=${4:-} out="$scratch/$1.log" side_out="$scratch/$1-side.log"
    local start status=0 side_status=0 side_pid=""
    start=$(date +%s)
    log "$sanitizer: building"
    # The C kernels at -O1, as the sanitizers' own docs advise for speed (every access is still
    # checked); the Swift code stays a debug build.
    if ! swift build --build-tests -Xcc -O1 --sanitize="$sanitizer" --scratch-path "$scratch/$sanitizer" > "$out" 2>&1; then
        tail -40 "$out" >&2
        log "$sanitizer: build failed (log $out)"
        exit 1
    fi
    local built=$(( $(date +%s) - start ))
    if [ -n "$side" ]; then
        # The side tests by name (`--list-tests` gives Module.Class/test); the rest skips them.
        local bundle="$scratch/$sanitizer/debug/SwiftDarknetPackageTests.xctest" tests
        tests=$(side_tests "$bundle" "$side" "$regex")
        [ -n "$tests" ] || { log "$sanitizer: no side tests match $side"; exit 1; }
        log "$sanitizer: built in ${built} s, testing $(echo "$tests" | tr , '\n' | wc -l) tests of $side from the bundle, beside the rest"
        ( "$bundle" "$tests" > "$side_out" 2>&1 ) &
        side_pid=$!
        regex="$regex|\.($side)/"
    fi
    log "$sanitizer: testing ($option $regex)"
    swift test --skip-build --disable-swift-testing --sanitize="$sanitizer" --scratch-path "$scratch/$sanitizer" "$option" "$regex" >> "$out" 2>&1 || status=$?
    [ -z "$side_pid" ] || wait "$side_pid" || side_status=$?
    local total=$(( $(date +%s) - start )) executed
    executed="$(executed_in "$out")${side_pid:+ and $(executed_in "$side_out")}"
    local broken=0
    if failed "$sanitizer" "$out" "$status"; then broken=1; fi
    if [ -n "$side_pid" ] && failed "$sanitizer (side)" "$side_out" "$side_status"; then broken=1; fi
    if [ "$broken" = 1 ]; then
        summary+=("$sanitizer: FAILED after ${total} s")
        echo "sanitize summary:"; printf '  %s\n' "${summary[@]}"
        exit 1
    fi
    summary+=("$sanitizer: ok, ${executed:-?}; build ${built} s, total ${total} s")
}

case "$which" in
    all|address) run address --skip "$asan_skip" "$side_classes" ;;&
    all|thread) run thread --filter "DetectionTests.testConcurrentDetectionsEqualSingleThreadedOnes|WorkerPoolTests|ThreadingTests|DetectionPipelineTests|ClassificationPipelineTests|PixelDetectionTests.testSixteen|PixelDetectionTests.testCancelled|PixelDetectionTests.testIdle|ReadmeExampleTests.testReadmeLive|BatchDetectorTests|TilingDetectionTests.testPipelineRunsEachFramesTiles|ServerLimitsTests|RequestPipelineTests|HTTPAPITests.testHealthAndMetrics|RealClientTests.testFrigateZMQDetector" ;;
    all|address|thread) ;;
    *) echo "usage: $0 [address|thread]" >&2; exit 2 ;;
esac
echo "sanitize summary:"
printf '  %s\n' "${summary[@]}"
