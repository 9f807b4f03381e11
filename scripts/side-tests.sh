# Sourced by scripts/test.sh and scripts/sanitize.sh, which run the tests as two processes at
# once, one per core: these compute-bound classes (networks against Darknet's numbers, kernels,
# int8, bfloat16 and float16, greyscale networks, YOLOv3's weights file) straight from the test
# bundle, since SwiftPM lets one `swift test` use a build directory at a time, and the rest, with
# the timers, threads, subprocesses and loopback servers, through
# `swift test --skip "\.($side_classes)/"`.
side_classes="AlexeyABFidelityTests|ClassTreeNetworkTests|DarknetFidelityTests|Int8KernelTests|Int8NetworkTests"
side_classes+="|KernelTests|YoloV1Tests|ZooFidelityTests|Float16NetworkTests|BFloat16NetworkTests|GreyscaleVideoTests|GreyscaleNetworkTests"
side_classes+="|WeightsFileTests"

# side_tests BUNDLE CLASSES [EXCLUDE]: the tests of CLASSES (a regex alternation, such as
# $side_classes) in the test bundle BUNDLE, as XCTest takes them (Module.Class/test,
# comma-separated), but those matching the regex EXCLUDE.
side_tests() {
    "$1" --list-tests | { grep -E "^[A-Za-z0-9_]+\.($2)/" || true; } |
        { grep -vE "${3:-^$}" || true; } | paste -sd, -
}
