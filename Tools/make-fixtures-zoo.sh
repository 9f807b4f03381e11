#!/usr/bin/env bash
# Reference data for the YOLOv2 / YOLOv3-SPP / classifier layers, from the original Darknet.
# Called by Tools/make-fixtures.sh (after it has built the reference tool and the images):
#
#   Tools/make-fixtures-zoo.sh OUTDIR        (OUTDIR as for make-fixtures.sh)
#
# OUTDIR/zoo/
#   cfg/NAME.cfg                  Darknet's cfg with batch=1 (and the size named in NAME)
#   input/IMAGE-WxH.bin           letterboxed network inputs (darknet_ref letterbox)
#   weights/NAME.weights          random weights (darknet_ref randweights, fixed seeds)
#   NAME/                         layer outputs on dog (layers.json + layerNNN.bin)
#   detect/NAME-thresh-T.jsonl    `darknet detect` logic (get_network_boxes): the 7 images (yolov2-416: 3)
#   classify/NAME.txt             `darknet classifier predict` (the Debian binary) on dog.jpg
#   classify-valid/               `darknet classifier valid` (the Debian binary): valid.data, valid.list,
#                                 labels.list, img/ (the images under labelled names), expected.txt
#                                 (its output), input/IMAGE-256x256.bin (its input, darknet_ref centrecrop)
#   flops/CFG.json                BFLOPs of every Debian cfg Darknet parses (darknet_ref flops)
#   stats.txt                     activation statistics and sanity checks
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FIXTURE_SCRIPT=make-fixtures-zoo
# shellcheck source=Tools/fixture-steps.sh
. "$REPO/Tools/fixture-steps.sh"
start_part "${1:-}"
IMAGES=(dog eagle giraffe horses kite person scream)
Z=$OUT/zoo
command -v darknet >/dev/null 2>&1 || die "the darknet binary is missing: apt-get install darknet"

rm -rf "$Z"
mkdir -p "$Z"/{cfg,input,weights,detect,classify,flops,logs}
LOGS=$Z/logs
T_STEP=$(date +%s.%N)

# Layer indices of the sections named in $2 (comma-separated), plus the extra indices $3.
layers_of() {
    awk -v kinds="$2" -v extra="$3" '
        BEGIN { n = split(kinds, k, ","); for (i = 1; i <= n; i++) want[k[i]] = 1 }
        /^[[:space:]]*\[/ {
            name = $0; gsub(/[[:space:]\[\]]/, "", name)
            if (name == "net" || name == "network") next
            if (name in want) sel[idx] = 1
            idx++
        }
        END {
            m = split(extra, e, ","); for (i = 1; i <= m; i++) if (e[i] != "") sel[e[i]] = 1
            out = ""
            for (i = 0; i < idx; i++) if (i in sel) out = out (out == "" ? "" : ",") i
            print out
        }' "$1"
}

# input IMAGE W H: the letterboxed tensor, once.
input() {
    local f=$Z/input/$1-$2x$3.bin
    [ -f "$f" ] || run input "$TOOL" letterbox "$DATA/$1.jpg" "$2" "$3" "$f"
    echo "$f"
}

# net NAME CFG SEED SIZE LAYERS: random weights, then the chosen layers on dog.
net() {
    local name=$1 cfgf=$2 seed=$3 w=$4 h=$5 layers=$6
    local dog; dog=$(input dog "$w" "$h")
    run "$name" "$TOOL" randweights "$cfgf" "$Z/weights/$name.weights" "$seed" "$dog"
    run "$name" "$TOOL" forward "$cfgf" "$Z/weights/$name.weights" "$dog" "$Z/$name" "$layers"
    step_done "$name"
}

# 1. cfgs
cfg "$CFG_SRC/yolov2.cfg" "$Z/cfg/yolov2-416.cfg" 416
cfg "$CFG_SRC/yolov2-tiny.cfg" "$Z/cfg/yolov2-tiny-416.cfg" 416
cfg "$CFG_SRC/yolov2-tiny-voc.cfg" "$Z/cfg/yolov2-tiny-voc-416.cfg" 416
cfg "$CFG_SRC/yolov3-spp.cfg" "$Z/cfg/yolov3-spp-320.cfg" 320
cfg "$CFG_SRC/darknet.cfg" "$Z/cfg/darknet.cfg"
cfg "$CFG_SRC/tiny.cfg" "$Z/cfg/tiny.cfg"
cfg "$CFG_SRC/darknet19.cfg" "$Z/cfg/darknet19.cfg"
cfg "$CFG_SRC/resnet18.cfg" "$Z/cfg/resnet18-128.cfg" 128
cfg "$CFG_SRC/resnext50.cfg" "$Z/cfg/resnext50-128.cfg" 128
cfg "$CFG_SRC/go.cfg" "$Z/cfg/go.cfg"
cp Fixtures/cfg/classifier-layers.cfg Fixtures/cfg/global-average.cfg Fixtures/cfg/reorg-variants.cfg "$Z/cfg/"
step_done "cfgs"

# 2. networks with random weights
net yolov2-416 "$Z/cfg/yolov2-416.cfg" 21 416 416 \
    "$(layers_of "$Z/cfg/yolov2-416.cfg" region,reorg,route,maxpool 0,1,2,16,24,25,28,29)"
net yolov2-tiny "$Z/cfg/yolov2-tiny-416.cfg" 22 416 416 all
net yolov2-tiny-voc "$Z/cfg/yolov2-tiny-voc-416.cfg" 23 416 416 "$(layers_of "$Z/cfg/yolov2-tiny-voc-416.cfg" region,maxpool 14)"
net yolov3-spp-320 "$Z/cfg/yolov3-spp-320.cfg" 24 320 320 \
    "$(layers_of "$Z/cfg/yolov3-spp-320.cfg" maxpool,route,yolo,upsample 0,10,60,107)"
net darknet "$Z/cfg/darknet.cfg" 25 256 256 all
net tiny "$Z/cfg/tiny.cfg" 26 224 224 all
net darknet19 "$Z/cfg/darknet19.cfg" 27 256 256 all
# ResNet: [shortcut]s between layers of different shapes (strided grid, fewer channels)
net resnet18-128 "$Z/cfg/resnet18-128.cfg" 30 128 128 all
# ResNeXt: grouped convolutions (groups=32)
net resnext50-128 "$Z/cfg/resnext50-128.cfg" 31 128 128 \
    "$(layers_of "$Z/cfg/resnext50-128.cfg" shortcut,avgpool,softmax 0,2,3,7,43,60,63)"
# [cost] keeps no output at inference in Darknet (it only computes a training loss): not dumped.
net classifier-layers "$Z/cfg/classifier-layers.cfg" 28 40 36 0,1,2,3,4,5,6,7,8,9
net global-average "$Z/cfg/global-average.cfg" 29 28 28 all
net reorg-variants "$Z/cfg/reorg-variants.cfg" 32 8 8 all
# go.cfg reads a 19x19 board (one plane of -1, 0, 1): a fixed random position.
python3 - "$Z/input/go-board.bin" <<'PY'
import array, random, sys
rng = random.Random(5)
with open(sys.argv[1], "wb") as f:
    f.write(array.array("f", (float(rng.choice((-1, 0, 0, 1))) for _ in range(19 * 19))).tobytes())
PY
run go "$TOOL" randweights "$Z/cfg/go.cfg" "$Z/weights/go.weights" 33 "$Z/input/go-board.bin"
run go "$TOOL" forward "$Z/cfg/go.cfg" "$Z/weights/go.weights" "$Z/input/go-board.bin" "$Z/go" 0,6,12,13,14,15
step_done "go"

# 3. the classifier-layers weights again with the header's minor version above 1000: Darknet
#    then reads each [connected] weight matrix transposed (inputs x outputs).
python3 - "$Z/weights/classifier-layers.weights" "$Z/weights/classifier-layers-transposed.weights" <<'PY'
import array, struct, sys
src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
major, minor, revision = struct.unpack("<3i", data[:12])
assert (major, minor) == (0, 2), (major, minor)
body = array.array("f"); body.frombytes(data[20:])
seen = struct.unpack("<Q", data[12:20])[0]
# classifier-layers.cfg: (kind, outputs, inputs, batch_normalize, extra conv weights)
layers = [("conv", 16, 3 * 9, True), ("bn", 16, 0, False), ("conv", 24, 16 * 9, False),
          ("fc", 64, 24 * 15 * 16, True), ("fc", 40, 64, False)]
out = array.array("f"); p = 0
def take(n):
    global p
    r = body[p:p + n]; p += n; return r
for kind, n, k, bn in layers:
    if kind == "conv":
        out += take(n); out += take(3 * n) if bn else array.array("f"); out += take(n * k)
    elif kind == "bn":
        out += take(3 * n)
    else:
        out += take(n)
        w = take(n * k)  # outputs x inputs
        out += array.array("f", (w[o * k + i] for i in range(k) for o in range(n)))  # inputs x outputs
        if bn: out += take(3 * n)
assert p == len(body), (p, len(body))
with open(dst, "wb") as f:
    f.write(struct.pack("<3iI", 0, 1001, 0, seen & 0xFFFFFFFF)); f.write(out.tobytes())
PY
run classifier-layers "$TOOL" forward "$Z/cfg/classifier-layers.cfg" "$Z/weights/classifier-layers-transposed.weights" \
    "$(input dog 40 36)" "$Z/classifier-layers-transposed" 9
cmp -s "$Z/classifier-layers/layer009.bin" "$Z/classifier-layers-transposed/layer009.bin" ||
    die "Darknet's output with transposed [connected] weights differs from the plain file"
step_done "transposed [connected] weights"

# 4. detections with random weights (get_network_boxes covers [region] and [yolo])
detect() {
    local name=$1 cfgf=$2 th=$3 names=$4; shift 4
    local out=$Z/detect/$name-thresh-$th.jsonl
    : > "$out"
    for img in "$@"; do
        line=$(run "detect-$name" "$TOOL" detect "$cfgf" "$Z/weights/$name.weights" "$DATA/$img.jpg" "$th" 0.5 0.45 --names "$names")
        [ "${line:0:1}" = "{" ] || die "detect $name $img: expected a JSON line, got: $line"
        printf '%s\n' "$line" >> "$out"
    done
}
detect yolov2-tiny "$Z/cfg/yolov2-tiny-416.cfg" 0.2 "$DATA/coco.names" "${IMAGES[@]}"
detect yolov2-tiny-voc "$Z/cfg/yolov2-tiny-voc-416.cfg" 0.3 "$DATA/voc.names" "${IMAGES[@]}"
detect yolov2-416 "$Z/cfg/yolov2-416.cfg" 0.2 "$DATA/coco.names" dog eagle person
step_done "detect (region heads)"

# 5. `darknet classifier predict` itself (the Debian binary): which preprocessing it uses is
#    checked by the sanity step below against darknet_ref forward on letterboxed input.
printf 'classes=1000\nnames=%s\ntop=5\n' "$REPO/$DATA/imagenet.shortnames.list" > "$Z/classify/imagenet.data"
for name in darknet tiny; do
    for img in dog eagle; do
        run "classify-$name" darknet classifier predict "$Z/classify/imagenet.data" "$Z/cfg/$name.cfg" \
            "$Z/weights/$name.weights" "$DATA/$img.jpg" > "$Z/classify/$name-$img.txt"
    done
done
step_done "darknet classifier predict"

# 5b. `darknet classifier valid` (the Debian binary) on the 7 images copied under names that
#     carry ImageNet labels: most an image's most probable class, one a class ranked 2nd to 5th,
#     one an unrelated class, one no label (the ranks from darknet_ref forward on darknet_ref
#     centrecrop, the binary's input). Run from classify-valid/, whose list has relative paths.
V=$Z/classify-valid
mkdir -p "$V/img" "$V/input" "$V/scores"
for img in "${IMAGES[@]}"; do
    run classify-valid-crop "$TOOL" centrecrop "$DATA/$img.jpg" 256 256 "$V/input/$img-256x256.bin"
    run classify-valid-forward "$TOOL" forward "$Z/cfg/darknet.cfg" "$Z/weights/darknet.weights" "$V/input/$img-256x256.bin" \
        "$V/scores/$img" all
done
head -n 1000 "$DATA/imagenet.labels.list" > "$V/labels.list"
PYTHONPATH="$REPO/Tools" python3 - "$V" "${IMAGES[@]}" <<'PY'
import json, os, shutil, sys
from fixture_checks import load
v, images = sys.argv[1], sys.argv[2:]
labels = open(os.path.join(v, "labels.list")).read().split()
ranked = {}
for img in images:
    with open(os.path.join(v, "scores", img, "layers.json")) as f:
        last = json.load(f)["layers"][-1]
    scores = load(os.path.join(v, "scores", img, last["file"]))
    ranked[img] = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:5]
names = {img: labels[ranked[img][0]] for img in images}
names["eagle"] = labels[ranked["eagle"][3]]      # in its top 5, not first
names["giraffe"] = next(l for i, l in enumerate(labels) if i not in ranked["giraffe"])
names["scream"] = "nolabel"
order = ["dog", "eagle", "giraffe", "horses", "scream", "person", "kite", "eagle"]
with open(os.path.join(v, "valid.list"), "w") as f:
    for n, img in enumerate(order):
        name = "img/%s_%s%d.jpg" % (names[img] if n < 7 else labels[ranked[img][0]], img, n)
        shutil.copyfile(os.path.join("Weights/darknet/data", img + ".jpg"), os.path.join(v, name))
        f.write(name + "\n")
PY
printf 'classes=1000\nlabels=labels.list\nvalid=valid.list\ntop=5\n' > "$V/valid.data"
(cd "$V" && run classify-valid darknet classifier valid valid.data "$Z/cfg/darknet.cfg" "$Z/weights/darknet.weights") > "$V/expected.txt"
rm -rf "$V/scores"
step_done "darknet classifier valid"

# 6. BFLOPs of every Debian cfg Darknet's parser accepts (batch=1 to keep allocations small)
mkdir -p "$Z/flops/cfg"
for src in "$CFG_SRC"/*.cfg; do
    base=$(basename "$src" .cfg)
    cfg "$src" "$Z/flops/cfg/$base.cfg"
    if (cd Weights/darknet && timeout 60 "$TOOL" flops "$Z/flops/cfg/$base.cfg" > "$Z/flops/$base.json" 2> "$LOGS/flops-$base.log"); then
        :
    else
        rm -f "$Z/flops/$base.json"
        log "Darknet does not parse $base.cfg (see logs/flops-$base.log)"
    fi
done
step_done "flops (every Debian cfg)"

# 7. sanity checks
PYTHONPATH="$REPO/Tools" python3 - "$Z" <<'PY' | tee "$Z/stats.txt"
import json, math, os, re, sys
from fixture_checks import finish, load
z = sys.argv[1]
problems = []
for d in ("yolov2-416", "yolov2-tiny", "yolov2-tiny-voc", "yolov3-spp-320", "darknet", "tiny", "darknet19", "resnet18-128", "resnext50-128", "reorg-variants", "go",
          "classifier-layers", "global-average"):
    with open(os.path.join(z, d, "layers.json")) as f:
        layers = json.load(f)["layers"]
    print("\n%s: layer  type            count       mean      std       min       max" % d)
    for l in layers:
        a = load(os.path.join(z, d, l["file"]))
        n = len(a); m = math.fsum(a) / n
        s = math.sqrt(math.fsum((x - m) ** 2 for x in a) / n)
        print("  %3d  %-13s %8d  %9.4f %9.4f %9.4f %9.4f" % (l["index"], l["type"], n, m, s, min(a), max(a)))
        if not all(math.isfinite(x) for x in a):
            problems.append("%s layer %d: non-finite values" % (d, l["index"]))
        elif max(a) - min(a) < 1e-3:
            problems.append("%s layer %d: nearly constant (%g..%g)" % (d, l["index"], min(a), max(a)))
# detections: random weights must still find something
for f in sorted(os.listdir(os.path.join(z, "detect"))):
    with open(os.path.join(z, "detect", f)) as h:
        counts = [len(json.loads(line)["detections"]) for line in h]
    print("\n%s: detections per image %s" % (f, counts))
    if sum(counts) < 5:
        problems.append("%s: only %d detections" % (f, sum(counts)))
# `darknet classifier predict` must equal the top 5 of darknet_ref forward on the letterboxed image
names = open(os.path.join(os.getcwd(), "Weights/darknet/data/imagenet.shortnames.list")).read().split("\n")
for net, size in (("darknet", 256), ("tiny", 224)):
    with open(os.path.join(z, net, "layers.json")) as f:
        last = json.load(f)["layers"][-1]
    probs = load(os.path.join(z, net, last["file"]))
    top = sorted(range(len(probs)), key=lambda i: (-probs[i], i))[:5]
    mine = ["%5.2f%%: %s" % (probs[i] * 100, names[i]) for i in top]
    theirs = open(os.path.join(z, "classify", "%s-dog.txt" % net)).read().strip("\n").split("\n")
    print("\n%s dog: darknet classifier predict %s; forward on letterbox %s" % (net, theirs, mine))
    if mine != theirs:
        problems.append("%s: darknet classifier predict %r != letterboxed forward %r" % (net, theirs, mine))
# `darknet classifier valid`: hits at top 1, one more at top 5, an unlabelled image
valid = open(os.path.join(z, "classify-valid", "expected.txt")).read().splitlines()
final = re.match(r"(\d+): top 1: ([0-9.]+), top 5: ([0-9.]+)", valid[-1]).groups()
print("\ndarknet classifier valid: %s" % valid[-1])
if not (0 < float(final[1]) < float(final[2]) < 1) or not any(", -1, " in line for line in valid):
    problems.append("classifier valid: expected top-1 hits, a top-5-only hit and an unlabelled image: %s" % valid[-1])
finish(problems)
PY
step_done "sanity checks"
