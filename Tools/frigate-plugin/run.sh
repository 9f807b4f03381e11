#!/usr/bin/env bash
# Runs Frigate's own ZMQ detector plugin (frigate/detectors/plugins/zmq_ipc.py, read from a Frigate
# checkout: nothing of Frigate's is kept in this repository) against a local `swift-darknet serve
# --zmq`, as a Frigate user's detector would: the model handshake, then detections of one photo.
#
#   Tools/frigate-plugin/run.sh FRIGATE_CHECKOUT MODEL_PATH [IMAGE] [REQUEST_TIMEOUT_MS]
#
# MODEL_PATH is Frigate's model.path: e.g. /config/yolov3-tiny.weights (the served model's name;
# no transfer) or a .tar of .cfg, .weights and .names (transferred, saved, loaded). The plugin runs
# in a temporary folder with stand-ins for the two Frigate modules it imports (detection_api.py and
# detector_config.py here: only what it uses), in a pinned venv (~/.cache/swiftdarknet-frigate-venv).
# Prints the plugin's log and, per detection, its 20x6 rows above zero; then `detect --json` on the
# tensor's pixels, for comparison. Stops the server it started.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
[ $# -ge 2 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
frigate=$1 model=$2 image=${3:-Weights/darknet/data/dog.jpg} timeout_ms=${4:-5000}
plugin=$frigate/frigate/detectors/plugins/zmq_ipc.py
[ -f "$plugin" ] || { echo "no $plugin (a clone of blakeblackshear/frigate)" >&2; exit 2; }
# shellcheck source=../python-venv.sh
source Tools/python-venv.sh
venv=$HOME/.cache/swiftdarknet-frigate-venv
ensure_venv "$venv" "pydantic, zmq, numpy, PIL" pydantic==2.14.4 pyzmq==27.3.0 numpy==2.4.6 pillow==13.0.0

work=$(mktemp -d)
serve_pid=""
trap '[ -n "$serve_pid" ] && kill -TERM "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/frigate/detectors/plugins" "$work/models"
touch "$work/frigate/__init__.py" "$work/frigate/detectors/__init__.py" "$work/frigate/detectors/plugins/__init__.py"
cp "$plugin" "$work/frigate/detectors/plugins/zmq_ipc.py"
cp "$here/detection_api.py" "$here/detector_config.py" "$work/frigate/detectors/"

swift build -c release --product swift-darknet >/dev/null
bin=$(swift build -c release --show-bin-path)
"$bin/swift-darknet" serve --cfg Weights/darknet/cfg/yolov3-tiny.cfg --weights Weights/yolov3-tiny.weights \
    --names Weights/darknet/data/coco.names --port 0 --zmq "ipc://$work/zmq_detector" --zmq-models "$work/models" \
    --max-upload 64 --workers 1 > "$work/serve.out" 2> "$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 300); do grep -q '^swift-darknet serve:' "$work/serve.out" && break; sleep 0.1; done
image=$(realpath "$image")
(cd "$work" && PYTHONPATH="$work" "$venv/bin/python" "$here/drive.py" "ipc://$work/zmq_detector" "$model" "$image" 416 "$timeout_ms" "$work/tensor.png")
"$bin/swift-darknet" detect --cfg Weights/darknet/cfg/yolov3-tiny.cfg --weights Weights/yolov3-tiny.weights \
    --names Weights/darknet/data/coco.names --thresh 0.4 --json "$work/tensor.png"
echo "server log:"; cat "$work/serve.err"
