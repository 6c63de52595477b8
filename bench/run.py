#!/usr/bin/env python3
"""kairo's speed benchmark (docs/performance.md): every row of the speed table, as whole
processes, with medians over several runs, events, peak RSS and, where cheap,
instruction counts from valgrind's callgrind (deterministic on a noisy machine).

    python3 bench/run.py                                  # every row, 5 runs each, build/kairo
    python3 bench/run.py --baseline /path/to/old/kairo    # interleaved A/B pairs, ratios
    python3 bench/run.py --rows ring-barrier,traffic-8x8 --runs 9
    python3 bench/run.py --markdown docs/perf-table.md    # also write the table there

With --baseline, the two binaries run in turn (A B A B ...), so a drift in the
machine's speed hits both; the ratio is taken per pair and its median quoted.
Rows whose single run takes minutes (--slow-runs, default 1) run fewer times.
Traffic rows also quote docs/design.md section 7's BookSim 2 reference seconds for
the same configuration on this kind of 2-core machine (BookSim is not
installed here; the reference is its best of 3 whole-process runs).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# name -> (arguments after `kairo`, goal wall seconds or None, slow?, BookSim reference seconds or None,
#          goal as a multiple of BookSim or None, callgrind?)
TRAFFIC = ["--pattern", "uniform", "--packet-flits", "4", "--warmup-cycles", "3000", "--measure-cycles", "3000",
           "--seed", "1"]
ROWS = {
    "ring-barrier": (["run", "mesh-10x10x10", "--workload", "barrier", "--param", "algo=ring"], 1.5, False, None,
                     None, False),
    "rd-barrier-tofu-k": (["run", "tofu-k", "--workload", "barrier", "--param", "algo=recursive-doubling",
                           "--mode", "size-only"], 8.0, False, None, None, False),
    "a2at-4k-mesh10": (["run", "mesh-10x10x10", "--workload", "alltoall", "--param", "algo=a2at", "--param",
                        "size=4KiB", "--mode", "size-only"], 12.0, True, None, None, False),
    "a2at-32k-mesh10": (["run", "mesh-10x10x10", "--workload", "alltoall", "--param", "algo=a2at", "--param",
                         "size=32KiB", "--mode", "size-only"], 90.0, True, None, None, False),
    "random-ring-tofud": (["run", "tofud-rack", "--workload", "random-ring", "--param", "size=2MB", "--mode",
                           "size-only"], 1.5, False, None, None, False),
    "traffic-8x8-0.05": (["traffic", "mesh-8x8", "--rate", "0.05"] + TRAFFIC, None, False, (0.25, 0.45), 40,
                         True),
    "traffic-10x10x10-0.05": (["traffic", "mesh-10x10x10", "--rate", "0.05"] + TRAFFIC, None, False,
                              (34.5, 47.0), 200, False),
    "traffic-10x10x10-0.20": (["traffic", "mesh-10x10x10", "--rate", "0.20"] + TRAFFIC, None, False, (86.0, 86.0),
                              100, False),
    "pingpong-tofu-k": (["run", "tofu-k", "--workload", "pingpong", "--mode", "size-only"], None, False, None, None,
                        False),
}


def run_once(kairo, args):
    """Whole-process wall and CPU seconds, peak RSS (MiB) and the run's JSON."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run([kairo] + args + ["--quiet", "--json", out], capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            raise RuntimeError(f"{kairo} {' '.join(args)} failed ({p.returncode}): {p.stderr[-500:]}")
        with open(out) as f:
            j = json.load(f)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss of children is the largest child so far; the JSON's own figure is per run.
    return {"wall": wall, "cpu": cpu, "rss": j.get("peak_rss_mib", 0.0), "events": j.get("events", 0), "json": j}


def instructions(kairo, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", kairo] + args +
                           ["--quiet", "--json", os.path.join(d, "r.json")], capture_output=True, text=True)
        for line in p.stderr.splitlines():
            if "Collected" in line:
                return int(line.split(":")[-1].strip().replace(",", ""))
    return None


def fmt_s(x):
    return f"{x:.3g}" if x < 10 else f"{x:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kairo", default=os.path.join(ROOT, "build", "kairo"))
    ap.add_argument("--baseline", help="a second kairo binary, run interleaved with --kairo")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--slow-runs", type=int, default=1, help="runs of the rows that take minutes")
    ap.add_argument("--rows", help="comma-separated row names (default: all): " + ", ".join(ROWS))
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--markdown", help="also write the table to this file")
    a = ap.parse_args()
    names = a.rows.split(",") if a.rows else list(ROWS)
    bins = [("A", a.kairo)] + ([("B", a.baseline)] if a.baseline else [])
    lines = []
    hdr = "| row | events | wall s, median (min-max) | cpu s | peak RSS MiB | goal |"
    if a.baseline:
        hdr = ("| row | events A / B | wall s A, median (min-max) | wall s B, median | A/B wall, median of pairs "
               "| cpu s A / B | peak RSS MiB A / B | goal |")
    if not a.no_callgrind:
        hdr += " instructions A" + (" / B" if a.baseline else "") + " |"
    lines.append(hdr)
    lines.append("|" + "---|" * (hdr.count("|") - 1))
    print(hdr)
    print(lines[-1])
    for name in names:
        args, goal, slow, booksim, x_booksim, cg = ROWS[name]
        n = a.slow_runs if slow else a.runs
        res = {k: [] for k, _ in bins}
        for _ in range(n):
            for k, b in bins:
                res[k].append(run_once(b, args))
        med = {k: statistics.median(r["wall"] for r in res[k]) for k, _ in bins}
        cpu = {k: statistics.median(r["cpu"] for r in res[k]) for k, _ in bins}
        rss = {k: max(r["rss"] for r in res[k]) for k, _ in bins}
        ev = {k: res[k][0]["events"] for k, _ in bins}
        lo = min(r["wall"] for r in res["A"])
        hi = max(r["wall"] for r in res["A"])
        if goal:
            g = f"< {goal} s: {'met' if med['A'] < goal else 'not met'}"
        elif booksim:
            ratio_lo, ratio_hi = booksim[0] / cpu["A"], booksim[1] / cpu["A"]
            g = (f">= {x_booksim}x BookSim ({booksim[0]}-{booksim[1]} s): {ratio_lo:.0f}x-{ratio_hi:.0f}x by CPU s, "
                 f"{'met' if ratio_lo >= x_booksim else 'not met'}")
        else:
            g = "peak RSS < 1229 MiB: " + ("met" if rss["A"] < 1229 else "not met")
        if a.baseline:
            pairs = statistics.median(x["wall"] / y["wall"] for x, y in zip(res["A"], res["B"]))
            row = (f"| {name} | {ev['A']:,} / {ev['B']:,} | {fmt_s(med['A'])} ({fmt_s(lo)}-{fmt_s(hi)}) "
                   f"| {fmt_s(med['B'])} | {pairs:.3f} | {fmt_s(cpu['A'])} / {fmt_s(cpu['B'])} "
                   f"| {rss['A']:.0f} / {rss['B']:.0f} | {g} |")
        else:
            row = (f"| {name} | {ev['A']:,} | {fmt_s(med['A'])} ({fmt_s(lo)}-{fmt_s(hi)}) | {fmt_s(cpu['A'])} "
                   f"| {rss['A']:.0f} | {g} |")
        if not a.no_callgrind:
            if cg:
                ins = [instructions(b, args) for _, b in bins]
                row += " " + " / ".join(f"{i / 1e6:.1f} M" for i in ins) + " |"
            else:
                row += " |"
        print(row)
        sys.stdout.flush()
        lines.append(row)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
