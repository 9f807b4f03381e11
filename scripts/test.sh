#!/usr/bin/env bash
# The test command: installs everything the tests need, then builds and runs every test.
#   ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --fixtures
# A debug build, so Swift's assertions and overflow checks run, with the C kernels optimised
# as in release: they are the hot loops of every network test, and at -O0 they made the suite
# take 1,297 s instead of 506 s (AMD EPYC, 2 cores). `swift test --skip-build` runs this build.
swift build --build-tests -Xcc -O2
mkdir -p .build
status=0
swift test --skip-build --disable-swift-testing 2>&1 | tee .build/test-output.txt || status=$?
# One plain closing line with the XCTest totals.
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" .build/test-output.txt | tail -n 1)
executed=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
failed=$(echo "$summary" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
if [ -n "$summary" ]; then
    line="tests: $((executed - failed)) passed, $failed failed"
else
    line="tests: 0 passed, 1 failed"
    status=1
fi
echo "$line" | tee .build/test-output-summary.txt
exit $status
