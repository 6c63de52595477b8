#!/usr/bin/env python3
"""Traces a program with build/libkairo_mpitrace.so, replays it with kairo, and
checks the replay against the program's own account of what it did.

The program (tests/trace/mpi_small.c) writes a JSON file with the messages and
bytes it sent per (sender, receiver) world-rank pair, counted by its own
bookkeeping, and the collectives each rank called. On every platform given,
`kairo run PLATFORM --workload trace` must report in details.p2p_pairs exactly
those pairs, counts and bytes, in details.calls each collective as often as
the program called it over all ranks, and finish (exit 0). The predicted time
and its compute/communication split are printed for the record.
Exit status 0 when everything holds; every failure is printed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

FAILURES = []


def expect(cond, message):
    if not cond:
        FAILURES.append(message)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--tracer", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--kairo", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--platforms", nargs="+", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        own = os.path.join(tmp, "own.json")
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   KAIRO_TRACE=trace, LD_PRELOAD=args.tracer)
        done = subprocess.run([args.mpirun, "--oversubscribe", "-np", str(args.np), "-x", "KAIRO_TRACE", "-x",
                               "LD_PRELOAD", args.program, own], env=env, capture_output=True, text=True,
                              timeout=120)
        if done.returncode != 0:
            print(f"the traced program failed ({done.returncode}): {done.stderr[-2000:]}")
            return 1
        program = json.load(open(own))
        for platform in args.platforms:
            out = os.path.join(tmp, platform + ".json")
            run = subprocess.run([args.kairo, "run", platform, "--workload", "trace", "--param",
                                  "trace=" + os.path.join(trace, "traces.otf2"), "--mode", "size-only",
                                  "--quiet", "--json", out], capture_output=True, text=True, timeout=120)
            expect(run.returncode == 0, f"{platform}: kairo exited {run.returncode}: {run.stderr[-2000:]}")
            if run.returncode != 0:
                continue
            j = json.load(open(out))
            d = j["details"]
            expect(d["p2p_pairs"] == program["pairs"],
                   f"{platform}: pairs differ:\n replay  {d['p2p_pairs']}\n program {program['pairs']}")
            expect(d["p2p_messages"] == sum(p[2] for p in program["pairs"]), f"{platform}: p2p_messages")
            expect(d["p2p_bytes"] == sum(p[3] for p in program["pairs"]), f"{platform}: p2p_bytes")
            for name, per_rank in program["collectives"].items():
                got = d["calls"].get(name, {}).get("count", 0)
                expect(got == per_rank * args.np, f"{platform}: {name} called {got} times, the program says "
                       f"{per_rank} per rank x {args.np}")
            expect(j["status_ok"], f"{platform}: status_ok false")
            ranks = d["per_rank"]
            print(f"{platform}, {args.np} ranks: predicted {d['predicted_ns'] / 1e3:.1f} us "
                  f"(trace recorded {d['recorded_ns'] / 1e3:.1f} us), {d['p2p_messages']} messages, "
                  f"{d['p2p_bytes']} bytes; per rank compute / communication us: " +
                  ", ".join(f"{r['compute_ns'] / 1e3:.0f}/{r['communication_ns'] / 1e3:.0f}" for r in ranks))
    for f in FAILURES:
        print("FAIL:", f)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
