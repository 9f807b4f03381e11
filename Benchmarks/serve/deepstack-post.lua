-- wrk script: POST /v1/vision/detection with a DeepStack multipart form holding one image
-- (SERVE_BENCH_IMAGE), as Blue Iris or Frigate would; counts the responses by status and prints
-- one JSON line at the end (Benchmarks/serve/bench.sh and scale-out.sh read it).
-- SERVE_BENCH_DELAY_MS, if set, makes each connection wait that long before its next request:
-- a paced load below capacity (scale-out.sh's soak).
local path = os.getenv("SERVE_BENCH_IMAGE")
local file = assert(io.open(path, "rb"), "SERVE_BENCH_IMAGE: cannot open " .. tostring(path))
local image = file:read("*a")
file:close()
local pause = tonumber(os.getenv("SERVE_BENCH_DELAY_MS") or "0")

local boundary = "----swiftdarknet-wrk-boundary"
wrk.method = "POST"
wrk.path = "/v1/vision/detection"
wrk.headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
wrk.body = "--" .. boundary .. "\r\n"
    .. "Content-Disposition: form-data; name=\"image\"; filename=\"image.jpg\"\r\n"
    .. "Content-Type: image/jpeg\r\n\r\n" .. image .. "\r\n"
    .. "--" .. boundary .. "\r\n"
    .. "Content-Disposition: form-data; name=\"min_confidence\"\r\n\r\n0.4\r\n"
    .. "--" .. boundary .. "--\r\n"

local threads = {}
function setup(thread)
    table.insert(threads, thread)
end

if pause > 0 then
    function delay()
        return pause
    end
end

ok, busy, other = 0, 0, 0
function response(status, headers, body)
    if status == 200 then ok = ok + 1 elseif status == 503 then busy = busy + 1 else other = other + 1 end
end

function done(summary, latency, requests)
    local counts = { ok = 0, busy = 0, other = 0 }
    for _, thread in ipairs(threads) do
        for name, _ in pairs(counts) do counts[name] = counts[name] + thread:get(name) end
    end
    local seconds = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format('{"seconds": %.3f, "ok": %d, "busy": %d, "other": %d, "ok_per_s": %.2f, "p50_ms": %.1f, "p99_ms": %.1f, '
        .. '"max_ms": %.1f, "socket_errors": %d}\n', seconds, counts.ok, counts.busy, counts.other, counts.ok / seconds,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
        e.connect + e.read + e.write + e.timeout))
end
