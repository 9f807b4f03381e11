#!/usr/bin/env bash
# The test command: installs everything the tests need, then builds and runs every test, and
# then cross-builds the package for aarch64 and runs its chosen tests under emulation
# (scripts/aarch64.sh).
#   ./scripts/test.sh
# The working loop: builds the tests and runs the unit tier only (DarknetTests and every
# library's ...UnitTests target: no weights, fixtures, Darknet or child process, so it passes on
# a clone without Weights/ and Fixtures/generated/; about a minute after the build). It installs
# nothing: the system libraries the package links must be there (scripts/setup.sh installs
# them). Tests/README.md has the tiers.
#   ./scripts/test.sh --quick
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--quick" ]; then
    swift build --build-tests -Xcc -O2
    mkdir -p .build
    start=$SECONDS status=0
    # The unit tier: DarknetTests and every library's ...UnitTests target (Tests/README.md).
    swift test --skip-build --disable-swift-testing --filter '^(DarknetTests|[A-Za-z]+UnitTests)\.' 2>&1 |
        tee .build/test-output-quick.txt || status=$?
    summary=$({ grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" .build/test-output-quick.txt || true; } | tail -n 1)
    if [ -z "$summary" ]; then
        echo "test: no XCTest totals in .build/test-output-quick.txt" >&2
        echo "tests: 0 passed, 1 failed (the unit tier did not run)"
        exit 1
    fi
    executed=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
    failed=$(echo "$summary" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
    # An empty selection (a renamed target) must not pass as a green run.
    [ "$executed" -gt 0 ] || { echo "test: the unit tier (DarknetTests, *UnitTests) has no tests" >&2; status=1; failed=1; }
    # A crash ends the run before XCTest's last count: the status says so.
    [ "$status" = 0 ] || [ "$failed" != 0 ] || { echo "test: swift test exited with $status" >&2; failed=1; }
    [ "$failed" = 0 ] || status=1
    echo "tests: $((executed - failed)) passed, $failed failed (the unit tier, DarknetTests and *UnitTests, in $((SECONDS - start)) s)"
    exit $status
fi
[ $# -eq 0 ] || { echo "usage: $0 [--quick]" >&2; exit 2; }

bash scripts/setup.sh --fixtures
# A debug build, so Swift's assertions and overflow checks run, with the C kernels optimised
# as in release: they are the hot loops of every network test, and at -O0 they made the suite
# take 1,297 s instead of 506 s (AMD EPYC, 2 cores). `swift test --skip-build` runs this build.
swift build --build-tests -Xcc -O2
mkdir -p .build
# Two test processes at once, one per core (scripts/side-tests.sh): about 350 s and 300 s.
# shellcheck source=scripts/side-tests.sh
. scripts/side-tests.sh
bundle=.build/debug/SwiftDarknetPackageTests.xctest
side=$(side_tests "$bundle" "$side_classes")
[ -n "$side" ] || { echo "test: no tests match $side_classes" >&2; exit 1; }
( "$bundle" "$side" > .build/test-output-side.txt 2>&1 ) &
side_pid=$!
status=0
swift test --skip-build --disable-swift-testing --skip "\.($side_classes)/" 2>&1 | tee .build/test-output.txt || status=$?
side_status=0
wait "$side_pid" || side_status=$?
echo "test: the compute-bound classes, run beside the others ($side_classes):"
cat .build/test-output-side.txt
[ "$side_status" = 0 ] || status=$side_status

# The XCTest totals of both processes.
executed=0 failed=0
for log in .build/test-output.txt .build/test-output-side.txt; do
    summary=$({ grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" || true; } | tail -n 1)
    if [ -z "$summary" ]; then
        echo "test: no XCTest totals in $log" >&2
        failed=$((failed + 1))
        status=1
        continue
    fi
    executed=$((executed + $(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')))
    failed=$((failed + $(echo "$summary" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')))
done
native="$((executed - failed)) passed, $failed failed"
echo "test: x86-64: $native"

# aarch64: the cached cross-compilation roots, the release build, then the tests under qemu.
arm_status=0
start=$SECONDS
{ bash scripts/aarch64.sh setup && echo "test: aarch64 setup done in $((SECONDS - start)) s" &&
  bash scripts/aarch64.sh build && echo "test: aarch64 build done in $((SECONDS - start)) s" &&
  bash scripts/aarch64.sh test; } 2>&1 | tee .build/test-output-aarch64.txt || arm_status=$?
echo "test: aarch64 done in $((SECONDS - start)) s"
arm=$({ grep -E "^tests under emulation: [0-9]+ passed, [0-9]+ failed" .build/test-output-aarch64.txt || true; } | tail -n 1)
arm_passed=$(sed -nE 's/.* ([0-9]+) passed.*/\1/p' <<< "$arm")
arm_failed=$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<< "$arm")
if [ -z "$arm" ] || [ "$arm_status" != 0 ]; then
    status=1
    [ -n "$arm" ] || arm_failed=1 arm_passed=0
fi

# One plain closing line with the totals of both architectures.
echo "tests: $((executed - failed + arm_passed)) passed, $((failed + arm_failed)) failed" \
    "(x86-64: $native; aarch64 under emulation: $arm_passed passed, $arm_failed failed)" | tee .build/test-output-summary.txt
exit $status
