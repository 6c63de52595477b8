#!/usr/bin/env python3
"""The instruction-count guard (docs/performance.md, "Instruction counts"): runs each row
under valgrind's callgrind, which counts the same instructions for the same binary and
input on any machine load, and compares with the counts recorded in
bench/instructions.json. Exits 1, naming the rows, when any row takes more than the
tolerance (default 5%) above its recorded count; run it before every submission (it
takes a few minutes, so it is not part of the test suite).

    python3 bench/instructions.py                        # build/kairo against the record
    python3 bench/instructions.py --tolerance 2          # a stricter bound
    python3 bench/instructions.py --rows startup,barrier-ring-8x8
    python3 bench/instructions.py --baseline /path/to/old/kairo   # two binaries, no record
    python3 bench/instructions.py --record               # write the record (a deliberate change)

A row that got cheaper passes; --record after a deliberate change (a model change or an
accepted cost) keeps the record honest, and the commit says why the counts moved.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RECORD = os.path.join(ROOT, "bench", "instructions.json")

# name -> arguments after `kairo` (each run gets `--quiet --json FILE`). The rows of
# docs/performance.md's instruction-count tables: the router's hot path at a moderate
# load, start-up alone, the VC allocation stage, adaptive routing, a dragonfly, a
# collective of small puts and a bulk all-to-all.
ROWS = {
    "traffic-8x8-0.2": ["traffic", "mesh-8x8", "--rate", "0.2"],
    "startup": ["traffic", "mesh-8x8", "--rate", "0.05", "--warmup-cycles", "0", "--measure-cycles", "1"],
    "traffic-8x8-va-islip": ["traffic", "mesh-8x8", "--rate", "0.2", "--set", "router.vc_allocator=islip"],
    "traffic-torus-adaptive": ["traffic", "torus-8x8", "--rate", "0.2", "--set",
                               "router.routing=minimal_adaptive"],
    "traffic-dragonfly-342": ["traffic", "dragonfly-342", "--rate", "0.2"],
    "barrier-ring-8x8": ["run", "mesh-8x8", "--workload", "barrier", "--param", "algo=ring"],
    "alltoall-tofu-small-4k": ["run", "tofu-small", "--workload", "alltoall", "--param", "size=4KiB", "--mode",
                               "size-only"],
    "pingpong-tofu-small": ["run", "tofu-small", "--workload", "pingpong"],
}


def count(kairo, args):
    """callgrind's `Collected` for one whole run."""
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(d, "cg.out"),
                            kairo] + args + ["--quiet", "--json", os.path.join(d, "r.json")],
                           capture_output=True, text=True)
        m = re.search(r"Collected : (\d+)", p.stderr)
        if p.returncode != 0 or not m:
            raise RuntimeError(f"{kairo} {' '.join(args)} failed ({p.returncode}): {p.stderr[-400:]}")
        return int(m.group(1))


def fail(message):
    print("bench/instructions.py: " + message, file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kairo", default=os.path.join(ROOT, "build", "kairo"), help="the binary measured")
    ap.add_argument("--baseline", help="a second binary to compare with, instead of the record")
    ap.add_argument("--rows", help="comma-separated row names (default: all): " + ", ".join(ROWS))
    ap.add_argument("--tolerance", type=float, default=5.0, help="percent above the baseline allowed (5)")
    ap.add_argument("--record", action="store_true", help="write the counts to bench/instructions.json")
    ap.add_argument("--jobs", type=int, default=2, help="rows measured at once (2)")
    a = ap.parse_args()
    rows = list(ROWS) if not a.rows else a.rows.split(",")
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        fail(f"--rows: unknown row(s) {', '.join(unknown)}; expected some of {', '.join(ROWS)}")
    if not os.access(a.kairo, os.X_OK):
        fail(f"--kairo {a.kairo}: not an executable (build it first: cmake --build build --target kairo)")
    if a.tolerance < 0:
        fail("--tolerance: expected a percentage >= 0")
    if a.baseline and a.record:
        fail("--record writes the counts of --kairo; it takes no --baseline")
    record = {}
    if not a.baseline and not a.record:
        try:
            with open(RECORD) as f:
                record = json.load(f)["rows"]
        except (OSError, ValueError, KeyError) as e:
            fail(f"{RECORD}: cannot read the recorded counts ({e}); write them with --record")
    jobs = [(r, a.kairo) for r in rows] + ([(r, a.baseline) for r in rows] if a.baseline else [])
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        counts = dict(zip(jobs, ex.map(lambda j: count(j[1], ROWS[j[0]]), jobs)))
    if a.record:
        with open(RECORD, "w") as f:
            json.dump({"note": "callgrind Collected per row of bench/instructions.py, for the build of the "
                               "commit that wrote it (python3 bench/instructions.py --record)",
                       "rows": {r: counts[(r, a.kairo)] for r in rows}}, f, indent=2)
            f.write("\n")
        print(f"recorded {len(rows)} rows in {os.path.relpath(RECORD, ROOT)}")
        return 0
    worse = []
    print(f"| row | baseline | {os.path.basename(a.kairo)} | ratio |")
    print("|---|---|---|---|")
    for r in rows:
        base = counts[(r, a.baseline)] if a.baseline else record.get(r)
        now = counts[(r, a.kairo)]
        if base is None:
            print(f"| {r} | (not recorded) | {now:,} | |")
            continue
        ratio = now / base
        print(f"| {r} | {base:,} | {now:,} | {ratio:.4f} |")
        if ratio > 1 + a.tolerance / 100:
            worse.append(f"{r} {100 * (ratio - 1):+.2f}%")
    if worse:
        print(f"more than {a.tolerance:g}% above the baseline: " + "; ".join(worse), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
