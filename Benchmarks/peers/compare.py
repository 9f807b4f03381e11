#!/usr/bin/env python3
"""SwiftDarknet (float and int8) vs ONNX Runtime (float and int8), OpenVINO, ncnn and OpenCV DNN on
one Darknet network, round-robin.

Usage (from the repository root, after `swift build -c release`):
  python Benchmarks/peers/compare.py --cfg Weights/darknet/cfg/yolov3-tiny.cfg \
      --weights Weights/yolov3-tiny.weights [--size 416] [--threads 1,2] [--rounds 5] [--runs 3] [--warmup 1]
  python Benchmarks/peers/compare.py --cfg Weights/darknet/cfg/yolov3.cfg --random [--seed 1] ...

Every system reads the same files: a copy of the cfg at --size with batch=1, and the given
weights or, with --random, one seeded random .weights file written here (SwiftDarknet gets it
through `darknet-bench --weights`, OpenCV through readNetFromDarknet, ONNX Runtime through an
ONNX graph built from it). The input is the image (default Darknet's dog.jpg) letterboxed to
the size. Each (system, threads) configuration runs as its own process: load, --warmup
forwards, then --runs timed forwards, recording wall time and process CPU time (all threads)
per forward and the peak resident memory. One round runs every configuration once, in an
order that rotates every round, so slow phases of a shared machine hit all systems alike.
With --interleave, a round instead loads every system (one process each, kept alive) at one
thread count and then alternates single forwards between them (`darknet-bench --serve` and
the peers' equivalent), so even short slow phases hit all systems alike; each forward then
also finds the caches as the other systems left them, as in an application that does other
work between frames. --interleave-threads also alternates the thread counts (every
configuration loaded at once), so the speed-ups from 1 to 2 threads compare the same minutes.
Every 1-thread process is pinned to the same CPU (the first this script may use; --no-pin
leaves them to the scheduler): each virtual CPU of this VM has slow and fast minutes of its
own, and processes left alone tend to stay on different CPUs, so one system would meet the
other CPU's speed (two copies of one darknet-bench read 1.465 apart unpinned, Benchmarks/PERFORMANCE.md).
Reported: the median over all timed forwards of all rounds, min, CPU time, peak RSS (for the
peers, of the Python process: "py base" is its resident size after importing numpy, before the
framework is imported) and, at each thread count, the ratios of our float system to ORT,
OpenCV, OpenVINO and fixed, and of our int8 system to our float one, ORT int8 and ORT: of the
median wall times, of the median CPU times and of the fastest forwards.

  SwiftDarknet  .build/release/darknet-bench --json --no-layers (forward latency, input prepared)
  ONNX Runtime  CPUExecutionProvider, ORT_ENABLE_ALL, intra_op_num_threads=T, inter_op=1, sequential
  OpenCV DNN    cv2.dnn.readNetFromDarknet, DNN_BACKEND_OPENCV / CPU, cv2.setNumThreads(T)
  SwiftDk bf16  (ours-bf16) darknet-bench --precision bf16: bfloat16 products, float32 sums, where
                the CPU has AVX512_BF16 and float32 is not faster (else float32)
  SwiftDk int8  (ours-int8, needs --calibrate DIR) darknet-bench --precision int8 --calibration
                FILE, the sidecar written once before the rounds by --calibrate DIR
                --save-calibration FILE (the load times are those of an app that calibrated once)
  SwiftDk int8 all  (ours-int8-all) the same with --float-layers none: every convolution in int8,
                as ORT int8 quantizes them (our default keeps the early ones and the heads float)
  ORT int8      (ort-int8, needs --calibrate DIR) the same ONNX graph quantized by ONNX
                Runtime's quantize_static (QDQ, per-channel int8 weights, uint8 activations,
                MinMax calibration on DIR's images letterboxed as Darknet does; ort_int8.py),
                run as ONNX Runtime above
  OpenVINO int8 (openvino-int8, needs --calibrate DIR) ORT int8's QDQ graph run by OpenVINO's CPU
                plugin as OpenVINO dflt below: OpenVINO fuses each DequantizeLinear -> Conv ->
                QuantizeLinear into its own int8 convolution (VNNI, AMX where the CPU has them);
                the layers left unquantized run at its default precision (the version column)
  OpenVINO f32  (openvino) the same ONNX graph, CPU plugin, INFERENCE_NUM_THREADS=T, LATENCY hint,
                one stream, INFERENCE_PRECISION_HINT f32 (Darknet's arithmetic)
  OpenVINO dflt (openvino-default) the same without the precision hint: OpenVINO's default
                (bf16 on a CPU with AVX-512 BF16 or AMX); its version column shows the precision
  ncnn fp32     (ncnn, PyPI wheels `ncnn` and `pnnx`) the same ONNX graph converted by pnnx
                (its binary, fp16=0: fp32 weights in the .bin) to ncnn's .param/.bin, run by
                ncnn.Net on the CPU with opt.num_threads=T, a new extractor per forward, and
                use_fp16_packed/storage/arithmetic and use_bf16_packed/storage off (Darknet's
                arithmetic; winograd and sgemm convolutions stay on, as by default)
  ncnn dflt     (ncnn-default) the same with ncnn's default options: on a CPU with ARMv8.2 fp16
                (asimdhp: Pi 5, Graviton 2+) fp16 storage and arithmetic; its version column shows
                whether the flags were on and whether the CPU has asimdhp. ncnn int8 needs the
                ncnn2table/ncnn2int8 tools, which neither wheel ships, so it is not measured.

`--check` first runs `swift-darknet forward` on the same input tensor and prints the largest
difference between the maps our [yolo] layers read and ONNX Runtime's and OpenCV's (and
OpenVINO's when installed, ncnn's when an ncnn system is measured, ORT int8's when measured),
showing that the systems compute the same network with the same weights. Then it puts every
system's maps (with --calibrate, also our int8's, default and with every convolution in 8 bits;
not with --random weights) through Darknet's decoder (`swift-darknet heads`, --image's size) at thresholds
0.25 and 0.5 and counts, against our float detections, those recovered (a detection of the same
class with IoU >= 0.8, the measure of Sources/Darknet/Arithmetic/README.md) and the extra ones.

`--contend on` runs every forward with a busy loop (`darknet-bench --busy-loop CPU`: a process
doing register arithmetic, pinned to the last CPU) keeping one core busy, as a noisy neighbour
on a shared machine would; `--contend both` measures every configuration both ways, the busy
process stopped (SIGSTOP) for the uncontended forwards and continued (SIGCONT) for the others,
so with --interleave both conditions alternate forward by forward. For our 2-thread
configurations the table's last column counts the forwards our session's thread policy ran
on 1 thread.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repository
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

SYSTEMS = {"ours": "SwiftDarknet", "ort": "ONNX Runtime", "opencv": "OpenCV DNN",
           "fixed": "SwiftDk fixed",  # `fixed`: ours with darknet-bench --fixed-threads (no thread policy)
           "ours-bf16": "SwiftDk bf16",  # ours with --precision bf16 (float32 where the CPU has no AVX512_BF16)
           "ours-int8": "SwiftDk int8",  # ours with --precision int8, calibrated once on --calibrate
           "ours-int8-all": "SwiftDk int8 all",  # the same with --float-layers none (every layer, as ORT int8)
           "ort-int8": "ORT int8",  # ONNX Runtime on the graph quantize_static made (needs --calibrate)
           "openvino": "OpenVINO f32",  # OpenVINO's CPU plugin on the same ONNX graph, f32 inference
           "openvino-default": "OpenVINO dflt",  # the same with OpenVINO's default precision (bf16 here)
           "openvino-int8": "OpenVINO int8",  # OpenVINO's CPU plugin on ORT int8's QDQ graph (needs --calibrate)
           "ncnn": "ncnn fp32",  # ncnn on the pnnx conversion of the same ONNX graph, fp16/bf16 options off
           "ncnn-default": "ncnn dflt"}  # the same with ncnn's default options (fp16 on ARMv8.2)
OURS_INT8 = ("ours-int8", "ours-int8-all")
OURS = ("ours", "fixed", "ours-bf16") + OURS_INT8
OPENVINO = ("openvino", "openvino-default", "openvino-int8")
QDQ = ("ort-int8", "openvino-int8")  # the systems that run the quantized ONNX graph
NCNN = ("ncnn", "ncnn-default")
# The ratio lines: each of our systems against these (when measured).
RATIOS = {"ours": ("ort", "opencv", "openvino", "openvino-default", "ncnn", "ncnn-default", "fixed"),
          "ours-bf16": ("ours", "openvino-default", "ncnn-default"),
          "ours-int8": ("ours", "ort-int8", "openvino-int8", "ort", "ncnn-default"),
          "ours-int8-all": ("ours", "ort-int8", "openvino-int8")}
SHORT = {"ours": "ours", "ort": "ORT", "opencv": "OpenCV", "fixed": "fixed", "ours-bf16": "bf16", "ours-int8": "int8", "ours-int8-all": "int8 all",
         "ort-int8": "ORT int8", "openvino": "OV f32", "openvino-default": "OV dflt", "openvino-int8": "OV int8", "ncnn": "ncnn",
         "ncnn-default": "ncnn dflt"}


def status_mb(field):
    """A /proc/self/status memory field in MB. Peak RSS is `VmHWM`, as darknet-bench reads it:
    getrusage's ru_maxrss would also count the parent's pages (Linux keeps the high-water mark
    of the pre-exec image of a forked or vforked child)."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb():
    return status_mb("VmHWM")


def current_rss_mb():
    return status_mb("VmRSS")


def loadavg():
    with open("/proc/loadavg") as handle:
        return " ".join(handle.read().split()[:3])


# MARK: worker (one peer system in its own process)

def worker(a):
    import numpy as np
    blob = np.load(a.input)
    baseline = current_rss_mb()
    start = time.perf_counter()
    if a.system in ("ort", "ort-int8"):
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = a.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session = ort.InferenceSession(a.onnx, options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name
        version = ort.__version__

        def forward():
            return session.run(None, {name: blob})
    elif a.system in OPENVINO:
        import openvino as ov
        core = ov.Core()
        config = {"INFERENCE_NUM_THREADS": a.threads, "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1}
        if a.system == "openvino":  # openvino-int8 keeps the default: its quantized convolutions run in int8 anyway
            config["INFERENCE_PRECISION_HINT"] = "f32"  # Darknet's arithmetic; the default is bf16 on this CPU
        compiled = core.compile_model(core.read_model(a.onnx), "CPU", config)
        request = compiled.create_infer_request()
        version = f"{ov.__version__.split('-')[0]} {compiled.get_property('INFERENCE_PRECISION_HINT')}"

        def forward():
            result = request.infer({0: blob})
            return [result[output] for output in compiled.outputs]
    elif a.system in NCNN:
        import ncnn
        net = ncnn.Net()
        net.opt.use_vulkan_compute = False
        net.opt.num_threads = a.threads
        if a.system == "ncnn":  # Darknet's arithmetic: no fp16/bf16 storage or arithmetic anywhere
            for flag in ("use_fp16_packed", "use_fp16_storage", "use_fp16_arithmetic", "use_bf16_packed",
                         "use_bf16_storage"):
                setattr(net.opt, flag, False)
        if net.load_param(a.ncnn + ".param") != 0 or net.load_model(a.ncnn + ".bin") != 0:
            sys.exit(f"ncnn could not load {a.ncnn}.param/.bin")
        with open(a.ncnn + ".param") as handle:  # pnnx names the graph's inputs in0.. and outputs out0..
            names = handle.read().split()
        outputs = sorted({n for n in names if n.startswith("out") and n[3:].isdigit()}, key=lambda n: int(n[3:]))
        image = ncnn.Mat(np.ascontiguousarray(blob[0]))
        half = "on" if net.opt.use_fp16_storage and net.opt.use_fp16_arithmetic else "off"
        # The flags, and whether this CPU can use them: ARMv8.2's asimdhp (fp16 arithmetic); x86 has none.
        version = f"{ncnn.__version__} fp16 {half}" + (
            f", asimdhp {'yes' if ncnn.cpu_support_arm_asimdhp() else 'no'}" if ncnn.cpu_support_arm_neon() else ", x86")

        def forward():
            extractor = net.create_extractor()  # ncnn's idiom: an extractor per input
            extractor.input("in0", image)
            return [extractor.extract(name)[1] for name in outputs]
    else:
        import cv2
        cv2.setNumThreads(a.threads)
        net = cv2.dnn.readNetFromDarknet(a.cfg, a.weights)
        net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        # For --check, the raw maps the [yolo] layers read (OpenCV names layer i `conv_i`);
        # otherwise its unconnected outputs (the decoded [yolo] layers), as a user runs it.
        outputs = [f"conv_{i}" for i in a.heads.split(",")] if a.heads else net.getUnconnectedOutLayersNames()
        version = cv2.__version__

        def forward():
            net.setInput(blob)
            return net.forward(outputs)
    load_ms = (time.perf_counter() - start) * 1e3
    for _ in range(a.warmup):
        forward()
    if a.serve:
        serve(forward, {"version": version, "load_ms": load_ms, "baseline_rss_mb": baseline})
        return
    wall, cpu = [], []
    for _ in range(a.runs):
        c0, t0 = time.process_time(), time.perf_counter()
        result = forward()
        wall.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    if a.dump:
        np.savez(a.dump, *[np.array(r, np.float32) for r in result])
    print(json.dumps({"version": version, "load_ms": load_ms, "forward_ms": wall, "forward_cpu_ms": cpu,
                      "peak_rss_mb": peak_rss_mb(), "baseline_rss_mb": baseline}))


def serve(forward, ready):
    """The peers' side of darknet-bench --serve: a JSON line when ready, one per `forward` line
    on stdin (that forward's wall and CPU time), the peak RSS at the end of the input."""
    print(json.dumps(dict(ready, ready=True)), flush=True)
    for line in sys.stdin:
        if line.strip() != "forward":
            sys.exit(f"worker: unknown command {line.strip()!r} (expected forward)")
        c0, t0 = time.process_time(), time.perf_counter()
        forward()
        wall, cpu = (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3
        print(json.dumps({"forward_ms": wall, "forward_cpu_ms": cpu}), flush=True)
    print(json.dumps({"peak_rss_mb": peak_rss_mb()}), flush=True)


# MARK: driver

class Contender:
    """A busy process pinned to the last CPU, stopped (SIGSTOP) or running (SIGCONT) on request."""

    def __init__(self, bench):
        self.cpu = max(os.sched_getaffinity(0))
        self.process = subprocess.Popen([bench, "--busy-loop", str(self.cpu)])
        self.running = True

    def set(self, running):
        if running != self.running:
            self.process.send_signal(signal.SIGCONT if running else signal.SIGSTOP)
            self.running = running

    def close(self):
        self.set(True)
        self.process.terminate()
        self.process.wait()


def onnx_of(system, files):
    """The ONNX graph an ONNX Runtime or OpenVINO system runs: the float one, or its int8 quantization."""
    return files["onnx-int8"] if system in QDQ else files["onnx"]


def peer_command(system, threads, a, files, runs):
    """This script's worker for one peer system, without --serve or --dump."""
    return [sys.executable, os.path.abspath(__file__), "worker", "--system", system, "--threads", str(threads),
            "--runs", str(runs), "--warmup", str(a.warmup), "--input", files["input"], "--cfg", files["cfg"],
            "--weights", files["weights"], "--onnx", onnx_of(system, files), "--ncnn", files.get("ncnn", "")]


def ours_command(system, threads, a, files):
    """darknet-bench for one of our systems, without its mode (--runs or --serve)."""
    command = [a.bench, "--cfg", files["cfg"], "--weights", files["weights"], "--size", str(a.size),
               "--threads", str(threads), "--warmup", str(a.warmup), "--image", a.image]
    if system == "fixed":
        command.append("--fixed-threads")
    if system == "ours-bf16":
        command += ["--precision", "bf16"]
    if system in OURS_INT8:
        command += ["--precision", "int8", "--calibration", files["calibration"]]
    if system == "ours-int8-all":
        command += ["--float-layers", "none"]
    return command


def pinning(threads, a):
    """For a 1-thread process (unless --no-pin): pins it to the first CPU this script may use."""
    if threads != 1 or a.no_pin:
        return None
    cpu = min(os.sched_getaffinity(0))
    return lambda: os.sched_setaffinity(0, {cpu})


def run_json(command, pin=None):
    completed = subprocess.run(command, capture_output=True, text=True, preexec_fn=pin)
    if completed.returncode != 0:
        sys.exit(f"failed ({completed.returncode}): {' '.join(command)}\n{completed.stderr}")
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    if not lines:
        sys.exit(f"no JSON line from: {' '.join(command)}\n{completed.stdout}\n{completed.stderr}")
    return json.loads(lines[-1])


def measure(system, threads, a, files, contended=False):
    if system in OURS:
        result = run_json(ours_command(system, threads, a, files) + ["--runs", str(a.runs), "--json", "--no-layers"],
                          pinning(threads, a))
        # Per-forward times when darknet-bench provides them, else its medians.
        result.setdefault("forward_ms", [result["median_ms"]])
        result.setdefault("forward_cpu_ms", [result.get("cpu_median_ms", float("nan"))])
        result["version"] = result.get("blas", "")
        return result
    return run_json(peer_command(system, threads, a, files, a.runs), pinning(threads, a))


class Server:
    """One system in its own process, loaded and warmed up, timing one forward per request."""

    def __init__(self, system, threads, a, files):
        if system in OURS:
            command = ours_command(system, threads, a, files) + ["--serve"]
        else:
            command = peer_command(system, threads, a, files, 0) + ["--serve"]
        self.command = command
        # A file, not a pipe: a process that writes much to stderr while the driver waits on its
        # stdout would otherwise block on the full pipe.
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.errors, text=True, bufsize=1, preexec_fn=pinning(threads, a))
        self.ready = self.reply()
        self.ready.setdefault("version", self.ready.get("blas", ""))

    def reply(self):
        line = self.process.stdout.readline()
        if not line.startswith("{"):
            self.process.kill()
            sys.exit(f"no JSON line from: {' '.join(self.command)}\n{line}{self.stderr()}")
        return json.loads(line)

    def forward(self):
        self.process.stdin.write("forward\n")
        self.process.stdin.flush()
        return self.reply()

    def close(self):
        self.process.stdin.close()
        last = self.reply()
        if self.process.wait() != 0:
            sys.exit(f"failed ({self.process.returncode}): {' '.join(self.command)}\n{self.stderr()}")
        self.errors.close()
        return last

    def stderr(self):
        self.process.wait()
        self.errors.seek(0)
        return self.errors.read()


def interleaved_round(configs, a, files, samples):
    """Every configuration of one thread count (with --interleave-threads: every configuration)
    loaded side by side (one process each, loaded one after another), then --runs rounds of one
    forward each, in turn: a slow phase of a shared machine, however short, hits every system
    (and every thread count) alike."""
    counts = [None] if a.interleave_threads else sorted({c[1] for c in configs})
    for count in counts:
        group = [c for c in configs if count is None or c[1] == count]
        servers = {}
        for config in group:
            time.sleep(a.pause)
            if a.contender:
                a.contender.set(False)
            servers[config] = Server(config[0], config[1], a, files)
        for run in range(a.runs):
            shift = run % len(group)
            for config in group[shift:] + group[:shift]:
                if a.contender:
                    a.contender.set(config[2])
                time.sleep(a.gap)
                result = servers[config].forward()
                samples[config]["wall"].append(result["forward_ms"])
                samples[config]["cpu"].append(result["forward_cpu_ms"])
                samples[config]["fewer"] += int(result.get("threads_used", config[1]) < config[1])
        for config, server in servers.items():
            entry = samples[config]
            entry["rss"].append(server.close()["peak_rss_mb"])
            entry["base"].append(server.ready.get("baseline_rss_mb", float("nan")))
            entry["load"].append(server.ready["load_ms"])
            entry["phases"].append(server.ready.get("load_phases_ms", {}))
            entry["version"] = server.ready["version"]


def our_maps(a, files, heads, name, extra=()):
    """Our [yolo] inputs for the check's input tensor (`swift-darknet forward`, `extra` options), or
    the error when the forward pass failed."""
    import numpy as np
    dump = os.path.join(files["dir"], name)
    completed = subprocess.run([a.cli, "forward", "--cfg", files["cfg"], "--weights", files["weights"],
                                "--input-bin", os.path.join(files["dir"], "input.bin"), "--dump", dump,
                                "--layers", ",".join(map(str, heads)), *extra], capture_output=True, text=True)
    if completed.returncode != 0:
        return None, completed.stderr.strip()
    return [np.fromfile(os.path.join(dump, f"layer{i:03d}.bin"), "<f4") for i in heads], None


def head_detections(a, files, maps, name, thresh):
    """The detections `swift-darknet heads` decodes from `maps` (the [yolo] inputs, in order)."""
    paths = []
    for i, values in enumerate(maps):
        paths += ["--head-input", os.path.join(files["dir"], f"{name}-head{i}.bin")]
        values.astype("<f4").tofile(paths[-1])
    width, height = files["image_size"]
    completed = subprocess.run([a.cli, "heads", "--cfg", files["cfg"], "--weights", files["weights"], *paths,
                                "--image-size", f"{width}x{height}", "--thresh", str(thresh), "--json"],
                               capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"check: swift-darknet heads failed on {name}'s maps: {completed.stderr.strip()}")
    return json.loads(completed.stdout)["detections"]


def box_iou(p, q):
    width = min(p["x"] + p["w"], q["x"] + q["w"]) - max(p["x"], q["x"])
    height = min(p["y"] + p["h"], q["y"] + q["h"]) - max(p["y"], q["y"])
    overlap = max(width, 0) * max(height, 0)
    union = p["w"] * p["h"] + q["w"] * q["h"] - overlap
    return overlap / union if union > 0 else 0.0


def recovered(reference, found):
    """(reference detections matched by one of `found` of the same class with IoU >= 0.8, extra ones in `found`):
    each reference detection, in order, takes the unused one of its class it overlaps most, as Int8NetworkTests does."""
    unused = list(found)
    matched = 0
    for want in reference:
        candidates = [d for d in unused if d["class"] == want["class"]]
        match = max(candidates, key=lambda d: box_iou(d, want), default=None)
        if match is not None and box_iou(match, want) >= 0.8:
            unused.remove(match)
            matched += 1
    return matched, len(unused)


def compare_detections(a, files, ours, others):
    """For each threshold, how many of our float detections each system's maps recover."""
    for thresh in (0.25, 0.5):
        reference = head_detections(a, files, ours, "ours", thresh)
        parts = []
        for system, maps in others:
            found = head_detections(a, files, maps, system, thresh)
            matched, extra = recovered(reference, found)
            parts.append(f"{system} {matched}/{len(reference)} (+{extra})")
        print(f"# check detections at {thresh} through our decoder, recovered of our float's (extra): {', '.join(parts)}")


def check(a, files, layers):
    """Largest |ours - peer| over the [yolo] inputs for the same input tensor, then the detections
    each system's maps decode to."""
    import numpy as np
    heads = [layer["index"] - 1 for layer in layers if layer["type"] == "yolo"]
    blob = np.load(files["input"])
    blob.astype("<f4").tofile(os.path.join(files["dir"], "input.bin"))
    ours, error = our_maps(a, files, heads, "ours")
    if error is not None:
        print(f"# check skipped: swift-darknet forward failed: {error}")
        return
    scale = max(float(np.abs(x).max()) for x in ours)
    decoded = []
    def ours_against_float(name, options, flags):
        """Our maps with `options` against our float ones, printed and kept for the detection check."""
        maps, error = our_maps(a, files, heads, name, options)
        if error is not None:
            print(f"# check {SYSTEMS[name]} skipped: swift-darknet forward {flags} failed: {error}")
            return
        diffs = [float(np.abs(x - y).max()) for x, y in zip(ours, maps)]
        print(f"# check ours vs {SYSTEMS[name]}, same input tensor: max |diff| per [yolo] input "
              f"{', '.join(f'{d:.2e}' for d in diffs)} (values up to {scale:.3g})")
        decoded.append((name, maps))

    if "ours-bf16" in a.systems.split(","):
        # Our bfloat16 against our float, as OpenVINO's default is compared below.
        ours_against_float("ours-bf16", ("--precision", "bf16"), "--precision bf16")
    if "calibration" in files:
        # Our int8 against our float, as the int8 peers are compared below: how far 8 bits move the maps.
        ours_against_float("ours-int8", ("--precision", "int8", "--calibration", files["calibration"]), "--precision int8")
        # Every convolution in 8 bits, as ORT's and OpenVINO's int8 quantize them.
        every, error = our_maps(a, files, heads, "ours-int8-all", ("--precision", "int8", "--calibration",
                                                                    files["calibration"], "--float-layers", "none"))
        if error is not None:
            print(f"# check ours int8 all skipped: swift-darknet forward --float-layers none failed: {error}")
        else:
            decoded.append(("ours-int8-all", every))
    float_openvino = tuple(p for p in OPENVINO if p not in QDQ)
    peers = ("ort", "opencv") + float_openvino + (NCNN if "ncnn" in files else ()) + (QDQ if "onnx-int8" in files else ())
    if not openvino_available():
        print("# check ours vs OpenVINO skipped: openvino is not installed in this environment")
        peers = tuple(p for p in peers if p not in OPENVINO)
    for system in peers:
        out = os.path.join(files["dir"], f"{system}.npz")
        command = peer_command(system, 1, a, files, 1) + ["--dump", out, "--heads", ",".join(map(str, heads))]
        command[command.index("--warmup") + 1] = "0"
        completed = subprocess.run(command, capture_output=True, text=True)
        if completed.returncode != 0:
            sys.exit(f"check: {SYSTEMS[system]} failed ({completed.returncode}): {' '.join(command)}\n{completed.stderr}")
        with np.load(out) as peer:
            theirs = [peer[key].reshape(-1) for key in sorted(peer.files, key=lambda k: int(k.split("_")[1]))]
        if [x.size for x in ours] != [y.size for y in theirs]:
            sys.exit(f"check: {SYSTEMS[system]}'s outputs have {[y.size for y in theirs]} values, ours {[x.size for x in ours]}")
        diffs = [float(np.abs(x - y).max()) for x, y in zip(ours, theirs)]
        print(f"# check ours vs {SYSTEMS[system]}, same input tensor: max |diff| per [yolo] input "
              f"{', '.join(f'{d:.2e}' for d in diffs)} (values up to {scale:.3g})")
        decoded.append((system, theirs))
    if a.random:
        print("# check detections skipped: random weights (their boxes say nothing of accuracy)")
    else:
        compare_detections(a, files, ours, decoded)


def installed(module):
    import importlib.util
    return importlib.util.find_spec(module) is not None


def openvino_available():
    return installed("openvino")


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description="SwiftDarknet vs ONNX Runtime vs OpenCV DNN, round-robin.")
    ap.add_argument("--cfg", required=True)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--weights")
    group.add_argument("--random", action="store_true", help="seeded random weights, written once for all systems")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=416)
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3, help="timed forwards per process")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed forwards per process after loading (at least 1: OpenCV prepares its layers on the first)")
    ap.add_argument("--systems", default="ours,ort,opencv",
                    help="any of " + ", ".join(SYSTEMS))
    ap.add_argument("--calibrate", metavar="DIR",
                    help="folder of calibration images for ours-int8 and ort-int8 (not the evaluation images; "
                         "see calibration_images.py)")
    ap.add_argument("--image", default=os.path.join(ROOT, "Weights/darknet/data/dog.jpg"))
    ap.add_argument("--bench", default=os.path.join(ROOT, ".build/release/darknet-bench"))
    ap.add_argument("--cli", default=os.path.join(ROOT, ".build/release/swift-darknet"))
    ap.add_argument("--check", action="store_true", help="compare our [yolo] inputs with ONNX Runtime's first")
    ap.add_argument("--pause", type=float, default=0.2, help="seconds of idle before each process")
    ap.add_argument("--json", action="store_true", help="also print one JSON line per system and thread count")
    ap.add_argument("--no-pin", action="store_true", help="leave 1-thread processes to the scheduler")
    ap.add_argument("--interleave", action="store_true",
                    help="per round and thread count, keep every system loaded and alternate single forwards "
                         "(darknet-bench --serve) instead of running each configuration's forwards back to back")
    ap.add_argument("--interleave-threads", action="store_true",
                    help="with --interleave, alternate the thread counts too: every configuration loaded at "
                         "once, so the 1 -> 2 thread speed-ups compare forwards of the same minutes")
    ap.add_argument("--gap", type=float, default=0.01,
                    help="with --interleave, seconds of idle before each forward (lets the previous system's "
                         "spinning threads go to sleep)")
    ap.add_argument("--contend", choices=("off", "on", "both"), default="off",
                    help="forwards with a busy process pinned to the last CPU: never, always, or both ways "
                         "(every configuration measured with and without it)")
    a = ap.parse_args()
    if a.warmup < 1 or a.runs < 1 or a.rounds < 1:
        ap.error("--warmup, --runs and --rounds must be at least 1")

    import cv2
    import numpy as np
    from darknet_model import letterbox, network_layers, write_cfg_at, write_random_weights

    systems = a.systems.split(",")
    unknown = [s for s in systems if s not in SYSTEMS]
    if unknown:
        ap.error(f"unknown system(s) {', '.join(unknown)} (known: {', '.join(SYSTEMS)})")
    if {*QDQ, *OURS_INT8} & set(systems) and not a.calibrate:
        ap.error("ours-int8, ours-int8-all, ort-int8 and openvino-int8 need --calibrate DIR (a folder of calibration images)")
    if set(OPENVINO) & set(systems) and not openvino_available():
        ap.error("the openvino systems need `pip install openvino` in this environment")
    if set(NCNN) & set(systems) and not installed("ncnn"):
        ap.error("the ncnn systems need `pip install ncnn` and `pip install --no-deps pnnx` in this environment")
    conditions = {"off": [False], "on": [True], "both": [False, True]}[a.contend]
    a.contender = None
    threads = [int(t) for t in a.threads.split(",")]
    if set(OURS) & set(systems) and not os.access(a.bench, os.X_OK):
        sys.exit(f"{a.bench} not found: run `swift build -c release` first")
    with tempfile.TemporaryDirectory(prefix="darknet-compare-") as directory:
        files = {"dir": directory, "cfg": os.path.join(directory, os.path.basename(a.cfg))}
        write_cfg_at(a.cfg, a.size, files["cfg"])
        channels, layers = network_layers(files["cfg"], a.size)
        gflop = sum(layer["flops"] for layer in layers) / 1e9
        if a.random:
            files["weights"] = os.path.join(directory, f"random-seed{a.seed}.weights")
            write_random_weights(layers, files["weights"], a.seed)
        else:
            files["weights"] = os.path.abspath(a.weights)
        image = cv2.imread(a.image)
        if image is None:
            sys.exit(f"cannot read {a.image}")
        files["image_size"] = (image.shape[1], image.shape[0])
        files["input"] = os.path.join(directory, "input.npy")
        np.save(files["input"], letterbox(image, a.size))
        files["onnx"] = os.path.join(directory, "model.onnx")
        # In a child process: the graph holds a copy of every weight, which this long-lived
        # driver would otherwise keep resident during all measurements.
        subprocess.run([sys.executable, os.path.abspath(__file__), "build-onnx", files["cfg"], files["weights"],
                        str(a.size), files["onnx"]], check=True)
        if set(QDQ) & set(systems):
            files["onnx-int8"] = os.path.join(directory, "model-int8.onnx")
            started = time.perf_counter()
            subprocess.run([sys.executable, os.path.abspath(__file__), "quantize-onnx", files["onnx"], files["onnx-int8"],
                            os.path.abspath(a.calibrate), str(a.size)], check=True)
            print(f"# ORT int8: quantize_static (QDQ, per-channel) calibrated on {os.path.abspath(a.calibrate)} in "
                  f"{time.perf_counter() - started:.1f} s", flush=True)
        if set(NCNN) & set(systems):
            from ncnn_model import convert
            files["ncnn"] = os.path.join(directory, "model.ncnn")
            started = time.perf_counter()
            version = convert(files["onnx"], files["ncnn"], [1, channels, a.size, a.size])
            print(f"# ncnn: the ONNX graph converted by pnnx {version} (fp16=0) in {time.perf_counter() - started:.1f} s",
                  flush=True)
        if set(OURS_INT8) & set(systems):
            # Calibrated once, as an app would; every int8 process loads the sidecar.
            files["calibration"] = os.path.join(directory, "calibration.json")
            started = time.perf_counter()
            run_json(ours_command("ours", 1, a, files) + ["--runs", "1", "--json", "--no-layers", "--precision", "int8",
                     "--calibrate", os.path.abspath(a.calibrate), "--save-calibration", files["calibration"]])
            print(f"# SwiftDarknet int8: calibrated on {os.path.abspath(a.calibrate)} in "
                  f"{time.perf_counter() - started:.1f} s (sidecar loaded by every int8 process)", flush=True)

        name = os.path.basename(a.cfg)
        weights_name = f"random (seed {a.seed})" if a.random else os.path.basename(a.weights)
        print(f"# {name} at {a.size}, weights {weights_name}, {gflop:.3f} GFLOP, image {os.path.basename(a.image)}; "
              f"threads {threads}; {a.rounds} rounds x {a.runs} runs (+{a.warmup} warm-up) per process; "
              f"{os.cpu_count()} CPUs; load average at start {loadavg()}", flush=True)
        if a.contend != "off":
            a.contender = Contender(a.bench)
            print(f"# contend {a.contend}: busy loop pinned to CPU {a.contender.cpu} (pid {a.contender.process.pid})",
                  flush=True)
        if a.check:
            check(a, files, layers)

        configs = [(s, t, c) for c in conditions for t in threads for s in systems]
        samples = {c: {"wall": [], "cpu": [], "rss": [], "base": [], "load": [], "phases": [], "version": "",
                       "fewer": 0} for c in configs}
        for round_index in range(a.rounds):
            if a.interleave:
                shift = round_index % len(systems)
                interleaved_round([(s, t, c) for c in conditions for t in threads
                                   for s in systems[shift:] + systems[:shift]], a, files, samples)
                print(f"# round {round_index + 1}/{a.rounds} done, load average {loadavg()}", flush=True)
                continue
            shift = round_index % len(configs)
            for config in configs[shift:] + configs[:shift]:
                if a.contender:
                    a.contender.set(config[2])
                time.sleep(a.pause)
                result = measure(config[0], config[1], a, files)
                entry = samples[config]
                entry["wall"] += result["forward_ms"]
                entry["cpu"] += result["forward_cpu_ms"]
                entry["rss"].append(result["peak_rss_mb"])
                entry["base"].append(result.get("baseline_rss_mb", float("nan")))
                entry["load"].append(result["load_ms"])
                entry["phases"].append(result.get("load_phases_ms", {}))
                entry["version"] = result.get("version", "")
                entry["fewer"] += result.get("fewer_thread_forwards", 0)
            print(f"# round {round_index + 1}/{a.rounds} done, load average {loadavg()}", flush=True)

        if a.contender:
            a.contender.close()
        print(f"# load average at end {loadavg()}")
        def label(config):
            return f"{config[1]}{' busy' if config[2] else ''}"

        print(f"{'system':<14} {'threads':>7} {'median ms':>10} {'min ms':>9} {'CPU ms':>9} {'CPU/wall':>8} "
              f"{'GFLOPS':>7} {'load ms':>8} {'peak RSS MB':>11} {'py base MB':>10}  version (forwards on fewer threads)")
        for config in configs:
            entry = samples[config]
            wall, cpu = median(entry["wall"]), median(entry["cpu"])
            base = "-" if config[0] in OURS else f"{median(entry['base']):.0f}"
            fewer = f" ({entry['fewer']} of {len(entry['wall'])})" if config[0] in ("ours",) + OURS_INT8 and config[1] > 1 else ""
            print(f"{SYSTEMS[config[0]]:<14} {label(config):>7} {wall:>10.1f} {min(entry['wall']):>9.1f} {cpu:>9.1f} "
                  f"{cpu / wall:>8.2f} {gflop / wall * 1e3:>7.1f} {median(entry['load']):>8.0f} "
                  f"{max(entry['rss']):>11.0f} {base:>10}  {entry['version']}{fewer}")
        for config in configs:
            entry = samples[config]
            loads = " ".join(f"{load:.0f}" for load in entry["load"])
            print(f"loads ms, {SYSTEMS[config[0]]} {label(config)} thread(s), each process in order: {loads}")
            if any(entry["phases"]):
                names = list(entry["phases"][0])
                print("  of which (medians): " + ", ".join(
                    f"{n} {median([p.get(n, float('nan')) for p in entry['phases']]):.1f}" for n in names))
        for c in conditions:
            for t in threads:
                for mine, peers in RATIOS.items():
                    if (mine, t, c) not in samples:
                        continue
                    ours = samples[(mine, t, c)]
                    parts = []
                    for peer in peers:
                        if (peer, t, c) in samples:
                            theirs = samples[(peer, t, c)]
                            parts.append(f"{SHORT[mine]}/{SHORT[peer]} {median(ours['wall']) / median(theirs['wall']):.2f} "
                                         f"(CPU time {median(ours['cpu']) / median(theirs['cpu']):.2f}, "
                                         f"min {min(ours['wall']) / min(theirs['wall']):.2f})")
                    print(f"ratios at {label((mine, t, c))} thread(s): " + ", ".join(parts))
        if len(threads) > 1:
            for c in conditions:
                speedups = []
                for system in systems:
                    first, last = samples[(system, threads[0], c)], samples[(system, threads[-1], c)]
                    speedups.append(median(first['wall']) / median(last['wall']))
                    print(f"speed-up {SYSTEMS[system]} {threads[0]} -> {threads[-1]} threads"
                          f"{', busy core' if c else ''}: {speedups[-1]:.2f}x")
                # On a quiet machine most systems run 1.5-2x as fast on a second core (README's table);
                # none gaining means something else held a core through the run.
                if not c and max(speedups) < 1.15:
                    print(f"# WARNING: no system ran faster on {threads[-1]} threads than on {threads[0]} "
                          f"(best {max(speedups):.2f}x): another process held a core, so the {threads[-1]}-thread "
                          f"rows are not valid; rerun on a quiet machine")
        if a.json:
            for (system, t, c), entry in samples.items():
                print(json.dumps({"cfg": name, "size": a.size, "weights": weights_name, "system": system, "threads": t,
                                  "contended": c, "fewer_thread_forwards": entry["fewer"],
                                  "rounds": a.rounds, "runs": len(entry["wall"]), "median_ms": median(entry["wall"]),
                                  "min_ms": min(entry["wall"]), "cpu_median_ms": median(entry["cpu"]),
                                  "peak_rss_mb": max(entry["rss"]), "load_ms": median(entry["load"]),
                                  "version": entry["version"]}))


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "quantize-onnx":
        from ort_int8 import quantize
        count = quantize(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
        print(f"# ORT int8: {count} calibration images", flush=True)
    elif len(sys.argv) == 6 and sys.argv[1] == "build-onnx":
        import onnx
        from darknet_model import build_onnx
        onnx.save(build_onnx(sys.argv[2], sys.argv[3], int(sys.argv[4])), sys.argv[5])
    elif len(sys.argv) > 1 and sys.argv[1] == "worker":
        wp = argparse.ArgumentParser()
        for option in ("system", "input", "cfg", "weights", "onnx", "ncnn", "dump", "heads"):
            wp.add_argument(f"--{option}")
        for option in ("threads", "runs", "warmup"):
            wp.add_argument(f"--{option}", type=int)
        wp.add_argument("--serve", action="store_true")
        worker(wp.parse_args(sys.argv[2:]))
    else:
        main()
