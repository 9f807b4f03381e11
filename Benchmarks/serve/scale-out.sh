#!/usr/bin/env bash
# Scale-out tried for real: swift-darknet serve replicas on network-namespace hosts of their own
# behind Debian's HAProxy, health-checked on /v2/health/ready, under a bounded closed-loop wrk load
# (DeepStack forms of dog.jpg). Phases, each its own wrk run:
#   one     1 replica serving (r2 set to maintenance in HAProxy): images/s
#   two     2 replicas serving: images/s; `one` and `two` alternate for --rounds rounds, and the
#           ratio of their medians is printed
#   kill    2 up; r2 gets SIGKILL mid-load: failed requests counted beside r2's requests in flight
#   drain   2 up; r2 gets SIGTERM mid-load: failed requests (expected 0) and r2's exit status
#   join    r1 up; r2 starts mid-load and joins once ready: failed requests, r2's share
#   soak    (--soak MINUTES) 2 up at about 80 % of `two`'s rate (paced connections): per minute
#           images/s, p99, and each replica's resident memory and open file descriptors
#
#   sudo Benchmarks/serve/scale-out.sh [--seconds 15] [--connections 4] [--rounds 2] [--soak 10] [--image FILE] [--pin]
#
# --pin gives each replica one CPU of its own (r1 the first this process may use, r2 the second,
# with taskset), as a container limited to one CPU has it: a replica's preparation thread (JPEG
# decoding) then shares its worker's core instead of taking a second one, and one replica is one
# core's worth of work. HAProxy and wrk stay unpinned.
#
# Needs root (ip netns), haproxy and wrk (installed if missing). Hosts: a bridge in namespace
# sdscale-hub; sdscale-lb (10.231.7.10: HAProxy on :8080 and wrk), sdscale-r1 and -r2 (10.231.7.11-12:
# serve on :5000, 1 worker, 1 thread). Nothing listens outside these namespaces; everything
# started is stopped and the namespaces deleted on exit. Retries: detection is a pure function of
# the form, so HAProxy buffers each request (tune.bufsize) and retries it on another replica after
# a connection failure, an empty response or a 503 (retry-on). Not part of the test suite.
# The replicas' CPU use is printed beside the rates: on a shared machine it tells whether a
# replica had its core. Results: a markdown table on stdout, every run's JSON in $SERVE_SCALE_WORK/results.jsonl
# (default .build/serve-scale).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=15 connections=4 rounds=2 soak=0 image=Weights/darknet/data/dog.jpg pin=0
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --soak) soak=$2; shift 2 ;;
        --image) image=$2; shift 2 ;;
        --pin) pin=1; shift ;;
        *) echo "usage: $0 [--seconds S] [--connections N] [--rounds R] [--soak MINUTES] [--image FILE] [--pin]" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "scale-out: needs root for ip netns" >&2; exit 2; }
work=${SERVE_SCALE_WORK:-$PWD/.build/serve-scale}
log() { echo "scale-out: $*" >&2; }
for tool in haproxy wrk; do command -v "$tool" >/dev/null || { log "installing $tool"; apt-get install -y -qq "$tool" >/dev/null; }; done
[ -f Weights/yolov3-tiny.weights ] || bash Weights/fetch.sh
log "building (release)"
swift build -c release --product swift-darknet >/dev/null
bin=$(swift build -c release --show-bin-path)
rm -rf "$work" && mkdir -p "$work"
results=$work/results.jsonl
: > "$results"

prefix=sdscale
hosts=(lb r1 r2)
declare -A address=([lb]=10.231.7.10 [r1]=10.231.7.11 [r2]=10.231.7.12)
# With --pin, the CPU each replica runs on: the first two this process may use.
mapfile -t allowed < <(taskset -c -p $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r first last; do seq "$first" "${last:-$first}"; done)
[ "$pin" = 0 ] || [ "${#allowed[@]}" -ge 2 ] || { echo "scale-out: --pin needs two CPUs, this process may use ${#allowed[@]}" >&2; exit 2; }
declare -A cpu=([r1]=${allowed[0]} [r2]=${allowed[1]:-${allowed[0]}})
declare -A pid=()
haproxy_pid=""

cleanup() {
    for name in "${!pid[@]}"; do kill -KILL "${pid[$name]}" 2>/dev/null || true; done
    [ -n "$haproxy_pid" ] && kill "$haproxy_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    for host in "${hosts[@]}" hub; do ip netns del "$prefix-$host" 2>/dev/null || true; done
}
trap cleanup EXIT

for host in "${hosts[@]}" hub; do
    if ip netns list | grep -qw "$prefix-$host"; then log "namespace $prefix-$host exists: another run? delete it first"; exit 1; fi
done
ip netns add "$prefix-hub"
ip -n "$prefix-hub" link add br0 type bridge
ip -n "$prefix-hub" link set br0 up
for host in "${hosts[@]}"; do
    ns=$prefix-$host
    ip netns add "$ns"
    ip -n "$prefix-hub" link add "to-$host" type veth peer name eth0 netns "$ns"
    ip -n "$prefix-hub" link set "to-$host" master br0 up
    ip -n "$ns" addr add "${address[$host]}/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
done
in_lb() { ip netns exec "$prefix-lb" "$@"; }

# start_replica rN: serve in its namespace; returns once /v2/health/ready answers 200.
start_replica() {
    local name=$1 pinning=()
    [ "$pin" = 0 ] || pinning=(taskset -c "${cpu[$name]}")
    "${pinning[@]}" ip netns exec "$prefix-$name" "$bin/swift-darknet" serve --cfg Weights/darknet/cfg/yolov3-tiny.cfg --weights Weights/yolov3-tiny.weights \
        --names Weights/darknet/data/coco.names --bind "${address[$name]}" --port 5000 --workers 1 --threads 1 --queue 16 \
        --log-level warning > "$work/$name.out" 2>> "$work/$name.err" &
    pid[$name]=$!
    for _ in $(seq 1 300); do
        [ "$(in_lb curl -s -o /dev/null -w '%{http_code}' "http://${address[$name]}:5000/v2/health/ready" || true)" = 200 ] && return 0
        sleep 0.1
    done
    log "$name did not become ready: $(tail -3 "$work/$name.err")"
    exit 1
}

# stop_replica rN SIGNAL: sends the signal and waits; the exit status is left in $stopped.
stopped=0
stop_replica() {
    local name=$1 signal=$2
    stopped=0
    kill "-$signal" "${pid[$name]}"
    wait "${pid[$name]}" || stopped=$?
    unset "pid[$name]"
}

cat > "$work/haproxy.cfg" <<EOF
global
    maxconn 256
    tune.bufsize 262144
    stats socket $work/haproxy.sock mode 600 level admin
defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout queue 30s
    retries 3
    option redispatch 1
    option http-buffer-request
    retry-on conn-failure empty-response response-timeout 503
frontend detections
    bind ${address[lb]}:8080
    default_backend serve
backend serve
    balance leastconn
    option httpchk GET /v2/health/ready
    http-check expect status 200
    default-server inter 250ms fall 1 rise 2 maxconn 4
    server r1 ${address[r1]}:5000 check
    server r2 ${address[r2]}:5000 check
EOF
# Started directly (not through in_lb, a function: its subshell's pid would be the one killed).
ip netns exec "$prefix-lb" haproxy -f "$work/haproxy.cfg" -db > "$work/haproxy.log" 2>&1 &
haproxy_pid=$!

# server_stat SERVER FIELD: a server's counter from HAProxy's stats socket (stot, hrsp_2xx, hrsp_5xx,
# eresp, econ, wretr, wredis, status).
server_stat() {
    python3 - "$work/haproxy.sock" "$1" "$2" <<'PY'
import csv, io, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"show stat\n")
data = b""
while chunk := s.recv(65536): data += chunk
rows = list(csv.reader(io.StringIO(data.decode().lstrip("# "))))
head = rows[0]
for row in rows[1:]:
    if len(row) == len(head) and row[0] == "serve" and row[1] == sys.argv[2]:
        print(row[head.index(sys.argv[3])] or 0)
PY
}

# set_state SERVER STATE: HAProxy's admin state of a server (ready, drain, maint).
set_state() {
    python3 - "$work/haproxy.sock" "set server serve/$1 state $2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode() + b"\n")
while s.recv(65536): pass
PY
}

# wait_status SERVER STATUS: until HAProxy's check says so (UP, DOWN).
wait_status() {
    for _ in $(seq 1 200); do [ "$(server_stat "$1" status)" = "$2" ] && return 0; sleep 0.1; done
    log "$1 is $(server_stat "$1" status), not $2"
    exit 1
}

# load PHASE SECONDS [CONNECTIONS [DELAY_MS]]: one wrk run through HAProxy, its JSON line kept.
load() {
    local phase=$1 duration=$2 conns=${3:-$connections} delay=${4:-0}
    local line
    line=$(SERVE_BENCH_IMAGE=$image SERVE_BENCH_DELAY_MS=$delay in_lb wrk -t 2 -c "$conns" -d "${duration}s" --timeout 30s \
        -s Benchmarks/serve/deepstack-post.lua "http://${address[lb]}:8080" | grep '^{')
    echo "{\"phase\": \"$phase\", \"connections\": $conns, \"delay_ms\": $delay, \"wrk\": $line}" >> "$results"
    echo "$line"
}

# cpu rN: CPU seconds (user + system) the replica has used so far.
cpu() { awk -v tick="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / tick}' "/proc/${pid[$1]}/stat"; }
# cores RN BEFORE: CPU cores the replica used on average since BEFORE, over the phase's seconds.
cores() { python3 -c "print(f'{($(cpu "$1") - $2) / $seconds:.2f}')"; }

field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])$2)" "$1"; }
# per_core WRK_LINE CORES: images/s over the cores the replicas used (what scaling keeps when a
# shared machine gives them less than a core each).
per_core() { python3 -c "print(f'{$(field "$1" "['ok_per_s']") / max($2, 0.01):.1f}')"; }
failed() { field "$1" "['other'] + json.loads(sys.argv[1])['busy'] + json.loads(sys.argv[1])['socket_errors']"; }

log "phases one and two, $rounds rounds"
start_replica r1
start_replica r2
wait_status r1 UP
wait_status r2 UP
one_rows=() two_rows=() one_rates=() two_rates=()
for round in $(seq 1 "$rounds"); do
    set_state r2 maint
    wait_status r2 MAINT
    before1=$(cpu r1)
    line=$(load "one $round" "$seconds")
    used1=$(cores r1 "$before1")
    one_rows+=("$line|r1 used $used1 cores: $(per_core "$line" "$used1") images per core-second")
    one_rates+=("$(field "$line" "['ok_per_s']")")
    set_state r2 ready
    wait_status r2 UP
    before1=$(cpu r1) before2=$(cpu r2)
    line=$(load "two $round" "$seconds")
    used1=$(cores r1 "$before1") used2=$(cores r2 "$before2")
    two_rows+=("$line|r1 used $used1, r2 $used2 cores: $(per_core "$line" "$(python3 -c "print($used1 + $used2)")") images per core-second")
    two_rates+=("$(field "$line" "['ok_per_s']")")
done
median() { python3 -c "import statistics, sys; print(statistics.median(float(v) for v in sys.argv[1:]))" "$@"; }
one_rate=$(median "${one_rates[@]}")
two_rate=$(median "${two_rates[@]}")
two=${two_rows[0]%%|*}

log "phase kill: SIGKILL r2 mid-load"
load kill "$seconds" > "$work/kill.json" &
wrk_pid=$!
sleep $(( seconds / 3 ))
inflight=$(in_lb curl -s "http://${address[r2]}:5000/metrics" | awk '$1 == "swiftdarknet_open_requests" {print $2 - 1}')
retries_before=$(( $(server_stat r2 wretr) + $(server_stat r2 wredis) ))
stop_replica r2 KILL
kill_status=$stopped
wait "$wrk_pid"
kill_line=$(cat "$work/kill.json")
kill_retried=$(( $(server_stat r2 wretr) + $(server_stat r2 wredis) - retries_before ))
wait_status r2 DOWN

log "phase drain: SIGTERM r2 mid-load"
start_replica r2
wait_status r2 UP
load drain "$seconds" > "$work/drain.json" &
wrk_pid=$!
sleep $(( seconds / 3 ))
retries_before=$(( $(server_stat r2 wretr) + $(server_stat r2 wredis) ))
answered_503=$(server_stat r2 hrsp_5xx)
stop_replica r2 TERM
drain_status=$stopped
wait "$wrk_pid"
drain_line=$(cat "$work/drain.json")
drain_retried=$(( $(server_stat r2 wretr) + $(server_stat r2 wredis) - retries_before ))
answered_503=$(( $(server_stat r2 hrsp_5xx) - answered_503 ))
wait_status r2 DOWN

log "phase join: r2 starts mid-load"
joined_before=$(server_stat r2 hrsp_2xx)
load join "$seconds" > "$work/join.json" &
wrk_pid=$!
sleep $(( seconds / 4 ))
start_replica r2
wait "$wrk_pid"
join_line=$(cat "$work/join.json")
joined=$(( $(server_stat r2 hrsp_2xx) - joined_before ))

echo
echo "| phase | images/s | p50 ms | p99 ms | failed | notes |"
echo "|---|---|---|---|---|---|"
row() { echo "| $1 | $(field "$2" "['ok_per_s']") | $(field "$2" "['p50_ms']") | $(field "$2" "['p99_ms']") | $(failed "$2") | $3 |"; }
for round in $(seq 1 "$rounds"); do
    entry=${one_rows[$((round - 1))]}
    row "1 replica, round $round" "${entry%%|*}" "${entry#*|}"
    entry=${two_rows[$((round - 1))]}
    row "2 replicas, round $round" "${entry%%|*}" "${entry#*|}"
done
echo "| 2 replicas / 1 (medians) | $(python3 -c "print(f'{$two_rate / $one_rate:.2f}x')") | | | | $(python3 -c "print(f'{$two_rate:.1f} / {$one_rate:.1f}')") images/s |"
row "SIGKILL r2 mid-load" "$kill_line" "r2 had $inflight in flight; HAProxy retried or redispatched $kill_retried; r2 exit $kill_status (137 = killed)"
row "SIGTERM r2 mid-load" "$drain_line" "r2 answered $answered_503 with 503 while draining; HAProxy retried or redispatched $drain_retried; r2 exit status $drain_status"
row "r2 joins mid-load" "$join_line" "r2 answered $joined requests after joining"

if [ "$soak" -gt 0 ]; then
    # Paced: each of 2 connections waits so that together they ask about 80 % of `two`'s rate
    # (a request takes about 1000 / one_rate ms on an idle replica).
    delay=$(python3 -c "print(max(0, round(2 * 1000 / (0.8 * $two_rate) - 1000 / $one_rate)))")
    log "soak: $soak minutes, 2 connections, ${delay} ms between a response and the next request"
    echo
    echo "| minute | images/s | p99 ms | failed | r1 RSS MB | r2 RSS MB | r1 fds (files+sockets) | r2 fds |"
    echo "|---|---|---|---|---|---|---|---|"
    rss() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/${pid[$1]}/status"; }
    # Descriptors other than sockets (files, pipes, eventfds, epoll), and sockets (connections vary with the load).
    fds() { find "/proc/${pid[$1]}/fd" -mindepth 1 -printf '%l\n' | awk '/^socket:/ {s++; next} {f++} END {printf "%d+%d", f, s}'; }
    for minute in $(seq 1 "$soak"); do
        line=$(load "soak $minute" 60 2 "$delay")
        # Read once the requests wrk left in flight are done (a request holds its decoded image).
        sleep 1
        rss1=$(rss r1) rss2=$(rss r2) fds1=$(fds r1) fds2=$(fds r2)
        echo "{\"phase\": \"soak $minute\", \"r1_rss_mb\": $rss1, \"r2_rss_mb\": $rss2, \"r1_fds\": \"$fds1\", \"r2_fds\": \"$fds2\"}" >> "$results"
        echo "| $minute | $(field "$line" "['ok_per_s']") | $(field "$line" "['p99_ms']") | $(failed "$line") | $rss1 | $rss2 | $fds1 | $fds2 |"
    done
    # After warm-up (minute 1): resident memory's largest change, file descriptors, p99's range.
    python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
memory = [row for row in rows if row["phase"].startswith("soak ") and "r1_rss_mb" in row]
load = [row["wrk"] for row in rows if row["phase"].startswith("soak ") and "wrk" in row]
for name in ("r1", "r2"):
    rss = [row[f"{name}_rss_mb"] for row in memory]
    files = sorted({row[f"{name}_fds"].split("+")[0] for row in memory})
    print(f"{name}: RSS {rss[0]:.1f} MB after minute 1, then {min(rss[1:] or rss):.1f}..{max(rss[1:] or rss):.1f} MB "
          f"(largest change {max(abs(v - rss[0]) for v in rss):.1f} MB); non-socket descriptors {', '.join(files)}")
p99 = [row["p99_ms"] for row in load]
print(f"p99 per minute {min(p99):.1f}..{max(p99):.1f} ms; failed {sum(r['other'] + r['busy'] + r['socket_errors'] for r in load)}")
PY
fi
for name in r1 r2; do if [ -n "${pid[$name]:-}" ]; then stop_replica "$name" TERM; fi; done
log "done; JSON in $results"
