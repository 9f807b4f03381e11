#!/usr/bin/env bash
# Reference data for the eight Debian cfgs with class trees, YOLOv1 heads and recurrent layers,
# from the original Darknet. Called by Tools/make-fixtures.sh (after it has built the tool):
#
#   Tools/make-fixtures-debian.sh OUTDIR        (OUTDIR as for make-fixtures.sh)
#
# Idempotent: skips everything when OUTDIR/debian/.complete holds the current darknet package
# version and the checksum of this script, of fixture-steps.sh (its cfg() writes the cfgs), of
# fixture_checks.py and of darknet_ref.c; otherwise regenerates from scratch and writes that
# marker last.
#
# OUTDIR/debian/
#   cfg/NAME.cfg             Darknet's cfg with batch=1, subdivisions=1 (and the size in NAME;
#                            rnn.train-1: time_steps=1 as well, see RECURRENT_AND_V1.md), and
#                            Fixtures/cfg/detection-softmax.cfg (unpadded [local], softmax=1 head),
#                            Fixtures/cfg/recurrent-variants.cfg ([rnn] shortcut, [gru] tanh + BN)
#   input/dog-WxH.bin        letterboxed dog.jpg (darknet_ref letterbox)
#   weights/NAME.weights     random weights (darknet_ref randweights, fixed seeds)
#   NAME/                    every layer on dog (layers.json + layerNNN.bin; the entries also
#                            give each layer's byte offset and float count in the weights)
#   NAME/stepKK/             recurrent cfgs: one step per character of "Hello" (one-hot at the
#                            byte value: H e l l o), state carried (darknet_ref steps)
#   rnn.train-5/             rnn.train with time_steps=5: "Hello" in one forward (darknet_ref
#                            sequence), every layer's 5 outputs; checked against rnn.train-1's steps
#   detect/NAME.json         `darknet detect` logic (get_network_boxes + do_nms_sort) on dog.jpg
#   detect/NAME-yolo-test-*.json  `darknet yolo test` logic (YOLOv1's test_yolo) on dog.jpg
#   classify/darknet9000-224-dog.txt   `darknet classifier predict` (the Debian binary), top 5
#   flops/NAME.json          BFLOPs as Darknet prints them, at the fixture's size
#   stats.txt                activation statistics and sanity checks
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FIXTURE_SCRIPT=make-fixtures-debian
# shellcheck source=Tools/fixture-steps.sh
. "$REPO/Tools/fixture-steps.sh"
start_part "${1:-}"
D=$OUT/debian
LOGS=$D/logs
TEXT=Hello
command -v darknet >/dev/null 2>&1 || die "the darknet binary is missing: apt-get install darknet"
for f in yolov1 yolov1-tiny t1.test yolo9000 darknet9000 rnn rnn.train gru; do
    [ -f "$CFG_SRC/$f.cfg" ] || die "missing $CFG_SRC/$f.cfg (run Weights/fetch.sh)"
done
for f in dog.jpg 9k.names voc.names; do
    [ -f "$DATA/$f" ] || die "missing $DATA/$f (run Weights/fetch.sh)"
done
# Debian's yolo9000.cfg and darknet9000.cfg name the tree by its installed path.
[ -f /usr/share/darknet/data/9k.tree ] || die "/usr/share/darknet/data/9k.tree missing: apt-get install darknet"

# fixture-steps.sh's cfg() writes these cfgs and fixture_checks.py writes stats.txt, so they are
# part of the stamp.
STAMP=$(debian_stamp "$REPO/Tools/make-fixtures-debian.sh" "$REPO/Tools/fixture-steps.sh" "$REPO/Tools/fixture_checks.py" \
    "$REPO/Tools/darknet-reference/darknet_ref.c" "$REPO/Fixtures/cfg/detection-softmax.cfg" \
    "$REPO/Fixtures/cfg/recurrent-variants.cfg")
exit_if_complete "$D"
mkdir -p "$D"/{cfg,input,weights,detect,classify,flops,logs}

# 1. cfgs: the detectors and classifiers at a small but real size (see the README there)
cfg "$CFG_SRC/yolov1-tiny.cfg" "$D/cfg/yolov1-tiny-224.cfg" 224
cfg "$CFG_SRC/yolov1.cfg" "$D/cfg/yolov1-192.cfg" 192
cfg "$CFG_SRC/t1.test.cfg" "$D/cfg/t1.test.cfg"
cfg "$CFG_SRC/yolo9000.cfg" "$D/cfg/yolo9000-224.cfg" 224
cfg "$CFG_SRC/darknet9000.cfg" "$D/cfg/darknet9000-224.cfg" 224
cp Fixtures/cfg/detection-softmax.cfg Fixtures/cfg/recurrent-variants.cfg "$D/cfg/"
cfg "$CFG_SRC/rnn.cfg" "$D/cfg/rnn.cfg"
cfg "$CFG_SRC/gru.cfg" "$D/cfg/gru.cfg"
# rnn.train: batch=128 time_steps=576 make one forward run 576 steps over 576 inputs; the
# generating form has one step per forward (time_steps=1), as rnn.cfg.
cfg "$CFG_SRC/rnn.train.cfg" "$D/cfg/rnn.train-1.cfg"
sed -i -E '/^\[(net|network)\]/,/^\[/{s/^[[:space:]]*time_steps[[:space:]]*=.*/time_steps=1/}' "$D/cfg/rnn.train-1.cfg"
grep -qx "time_steps=1" "$D/cfg/rnn.train-1.cfg" || die "rnn.train-1.cfg: could not set time_steps=1"
# ... and with time_steps=5, one forward runs the five steps of "Hello" (see sequence below).
sed -E '/^\[(net|network)\]/,/^\[/{s/^time_steps=1$/time_steps=5/}' "$D/cfg/rnn.train-1.cfg" > "$D/cfg/rnn.train-5.cfg"
grep -qx "time_steps=5" "$D/cfg/rnn.train-5.cfg" || die "rnn.train-5.cfg: could not set time_steps=5"
step_done "cfgs"

# 2. inputs
for s in 32 192 224; do
    run input "$TOOL" letterbox "$DATA/dog.jpg" "$s" "$s" "$D/input/dog-${s}x${s}.bin"
done
python3 - "$D/input/onehot-H.bin" <<'PY'
import array, sys
a = array.array("f", [0.0] * 256)
a[ord("H")] = 1.0
with open(sys.argv[1], "wb") as f:
    f.write(a.tobytes())
PY
step_done "inputs"

# 3. image networks: random weights, every layer on dog
net() {
    local name=$1 seed=$2 size=$3 layers=${4:-all}
    local dog=$D/input/dog-${size}x${size}.bin
    run "$name" "$TOOL" randweights "$D/cfg/$name.cfg" "$D/weights/$name.weights" "$seed" "$dog"
    run "$name" "$TOOL" forward "$D/cfg/$name.cfg" "$D/weights/$name.weights" "$dog" "$D/$name" "$layers"
    step_done "$name"
}
net yolov1-tiny-224 51 224
net t1.test 52 224
net yolov1-192 53 192
net yolo9000-224 54 224
net detection-softmax 59 32
# [cost] keeps no output at inference (Darknet only computes a training loss): not dumped.
net darknet9000-224 55 224 "$(seq -s, 0 25)"

# 4. recurrent networks: random weights calibrated on the one-hot 'H', then the steps
seq_net() {
    local name=$1 seed=$2
    run "$name" "$TOOL" randweights "$D/cfg/$name.cfg" "$D/weights/$name.weights" "$seed" "$D/input/onehot-H.bin"
    run "$name" "$TOOL" steps "$D/cfg/$name.cfg" "$D/weights/$name.weights" "$TEXT" "$D/$name" all
    step_done "$name ($TEXT)"
}
seq_net rnn 56
seq_net rnn.train-1 57
seq_net gru 58
seq_net recurrent-variants 60
# rnn.train as it trains: time_steps=5 steps in one forward, same weights as rnn.train-1
run rnn.train-5 "$TOOL" sequence "$D/cfg/rnn.train-5.cfg" "$D/weights/rnn.train-1.weights" "$TEXT" "$D/rnn.train-5"
step_done "rnn.train-5 (one forward over $TEXT)"

# 5. detections (image paths relative to the repo root)
detect() {
    local name=$1 th=$2 hier=$3 names=$4
    local line
    line=$(run "detect-$name" "$TOOL" detect "$D/cfg/$name.cfg" "$D/weights/$name.weights" "$DATA/dog.jpg" \
           "$th" "$hier" 0.45 --names "$names")
    [ "${line:0:1}" = "{" ] || die "detect $name: expected a JSON line, got: $line"
    printf '%s\n' "$line" > "$D/detect/$name-thresh-$th.json"
}
detect yolov1-tiny-224 0.2 0.5 "$DATA/voc.names"
detect yolov1-192 0.2 0.5 "$DATA/voc.names"
detect yolo9000-224 0.1 0.5 "$DATA/9k.names"
detect detection-softmax 0.05 0.5 "$DATA/voc.names"
step_done "detect"

# YOLOv1's own command, `darknet yolo test` (test_yolo): the image stretched, boxes relative to
# it, NMS 0.4, threshold 0.2 (its default), VOC's names
yolo_test() {
    local name=$1 line
    line=$(run "yolo-test-$name" "$TOOL" detect "$D/cfg/$name.cfg" "$D/weights/$name.weights" "$DATA/dog.jpg" \
           0.2 0 0.4 --names "$DATA/voc.names" --yolo-test)
    [ "${line:0:1}" = "{" ] || die "yolo test $name: expected a JSON line, got: $line"
    printf '%s\n' "$line" > "$D/detect/$name-yolo-test-thresh-0.2.json"
}
yolo_test yolov1-tiny-224
yolo_test yolov1-192
step_done "yolo test"

# 6. `darknet classifier predict` itself (the Debian binary), top 5 with the tree
printf 'classes=9418\nnames=%s\ntop=5\n' "$REPO/$DATA/9k.names" > "$D/classify/9k.data"
run classify darknet classifier predict "$D/classify/9k.data" "$D/cfg/darknet9000-224.cfg" \
    "$D/weights/darknet9000-224.weights" "$DATA/dog.jpg" > "$D/classify/darknet9000-224-dog.txt"
step_done "darknet classifier predict"

# 7. BFLOPs at the fixture sizes (Darknet counts convolutions only)
for name in yolov1-tiny-224 t1.test yolov1-192 yolo9000-224 darknet9000-224 detection-softmax rnn rnn.train-1 gru; do
    run flops "$TOOL" flops "$D/cfg/$name.cfg" > "$D/flops/$name.json"
done
step_done "flops"

# 8. sanity checks
PYTHONPATH="$REPO/Tools" python3 - "$D" "$TEXT" <<'PY' | tee "$D/stats.txt"
import array, json, math, os, sys
from fixture_checks import finish, load
d, text = sys.argv[1], sys.argv[2]
problems = []
def check(folder, label):
    with open(os.path.join(folder, "layers.json")) as f:
        layers = json.load(f)["layers"]
    print("\n%s: layer  type            count       mean      std       min       max" % label)
    for l in layers:
        a = load(os.path.join(folder, l["file"]))
        if len(a) != l["outputs"]:
            problems.append("%s layer %d: %d floats, outputs %d" % (label, l["index"], len(a), l["outputs"]))
        bad = sum(1 for x in a if not math.isfinite(x))
        if bad and l["type"] == "region":
            # Darknet's tree softmax in [region] divides by l.temperature, which parse_region
            # never sets (0): every value it writes is NaN (see RECURRENT_AND_V1.md).
            print("  %3d  region: %d NaN values written by the tree softmax (temperature 0)" % (l["index"], bad))
            a = array.array("f", (x for x in a if math.isfinite(x)))
            if bad > len(a) // 2:
                problems.append("%s layer %d: %d of %d values NaN" % (label, l["index"], bad, bad + len(a)))
        elif bad:
            problems.append("%s layer %d: non-finite values" % (label, l["index"]))
        n = len(a); m = math.fsum(a) / n
        s = math.sqrt(math.fsum((x - m) ** 2 for x in a) / n)
        print("  %3d  %-13s %8d  %9.4f %9.4f %9.4f %9.4f" % (l["index"], l["type"], n, m, s, min(a), max(a)))
        if bad and l["type"] != "region":
            continue
        if max(a) - min(a) < 1e-3:
            problems.append("%s layer %d: nearly constant (%g..%g)" % (label, l["index"], min(a), max(a)))
        elif l["type"] in ("convolutional", "local", "connected", "rnn") and not (0.05 < s < 20 and abs(m) < 20):
            problems.append("%s layer %d: activations not O(1) (mean %.3g std %.3g)" % (label, l["index"], m, s))
    return layers
for name in ("yolov1-tiny-224", "t1.test", "yolov1-192", "yolo9000-224", "darknet9000-224", "detection-softmax"):
    check(os.path.join(d, name), name)
for name in ("rnn", "rnn.train-1", "gru", "recurrent-variants"):
    for k in range(len(text)):
        check(os.path.join(d, name, "step%02d" % k), "%s step %d ('%s')" % (name, k, text[k]))
    # the state must matter: the 2nd and 4th characters differ, yet 'l' twice in a row must not repeat
    a = load(os.path.join(d, name, "step02", "layer000.bin")); b = load(os.path.join(d, name, "step03", "layer000.bin"))
    diff = max(abs(x - y) for x, y in zip(a, b))
    print("%s: layer 0, steps 2 and 3 (both 'l'): max difference %.4f" % (name, diff))
    if diff < 1e-2:
        problems.append("%s: the same input twice gives the same output, no state carried" % name)
# One forward over time_steps=5 steps must equal five one-step forwards with the state carried.
for i in range(5):
    whole = load(os.path.join(d, "rnn.train-5", "layer%03d.bin" % i))
    steps = array.array("f")
    for k in range(len(text)):
        steps += load(os.path.join(d, "rnn.train-1", "step%02d" % k, "layer%03d.bin" % i))
    diff = max(abs(x - y) for x, y in zip(whole, steps)) if len(whole) == len(steps) else float("inf")
    print("rnn.train-5 layer %d: one forward over %d steps vs %d single steps: max difference %g" % (i, len(text), len(text), diff))
    if diff > 1e-5:
        problems.append("rnn.train-5 layer %d differs from the single steps by %g" % (i, diff))
for f in sorted(os.listdir(os.path.join(d, "detect"))):
    with open(os.path.join(d, "detect", f)) as h:
        n = len(json.load(h)["detections"])
    print("\n%s: %d detections" % (f, n))
    if n < 3:
        problems.append("%s: only %d detections" % (f, n))
top = open(os.path.join(d, "classify", "darknet9000-224-dog.txt")).read().strip("\n").split("\n")
print("\ndarknet9000-224 dog:", top)
if len(top) != 5:
    problems.append("classify: %d lines" % len(top))
finish(problems)
PY
step_done "sanity checks"

mark_complete "$D" debian
