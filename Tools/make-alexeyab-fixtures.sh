#!/usr/bin/env bash
# Generates the reference data for AlexeyAB's features (YOLOv4, YOLOv4-tiny, YOLOv7-style
# networks and one small cfg per new key), which Debian's Darknet cannot produce:
#   - a float64 NumPy reimplementation of AlexeyAB's forward pass for the small cfgs in
#     Fixtures/cfg/alexeyab/ (cross-checked against OpenCV DNN where OpenCV reads the keys
#     the same way), Tools/alexeyab-reference/darknet_numpy.py;
#   - OpenCV DNN (PyPI opencv-python-headless) for the full YOLOv4 / YOLOv4-tiny cfgs
#     (Weights/alexeyab/) and the YOLOv7-tiny-style network.
# Needs python3 with venv, Weights/fetch.sh's files and Tools/make-fixtures.sh's
# input/dog-416.bin. Developer tooling only: the library never runs Python.
#
#   Tools/make-alexeyab-fixtures.sh [OUTDIR]     (default: <repo>/Fixtures/generated/alexeyab)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$REPO/Fixtures/generated/alexeyab}
VENV=$REPO/.build/alexeyab-reference-venv
# OpenCV 5 dropped readNetFromDarknet; the version is pinned so the references do not move.
PACKAGES=("numpy>=1.24,<3" "opencv-python-headless==4.14.0.94")

log() { echo "make-alexeyab-fixtures: $*" >&2; }

[ -f "$REPO/Fixtures/generated/input/dog-416.bin" ] || { log "missing Fixtures/generated/input/dog-416.bin (run Tools/make-fixtures.sh)"; exit 1; }
for f in yolov4.cfg yolov4-tiny.cfg; do
    [ -f "$REPO/Weights/alexeyab/$f" ] || { log "missing Weights/alexeyab/$f (run Weights/fetch.sh)"; exit 1; }
done

# shellcheck source=Tools/python-venv.sh
. "$REPO/Tools/python-venv.sh"
ensure_venv "$VENV" "cv2, numpy" "${PACKAGES[@]}"

start=$(date +%s)
rm -rf "$OUT"
mkdir -p "$OUT"
OMP_NUM_THREADS=1 "$VENV/bin/python" "$REPO/Tools/alexeyab-reference/make_fixtures.py" "$REPO" "$OUT" > "$OUT/log.txt" 2>&1 || {
    tail -n 30 "$OUT/log.txt" >&2; log "failed (log: $OUT/log.txt)"; exit 1; }
"$VENV/bin/python" -c "import cv2, numpy; print('opencv', cv2.__version__, 'numpy', numpy.__version__)" > "$OUT/.complete"
log "done in $(( $(date +%s) - start )) s ($(du -sh "$OUT" | cut -f1))"
