#!/usr/bin/env bash
# Installs what SwiftDarknet needs on a fresh Debian machine that has the Swift toolchain:
# system libraries (OpenBLAS, libjpeg-turbo, libpng, libtiff, libwebp, libheif, FFmpeg's libav*,
# libmicrohttpd and libzmq for serving), the weights, cfgs and sample images (Weights/fetch.sh)
# and, with --fixtures, the original Darknet, the reference data the fidelity tests compare
# against (Tools/make-fixtures.sh, Tools/make-alexeyab-fixtures.sh), the labelled set and
# Python references of the scoring tests (Tools/make-evaluation-fixtures.sh) and the Python
# clients of the serving tests (a virtual environment in ~/.cache/swiftdarknet-serve-venv).
# Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

want_fixtures=0
[ "${1:-}" = "--fixtures" ] && want_fixtures=1

log() { echo "setup: $*" >&2; }

packages=(pkg-config libopenblas-dev libjpeg62-turbo-dev libpng-dev libtiff-dev libwebp-dev libheif-dev libavformat-dev libavdevice-dev libavcodec-dev libswscale-dev libavutil-dev
          libmicrohttpd-dev libzmq3-dev)
# python3: the model tests' HTTP server; ffmpeg: the reference for YUV and the encoder of test clips;
# libtiff-tools: tiffcp writes the TIFF variants of the image-format fixtures; libheif-examples:
# heif-enc and heif-convert write the HEIC and AVIF fixtures and their reference pixels;
# chromium: the browser that loads serve's status page in its test
[ "$want_fixtures" = 1 ] && packages+=(darknet python3-venv python3 ffmpeg libtiff-tools libheif-examples chromium)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

bash Weights/fetch.sh

if [ "$want_fixtures" = 1 ]; then
    # The serving tests' real clients: deepstack-python (which imports Pillow without declaring
    # it), pyzmq, NumPy, requests; pinned, and kept in ~/.cache across runs.
    serve_venv=${SWIFTDARKNET_SERVE_VENV:-$HOME/.cache/swiftdarknet-serve-venv}
    serve_packages=(deepstack-python==0.9 pyzmq==27.3.0 numpy==2.4.6 pillow==13.0.0 requests==2.34.2)
    # shellcheck source=Tools/python-venv.sh
    . Tools/python-venv.sh
    ensure_venv "$serve_venv" "deepstack.core, zmq, numpy, PIL, requests" "${serve_packages[@]}"
    # Regenerate when the reference tool or the script changed since the last run.
    stamp=$(cat Tools/make-fixtures*.sh Tools/fixture-steps.sh Tools/fixture_checks.py Tools/write_format_samples.py Tools/darknet-reference/*.c Fixtures/cfg/*.cfg | sha256sum | cut -d' ' -f1)
    if [ ! -f Fixtures/generated/.complete ] || [ "$(cat Fixtures/generated/.stamp 2>/dev/null)" != "$stamp" ]; then
        log "generating the Darknet reference fixtures"
        rm -rf Fixtures/generated
        bash Tools/make-fixtures.sh Fixtures/generated
        echo "$stamp" > Fixtures/generated/.stamp
    fi
    # AlexeyAB features: NumPy and OpenCV references (Debian's Darknet predates them).
    ab_stamp=$(cat Tools/make-alexeyab-fixtures.sh Tools/alexeyab-reference/*.py Fixtures/cfg/alexeyab/*.cfg Weights/alexeyab/*.cfg | sha256sum | cut -d' ' -f1)
    if [ ! -f Fixtures/generated/alexeyab/.complete ] || [ "$(cat Fixtures/generated/alexeyab/.stamp 2>/dev/null)" != "$ab_stamp" ]; then
        log "generating the AlexeyAB-feature reference fixtures"
        bash Tools/make-alexeyab-fixtures.sh Fixtures/generated/alexeyab
        echo "$ab_stamp" > Fixtures/generated/alexeyab/.stamp
    fi
    # The labelled set the map/valid/recall tests score, and the venv of their Python references.
    eval_stamp=$(cat Tools/make-evaluation-fixtures.sh Tools/evaluation/*.py Tools/evaluation/hand_labels.txt | sha256sum | cut -d' ' -f1)
    if [ ! -f Fixtures/generated/evaluation/.complete ] || [ "$(cat Fixtures/generated/evaluation/.stamp 2>/dev/null)" != "$eval_stamp" ] \
        || ! Fixtures/generated/evaluation/python -c "import pycocotools" 2>/dev/null; then
        log "building the labelled evaluation set"
        bash Tools/make-evaluation-fixtures.sh Fixtures/generated/evaluation
        echo "$eval_stamp" > Fixtures/generated/evaluation/.stamp
    fi
fi
