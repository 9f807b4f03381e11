#!/usr/bin/env bash
# swift-darknet serve under load: wrk posts DeepStack forms (dog.jpg) over loopback to a release
# build, at 1, 4 and 32 connections with 1 and 2 workers (one inference thread each), then with
# an overflowing queue; darknet-bench --batch measures the same model on the same image in the
# same rounds, for the images/s the server is compared with. Prints a markdown table; the JSON of
# every run goes to $SERVE_BENCH_WORK (default .build/serve-bench).
#
#   Benchmarks/serve/bench.sh [--rounds 2] [--seconds 10] [--image FILE]
#
# Rounds interleave everything (batch 1 thread, the 1-worker rows, batch 2 threads, the 2-worker
# rows), so a slow minute of a shared machine falls on all of them; the table shows medians.
# Peak RSS is the server's VmHWM over all of a configuration's rows. Not a test: timings are not
# judged. Needs wrk (Debian's package; installed if missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=2 seconds=10 image=Weights/darknet/data/dog.jpg
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --image) image=$2; shift 2 ;;
        *) echo "usage: $0 [--rounds N] [--seconds S] [--image FILE]" >&2; exit 2 ;;
    esac
done
work=${SERVE_BENCH_WORK:-$PWD/.build/serve-bench}
log() { echo "serve-bench: $*" >&2; }

command -v wrk >/dev/null || { log "installing wrk"; apt-get install -y -qq wrk >/dev/null; }
[ -f Weights/yolov3-tiny.weights ] || bash Weights/fetch.sh
log "building (release)"
swift build -c release --product swift-darknet >/dev/null
swift build -c release --product darknet-bench >/dev/null
bin=$(swift build -c release --show-bin-path)
model=(--cfg Weights/darknet/cfg/yolov3-tiny.cfg --weights Weights/yolov3-tiny.weights)
rm -rf "$work" && mkdir -p "$work/batch"
for i in $(seq 1 16); do cp "$image" "$work/batch/image-$i.jpg"; done   # the same image, as wrk posts it
results=$work/results.jsonl
: > "$results"
loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)

# serve_rows WORKERS QUEUE ROUND CONNECTIONS...: one server, one wrk run per connection count.
serve_rows() {
    local workers=$1 queue=$2 round=$3
    shift 3
    "$bin/swift-darknet" serve "${model[@]}" --names Weights/darknet/data/coco.names --port 0 --workers "$workers" --threads 1 \
        --queue "$queue" --connections 512 --log-level error > "$work/serve.out" 2> "$work/serve.err" &
    local pid=$! port=""
    for _ in $(seq 1 200); do
        port=$(sed -n 's/^swift-darknet serve: http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/serve.out")
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { log "serve did not start: $(cat "$work/serve.err")"; kill "$pid"; exit 1; }
    for connections in "$@"; do
        local line
        line=$(SERVE_BENCH_IMAGE=$image wrk -t "$(( connections < 2 ? 1 : 2 ))" -c "$connections" -d "${seconds}s" --timeout 30s \
            -s Benchmarks/serve/deepstack-post.lua "http://127.0.0.1:$port" | grep '^{')
        echo "{\"kind\": \"serve\", \"round\": $round, \"workers\": $workers, \"queue\": $queue, \"connections\": $connections, \"wrk\": $line," \
            "\"peak_rss_mb\": $(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")}" >> "$results"
    done
    kill -TERM "$pid"
    wait "$pid" || { log "serve exited $?: $(tail -3 "$work/serve.err")"; exit 1; }
}

batch_row() {
    local threads=$1 round=$2
    local line
    line=$("$bin/darknet-bench" "${model[@]}" --batch "$work/batch" --threads "$threads" --runs 3 --warmup 1 --json | tail -1)
    echo "{\"kind\": \"batch\", \"round\": $round, \"threads\": $threads, \"bench\": $line}" >> "$results"
}

for round in $(seq 1 "$rounds"); do
    log "round $round of $rounds"
    batch_row 1 "$round"
    serve_rows 1 64 "$round" 1 4 32
    batch_row 2 "$round"
    serve_rows 2 64 "$round" 1 4 32
    serve_rows 2 4 "$round" 32    # the queue overflows: 32 clients, 2 running, 4 waiting
done

python3 - "$results" "$loadavg_start" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
median = lambda values: statistics.median(values) if values else float("nan")
batch = {}
for t in (1, 2):
    runs = [r["bench"] for r in rows if r["kind"] == "batch" and r["threads"] == t]
    batch[t] = {k: median([r[k] for r in runs if r.get(k) is not None]) for k in
                ("sequential_images_per_s", "overlapped_images_per_s", "parallel_images_per_s", "forward_median_ms")}
print(f"CPU: {sys.argv[4]}; load average {sys.argv[2]} at the start, {sys.argv[3]} at the end\n")
print("| workers x threads | connections | queue | images/s | vs darknet-bench --batch | p50 ms | p99 ms | 503/s | peak RSS MB |")
print("|---|---|---|---|---|---|---|---|---|")
for workers, queue, connections in [(1, 64, 1), (1, 64, 4), (1, 64, 32), (2, 64, 1), (2, 64, 4), (2, 64, 32), (2, 4, 32)]:
    runs = [r for r in rows if r["kind"] == "serve" and (r["workers"], r["queue"], r["connections"]) == (workers, queue, connections)]
    if not runs:
        continue
    w = [r["wrk"] for r in runs]
    rate = median([x["ok_per_s"] for x in w])
    reference = batch[1]["sequential_images_per_s"] if workers == 1 else batch[2]["parallel_images_per_s"]
    busy = median([x["busy"] / x["seconds"] for x in w])
    print(f"| {workers} x 1 | {connections} | {queue} | {rate:.1f} | {rate / reference:.2f} | {median([x['p50_ms'] for x in w]):.1f} | "
          f"{median([x['p99_ms'] for x in w]):.1f} | {busy:.1f} | {max(r['peak_rss_mb'] for r in runs)} |")
print(f"\ndarknet-bench --batch (16 copies of the image), medians: 1 thread sequential {batch[1]['sequential_images_per_s']:.1f}, "
      f"overlapped {batch[1]['overlapped_images_per_s']:.1f} images/s (forward {batch[1]['forward_median_ms']:.1f} ms); "
      f"2 threads, 2 images at once (parallel) {batch[2]['parallel_images_per_s']:.1f} images/s")
others = sum(r["wrk"]["other"] + r["wrk"]["socket_errors"] for r in rows if r["kind"] == "serve")
print(f"responses other than 200 and 503, and socket errors, over all runs: {others}")
PY
