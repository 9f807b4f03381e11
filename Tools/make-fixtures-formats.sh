#!/usr/bin/env bash
# Darknet's pixels for images in the other formats OpenCV's imread reads: BMP, TIFF, WebP and
# Netpbm files made from dog.jpg (scaled to 97x73, odd sides for row padding), decoded by
# Darknet's load_image_color (darknet_ref load). Called by Tools/make-fixtures.sh (after it has
# built the tool):
#
#   Tools/make-fixtures-formats.sh OUTDIR        (OUTDIR as for make-fixtures.sh)
#
# Idempotent: skips everything when OUTDIR/formats/.complete holds the current darknet package
# version and the checksum of this script, of Tools/write_format_samples.py and of darknet_ref.c.
#
# OUTDIR/formats/
#   NAME.EXT                 the file: FFmpeg's encoders (bmp, tiff, libwebp, ppm/pgm/pbm) with
#                            their pixel formats and compressions, a gradient alpha where the
#                            format has one, libtiff's tiffcp (tiles, planes, big-endian,
#                            predictors, JPEG, two pages), and Tools/write_format_samples.py's hand-written
#                            variants (RLE, OS/2 and V5 headers, ASCII Netpbm, odd maxvals)
#   NAME.EXT.bin, .txt       Darknet's pixels (float32 LE, CHW) and "W H C"
#   list.txt                 the file names, one per line
#   heif/NAME, NAME.png, heif.txt  HEIC and AVIF files (heif-enc: lossy, 4:4:4, lossless, alpha)
#                            and libheif's decode of each (heif-convert), the reference for
#                            formats Darknet does not read
#   refused/, refused.txt    well-formed files of variants imread refuses (Darknet's load is
#                            checked to fail on them): an animated WebP, a TIFF of float
#                            samples, a BMP holding a JPEG
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FIXTURE_SCRIPT=make-fixtures-formats
# shellcheck source=Tools/fixture-steps.sh
. "$REPO/Tools/fixture-steps.sh"
start_part "${1:-}"
SOURCE=Weights/darknet/data/dog.jpg
D=$OUT/formats
LOGS=$D/logs
[ -f "$SOURCE" ] || die "missing $SOURCE (run Weights/fetch.sh)"
command -v ffmpeg >/dev/null 2>&1 || die "ffmpeg is needed to write the sample files"
command -v tiffcp >/dev/null 2>&1 || die "tiffcp (Debian's libtiff-tools) is needed to write the TIFF variants"
command -v heif-enc >/dev/null 2>&1 && command -v heif-convert >/dev/null 2>&1 ||
    die "heif-enc and heif-convert (Debian's libheif-examples) are needed for the HEIC and AVIF files"

STAMP=$(debian_stamp "$REPO/Tools/make-fixtures-formats.sh" "$REPO/Tools/write_format_samples.py" \
    "$REPO/Tools/darknet-reference/darknet_ref.c")
exit_if_complete "$D"
mkdir -p "$D/logs"

SCALE=scale=97:73
ALPHA="$SCALE,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='X*2+Y'"
encode() {  # NAME FILTER FFMPEG-OUTPUT-OPTIONS...
    local name=$1 filter=$2; shift 2
    run ffmpeg ffmpeg -nostdin -v error -y -i "$SOURCE" -vf "$filter" "$@" "$D/$name"
}
encode bmp-24.bmp "$SCALE" -pix_fmt bgr24
encode bmp-32-alpha.bmp "$ALPHA" -pix_fmt bgra
encode bmp-565.bmp "$SCALE" -pix_fmt rgb565le
encode bmp-555.bmp "$SCALE" -pix_fmt rgb555le
encode bmp-8-palette.bmp "$SCALE" -pix_fmt pal8
encode bmp-1-mono.bmp "$SCALE" -pix_fmt monob
encode tiff-rgb-packbits.tiff "$SCALE" -pix_fmt rgb24
encode tiff-rgb-raw.tiff "$SCALE" -pix_fmt rgb24 -compression_algo raw
encode tiff-rgb-lzw.tiff "$SCALE" -pix_fmt rgb24 -compression_algo lzw
encode tiff-rgb-deflate.tiff "$SCALE" -pix_fmt rgb24 -compression_algo deflate
encode tiff-rgba-alpha.tiff "$ALPHA" -pix_fmt rgba
encode tiff-rgb-16.tiff "$SCALE" -pix_fmt rgb48le
encode tiff-grey.tiff "$SCALE" -pix_fmt gray
encode tiff-grey-16.tiff "$SCALE" -pix_fmt gray16le
encode tiff-palette.tiff "$SCALE" -pix_fmt pal8
encode tiff-mono.tiff "$SCALE" -pix_fmt monob
encode tiff-ycbcr.tiff "$SCALE" -pix_fmt yuv420p
encode webp-lossy.webp "$SCALE" -c:v libwebp -quality 80
encode webp-lossless.webp "$SCALE" -c:v libwebp -lossless 1
encode webp-lossy-alpha.webp "$ALPHA" -c:v libwebp -pix_fmt yuva420p -quality 80
encode webp-lossless-alpha.webp "$ALPHA" -c:v libwebp -lossless 1 -pix_fmt bgra
encode pnm-p6.ppm "$SCALE" -pix_fmt rgb24
encode pnm-p6-16.ppm "$SCALE" -pix_fmt rgb48be
encode pnm-p5.pgm "$SCALE" -pix_fmt gray
encode pnm-p5-16.pgm "$SCALE" -pix_fmt gray16be
encode pnm-p4.pbm "$SCALE" -pix_fmt monow
run raw ffmpeg -nostdin -v error -y -i "$SOURCE" -vf "$SCALE" -f rawvideo -pix_fmt rgb24 "$D/logs/source.rgb"
run raw ffmpeg -nostdin -v error -y -i "$SOURCE" -vf "$ALPHA" -f rawvideo -pix_fmt rgba "$D/logs/source.rgba"
# libtiff's own layouts, from the uncompressed TIFF: tiles, planes, big-endian, predictors,
# JPEG (YCbCr and RGB), and two pages (the first is read).
tiffcp_variant() {  # NAME TIFFCP-OPTIONS... (the last of them the input files)
    local name=$1; shift
    run tiffcp tiffcp "$@" "$D/$name"
}
tiffcp_variant tiff-tiled.tiff -t -w 32 -l 32 "$D/tiff-rgb-raw.tiff"
tiffcp_variant tiff-planar.tiff -p separate "$D/tiff-rgb-raw.tiff"
tiffcp_variant tiff-big-endian.tiff -B "$D/tiff-rgb-raw.tiff"
tiffcp_variant tiff-lzw-predictor.tiff -c lzw:2 "$D/tiff-rgb-raw.tiff"
tiffcp_variant tiff-deflate-predictor-16.tiff -c zip:2 "$D/tiff-rgb-16.tiff"
tiffcp_variant tiff-jpeg-ycbcr.tiff -c jpeg:90 -r 16 "$D/tiff-rgb-raw.tiff"
tiffcp_variant tiff-jpeg-rgb.tiff -c jpeg:r:90 -r 16 "$D/tiff-rgb-raw.tiff"
tiffcp_variant tiff-two-pages.tiff "$D/tiff-grey.tiff" "$D/tiff-rgb-raw.tiff"
run handwritten python3 "$REPO/Tools/write_format_samples.py" "$D/logs/source.rgb" "$D/logs/source.rgba" 97 73 "$D"
# An animated WebP (three frames): refused, like the two hand-written files in refused/.
run ffmpeg ffmpeg -nostdin -v error -y -i "$SOURCE" -filter_complex "[0]$SCALE,split=3[a][b][c];[b]negate[n];[a][n][c]concat=n=3" \
    -c:v libwebp_anim -loop 0 "$D/refused/webp-animated.webp"
# HEIC and AVIF, which Darknet does not read: libheif's own decode (heif-convert to PNG) is
# the reference.
mkdir -p "$D/heif"
heif_variant() {  # NAME SOURCE HEIF-ENC-OPTIONS...
    local name=$1 source=$2; shift 2
    run heif heif-enc "$@" "$source" -o "$D/heif/$name"
    run heif heif-convert "$D/heif/$name" "$D/heif/$name.png" > /dev/null
}
heif_variant heic-lossy.heic "$D/logs/source.png" -q 80
heif_variant heic-444.heic "$D/logs/source.png" -q 90 -p chroma=444
heif_variant heic-lossless.heic "$D/logs/source.png" -L -p chroma=444
heif_variant heic-alpha.heic "$D/logs/source-alpha.png" -q 80
heif_variant avif-lossy.avif "$D/logs/source.png" -A -q 70
heif_variant avif-alpha.avif "$D/logs/source-alpha.png" -A -q 70
(cd "$D/heif" && ls | grep -E '\.(heic|avif)$' | sort) > "$D/heif.txt"
[ "$(wc -l < "$D/heif.txt")" = 6 ] || die "expected 6 HEIF files, made $(wc -l < "$D/heif.txt")"
step_done "sample files"

# Darknet (OpenCV's imread) must fail on the refused files too.
for f in "$D"/refused/*; do
    if "$TOOL" load "$f" "$D/logs/refused.bin" > /dev/null 2>> "$LOGS/refused.log"; then
        die "Darknet decoded $f, which should be refused"
    fi
done
(cd "$D/refused" && ls | sort) > "$D/refused.txt"
[ "$(wc -l < "$D/refused.txt")" = 3 ] || die "expected 3 refused files, made $(wc -l < "$D/refused.txt")"

(cd "$D" && ls | grep -E '\.(bmp|tiff|webp|ppm|pgm|pbm)$' | sort) > "$D/list.txt"
[ "$(wc -l < "$D/list.txt")" -ge 58 ] || die "expected at least 58 sample files, made $(wc -l < "$D/list.txt")"
while read -r name; do
    dims=$(run load "$TOOL" load "$D/$name" "$D/$name.bin")
    echo "$dims" > "$D/$name.txt"
done < "$D/list.txt"
step_done "Darknet's pixels ($(wc -l < "$D/list.txt") files)"
mark_complete "$D" "formats"
