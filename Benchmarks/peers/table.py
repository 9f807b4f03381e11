#!/usr/bin/env python3
"""The README's peer table (Markdown) from the JSON lines of `compare.py --json` runs.

  python Benchmarks/peers/table.py RUN.txt [RUN2.txt ...]   # or the lines on standard input

One row per network and thread count: the median forward time (ms) of each system, the
fastest in bold; then a row of peak RSS (MB), one value per network joined by " / ", and a
line with each system's version column (for ours: OpenBLAS's kernel set; for ncnn: whether
its fp16 options were on and whether the CPU has ARMv8.2 fp16). Columns
follow the order the systems first appear in; lines that are not compare.py's JSON lines are
ignored, so a whole log can be passed.
"""
import json
import sys

sys.dont_write_bytecode = True

COLUMNS = {"ours": "SwiftDarknet", "ours-int8": "int8", "ours-int8-all": "int8 all", "fixed": "fixed threads",
           "ort": "ONNX Runtime", "ort-int8": "ORT int8", "ncnn": "ncnn fp32", "ncnn-default": "ncnn default",
           "openvino": "OpenVINO f32", "openvino-default": "OpenVINO default", "opencv": "OpenCV"}


def network_name(cfg, weights):
    stem = cfg.rsplit("/", 1)[-1].removesuffix(".cfg")
    name = stem.replace("yolov", "YOLOv")
    return name + (" (random weights)" if weights.startswith("random") else "")


def table(lines):
    rows, systems, networks = {}, [], []
    for line in lines:
        line = line.strip()
        if not line.startswith('{"cfg"'):
            continue
        entry = json.loads(line)
        if entry.get("contended"):
            continue
        network = network_name(entry["cfg"], entry["weights"])
        if network not in networks:
            networks.append(network)
        if entry["system"] not in systems:
            systems.append(entry["system"])
        rows.setdefault((network, entry["threads"]), {})[entry["system"]] = entry
    if not rows:
        sys.exit("no compare.py --json lines in the input")
    out = ["| network | threads | " + " | ".join(COLUMNS.get(s, s) for s in systems) + " |",
           "|---|---|" + "---|" * len(systems)]
    for network in networks:
        for threads in sorted(t for n, t in rows if n == network):
            row = rows[(network, threads)]
            fastest = min(e["median_ms"] for e in row.values())
            cells = []
            for s in systems:
                if s not in row:
                    cells.append("")
                    continue
                value = f"{row[s]['median_ms']:.1f}"
                cells.append(f"**{value}**" if row[s]["median_ms"] == fastest and len(row) > 1 else value)
            first = network if threads == min(t for n, t in rows if n == network) else ""
            out.append(f"| {first} | {threads} | " + " | ".join(cells) + " |")
    rss = []
    for s in systems:
        values = [max((e["peak_rss_mb"] for (n, _), r in rows.items() if n == network
                       for sys_, e in r.items() if sys_ == s), default=None) for network in networks]
        rss.append(" / ".join("" if v is None else f"{v:.0f}" for v in values))
    out.append(f"| peak RSS, {' / '.join(networks)} (MB) | | " + " | ".join(rss) + " |")
    versions = {}
    for row in rows.values():
        for s, e in row.items():
            versions.setdefault(s, e.get("version", ""))
    out.append("")
    out.append("versions: " + "; ".join(f"{COLUMNS.get(s, s)} {versions[s]}" for s in systems))
    return "\n".join(out)


if __name__ == "__main__":
    sources = sys.argv[1:]
    lines = [line for path in sources for line in open(path, encoding="utf-8")] if sources else sys.stdin.readlines()
    print(table(lines))
