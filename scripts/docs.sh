#!/usr/bin/env bash
# Builds the DocC documentation of the library products with the toolchain's `docc convert`
# (SwiftPM's generate-documentation plugin needs a package this project cannot fetch):
#   ./scripts/docs.sh [OUTPUT_DIR]      # default .build/docs: one MODULE.doccarchive per product
# Works on a fresh clone (after scripts/setup.sh has installed the system libraries): the symbol
# graphs come from `swift package dump-symbol-graph`, which builds the package with the test
# build's flags (so after ./scripts/test.sh nothing is rebuilt, and a later test build reuses
# this one). Only the six library products' graphs matter: the dump also tries the test modules,
# which a build without tests has not compiled, and exits 1 for them; that is not a failure.
# Fails on any DocC warning: a link in a catalogue or a doc comment that does not resolve, or
# another (a parameter left out of a documented list).
# Output: the warnings (if any), then one line starting `docs:` saying what was built or why not.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs}
modules=(Darknet DarknetImage DarknetVideo DarknetModels DarknetServe DarknetEvaluation)
fail() { echo "docs: failed: $*" >&2; exit 1; }

swift_path=$(readlink -f "$(command -v swift)")
docc=$(dirname "$swift_path")/docc
[ -x "$docc" ] || docc=$(command -v docc || true)
[ -n "$docc" ] && [ -x "$docc" ] || fail "no docc beside $swift_path or on PATH"
command -v python3 > /dev/null || fail "python3 is needed to read DocC's diagnostics (apt-get install python3)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p .build
log=.build/docs-symbol-graph.log
touch "$work/before-dump"
# A fresh clone builds everything but the tests here: a few minutes on two cores.
dump_status=0
swift package -Xcc -O2 dump-symbol-graph > "$log" 2>&1 || dump_status=$?
graphs=$(sed -n 's/^Files written to //p' "$log" | tail -n 1)
missing=()
for module in "${modules[@]}"; do
    # Written by this run: a graph left by an earlier one does not count.
    [ -n "$graphs" ] && [ -n "$(find "$graphs" -maxdepth 1 -name "$module.symbols.json" -newer "$work/before-dump" 2>/dev/null)" ] \
        || missing+=("$module")
done
if [ ${#missing[@]} -gt 0 ]; then
    # The compiler's or SwiftPM's own reason: its first error lines, a source line's first (the
    # whole log is kept).
    grep -E "error:" "$log" | head -n 5 >&2 || true
    reason=$({ grep -E -m 1 "^/[^ ]+:[0-9]+:[0-9]+: error: " "$log" || grep -E -m 1 "error:" "$log" || true; } | sed -E 's/^ *error: //')
    [ -n "$reason" ] || reason="swift package dump-symbol-graph exited $dump_status"
    hint=""
    grep -qE "pkg-config|file not found|could not build C module|cannot find -l" "$log" \
        && hint="; a system library is missing: ./scripts/setup.sh installs them"
    fail "no symbol graph for ${missing[*]}: $reason (full log: $log$hint)"
fi

mkdir -p "$output"
problems=()
for module in "${modules[@]}"; do
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    cp "$graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
    if ! "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$work/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.swiftdarknet.$module" \
        --output-path "$output/$module.doccarchive" --diagnostics-file "$work/$module.diagnostics.json" \
        > "$work/$module.log" 2>&1; then
        cat "$work/$module.log" >&2
        problems+=("docc convert failed for $module")
        continue
    fi
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
    echo "$summary" | grep '^WARNING ' | sed "s/^WARNING /  $module: /" >&2 || true
    read -r _ broken others < <(echo "$summary" | grep '^COUNT ')
    [ "$broken" = 0 ] && [ "$others" = 0 ] || problems+=("$module: $broken unresolved links, $others other warnings (listed above)")
done
if [ ${#problems[@]} -gt 0 ]; then
    fail "$(IFS=';'; echo "${problems[*]}" | sed 's/;/; /g')"
fi
echo "docs: ${#modules[@]} catalogues in $output (${modules[*]}), no DocC warnings"
