# shellcheck shell=bash
# Sourced by the scripts that keep a pinned Python venv for developer tooling and tests (the
# library never runs Python).
#
# ensure_venv DIR IMPORTS PIP_ARGUMENTS...
#   (Re)creates the venv DIR with `pip install PIP_ARGUMENTS` unless it was made with exactly
#   those arguments and its python imports IMPORTS (`numpy, cv2`); says so on standard error.
ensure_venv() {
    local venv=$1 imports=$2
    shift 2
    if [ "$(cat "$venv/.packages" 2>/dev/null)" = "$*" ] && "$venv/bin/python" -c "import $imports" 2>/dev/null; then
        return 0
    fi
    echo "creating $venv ($*)" >&2
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
    "$venv/bin/python" -c "import $imports"
    echo "$*" > "$venv/.packages"
}
