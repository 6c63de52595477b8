#!/usr/bin/env python3
"""Checks build/libkairo_mpitrace.so against a program's own account of its messages.

Runs PROGRAM under mpirun with the tracer preloaded (KAIRO_TRACE=tmpdir), reads
the archive back with otf2-print (otf2-tools, independent of the tracer) and
asserts that:
  - the MpiSend and MpiIsend records, per (sender, receiver as world rank via the
    communicator's group), count the messages and bytes the program counted
    itself (its JSON, argv[1]);
  - the MpiCollectiveEnd records count the program's collectives per rank, and
    a few of their byte counts follow Score-P's convention;
  - every MpiIsend has its MpiIsendComplete and every MpiIrecvRequest its
    MpiIrecv (same location, same request id), each inside a Wait or Test
    call; and each of MPI_Wait, Waitall, Waitany, Waitsome, Test, Testall,
    Testany and Testsome completes sends and receives on every rank (the
    program's small sends in flight together share one request handle in
    Open MPI: tests/trace/mpi_small.c's shared_handles);
  - every MpiRecv and MpiIrecvRequest carries kairo::posted_source and
    kairo::posted_tag (and MpiIrecvRequest kairo::posted_comm), with -1 for
    the program's wildcard receives;
  - timestamps never decrease on a location, and the archive has the
    properties KAIRO::CLOCK, KAIRO::WALL_NS and KAIRO::RANKS.
With --edge-cases it also checks that the preloaded tracer without
KAIRO_TRACE writes nothing, and that an unusable directory costs one line on
stderr and leaves the program running.
Exit status 0 when everything holds; every failure is printed.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time

FAILURES = []


def expect(cond, message):
    if not cond:
        FAILURES.append(message)


def run_mpi(args, np, program, out_json, env_extra, preload=True):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **env_extra)
    cmd = [args.mpirun, "--oversubscribe", "-np", str(np)]
    for name in env_extra:
        cmd += ["-x", name]
    if preload:
        env["LD_PRELOAD"] = args.tracer
        cmd += ["-x", "LD_PRELOAD"]
    cmd += [program, out_json]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def otf2_print(args, anchor, *options):
    done = subprocess.run([args.otf2_print, *options, anchor], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        FAILURES.append(f"otf2-print {' '.join(options)} failed: {done.stderr.strip()}")
    return done.stdout


def parse_definitions(text):
    """comm id -> members (world ranks, in communicator-rank order)."""
    groups, comms = {}, {}
    for line in text.splitlines():
        m = re.match(r"GROUP\s+(\d+)\s+.*Type: (\w+),.*?(\d+) Members: (.*)$", line)
        if m and m.group(2) == "COMM_GROUP":
            groups[int(m.group(1))] = [int(x) for x in re.findall(r"(?:^|, )(\d+) \(", m.group(4))]
        m = re.match(r'COMM\s+(\d+)\s+Name: .*?, Group: "[^"]*" <(\d+)>', line)
        if m:
            comms[int(m.group(1))] = groups.get(int(m.group(2)))
    return comms


def parse_events(text):
    """[(name, location, timestamp, fields dict, attributes dict)] in print order."""
    events = []
    for line in text.splitlines():
        if line.startswith(" ") and "ADDITIONAL ATTRIBUTES:" in line and events:
            for name, value in re.findall(r'\("kairo::(\w+)" <\d+>; \w+; ([^)]*?)\)', line):
                events[-1][4][name] = value
            continue
        m = re.match(r"([A-Z_]+)\s+(\d+)\s+(\d+)\s+(.*)$", line)
        if not m:
            continue
        fields = {}
        for key, value in re.findall(r'(\w+): ("[^"]*" <\d+>|[^,]+)', m.group(4)):
            fields[key] = value.strip()
        comm = re.search(r'Communicator: "[^"]*" <(\d+)>', m.group(4))
        if comm:
            fields["comm"] = int(comm.group(1))
        events.append((m.group(1), int(m.group(2)), int(m.group(3)), fields, {}))
    return events


def check_trace(args, np, program, clock):
    with tempfile.TemporaryDirectory(prefix="kairo_trace_") as tmp:
        trace_dir = os.path.join(tmp, "trace")
        out_json = os.path.join(tmp, "own.json")
        start = time.time()
        done = run_mpi(args, np, program, out_json, {"KAIRO_TRACE": trace_dir, "KAIRO_TRACE_CLOCK": clock})
        print(f"{os.path.basename(program)} at {np} ranks ({clock} clock): {time.time() - start:.1f} s")
        if done.returncode != 0:
            FAILURES.append(f"traced run failed ({done.returncode}): {done.stderr.strip()}")
            return
        expect("kairo mpitrace" not in done.stderr, f"the tracer complained: {done.stderr.strip()}")
        for path in ("traces.otf2", "traces.def", "traces"):
            expect(os.path.exists(os.path.join(trace_dir, path)), f"{trace_dir}/{path} missing")
        with open(out_json) as f:
            own = json.load(f)
        anchor = os.path.join(trace_dir, "traces.otf2")
        comms = parse_definitions(otf2_print(args, anchor, "-G"))
        info = otf2_print(args, anchor, "-I")
        events = parse_events(otf2_print(args, anchor))
    check_properties(info, np, clock)
    check_sends(events, comms, own)
    if args.fortran:  # the Fortran program has neither wildcards nor Tests
        check_requests_fortran(events)
    else:
        check_requests(events)
        check_completions(events, np)
        check_posted(events)
    check_collectives(events, own, np, scorep_bytes=not args.fortran)
    check_time(events)


def check_properties(info, np, clock):
    props = dict(re.findall(r"Property name\s+(\S+)\s*\nProperty value\s+(\S*)", info))
    expect(props.get("KAIRO::CLOCK") == clock, f"KAIRO::CLOCK is {props.get('KAIRO::CLOCK')}, not {clock}")
    expect(props.get("KAIRO::WALL_NS", "").isdigit() and int(props["KAIRO::WALL_NS"]) > 0,
           f"KAIRO::WALL_NS is {props.get('KAIRO::WALL_NS')!r}, not a positive number of ns")
    expect(props.get("KAIRO::RANKS") == str(np), f"KAIRO::RANKS is {props.get('KAIRO::RANKS')}, not {np}")


def check_sends(events, comms, own):
    traced = collections.Counter()
    traced_bytes = collections.Counter()
    for name, loc, _, fields, _ in events:
        if name not in ("MPI_SEND", "MPI_ISEND"):
            continue
        members = comms.get(fields.get("comm"))
        if members is None:
            FAILURES.append(f"{name} on location {loc} names communicator {fields.get('comm')} with no group")
            continue
        dst = members[int(fields["Receiver"].split()[0])]
        traced[(loc, dst)] += 1
        traced_bytes[(loc, dst)] += int(fields["Length"])
    counted = {(s, d): (m, b) for s, d, m, b in own["pairs"]}
    print(f"  {sum(traced.values())} sends in the trace over {len(traced)} pairs, "
          f"{sum(m for m, _ in counted.values())} counted by the program over {len(counted)} pairs")
    for pair in sorted(set(counted) | set(traced)):
        got = (traced[pair], traced_bytes[pair])
        expect(got == counted.get(pair, (0, 0)),
               f"sends {pair[0]}->{pair[1]}: trace has {got[0]} messages / {got[1]} bytes, "
               f"the program counted {counted.get(pair, (0, 0))}")


def check_requests(events):
    by_kind = collections.defaultdict(set)
    for name, loc, _, fields, _ in events:
        if "Request" in fields:
            by_kind[name].add((loc, int(fields["Request"])))
    expect(by_kind["MPI_ISEND"], "no MpiIsend in the trace")
    expect(by_kind["MPI_ISEND"] == by_kind["MPI_ISEND_COMPLETE"],
           f"Isend without IsendComplete: {sorted(by_kind['MPI_ISEND'] ^ by_kind['MPI_ISEND_COMPLETE'])[:5]}")
    expect(by_kind["MPI_IRECV_REQUEST"] == by_kind["MPI_IRECV"],
           f"IrecvRequest without Irecv: {sorted(by_kind['MPI_IRECV_REQUEST'] ^ by_kind['MPI_IRECV'])[:5]}")
    expect(by_kind["MPI_REQUEST_TEST"], "no MpiRequestTest although the program tests running requests")


COMPLETING_CALLS = ["MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome",
                    "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome"]


def check_completions(events, np):
    """Completion records inside the calls that complete requests, every kind of call at work."""
    inside = {}  # location -> region name of the call in progress
    seen = collections.Counter()  # (location, region, record)
    for name, loc, _, fields, _ in events:
        if name == "ENTER":
            inside[loc] = fields.get("Region", "").split('"')[1]
        elif name == "LEAVE":
            inside.pop(loc, None)
        elif name in ("MPI_ISEND_COMPLETE", "MPI_IRECV"):
            region = inside.get(loc)
            expect(region in COMPLETING_CALLS,
                   f"location {loc}: {name} for request {fields.get('Request')} inside {region}, not a Wait or Test")
            seen[(loc, region, name)] += 1
    for loc in range(np):
        for region in COMPLETING_CALLS:
            for record in ("MPI_ISEND_COMPLETE", "MPI_IRECV"):
                expect(seen[(loc, region, record)] > 0, f"location {loc}: no {record} inside any {region}")


def check_posted(events):
    wildcard = collections.Counter()
    for name, loc, _, fields, attrs in events:
        if name not in ("MPI_RECV", "MPI_IRECV_REQUEST"):
            continue
        needed = ["posted_source", "posted_tag"] + (["posted_comm"] if name == "MPI_IRECV_REQUEST" else [])
        missing = [a for a in needed if a not in attrs]
        expect(not missing, f"{name} on location {loc} lacks kairo::{', kairo::'.join(missing)}")
        if attrs.get("posted_source") == "-1" and attrs.get("posted_tag") == "-1":
            wildcard[(name, loc)] += 1
    # mpi_small's wildcards: a Recv on rank 0 and an Irecv on rank 2.
    expect(wildcard[("MPI_RECV", 0)] >= 1, "no MpiRecv with posted source and tag -1 on rank 0")
    expect(wildcard[("MPI_IRECV_REQUEST", 2)] >= 1, "no MpiIrecvRequest with posted source and tag -1 on rank 2")


def check_collectives(events, own, np, scorep_bytes):
    ops = collections.defaultdict(collections.Counter)  # location -> op -> count
    ends = collections.defaultdict(list)
    for name, loc, _, fields, _ in events:
        if name == "MPI_COLLECTIVE_END":
            ops[loc][fields["Operation"]] += 1
            ends[loc].append(fields)
    for loc in range(np):
        for region, count in own["collectives"].items():
            op = region[len("MPI_"):].upper()
            expect(ops[loc][op] == count, f"rank {loc}: {ops[loc][op]} {op} in the trace, the program made {count}")
    # Score-P's bytes, on MPI_COMM_WORLD (mpitrace/README.md): mpi_small's
    # Bcast of 100 doubles from 0, Allreduce of 4 doubles, Gather of 1 double to 0.
    for loc in range(np if scorep_bytes else 0):
        world = [f for f in ends[loc] if f.get("comm") == 0]
        first = {}
        for f in world:
            first.setdefault(f["Operation"], f)
        sizes = {op: (int(f["Sent"]), int(f["Received"])) for op, f in first.items()}
        want = {"BCAST": (np * 800, 800) if loc == 0 else (0, 800), "ALLREDUCE": (np * 32, np * 32),
                "GATHER": (8, np * 8) if loc == 0 else (8, 0)}
        for op, sent_received in want.items():
            expect(sizes.get(op) == sent_received,
                   f"rank {loc}: {op} sent/received {sizes.get(op)}, Score-P's convention says {sent_received}")


def check_time(events):
    last = {}
    for name, loc, t, _, _ in events:
        expect(t >= last.get(loc, 0), f"location {loc}: {name} at {t} ns after an event at {last.get(loc)} ns")
        last[loc] = max(t, last.get(loc, 0))


def check_edge_cases(args, program):
    with tempfile.TemporaryDirectory(prefix="kairo_trace_") as tmp:
        out_json = os.path.join(tmp, "own.json")
        done = run_mpi(args, 4, program, out_json, {})
        expect(done.returncode == 0 and os.path.exists(out_json), f"untraced run failed: {done.stderr.strip()}")
        expect(sorted(os.listdir(tmp)) == ["own.json"], f"the tracer wrote without KAIRO_TRACE: {os.listdir(tmp)}")
        blocker = os.path.join(tmp, "a_file")
        open(blocker, "w").close()
        bad = os.path.join(blocker, "trace")
        done = run_mpi(args, 4, program, out_json, {"KAIRO_TRACE": bad})
        lines = [l for l in done.stderr.splitlines() if "kairo mpitrace" in l]
        expect(done.returncode == 0, f"a bad KAIRO_TRACE stopped the program: {done.stderr.strip()}")
        expect(len(lines) == 1 and bad in lines[0], f"a bad KAIRO_TRACE gave {lines}, not one line naming {bad}")
        print(f"edge cases: {lines[0] if lines else 'no message'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--otf2-print", default="otf2-print")
    parser.add_argument("--tracer", required=True, help="build/libkairo_mpitrace.so")
    parser.add_argument("--program", required=True)
    parser.add_argument("--np", type=int, action="append", required=True)
    parser.add_argument("--clock", default="wall", choices=["wall", "cpu"])
    parser.add_argument("--fortran", action="store_true", help="the Fortran program: no wildcard or Test checks")
    parser.add_argument("--edge-cases", action="store_true")
    args = parser.parse_args()
    args.tracer = os.path.abspath(args.tracer)
    for np in args.np:
        check_trace(args, np, os.path.abspath(args.program), args.clock)
    if args.edge_cases:
        check_edge_cases(args, os.path.abspath(args.program))
    for f in FAILURES:
        print("FAIL:", f)
    print("kairo trace check:", "failed" if FAILURES else "all records as the program counted them")
    return 1 if FAILURES else 0


def check_requests_fortran(events):
    kinds = collections.defaultdict(set)
    for name, loc, _, fields, _ in events:
        if "Request" in fields:
            kinds[name].add((loc, int(fields["Request"])))
    expect(kinds["MPI_IRECV_REQUEST"], "no MpiIrecvRequest from the Fortran program")
    expect(kinds["MPI_IRECV_REQUEST"] == kinds["MPI_IRECV"], "Fortran IrecvRequest without Irecv")


if __name__ == "__main__":
    sys.exit(main())
