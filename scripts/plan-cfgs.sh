#!/usr/bin/env bash
# Plans every .cfg in a folder (recursively) with `swift-darknet info` and prints one line per
# cfg (`plans`, or the error) and a count: the check behind "every cfg in AlexeyAB's cfg/ folder
# plans except the XNOR ones", which CI cannot fetch (it lives on GitHub, not on PyPI or Debian).
#
#   scripts/plan-cfgs.sh DIR [MEMORY_LIMIT_MIB]      (default limit 16384: yolov4-p6 at 1280 needs 4.5 GB)
#
# Exit status 0 whatever plans; the table is the result. Example, with a checkout of
# https://github.com/AlexeyAB/darknet: scripts/plan-cfgs.sh ~/darknet/cfg
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/plan-cfgs.sh DIR [MEMORY_LIMIT_MIB]}
limit=${2:-16384}
swift build -c release --product swift-darknet > /dev/null
bin=$(swift build -c release --show-bin-path)/swift-darknet
planned=0 refused=0
while IFS= read -r -d '' cfg; do
    # The first line on stderr that is not a warning (unknown keys are warnings, not refusals).
    message=$({ "$bin" info --cfg "$cfg" --memory-limit "$limit" 2>&1 >/dev/null || true; } \
        | { grep -v '^swift-darknet: warning:' || true; } | head -1)
    if [ -z "$message" ]; then
        echo "plans    ${cfg#"$dir"/}"
        planned=$((planned + 1))
    else
        echo "refused  ${cfg#"$dir"/}: ${message#swift-darknet: }"
        refused=$((refused + 1))
    fi
done < <(find "$dir" -name '*.cfg' -print0 | sort -z)
echo "$planned of $((planned + refused)) cfgs plan"
