#!/usr/bin/env python3
"""OpenVINO's time per Darknet layer, to set beside `darknet-bench`'s per-layer profile.

Usage (from the repository root, in compare.sh's virtual environment):
  python Benchmarks/peers/openvino_layers.py --cfg Weights/darknet/cfg/yolov3-tiny.cfg \
      --weights Weights/yolov3-tiny.weights [--int8 Weights/calibration] [--threads 1] [--runs 20]
  python Benchmarks/peers/openvino_layers.py --cfg Weights/darknet/cfg/yolov3.cfg --random --int8 Weights/calibration

Builds the same ONNX graph compare.py gives OpenVINO (with --int8 DIR: ORT's QDQ quantization of
it, calibrated on DIR, as compare.py's openvino-int8 system), compiles it with PERF_COUNT on, runs
--runs forwards on Darknet's dog.jpg letterboxed, and prints, per Darknet layer (OpenVINO names its
fused nodes after the ONNX tensors conv<i>, act<i>, pool<i>, ...), the median milliseconds and the
kernels OpenVINO chose (e.g. brgconv_avx512_core_vnni_I8), then the total by kernel.
"""
import argparse
import collections
import os
import re
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)


def main():
    ap = argparse.ArgumentParser(description="OpenVINO's per-layer times for a Darknet network.")
    ap.add_argument("--cfg", required=True)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--weights")
    group.add_argument("--random", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=416)
    ap.add_argument("--int8", metavar="DIR", help="quantize with ORT's quantize_static, calibrated on DIR")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--image", default=os.path.join(ROOT, "Weights/darknet/data/dog.jpg"))
    a = ap.parse_args()

    import cv2
    import onnx
    import openvino as ov
    from darknet_model import build_onnx, letterbox, network_layers, write_cfg_at, write_random_weights

    with tempfile.TemporaryDirectory(prefix="openvino-layers-") as directory:
        cfg = os.path.join(directory, os.path.basename(a.cfg))
        write_cfg_at(a.cfg, a.size, cfg)
        _, layers = network_layers(cfg, a.size)
        weights = a.weights
        if a.random:
            weights = os.path.join(directory, "random.weights")
            write_random_weights(layers, weights, a.seed)
        model = os.path.join(directory, "model.onnx")
        onnx.save(build_onnx(cfg, weights, a.size), model)
        if a.int8:
            from ort_int8 import quantize
            quantized = os.path.join(directory, "model-int8.onnx")
            quantize(model, quantized, a.int8, a.size)
            model = quantized
        core = ov.Core()
        compiled = core.compile_model(core.read_model(model), "CPU", {
            "INFERENCE_NUM_THREADS": a.threads, "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1, "PERF_COUNT": True})
        request = compiled.create_infer_request()
        blob = letterbox(cv2.imread(a.image), a.size)
        request.infer({0: blob})
        per_layer = collections.defaultdict(list)
        kernels = collections.defaultdict(set)
        by_kernel = collections.defaultdict(list)
        totals = []
        for _ in range(a.runs):
            request.infer({0: blob})
            run_layer = collections.defaultdict(float)
            run_kernel = collections.defaultdict(float)
            for info in request.profiling_info:
                ms = info.real_time.total_seconds() * 1e3
                if ms <= 0:
                    continue
                match = re.search(r"(?:conv|act|pool|route|add|up|slice)(\d+)", info.node_name)
                key = int(match.group(1)) if match else -1
                run_layer[key] += ms
                run_kernel[info.exec_type] += ms
                kernels[key].add(f"{info.node_type}:{info.exec_type}")
            for key, ms in run_layer.items():
                per_layer[key].append(ms)
            for key, ms in run_kernel.items():
                by_kernel[key].append(ms)
            totals.append(sum(run_layer.values()))
        precision = compiled.get_property("INFERENCE_PRECISION_HINT")
        print(f"# OpenVINO {ov.__version__.split('-')[0]} ({precision}), {os.path.basename(a.cfg)} at {a.size}, "
              f"{'int8 QDQ' if a.int8 else 'float'}, {a.threads} thread(s), median of {a.runs} forwards: "
              f"{statistics.median(totals):.2f} ms in its nodes")
        print(f"{'layer':>5} {'type':<14} {'ms':>7}  kernels")
        for key in sorted(per_layer):
            kind = layers[key]["type"] if 0 <= key < len(layers) else "(other)"
            print(f"{key:>5} {kind:<14} {statistics.median(per_layer[key]):>7.3f}  {', '.join(sorted(kernels[key]))}")
        print("by kernel:")
        for kernel, values in sorted(by_kernel.items(), key=lambda item: -statistics.median(item[1])):
            print(f"  {kernel:<40} {statistics.median(values):>8.3f} ms")


if __name__ == "__main__":
    main()
