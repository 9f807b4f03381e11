#!/usr/bin/env python3
"""Compares two builds of darknet-bench forward by forward, for a refactoring that must not
change speed: both run as `darknet-bench --serve` processes at once, and single forwards
alternate between them (A, B, B, A, ...), so both meet the same minutes of a noisy machine.

    Benchmarks/before-after/before_after.py BEFORE_BIN AFTER_BIN [--forwards 40] [--threads 1 2]
        [--net NAME=CFG:WEIGHTS ...] [--image FILE] [-- DARKNET_BENCH_OPTION ...]

Options after `--` go to both darknet-bench processes (e.g. `-- --precision int8 --calibrate
Weights/calibration`, to compare int8 builds; each process then calibrates once at start).

Default networks: YOLOv3-tiny (real weights) and YOLOv3 (random weights), 416x416, dog.jpg.
Prints a table of medians and the after/before ratio per network and thread count.

At 1 thread both processes are pinned to the same CPU (the first this script may use;
`--no-pin` leaves them to the scheduler): each virtual CPU of this VM has its own slow and fast
minutes, and two processes left alone tend to stay on different CPUs, so one build would meet
the other CPU's speed. Two copies of one binary read 1.465 unpinned and 0.986 and 1.019 pinned
(YOLOv3-tiny int8, 60-80 forwards each, Benchmarks/PERFORMANCE.md).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def start(binary, cfg, weights, threads, image, warmup, extra, cpu):
    command = [binary, "--cfg", cfg, "--threads", str(threads), "--warmup", str(warmup), "--image", image,
               "--size", "416", "--serve"] + extra
    command += ["--random"] if weights == "random" else ["--weights", weights]
    pin = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, preexec_fn=pin)
    ready = json.loads(process.stdout.readline())
    assert ready.get("ready"), ready
    return process


def forward(process):
    process.stdin.write("forward\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())["forward_ms"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--forwards", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--image", default="Weights/darknet/data/dog.jpg")
    parser.add_argument("--net", action="append", default=None,
                        help="NAME=CFG:WEIGHTS (WEIGHTS may be 'random')")
    parser.add_argument("--no-pin", action="store_true", help="leave 1-thread processes to the scheduler")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    a = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    nets = a.net or ["yolov3-tiny=Weights/darknet/cfg/yolov3-tiny.cfg:Weights/yolov3-tiny.weights",
                     "yolov3=Weights/darknet/cfg/yolov3.cfg:random"]
    print("| network | threads | before median ms | after median ms | after / before |")
    print("|---|---|---|---|---|")
    for net in nets:
        name, files = net.split("=", 1)
        cfg, weights = files.rsplit(":", 1)
        for threads in a.threads:
            cpu = min(os.sched_getaffinity(0)) if threads == 1 and not a.no_pin else None
            processes = {"before": start(a.before, cfg, weights, threads, a.image, a.warmup, extra, cpu),
                         "after": start(a.after, cfg, weights, threads, a.image, a.warmup, extra, cpu)}
            times = {"before": [], "after": []}
            for i in range(a.forwards):
                order = ["before", "after"] if i % 2 == 0 else ["after", "before"]
                for key in order:
                    times[key].append(forward(processes[key]))
            for process in processes.values():
                process.stdin.close()
                process.wait(timeout=60)
            before, after = statistics.median(times["before"]), statistics.median(times["after"])
            print("| %s | %d | %.1f | %.1f | %.3f |" % (name, threads, before, after, after / before), flush=True)


if __name__ == "__main__":
    sys.exit(main())
