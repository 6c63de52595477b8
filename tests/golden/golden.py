#!/usr/bin/env python3
"""kairo's regression set: simulated results that a change not meant to alter
the model (speed, refactoring, observability) must keep bit for bit.

Each run below is a kairo command over every workload family and platform
kind. Its JSON summary, with the run's own cost fields removed (wall time,
events, memory: they are what speed work changes), and the SHA-256 of every
other file it writes (counter logs, waveforms, TNI counter CSVs) are stored
in tests/golden/<name>.json. The values were produced by the code at commit
dc897e6 (before the speed work at Tofu scale); a deliberate model change regenerates
them in the same commit and says why the numbers moved.

    python3 tests/golden/golden.py --kairo build/kairo            # check every run
    python3 tests/golden/golden.py --kairo build/kairo --only NAME
    python3 tests/golden/golden.py --kairo build/kairo --update   # rewrite the set
    python3 tests/golden/golden.py --kairo build/kairo --check-ops
        # every RDMA run of the set with `--check-ops`: the operation log's
        # checker finds no violation in the model as it is (docs/rdma.md)
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# The run's cost: measured, not simulated. Everything else in the JSON is a
# simulated result and must not move.
COST_KEYS = {"wall_s", "elaborate_s", "events", "events_by_block", "events_per_s", "flit_hops_per_s", "sim_cycles_per_s",
             "peak_rss_mib", "runtime_bytes_per_rank", "coroutine_frame_bytes_peak", "events_per_put",
             "events_per_get"}

# name -> arguments after `kairo`; "{out}/FILE" names an output file whose
# bytes are part of the result.
RUNS = {
    # synthetic traffic: meshes, tori, Tofu, allocators, batch mode
    "traffic-mesh8x8-uniform": ["traffic", "mesh-8x8", "--rate", "0.2", "--packet-flits", "4",
                                "--warmup-cycles", "1000", "--measure-cycles", "3000"],
    "traffic-torus8x8-tornado": ["traffic", "torus-8x8", "--pattern", "tornado", "--rate", "0.3",
                                 "--warmup-cycles", "1000", "--measure-cycles", "3000"],
    "traffic-mesh8x8-islip-transpose": ["traffic", "mesh-8x8", "--pattern", "transpose", "--rate", "0.35",
                                        "--set", "router.allocator=islip", "--set", "router.vcs=2",
                                        "--warmup-cycles", "500", "--measure-cycles", "2000"],
    "traffic-tofusmall-oldest": ["traffic", "tofu-small", "--rate", "0.3", "--packet-flits", "16",
                                 "--set", "router.allocator=oldest_first",
                                 "--warmup-cycles", "500", "--measure-cycles", "2000"],
    "traffic-mesh16x16-batch": ["traffic", "mesh-16x16", "--batch", "20", "--pattern", "bitcomp"],
    "traffic-torus8x8-counters-vcd": ["traffic", "torus-8x8", "--rate", "0.25", "--warmup-cycles", "200",
                                      "--measure-cycles", "800", "--counters", "{out}/c.csv", "--interval", "100ns",
                                      "--trace-nodes", "0-3", "--vcd", "{out}/w.vcd"],
    # RDMA workloads
    "pingpong-tofud-rack": ["run", "tofud-rack", "--workload", "pingpong"],
    "pingpong-get-tofusmall": ["run", "tofu-small", "--workload", "pingpong", "--param", "op=get",
                               "--param", "size=64KiB", "--param", "dst=40"],
    "putbw-tofusmall": ["run", "tofu-small", "--workload", "put-bw", "--param", "size=1MiB"],
    "randomring-tofusmall-data": ["run", "tofu-small", "--workload", "random-ring", "--param", "size=64KB",
                                  "--tni-counters", "{out}/tnis.csv"],
    "randomring-ibqdr16": ["run", "ib-qdr-16", "--workload", "random-ring", "--param", "size=256KB"],
    "pingpong-grid": ["run", "grid-2x32", "--workload", "pingpong", "--param", "size=1MiB", "--param", "dst=32"],
    # collectives
    "barrier-ring-mesh8x8": ["run", "mesh-8x8", "--workload", "barrier", "--param", "algo=ring"],
    "barrier-ring-mesh10x10x10": ["run", "mesh-10x10x10", "--workload", "barrier", "--param", "algo=ring"],
    "barrier-rd-tofusmall-skew": ["run", "tofu-small", "--workload", "barrier", "--param", "algo=recursive-doubling",
                                  "--param", "skew_ns=2000", "--param", "iterations=3"],
    "barrier-dissemination-torus8x8": ["run", "torus-8x8", "--workload", "barrier", "--param", "algo=dissemination"],
    "alltoall-a2at-tofusmall": ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                "--param", "size=4KiB", "--counters", "{out}/a.kcl", "--interval", "5us"],
    "alltoall-a2a-mesh8x8": ["run", "mesh-8x8", "--workload", "alltoall", "--param", "algo=a2a",
                             "--param", "size=2KiB"],
    "alltoall-tofu-tofusmall-sizeonly": ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=tofu",
                                         "--param", "size=8KiB", "--mode", "size-only"],
    "alltoall-pairwise-eps": ["run", "eps-tree-128", "--workload", "alltoall", "--param", "algo=pairwise",
                              "--param", "size=1KiB"],
    "bcast-vdgext-grid": ["run", "grid-2x32", "--workload", "bcast", "--param", "algo=vandegeijn-ext",
                          "--param", "streams=8", "--param", "size=1MiB"],
    "bcast-binomial-tofusmall": ["run", "tofu-small", "--workload", "bcast", "--param", "algo=binomial",
                                 "--param", "size=256KiB"],
    "allreduce-rab-tofusmall": ["run", "tofu-small", "--workload", "allreduce", "--param", "algo=rabenseifner",
                                "--param", "size=64KiB"],
    "allreduce-ring-mesh8x8": ["run", "mesh-8x8", "--workload", "allreduce", "--param", "algo=ring",
                               "--param", "size=32KiB"],
    "allreduce-twotier-grid": ["run", "grid-2x32", "--workload", "allreduce", "--param", "algo=twotier",
                               "--param", "size=256KiB", "--mode", "size-only"],
    "reducescatter-halving-mesh8x8": ["run", "mesh-8x8", "--workload", "reduce-scatter", "--param", "algo=halving",
                                      "--param", "size=64KiB"],
    "reduce-rab-torus8x8": ["run", "torus-8x8", "--workload", "reduce", "--param", "algo=rabenseifner",
                            "--param", "size=64KiB"],
    "scatter-tofusmall": ["run", "tofu-small", "--workload", "scatter", "--param", "size=16KiB"],
    "gather-limited-grid": ["run", "grid-2x32", "--workload", "gather", "--param", "algo=limited",
                            "--param", "streams=4", "--param", "size=64KiB"],
    "allgather-ring-tofusmall": ["run", "tofu-small", "--workload", "allgather", "--param", "algo=ring",
                                 "--param", "size=4KiB"],
    "neighbor-fragment-tofusmall": ["run", "tofu-small", "--workload", "neighbor", "--param", "algo=fragment",
                                    "--param", "size=256KiB"],
    "pattern-cp-hybrid": ["run", "hybrid-eps-ocs-128", "--workload", "pattern", "--param", "scheme=cp",
                          "--param", "size=64KiB", "--param", "iterations=1", "--set", "ocs.pathways=6",
                          "--mode", "size-only"],
    "alltoall-a2at-tofusmall-32k": ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                    "--param", "size=32KiB", "--mode", "size-only", "--counters", "{out}/a.csv",
                                    "--interval", "20us"],
    "randomring-tofudrack": ["run", "tofud-rack", "--workload", "random-ring", "--param", "size=256KB",
                             "--mode", "size-only"],
    # waveforms of a put through the NIC
    "pingpong-tofusmall-vcd": ["run", "tofu-small", "--workload", "pingpong", "--param", "size=4KiB",
                               "--trace-nodes", "0,1", "--vcd", "{out}/p.vcd", "--counters", "{out}/p.csv",
                               "--interval", "500ns"],
    "alltoall-tofusmall-fst": ["run", "tofu-small", "--workload", "alltoall", "--param", "size=1KiB",
                               "--trace-nodes", "0", "--trace-tnis", "0", "--fst", "{out}/a.fst"],
}


def digest(path):
    """SHA-256 of an output file's content. An FST file carries the date it
    was written in its header: it is compared as GTKWave's fst2vcd prints it,
    without the $date section."""
    if path.endswith(".fst"):
        text = subprocess.run(["fst2vcd", path], capture_output=True, check=True).stdout
        data = re.sub(rb"\$date.*?\$end", b"", text, count=1, flags=re.S)
    else:
        with open(path, "rb") as f:
            data = f.read()
    return hashlib.sha256(data).hexdigest()


# The resolved configuration (the parameters, not simulated figures) is
# checked by tests/cli/test_resolved.py, not here.
NOT_SIMULATED = COST_KEYS | {"resolved"}


def strip(j):
    if isinstance(j, dict):
        return {k: strip(v) for k, v in j.items() if k not in NOT_SIMULATED}
    if isinstance(j, list):
        return [strip(v) for v in j]
    return j


def run(kairo, name, args, timeout=600):
    with tempfile.TemporaryDirectory() as d:
        argv = [kairo] + [a.replace("{out}", d) for a in args] + ["--json", os.path.join(d, "run.json"), "--quiet"]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        result = {"exit_code": p.returncode}
        if p.returncode != 0:
            result["stderr"] = p.stderr
            return result
        with open(os.path.join(d, "run.json")) as f:
            result["json"] = strip(json.load(f))
        files = {}
        for a in args:
            if "{out}" in a:
                path = a.replace("{out}", d)
                files[os.path.basename(path)] = digest(path)
        if files:
            result["files"] = files
        return result


def diff(a, b, path=""):
    """The first few places where a and b differ."""
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: {'missing' if k not in b else 'unexpected'}")
            else:
                out += diff(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, f"{path}[{i}]")
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: expected {json.dumps(a)[:200]}, got {json.dumps(b)[:200]}")
    return out


def check_ops(kairo, names):
    """Each `kairo run` of the set again with --check-ops: exit 0, no violation."""
    failed = []
    for name in names:
        args = RUNS[name]
        if args[0] != "run":
            continue
        with tempfile.TemporaryDirectory() as d:
            argv = [kairo] + [a.replace("{out}", d) for a in args] + ["--check-ops", "--quiet", "--json",
                                                                     os.path.join(d, "run.json")]
            p = subprocess.run(argv, capture_output=True, text=True, timeout=900)
        summary = [l for l in p.stderr.splitlines() if l.startswith("check-ops:")]
        if p.returncode != 0 or not summary or "no violation" not in summary[-1]:
            failed.append(name)
            print(f"FAIL {name}: exit {p.returncode}\n{p.stderr[-3000:]}")
        else:
            print(f"ok   {name}: {summary[-1]}")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kairo", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--check-ops", action="store_true")
    ap.add_argument("--only", action="append")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        print("\n".join(RUNS))
        return 0
    names = a.only or list(RUNS)
    if a.check_ops:
        return check_ops(a.kairo, names)
    failed = []
    for name in names:
        got = run(a.kairo, name, RUNS[name])
        path = os.path.join(HERE, name + ".json")
        if a.update:
            got["command"] = "kairo " + " ".join(RUNS[name])
            with open(path, "w") as f:
                json.dump(got, f, indent=1, sort_keys=True)
                f.write("\n")
            print(f"wrote {path}")
            continue
        with open(path) as f:
            want = json.load(f)
        want.pop("command", None)
        d = diff(want, got)
        if d:
            failed.append(name)
            print(f"FAIL {name}:")
            for line in d[:12]:
                print("   ", line)
        else:
            print(f"ok   {name}")
    if failed:
        print(f"{len(failed)} of {len(names)} runs differ from the regression set: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
