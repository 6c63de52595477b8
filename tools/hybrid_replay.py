#!/usr/bin/env python3
"""Replays one MPI trace on hybrid-eps-ocs-128 the way Takizawa et al. 2008 (Figures 5 to 8)
compare the schemes: EPS only (upstream links x1, and x5 = full bisection) and SP and CP with
a number of pathways each, and prints every run's predicted time relative to EPS only x1.

    tools/hybrid_replay.py TRACE_DIR/traces.otf2 --out out/cg [--pathways 3 6 12 24 48 64]
                           [--jobs 2] [--kairo build/kairo]

Each run is `kairo run hybrid-eps-ocs-128 --workload trace --param trace=... --param
scheme=S [--param pathways=N] [--set links.up.multiplier=U] --mode size-only --json
OUT/NAME.json` (the command is printed); runs whose JSON already exists are not run again.
The table (markdown) goes to stdout and OUT/table.md. docs/traces.md shows it for NAS CG and MG.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--out", required=True)
    ap.add_argument("--pathways", type=int, nargs="+", default=[3, 6, 12, 24, 48, 64])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--kairo", default="build/kairo")
    args = ap.parse_args()
    if not os.path.isfile(args.trace):
        print(f"hybrid_replay: {args.trace}: no such file (expected DIR/traces.otf2)", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    runs = [("eps-u1", ["--param", "scheme=eps"]),
            ("eps-u5", ["--param", "scheme=eps", "--set", "links.up.multiplier=5"])]
    for scheme in ("sp", "cp"):
        for n in args.pathways:
            runs.append((f"{scheme}-{n}", ["--param", f"scheme={scheme}", "--param", f"pathways={n}"]))

    def run(name, extra):
        out = os.path.join(args.out, name + ".json")
        cmd = [args.kairo, "run", "hybrid-eps-ocs-128", "--workload", "trace", "--param", "trace=" + args.trace,
               *extra, "--mode", "size-only", "--quiet", "--json", out]
        print(" ".join(cmd), flush=True)
        if not os.path.exists(out):
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{name}: exit {done.returncode}: {done.stderr[-2000:]}")
        return name, json.load(open(out))

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = dict(pool.map(lambda r: run(*r), runs))
    base = results["eps-u1"]["latency_ns"]
    lines = ["| run | predicted time (ms) | relative to EPS only x1 | routed messages | relayed hops | "
             "pathways assigned | wall (s) |", "|---|---|---|---|---|---|---|"]
    for name, _ in runs:
        j = results[name]
        d = j["details"]
        lines.append(f"| {name} | {j['latency_ns'] / 1e6:,.1f} | {j['latency_ns'] / base:.3f} | "
                     f"{d.get('routed_messages', '-')} | {d.get('relayed_hops', '-')} | "
                     f"{d.get('pathways_assigned', '-')} | {j['wall_s']:.0f} |")
    table = "\n".join(lines) + "\n"
    open(os.path.join(args.out, "table.md"), "w").write(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
