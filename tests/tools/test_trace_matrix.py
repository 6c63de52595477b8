#!/usr/bin/env python3
"""tools/trace_matrix.py: the shipped 8-rank trace (examples/traces/small-8) replayed, then
written as a CSV matrix, holds per cell the bytes its program says it sent to that rank
(program.json, the program's own bookkeeping), divided and rounded to the nearest byte; a
file that is not a trace replay's JSON is refused naming it (exit 2).

    test_trace_matrix.py --kairo build/kairo
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "trace_matrix.py"
TRACE = ROOT / "examples" / "traces" / "small-8"


def read_matrix(path):
    return [[int(v) for v in line.split(",")] for line in open(path) if line.strip() and not line.startswith("#")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kairo", required=True)
    args = ap.parse_args()
    failures = []
    program = json.load(open(TRACE / "program.json"))
    with tempfile.TemporaryDirectory() as tmp:
        run = pathlib.Path(tmp) / "run.json"
        done = subprocess.run([args.kairo, "run", "tofu-small", "--workload", "trace", "--param",
                               f"trace={TRACE / 'traces.otf2'}", "--mode", "size-only", "--quiet", "--json",
                               str(run)], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            print(f"FAIL: the replay exited {done.returncode}: {done.stderr[-2000:]}")
            return 1
        for divide in (1, 1000):
            out = pathlib.Path(tmp) / f"m{divide}.csv"
            done = subprocess.run([sys.executable, str(TOOL), str(run), "--divide", str(divide), "--out", str(out)],
                                  capture_output=True, text=True, timeout=60)
            if done.returncode != 0:
                failures.append(f"--divide {divide}: exit {done.returncode}: {done.stderr}")
                continue
            want = [[0] * program["ranks"] for _ in range(program["ranks"])]
            for src, dst, _, nbytes in program["pairs"]:
                want[src][dst] = int(nbytes / divide + 0.5)
            if read_matrix(out) != want:
                failures.append(f"--divide {divide}: the matrix differs from program.json's pairs")
        not_a_run = pathlib.Path(tmp) / "other.json"
        not_a_run.write_text('{"latency_ns": 1}')
        done = subprocess.run([sys.executable, str(TOOL), str(not_a_run), "--out", str(pathlib.Path(tmp) / "x.csv")],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 2 or str(not_a_run) not in done.stderr or "details.p2p_pairs" not in done.stderr:
            failures.append(f"a JSON without details.p2p_pairs: exit {done.returncode}, {done.stderr!r}")
        if (pathlib.Path(tmp) / "x.csv").exists():
            failures.append("a refused input still wrote its output")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
