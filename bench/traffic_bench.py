#!/usr/bin/env python3
"""Synthetic-traffic speed benchmark against BookSim 2 and Noxim (docs/performance.md, docs/design.md section 7).

Runs `kairo traffic` on the configurations of the BookSim 2 reference figures
(uniform traffic, 4-flit packets, 3000 warm-up + 3000 measured cycles, 4 VCs x
8 flits, dimension-order routing) and prints, per configuration, the median
over N runs of: whole-process wall seconds, simulated cycles per second,
flit-hops per second, events, and peak RSS. Usage:

    python3 bench/traffic_bench.py [--runs 5] [--kairo build/kairo]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# (platform, rate, warm-up, measured cycles, reference tool, its seconds) -- references from
# docs/design.md section 7, measured on this kind of 2-core machine (whole process, best of 3).
CONFIGS = [
    ("mesh-8x8", 0.05, 3000, 3000, "BookSim 2", 0.25), ("mesh-8x8", 0.15, 3000, 3000, "BookSim 2", 0.70),
    ("mesh-8x8", 0.30, 3000, 3000, "BookSim 2", 1.45),
    ("mesh-10x10x10", 0.05, 3000, 3000, "BookSim 2", 34.5), ("mesh-10x10x10", 0.10, 3000, 3000, None, None),
    ("mesh-10x10x10", 0.20, 3000, 3000, "BookSim 2", 86.0),
    ("mesh-16x16", 0.05, 1000, 10000, "Noxim", 7.3),
]


def run_once(kairo, platform, rate, warmup, measure):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        t0 = time.perf_counter()
        subprocess.run([kairo, "traffic", platform, "--pattern", "uniform", "--rate", str(rate),
                        "--packet-flits", "4", "--warmup-cycles", str(warmup), "--measure-cycles", str(measure),
                        "--seed", "1", "--quiet", "--json", out], check=True)
        wall = time.perf_counter() - t0
        with open(out) as f:
            j = json.load(f)
    return wall, j


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--kairo", default=os.path.join(os.path.dirname(__file__), "..", "build", "kairo"))
    a = ap.parse_args()
    print("| platform | rate | cycles (warm-up + measured) | process wall s, median (best) | run wall s, median "
          "| sim cycles/s | flit-hops/s | events | peak RSS MiB | reference s (best of 3) | speed-up, best vs best |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for platform, rate, warmup, measure, tool, booksim in CONFIGS:
        walls, runs, cps, fhs, ev, rss = [], [], [], [], [], []
        for _ in range(a.runs):
            wall, j = run_once(a.kairo, platform, rate, warmup, measure)
            walls.append(wall)
            runs.append(j["wall_s"])
            cps.append(j["sim_cycles_per_s"])
            fhs.append(j["flit_hops_per_s"])
            ev.append(j["events"])
            rss.append(j["peak_rss_mib"])
        w, best = statistics.median(walls), min(walls)
        speedup = f"{booksim / best:.0f}x" if booksim else "n/a"
        ref = f"{tool} {booksim}" if tool else "n/a"
        print(f"| {platform} | {rate:.2f} | {warmup} + {measure} | {w:.4f} ({best:.4f}) | {statistics.median(runs):.4f} "
              f"| {statistics.median(cps):.3g} | {statistics.median(fhs):.3g} "
              f"| {int(statistics.median(ev))} | {statistics.median(rss):.1f} | {ref} | {speedup} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
