#!/usr/bin/env bash
# Builds the DocC documentation of the library products with the toolchain's `docc convert`
# (SwiftPM's generate-documentation plugin needs a package this project cannot fetch):
#   ./scripts/docs.sh [OUTPUT_DIR]      # default .build/docs: one MODULE.doccarchive per product
# The symbol graphs come from `swift package dump-symbol-graph` with the test build's flags, so
# after ./scripts/test.sh nothing is rebuilt. Fails on any DocC warning: a link in a catalogue or
# a doc comment that does not resolve, or another (a parameter left out of a documented list).
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs}
modules=(Darknet DarknetImage DarknetVideo DarknetModels DarknetServe DarknetEvaluation)

swift_path=$(readlink -f "$(command -v swift)")
docc=$(dirname "$swift_path")/docc
[ -x "$docc" ] || docc=$(command -v docc || true)
[ -n "$docc" ] && [ -x "$docc" ] || { echo "docs: no docc beside $swift_path or on PATH" >&2; exit 1; }

dump=$(swift package -Xcc -O2 dump-symbol-graph 2>&1) || { echo "$dump" >&2; exit 1; }
graphs=$(echo "$dump" | sed -n 's/^Files written to //p' | tail -n 1)
[ -d "$graphs" ] || { echo "$dump" >&2; echo "docs: no symbol graphs written" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$output"
failed=0
for module in "${modules[@]}"; do
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    cp "$graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
    "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$work/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.swiftdarknet.$module" \
        --output-path "$output/$module.doccarchive" --diagnostics-file "$work/$module.diagnostics.json" \
        > "$work/$module.log" 2>&1 || { cat "$work/$module.log" >&2; echo "docs: docc convert failed for $module" >&2; failed=1; continue; }
    # Unresolved symbol and article links, missing resources; then every other warning.
    summary=$(python3 - "$work/$module.diagnostics.json" <<'PY'
import json, re, sys
diagnostics = json.load(open(sys.argv[1])).get("diagnostics", [])
link = re.compile(r"doesn't exist at|couldn't be resolved|can't be resolved|is ambiguous|couldn't be found|isn't found|unresolved", re.I)
broken = [d for d in diagnostics if link.search(d.get("summary", ""))]
for d in diagnostics:
    start = (d.get("range") or {}).get("start") or {}
    print("WARNING %s:%s: %s" % (d.get("source", "").replace("file://", ""), start.get("line", "?"), d["summary"]))
print("COUNT %d %d" % (len(broken), len(diagnostics) - len(broken)))
PY
)
    echo "$summary" | grep '^WARNING ' | sed 's/^WARNING /docs: /' >&2 || true
    read -r _ broken others < <(echo "$summary" | grep '^COUNT ')
    echo "docs: $module: $output/$module.doccarchive ($broken unresolved links, $others other warnings)"
    [ "$broken" = 0 ] && [ "$others" = 0 ] || failed=1
done
exit $failed
