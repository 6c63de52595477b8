#!/usr/bin/env python3
"""Writes a trace replay's point-to-point bytes as the ranks x ranks CSV matrix the `pattern`
workload reads (row s, column d: bytes from rank s to rank d), each cell divided by --divide, so
that `--param iterations=DIVIDE` moves the trace's bytes again as one message per pair and
iteration (docs/performance.md, "Trace replay").

    tools/trace_matrix.py out/cg.json --divide 1000 --out out/cg_matrix_per1000.csv

out/cg.json is the JSON of `kairo run PLATFORM --workload trace ... --json out/cg.json`
(details.ranks and details.p2p_pairs). A cell is rounded to the nearest byte; what the rounding
adds or loses over the whole matrix is printed. Bad input: a message naming the file, exit 2.
"""
import argparse
import json
import os
import sys


def fail(message):
    print(f"trace_matrix: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run_json", help="a trace replay's JSON (kairo run ... --workload trace --json FILE)")
    ap.add_argument("--divide", type=int, default=1, help="divide every cell by this (the pattern's iterations)")
    ap.add_argument("--out", required=True, help="the CSV matrix to write")
    args = ap.parse_args()
    if args.divide < 1:
        fail(f"--divide {args.divide}: expected a whole number of at least 1")
    try:
        with open(args.run_json) as f:
            run = json.load(f)
    except OSError as e:
        fail(f"{args.run_json}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{args.run_json}: not JSON ({e})")
    details = run.get("details") if isinstance(run, dict) else None
    if not isinstance(details, dict) or "p2p_pairs" not in details or "ranks" not in details:
        fail(f"{args.run_json}: expected a trace replay's JSON, with details.ranks and details.p2p_pairs")
    n = details["ranks"]
    cells = [[0] * n for _ in range(n)]
    traced = 0
    for pair in details["p2p_pairs"]:
        if not (isinstance(pair, list) and len(pair) == 4 and all(isinstance(v, int) for v in pair)
                and 0 <= pair[0] < n and 0 <= pair[1] < n and pair[3] >= 0):
            fail(f"{args.run_json}: details.p2p_pairs: expected [src, dst, messages, bytes] with ranks "
                 f"below {n}, got {pair}")
        src, dst, _, nbytes = pair
        traced += nbytes
        cells[src][dst] = (nbytes + args.divide // 2) // args.divide
    moved = sum(map(sum, cells)) * args.divide
    tmp = args.out + ".part"
    try:
        with open(tmp, "w") as f:
            f.write(f"# {os.path.basename(args.run_json)}: point-to-point bytes per (sender row, receiver "
                    f"column) / {args.divide}\n")
            for row in cells:
                f.write(",".join(map(str, row)) + "\n")
        os.replace(tmp, args.out)
    except OSError as e:
        fail(f"{args.out}: {e.strerror}")
    print(f"trace_matrix: {args.out}: {n} x {n}, {sum(1 for row in cells for v in row if v)} pairs; "
          f"x {args.divide} moves {moved} bytes, the trace {traced} ({moved - traced:+d})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
