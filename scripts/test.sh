#!/usr/bin/env bash
# The test command: installs everything the tests need, then builds and runs every test.
#   ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --fixtures
swift build --build-tests
swift test --skip-build 2>&1 | tee .build/test-output.txt
