#!/usr/bin/env bash
# Reference data for [lstm] and [crnn] from the original Darknet (Debian's libdarknet.so).
# Called by Tools/make-fixtures.sh (after it has built the tool):
#
#   Tools/make-fixtures-debian-lstm-crnn.sh OUTDIR        (OUTDIR as for make-fixtures.sh)
#
# Idempotent: skips everything when OUTDIR/debian-lstm-crnn/.complete holds the current darknet
# package version and the checksum of this script, of fixture_checks.py, of darknet_ref.c and of
# the cfgs.
#
# OUTDIR/debian-lstm-crnn/
#   cfg/NAME.cfg             Fixtures/cfg/{lstm-stack,lstm-crnn-vector,crnn-image}.cfg
#   input/                   onehot-H.bin; crnn-image-K.bin (five 20x12 images: dog.jpg
#                            letterboxed, shifted and dimmed a little more each step)
#   weights/NAME.weights     random weights (darknet_ref randweights, fixed seeds)
#   NAME/stepKK/             one step per character of "Hello" (lstm-stack, lstm-crnn-vector,
#                            darknet_ref steps) or per image (crnn-image, darknet_ref binsteps),
#                            state carried: layers.json + layerNNN.bin + input.bin
#   flops/NAME.json          BFLOPs as darknet_ref counts them ([convolutional] layers only)
#   stats.txt                activation statistics and sanity checks
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FIXTURE_SCRIPT=make-fixtures-debian-lstm-crnn
# shellcheck source=Tools/fixture-steps.sh
. "$REPO/Tools/fixture-steps.sh"
start_part "${1:-}"
D=$OUT/debian-lstm-crnn
LOGS=$D/logs
TEXT=Hello
CFGS="lstm-stack lstm-crnn-vector crnn-image"
[ -f "$DATA/dog.jpg" ] || die "missing $DATA/dog.jpg (run Weights/fetch.sh)"

STAMP=$(debian_stamp "$REPO/Tools/make-fixtures-debian-lstm-crnn.sh" "$REPO/Tools/fixture_checks.py" \
    "$REPO/Tools/darknet-reference/darknet_ref.c" \
    $(for c in $CFGS; do echo "$REPO/Fixtures/cfg/$c.cfg"; done))
exit_if_complete "$D"
mkdir -p "$D"/{cfg,input,weights,flops,logs}

for c in $CFGS; do cp "Fixtures/cfg/$c.cfg" "$D/cfg/"; done
run input "$TOOL" letterbox "$DATA/dog.jpg" 20 12 "$D/input/dog-20x12.bin"
python3 - "$D/input" <<'PY'
import array, sys
d = sys.argv[1]
a = array.array("f", [0.0] * 256)
a[ord("H")] = 1.0
with open(d + "/onehot-H.bin", "wb") as f:
    f.write(a.tobytes())
dog = array.array("f")
with open(d + "/dog-20x12.bin", "rb") as f:
    dog.frombytes(f.read())
w, h, c = 20, 12, 3
assert len(dog) == w * h * c
for k in range(5):
    # step k: the image shifted k pixels to the right (wrapping) and dimmed by 10% per step
    out = array.array("f", [0.0] * len(dog))
    for ch in range(c):
        for y in range(h):
            for x in range(w):
                out[(ch * h + y) * w + x] = dog[(ch * h + y) * w + (x - k) % w] * (1 - 0.1 * k)
    with open("%s/crnn-image-%d.bin" % (d, k), "wb") as f:
        f.write(out.tobytes())
PY
step_done "cfgs and inputs"

run lstm-stack "$TOOL" randweights "$D/cfg/lstm-stack.cfg" "$D/weights/lstm-stack.weights" 61 "$D/input/onehot-H.bin"
run lstm-stack "$TOOL" steps "$D/cfg/lstm-stack.cfg" "$D/weights/lstm-stack.weights" "$TEXT" "$D/lstm-stack" all
step_done "lstm-stack ($TEXT)"
run lstm-crnn-vector "$TOOL" randweights "$D/cfg/lstm-crnn-vector.cfg" "$D/weights/lstm-crnn-vector.weights" 62 \
    "$D/input/onehot-H.bin"
run lstm-crnn-vector "$TOOL" steps "$D/cfg/lstm-crnn-vector.cfg" "$D/weights/lstm-crnn-vector.weights" "$TEXT" \
    "$D/lstm-crnn-vector" all
step_done "lstm-crnn-vector ($TEXT)"
run crnn-image "$TOOL" randweights "$D/cfg/crnn-image.cfg" "$D/weights/crnn-image.weights" 63 "$D/input/crnn-image-0.bin"
run crnn-image "$TOOL" binsteps "$D/cfg/crnn-image.cfg" "$D/weights/crnn-image.weights" "$D/crnn-image" all \
    "$D"/input/crnn-image-{0,1,2,3,4}.bin
step_done "crnn-image (5 images)"
for c in $CFGS; do
    run flops "$TOOL" flops "$D/cfg/$c.cfg" > "$D/flops/$c.json"
done
step_done "flops"

PYTHONPATH="$REPO/Tools" python3 - "$D" <<'PY' | tee "$D/stats.txt"
import json, math, os, sys
from fixture_checks import finish, load
d = sys.argv[1]
problems = []
for name in ("lstm-stack", "lstm-crnn-vector", "crnn-image"):
    for k in range(5):
        folder = os.path.join(d, name, "step%02d" % k)
        with open(os.path.join(folder, "layers.json")) as f:
            layers = json.load(f)["layers"]
        print("\n%s step %d: layer  type            count       mean      std       min       max  (c h w)" % (name, k))
        for l in layers:
            a = load(os.path.join(folder, l["file"]))
            if len(a) != l["outputs"]:
                problems.append("%s step %d layer %d: %d floats, outputs %d" % (name, k, l["index"], len(a), l["outputs"]))
            if any(not math.isfinite(x) for x in a):
                problems.append("%s step %d layer %d: non-finite values" % (name, k, l["index"]))
                continue
            n = len(a); m = math.fsum(a) / n
            s = math.sqrt(math.fsum((x - m) ** 2 for x in a) / n)
            print("  %3d  %-13s %8d  %9.4f %9.4f %9.4f %9.4f  (%d %d %d)" % (l["index"], l["type"], n, m, s, min(a), max(a),
                  l["out_c"], l["out_h"], l["out_w"]))
            if max(a) - min(a) < 1e-3:
                problems.append("%s step %d layer %d: nearly constant (%g..%g)" % (name, k, l["index"], min(a), max(a)))
            if l["weights_floats"] < 0:
                problems.append("%s layer %d: darknet_ref does not model its weights" % (name, l["index"]))
    # the state must matter: steps 2 and 3 of "Hello" are both 'l'
    if name != "crnn-image":
        first = next(l for l in layers if l["type"] in ("lstm", "crnn"))
        a = load(os.path.join(d, name, "step02", first["file"])); b = load(os.path.join(d, name, "step03", first["file"]))
        diff = max(abs(x - y) for x, y in zip(a, b))
        print("%s: layer %d, steps 2 and 3 (both 'l'): max difference %.4f" % (name, first["index"], diff))
        if diff < 1e-2:
            problems.append("%s: the same input twice gives the same output, no state carried" % name)
finish(problems)
PY
step_done "sanity checks"

mark_complete "$D" debian-lstm-crnn
