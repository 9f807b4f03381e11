#!/usr/bin/env bash
# Builds the labelled validation set the map/valid/recall tests score
# (Tools/evaluation/make_dataset.py: Darknet's sample photos as PNG with hand-drawn YOLO labels,
# mirrored, scaled and perturbed variants, a class no photo shows, an image without objects,
# difficult objects) and the Python venv whose pycocotools and NumPy the tests compare with
# (Tools/evaluation/reference_map.py). Developer tooling only: the library never runs Python.
#
#   Tools/make-evaluation-fixtures.sh [OUTDIR]     (default: <repo>/Fixtures/generated/evaluation)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$REPO/Fixtures/generated/evaluation}
PACKAGES=("numpy==2.2.6" "pycocotools==2.0.11")
# Cached across clones (CI keeps ~/.cache); the pins name the folder, so a change makes a new one.
VENV=${XDG_CACHE_HOME:-$HOME/.cache}/swift-darknet/evaluation-venv-$(echo "${PACKAGES[*]}" | sha256sum | cut -c1-12)

log() { echo "make-evaluation-fixtures: $*" >&2; }

for f in dog.jpg eagle.jpg giraffe.jpg horses.jpg kite.jpg person.jpg scream.jpg coco.names; do
    [ -f "$REPO/Weights/darknet/data/$f" ] || { log "missing Weights/darknet/data/$f (run Weights/fetch.sh)"; exit 1; }
done

# shellcheck source=Tools/python-venv.sh
. "$REPO/Tools/python-venv.sh"
ensure_venv "$VENV" "numpy, pycocotools.cocoeval" --only-binary=:all: "${PACKAGES[@]}"

rm -rf "$OUT"
mkdir -p "$OUT"
python3 "$REPO/Tools/evaluation/make_dataset.py" "$REPO/Weights/darknet/data" "$REPO/Weights/darknet/data/coco.names" "$OUT"
# The venv's python must be started by its own path (a symlink elsewhere loses the venv).
printf '#!/bin/sh\nexec "%s/bin/python" "$@"\n' "$VENV" > "$OUT/python"
chmod +x "$OUT/python"
echo "$VENV" > "$OUT/.complete"
log "done ($(wc -l < "$OUT/valid.txt") images)"
