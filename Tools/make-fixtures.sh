#!/usr/bin/env bash
# Generates the Darknet reference data the fidelity tests compare against, using the original
# Darknet (Debian package `darknet`, libdarknet.so) through Tools/darknet-reference/darknet_ref.c.
#
#   Tools/make-fixtures.sh [OUTDIR]        (default: <repo>/Fixtures/generated)
#
# OUTDIR/
#   bin/darknet_ref                       the reference tool, compiled here
#   cfg/yolov3-416.cfg, yolov3-tiny-416.cfg   416x416, batch=1, subdivisions=1
#   input/dog-416.bin, eagle-416.bin      letterboxed network inputs (float32 LE, CHW)
#   input/dog-416-ulp.bin                 dog-416 with ~1 ulp of deterministic noise
#   tiny-real/                            every layer of YOLOv3-tiny, real weights, dog-416
#   tiny-random/                          every layer of YOLOv3-tiny, random weights (seed 7)
#   yolov3-random/                        YOLOv3 random weights (seed 11): yolo/route/upsample
#                                         layers and 0,1,2,4,10,36,61, on dog-416
#   yolov3-random-eagle/                  the same layers of the same network on eagle-416
#   sanity/yolov3-random-ulp/             its yolo layers on input/dog-416-ulp.bin (dog-416 with
#                                         ~1 ulp of noise): float rounding sensitivity
#   weights/yolov3-tiny-random.weights, yolov3-random.weights
#   images/NAME.bin + NAME.txt ("W H C"), images/NAME-416.bin   load_image_color / letterbox
#   detect/thresh-0.5.jsonl, thresh-0.25.jsonl   `darknet detect` results, real tiny weights
#   stats.txt                             activation statistics of the random nets
#   zoo/                                  YOLOv2, YOLOv3-SPP, classifiers, BFLOPs of every
#                                         Debian cfg (see Tools/make-fixtures-zoo.sh)
#   debian/                               YOLOv1, t1.test, yolo9000, darknet9000, rnn, rnn.train,
#                                         gru (see Tools/make-fixtures-debian.sh)
#   debian-lstm-crnn/                     [lstm] and [crnn] (see Tools/make-fixtures-debian-lstm-crnn.sh)
#   formats/                              BMP, TIFF, WebP, Netpbm samples and Darknet's pixels for
#                                         them (see Tools/make-fixtures-formats.sh)
#   logs/                                 Darknet's stderr per step
#   .complete                             written last: the darknet package version
# Every layer directory has layers.json and layerNNN.bin (l.output, float32 LE, CHW).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$REPO/Fixtures/generated}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

DARKNET_DIR=/usr/lib/darknet
TINY_WEIGHTS=Weights/yolov3-tiny.weights
IMAGES=(dog eagle giraffe horses kite person scream)

export QT_QPA_PLATFORM=offscreen
export OMP_NUM_THREADS=1

FIXTURE_SCRIPT=make-fixtures
# shellcheck source=Tools/fixture-steps.sh
. "$REPO/Tools/fixture-steps.sh"

if [ ! -f "$DARKNET_DIR/libdarknet.so" ] || [ ! -f "$DARKNET_DIR/include/darknet.h" ]; then
    die "$DARKNET_DIR/libdarknet.so or darknet.h not found: install Darknet with 'apt-get install darknet'"
fi
command -v cc >/dev/null 2>&1 || die "no C compiler (cc) found"
command -v python3 >/dev/null 2>&1 || die "python3 is needed for the sanity checks"
DARKNET_VERSION=$(dpkg-query -W -f='${Version}' darknet 2>/dev/null) || die "dpkg does not know the darknet package: 'apt-get install darknet'"

cd "$REPO"
for f in "$CFG_SRC/yolov3.cfg" "$CFG_SRC/yolov3-tiny.cfg" "$TINY_WEIGHTS" "$DATA/coco.names"; do
    [ -f "$f" ] || die "missing $f (run Weights/fetch.sh)"
done
for name in "${IMAGES[@]}"; do
    [ -f "$DATA/$name.jpg" ] || die "missing $DATA/$name.jpg (run Weights/fetch.sh)"
done

# Regenerate from scratch (only the entries this script owns).
rm -f "$OUT/.complete"
for d in bin cfg input tiny-real tiny-random yolov3-random yolov3-random-eagle sanity weights images detect logs; do
    rm -rf "${OUT:?}/$d"
done
rm -f "$OUT/stats.txt"
mkdir -p "$OUT"/{bin,cfg,input,weights,images,detect,logs,sanity}

TOOL=$OUT/bin/darknet_ref
LOGS=$OUT/logs
T_ALL=$(date +%s.%N)
T_STEP=$T_ALL

# 1. the tool
run build cc -O2 -Wall -I"$DARKNET_DIR/include" "$REPO/Tools/darknet-reference/darknet_ref.c" \
    -L"$DARKNET_DIR" -Wl,-rpath,"$DARKNET_DIR" -ldarknet -lm -o "$TOOL"
step_done "compile darknet_ref"

# 9, started now. YOLOv2, YOLOv3-SPP, the classifiers and every Debian cfg's BFLOPs: OUT/zoo/.
# It needs only the tool, and Darknet runs on one thread, so it runs beside steps 2-8 and 10-11
# on the other core; its output is shown when it is waited for.
ZOO_OUT=$LOGS/make-fixtures-zoo.out
bash "$REPO/Tools/make-fixtures-zoo.sh" "$OUT" > "$ZOO_OUT" 2>&1 &
ZOO_PID=$!
trap 'kill "$ZOO_PID" 2>/dev/null || true' EXIT

# 2. cfgs at 416x416, batch 1 (only the keys of the [net] section)
net416() {
    sed -E '/^\[(net|network)\]/,/^\[/{
        s/^[[:space:]]*batch[[:space:]]*=.*/batch=1/
        s/^[[:space:]]*subdivisions[[:space:]]*=.*/subdivisions=1/
        s/^[[:space:]]*width[[:space:]]*=.*/width=416/
        s/^[[:space:]]*height[[:space:]]*=.*/height=416/
    }' "$1" > "$2"
}
net416 "$CFG_SRC/yolov3.cfg" "$OUT/cfg/yolov3-416.cfg"
net416 "$CFG_SRC/yolov3-tiny.cfg" "$OUT/cfg/yolov3-tiny-416.cfg"
for c in yolov3-416 yolov3-tiny-416; do
    for kv in batch=1 subdivisions=1 width=416 height=416; do
        grep -qx "$kv" "$OUT/cfg/$c.cfg" || die "$c.cfg: could not set $kv"
    done
done
step_done "cfgs"

# 3. images: load_image_color and 416x416 letterbox
for name in "${IMAGES[@]}"; do
    img=$DATA/$name.jpg
    dims=$(run images "$TOOL" load "$img" "$OUT/images/$name.bin")
    echo "$dims" > "$OUT/images/$name.txt"
    run images "$TOOL" letterbox "$img" 416 416 "$OUT/images/$name-416.bin"
done
cp "$OUT/images/dog-416.bin" "$OUT/input/dog-416.bin"
cp "$OUT/images/eagle-416.bin" "$OUT/input/eagle-416.bin"
step_done "images (load + letterbox x7)"

TINY_CFG=$OUT/cfg/yolov3-tiny-416.cfg
Y3_CFG=$OUT/cfg/yolov3-416.cfg
DOG=$OUT/input/dog-416.bin
EAGLE=$OUT/input/eagle-416.bin

# 4. YOLOv3-tiny, real weights, every layer
run tiny-real "$TOOL" forward "$TINY_CFG" "$TINY_WEIGHTS" "$DOG" "$OUT/tiny-real" all
step_done "tiny-real forward (all layers)"

# 5. YOLOv3-tiny, random weights (seed 7)
run tiny-random "$TOOL" randweights "$TINY_CFG" "$OUT/weights/yolov3-tiny-random.weights" 7 "$DOG"
run tiny-random "$TOOL" randweights "$TINY_CFG" "$OUT/logs/tiny-random-again.weights" 7 "$DOG"
cmp -s "$OUT/weights/yolov3-tiny-random.weights" "$OUT/logs/tiny-random-again.weights" ||
    die "randweights is not deterministic"
rm -f "$OUT/logs/tiny-random-again.weights"
run tiny-random "$TOOL" forward "$TINY_CFG" "$OUT/weights/yolov3-tiny-random.weights" "$DOG" "$OUT/tiny-random" all
step_done "tiny-random weights + forward (all layers)"

# 6. YOLOv3, random weights (seed 11): yolo, route, upsample layers plus a few convolutions
y3_layers=$(awk '
    /^[[:space:]]*\[/ {
        name = $0; gsub(/[[:space:]\[\]]/, "", name)
        if (name == "net" || name == "network") next
        if (name == "yolo" || name == "route" || name == "upsample") sel[idx] = 1
        idx++
    }
    END {
        split("0,1,2,4,10,36,61", extra, ",")
        for (k in extra) sel[extra[k]] = 1
        out = ""
        for (i = 0; i < idx; i++) if (i in sel) out = out (out == "" ? "" : ",") i
        print out
    }' "$Y3_CFG")
[ -n "$y3_layers" ] || die "could not compute the YOLOv3 layer list"
log "yolov3 layers dumped: $y3_layers"
run yolov3-random "$TOOL" randweights "$Y3_CFG" "$OUT/weights/yolov3-random.weights" 11 "$DOG"
step_done "yolov3-random weights"
run yolov3-random "$TOOL" forward "$Y3_CFG" "$OUT/weights/yolov3-random.weights" "$DOG" "$OUT/yolov3-random" "$y3_layers"
run yolov3-random "$TOOL" forward "$Y3_CFG" "$OUT/weights/yolov3-random.weights" "$EAGLE" "$OUT/yolov3-random-eagle" "$y3_layers"
step_done "yolov3-random forward (dog, eagle)"

# How much the random YOLOv3 amplifies float32 rounding: dog-416 with ~1 ulp of noise
# (relative +-1.2e-7, fixed seed), yolo layers only. Reported in stats.txt.
python3 - "$DOG" "$OUT/input/dog-416-ulp.bin" <<'PY'
import array, random, sys
a = array.array("f")
with open(sys.argv[1], "rb") as f:
    a.frombytes(f.read())
rng = random.Random(2)
b = array.array("f", (x * (1 + rng.uniform(-1.2e-7, 1.2e-7)) for x in a))
with open(sys.argv[2], "wb") as f:
    f.write(b.tobytes())
PY
run yolov3-random "$TOOL" forward "$Y3_CFG" "$OUT/weights/yolov3-random.weights" "$OUT/input/dog-416-ulp.bin" "$OUT/sanity/yolov3-random-ulp" yolo
step_done "yolov3-random forward (dog + 1 ulp noise)"

# 7. detections as `darknet detect` reports them (image paths relative to the repo root)
for th in 0.5 0.25; do
    out=$OUT/detect/thresh-$th.jsonl
    : > "$out"
    for name in "${IMAGES[@]}"; do
        line=$(run detect "$TOOL" detect "$CFG_SRC/yolov3-tiny.cfg" "$TINY_WEIGHTS" "$DATA/$name.jpg" \
               "$th" 0.5 0.45 --names "$DATA/coco.names")
        [ "$(printf '%s\n' "$line" | wc -l)" = 1 ] && [ "${line:0:1}" = "{" ] ||
            die "detect $name: expected one JSON line, got: $line"
        printf '%s\n' "$line" >> "$out"
    done
done
step_done "detect (7 images x 2 thresholds)"

# 8. sanity checks (no numpy: array module)
python3 - "$OUT" <<'PY' | tee "$OUT/stats.txt"
import array, json, math, os, sys

out = sys.argv[1]

def load(path):
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    if sys.byteorder != "little":
        a.byteswap()
    return a

def stats(a):
    n = len(a)
    m = math.fsum(a) / n
    v = math.fsum((x - m) * (x - m) for x in a) / n
    return m, math.sqrt(v), min(a), max(a)

def layers(d):
    with open(os.path.join(out, d, "layers.json")) as f:
        return json.load(f)["layers"]

problems = []

# expected detections with the real weights
with open(os.path.join(out, "detect", "thresh-0.5.jsonl")) as f:
    dog = [json.loads(l) for l in f if '"Weights/darknet/data/dog.jpg"' in l][0]
got = [(d["label"], round(d["prob"] * 100)) for d in dog["detections"]]
want = [("dog", 56), ("car", 52), ("truck", 55), ("car", 62), ("bicycle", 59)]
print("dog.jpg thresh 0.5:", ", ".join("%s %d%%" % g for g in got))
if got != want:
    problems.append("dog.jpg detections %r != %r" % (got, want))

for d in ("tiny-real", "tiny-random", "yolov3-random"):
    print("\n%s: layer  type            shape            mean      std       min       max" % d)
    for l in layers(d):
        a = load(os.path.join(out, d, l["file"]))
        if len(a) != l["out_c"] * l["out_h"] * l["out_w"]:
            problems.append("%s/%s: %d floats, shape says %d" % (d, l["file"], len(a), l["out_c"] * l["out_h"] * l["out_w"]))
        m, s, lo, hi = stats(a)
        print("  %3d  %-13s %4dx%3dx%3d  %9.4f %9.4f %9.4f %9.4f" % (l["index"], l["type"], l["out_c"], l["out_h"], l["out_w"], m, s, lo, hi))
        if not all(math.isfinite(x) for x in (m, s, lo, hi)):
            problems.append("%s layer %d: non-finite values" % (d, l["index"]))
        elif d != "tiny-real" and l["type"] in ("convolutional", "shortcut", "route", "upsample") and not (0.05 < s < 20 and abs(m) < 20):
            problems.append("%s layer %d: activations not O(1) (mean %.3g std %.3g)" % (d, l["index"], m, s))

# The random YOLOv3 must react to its input: dog vs eagle.
print("\nyolov3-random, dog vs eagle (same weights):")
for l in layers("yolov3-random"):
    if l["type"] != "yolo":
        continue
    a = load(os.path.join(out, "yolov3-random", l["file"]))
    b = load(os.path.join(out, "yolov3-random-eagle", l["file"]))
    n = len(a)
    mad = math.fsum(abs(x - y) for x, y in zip(a, b)) / n
    mag = math.fsum(abs(x) for x in a) / n
    _, sa, _, _ = stats(a)
    # the logistic channels (x, y, objectness, classes) vs the raw w, h channels
    per = l["out_c"] // 3
    hw = l["out_h"] * l["out_w"]
    raw = [k for k in range(n) if (k // hw) % per in (2, 3)]
    mad_raw = math.fsum(abs(a[k] - b[k]) for k in raw) / len(raw)
    print("  layer %3d (%dx%d): mean|dog-eagle| %.4f (all), %.4f (raw w,h); mean|dog| %.4f, std(dog) %.4f"
          % (l["index"], l["out_h"], l["out_w"], mad, mad_raw, mag, sa))
    if mad < 0.02 or mad_raw < 0.1:
        problems.append("yolov3-random layer %d barely depends on the input (%.4f)" % (l["index"], mad))

print("\nyolov3-random, dog vs dog with ~1 ulp of input noise (float rounding sensitivity):")
for l in layers(os.path.join("sanity", "yolov3-random-ulp")):
    a = load(os.path.join(out, "yolov3-random", l["file"]))
    b = load(os.path.join(out, "sanity", "yolov3-random-ulp", l["file"]))
    d = [abs(x - y) for x, y in zip(a, b)]
    print("  layer %3d: max|diff| %.2e, mean|diff| %.2e" % (l["index"], max(d), math.fsum(d) / len(d)))

if problems:
    print("\nPROBLEMS:")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print("\nsanity checks passed")
PY
step_done "sanity checks"

# 10. YOLOv1 ([local], [detection]), class trees (yolo9000, darknet9000), [rnn] and [gru]:
#     OUT/debian/ (see Tools/make-fixtures-debian.sh; skipped when its .complete is current)
bash "$REPO/Tools/make-fixtures-debian.sh" "$OUT"
step_done "debian (Tools/make-fixtures-debian.sh)"

# 11. [lstm] and [crnn]: OUT/debian-lstm-crnn/ (see Tools/make-fixtures-debian-lstm-crnn.sh;
#     skipped when its .complete is current)
bash "$REPO/Tools/make-fixtures-debian-lstm-crnn.sh" "$OUT"
step_done "debian-lstm-crnn (Tools/make-fixtures-debian-lstm-crnn.sh)"

# 12. BMP, TIFF, WebP and Netpbm files and Darknet's pixels for them: OUT/formats/ (see
#     Tools/make-fixtures-formats.sh; skipped when its .complete is current)
bash "$REPO/Tools/make-fixtures-formats.sh" "$OUT"
step_done "formats (Tools/make-fixtures-formats.sh)"

# 9, waited for.
zoo_status=0
wait "$ZOO_PID" || zoo_status=$?
cat "$ZOO_OUT"
[ "$zoo_status" = 0 ] || die "Tools/make-fixtures-zoo.sh failed (exit $zoo_status; its output is above)"
step_done "zoo (Tools/make-fixtures-zoo.sh, beside the steps above)"

du -sh "$OUT" | awk '{print "make-fixtures: total size " $1}' >&2
printf '%s\n' "$DARKNET_VERSION" > "$OUT/.complete"
T_STEP=$T_ALL
step_done "TOTAL"
