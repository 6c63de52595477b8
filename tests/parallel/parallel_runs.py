#!/usr/bin/env python3
"""Partitioned runs (docs/parallel.md): one platform split over
N processes under Open MPI gives the very results of one process.

Each case runs kairo once without mpirun and once under
`mpirun --oversubscribe -np N`, and compares the JSON summaries with the
run's own cost fields (wall time, events, memory, the `parallel` report)
removed: every simulated figure must be equal, bit for bit.

    python3 tests/parallel/parallel_runs.py --kairo build/kairo --mpirun mpirun --case NAME
    python3 tests/parallel/parallel_runs.py --kairo build/kairo --mpirun mpirun --list
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

COST_KEYS = {"wall_s", "elaborate_s", "events", "events_per_s", "flit_hops_per_s", "sim_cycles_per_s",
             "peak_rss_mib", "runtime_bytes_per_rank", "coroutine_frame_bytes_peak", "events_per_put", "events_by_block",
             "events_per_get", "parallel"}

TRAFFIC = ["--warmup-cycles", "500", "--measure-cycles", "2000"]
# name -> (processes, arguments after `kairo`)
CASES = {
    # traffic below and above saturation (uniform on torus-8x8 saturates near 0.5 flits/node/cycle)
    "traffic-torus8x8-low-np2": (2, ["traffic", "torus-8x8", "--rate", "0.2"] + TRAFFIC),
    "traffic-torus8x8-high-np4": (4, ["traffic", "torus-8x8", "--rate", "0.7"] + TRAFFIC),
    "traffic-tofusmall-low-np4": (4, ["traffic", "tofu-small", "--rate", "0.2"] + TRAFFIC),
    "traffic-tofusmall-high-np2": (2, ["traffic", "tofu-small", "--rate", "0.9", "--packet-flits", "16"] + TRAFFIC),
    "traffic-mesh8x8-metis-np3": (3, ["traffic", "mesh-8x8", "--rate", "0.3", "--partition", "metis"] + TRAFFIC),
    "traffic-mesh16x16-batch-np2": (2, ["traffic", "mesh-16x16", "--batch", "10", "--pattern", "bitcomp"]),
    "traffic-epstree-np4": (4, ["traffic", "eps-tree-128", "--rate", "0.3"] + TRAFFIC),
    # on/off sources with a packet-size mix: each node's chain and sizes come from its own stream
    "traffic-mesh8x8-onoff-sizes-np2": (2, ["traffic", "mesh-8x8", "--rate", "0.25", "--injection", "onoff",
                                            "--burst-alpha", "0.1", "--burst-beta", "0.4", "--packet-sizes",
                                            "1:0.5,8:0.5"] + TRAFFIC),
    # the router options: adaptive choices and the VC allocation stage decided on each side of the cut
    "traffic-torus8x8-adaptive-spec-np3": (3, ["traffic", "torus-8x8", "--rate", "0.6", "--set",
                                               "router.routing=minimal_adaptive", "--set", "router.vc_allocator=islip",
                                               "--set", "router.speculative=true"] + TRAFFIC),
    "traffic-mesh8x8-adaptive-transpose-np2": (2, ["traffic", "mesh-8x8", "--rate", "0.3", "--pattern", "transpose",
                                                   "--set", "router.routing=minimal_adaptive"] + TRAFFIC),
    # wormhole: a packet's flits span routers of different processes while its source is still sending
    # (16-flit packets in 8-flit buffers; on 3 processes this stalled at 0.35 until the source stopped
    # reading its head flit after the head had crossed the cut)
    "traffic-mesh8x8-wormhole-np3": (3, ["traffic", "mesh-8x8", "--rate", "0.35", "--packet-flits", "16", "--set",
                                         "router.flow_control=wormhole", "--set", "router.vc_buffer_flits=8",
                                         "--set", "router.max_packet_flits=16", "--counters", "{out}/c.csv",
                                         "--interval", "50ns"] + TRAFFIC),
    "traffic-torus8x8-wormhole-adaptive-np4": (4, ["traffic", "torus-8x8", "--rate", "0.6", "--packet-flits", "16",
                                                   "--set", "router.flow_control=wormhole", "--set",
                                                   "router.vc_buffer_flits=8", "--set", "router.max_packet_flits=16",
                                                   "--set", "router.routing=minimal_adaptive"] + TRAFFIC),
    "traffic-dragonfly-wormhole-np3": (3, ["traffic", "dragonfly-342", "--rate", "0.3", "--packet-flits", "16",
                                           "--set", "router.flow_control=wormhole", "--set",
                                           "router.vc_buffer_flits=32", "--set", "router.max_packet_flits=16"]
                                       + TRAFFIC),
    # bubble flow control: a packet's ring entry waits for two free slots downstream, across the cut too
    "traffic-torus8x8-bubble-np3": (3, ["traffic", "torus-8x8", "--rate", "0.8", "--set",
                                        "router.flow_control=bubble", "--set", "router.vcs=1", "--set",
                                        "router.vc_buffer_flits=16"] + TRAFFIC),
    "run-a2at-bubble-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                          "--param", "size=4KiB", "--set", "router.flow_control=bubble",
                                          "--set", "router.vc_buffer_flits=128"]),
    # a dragonfly under UGAL (its shipped routing) on bad_dragon: source routers choose minimal or Valiant
    # ways by their outputs' used credits, which must not depend on where the cut puts the credits' senders
    "traffic-dragonfly-ugal-baddragon-np3": (3, ["traffic", "dragonfly-342", "--rate", "0.12", "--pattern",
                                                 "bad_dragon"] + TRAFFIC),
    # counter logs: the file {out}/NAME must be the same bytes too
    "counters-torus8x8-csv-np4": (4, ["traffic", "torus-8x8", "--rate", "0.4", "--counters", "{out}/c.csv",
                                      "--interval", "100ns"] + TRAFFIC),
    # the alloc table (adaptive routing, a VC allocation stage, speculation): its rows come from every process
    "counters-torus8x8-alloc-kcl-np3": (3, ["traffic", "torus-8x8", "--rate", "0.5", "--set",
                                            "router.routing=minimal_adaptive", "--set", "router.vc_allocator=islip",
                                            "--set", "router.speculative=true", "--counters", "{out}/c.kcl",
                                            "--interval", "200ns"] + TRAFFIC),
    "counters-tofusmall-kcl-np2": (2, ["traffic", "tofu-small", "--rate", "0.6", "--counters", "{out}/c.kcl",
                                       "--interval", "200ns"] + TRAFFIC),
    "counters-hybrid-traffic-np3": (3, ["traffic", "hybrid-eps-ocs-128", "--rate", "0.2", "--counters",
                                        "{out}/c.csv", "--interval", "200ns"] + TRAFFIC),
    # kairo run: RDMA packets with their payloads cross the cut; data mode
    # verifies every byte on process 0 from every process's node memories
    "run-a2at-tofusmall-np2": (2, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                   "--param", "size=2KiB", "--tni-counters", "{out}/tni.csv"]),
    "run-a2at-tofusmall-metis-np4": (4, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                         "--param", "size=1KiB", "--partition", "metis"]),
    # RDMA under wormhole: a put's packets cross the cut as flits, their payload on the head flit
    "run-a2at-wormhole-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                            "--param", "size=4KiB", "--set", "router.flow_control=wormhole",
                                            "--set", "router.vc_buffer_flits=32"]),
    "run-tofu-alltoall-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=tofu",
                                            "--param", "size=512"]),
    "run-randomring-tofusmall-np2": (2, ["run", "tofu-small", "--workload", "random-ring", "--param", "size=64KiB"]),
    "run-randomring-tofusmall-np4": (4, ["run", "tofu-small", "--workload", "random-ring", "--param", "size=32KiB",
                                         "--seed", "7"]),
    # split runs keep credit flow control on the wide-area link (the loss model runs on one process)
    "run-bcast-grid2x32-np2": (2, ["run", "grid-2x32", "--workload", "bcast", "--set",
                                   "links.wan.flow_control=credit"]),
    "run-barrier-tofusmall-np4": (4, ["run", "tofu-small", "--workload", "barrier", "--param", "iterations=3",
                                      "--param", "skew_ns=300"]),
    "run-allreduce-torus8x8-np2": (2, ["run", "torus-8x8", "--workload", "allreduce", "--param", "size=4KiB"]),
    "run-pingpong-tofusmall-np2": (2, ["run", "tofu-small", "--workload", "pingpong", "--param", "dst=95",
                                       "--param", "size=4KiB"]),
    # a scenario file (docs/rdma.md, "Scenarios"): completions recorded on every process, counters
    # and memory read by process 0 after the gather; its expectations hold in both runs
    "run-scenario-fetchadd-tofusmall-np2": (2, ["run", "tofu-small", "--scenario", "{in}/scenario.yaml"]),
    # an MPI trace replayed (docs/traces.md): matching, rendezvous gets and
    # collectives between ranks of different processes
    "run-trace-tofusmall-np2": (2, ["run", "tofu-small", "--workload", "trace", "--param",
                                    "trace={repo}/examples/traces/small-8/traces.otf2", "--mode", "size-only"]),
    "run-alltoall-epstree-np4": (4, ["run", "eps-tree-128", "--workload", "alltoall", "--param", "size=1KiB"]),
    "run-a2at-sizeonly-torus8x8-np3": (3, ["run", "torus-8x8", "--workload", "alltoall", "--param", "algo=a2at",
                                           "--param", "size=16KiB", "--mode", "size-only"]),
    "run-counters-tofusmall-csv-np3": (3, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                           "--param", "size=2KiB", "--counters", "{out}/c.csv", "--interval", "2us"]),
    # the hybrid EPS/OCS network: the pattern workload's pathways (preset) join
    # nodes of different processes through the OCS; process 0 reports the
    # switches' and optical ports' counters of every process
    "run-pattern-hybrid-cp-np2": (2, ["run", "hybrid-eps-ocs-128", "--workload", "pattern", "--param", "scheme=cp",
                                      "--set", "ocs.pathways=6", "--param", "size=512KiB", "--param",
                                      "iterations=2"]),
    "run-pattern-hybrid-sp-np4": (4, ["run", "hybrid-eps-ocs-128", "--workload", "pattern", "--param",
                                      "size=256KiB", "--set", "ocs.pathways=4", "--counters", "{out}/c.csv",
                                      "--interval", "20us", "--trace-nodes", "0-40", "--vcd", "{out}/w.vcd"]),
    # a pattern on the last two edge switches only (processes 2 and 3 of 4):
    # its busiest node and every pathway are other processes' than process 0
    "run-pattern-hybrid-csv-np4": (4, ["run", "hybrid-eps-ocs-128", "--workload", "pattern", "--param",
                                       "pattern={in}/far.csv", "--set", "ocs.pathways=4", "--param", "iterations=2",
                                       "--counters", "{out}/c.kcl", "--interval", "20us"]),
    # waveforms: process 0 merges every process's value changes into one file,
    # the very bytes of the one-process run's
    "wave-a2at-tofusmall-vcd-np4": (4, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                        "--param", "size=1KiB", "--trace-nodes", "0-47", "--vcd", "{out}/w.vcd"]),
    "wave-randomring-tofusmall-window-np2": (2, ["run", "tofu-small", "--workload", "random-ring", "--param",
                                                 "size=16KiB", "--trace-from", "3us", "--trace-to", "9us",
                                                 "--vcd", "{out}/w.vcd"]),
    "wave-traffic-torus8x8-fst-np3": (3, ["traffic", "torus-8x8", "--rate", "0.6", "--fst", "{out}/w.fst"] + TRAFFIC),
    "wave-traffic-tofusmall-vcd-np2": (2, ["traffic", "tofu-small", "--rate", "0.3", "--trace-box", "X=0:1",
                                           "--vcd", "{out}/w.vcd"] + TRAFFIC),
    # the operation log (docs/rdma.md): process 0 merges every process's records; the file is the
    # one process's, byte for byte (the README's put, a 4 KiB get, and an all-to-all's every step)
    "oplog-put-tofusmall-np2": (2, ["run", "tofu-small", "--workload", "pingpong", "--op-log", "{out}/ops.csv"]),
    "oplog-put-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "pingpong", "--op-log", "{out}/ops.csv"]),
    "oplog-get-tofusmall-np2": (2, ["run", "tofu-small", "--workload", "pingpong", "--param", "op=get",
                                    "--param", "size=4KiB", "--param", "dst=40", "--op-log", "{out}/ops.jsonl"]),
    "oplog-get-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "pingpong", "--param", "op=get",
                                    "--param", "size=4KiB", "--param", "dst=40", "--op-log", "{out}/ops.jsonl"]),
    "oplog-a2at-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                     "--param", "size=2KiB", "--op-log", "{out}/ops.csv", "--check-ops"]),
    # size-only runs without waveforms, counter logs or engine tables: each process builds only its own
    # routers, endpoints, engines and ranks (platforms::OwnedPart), the cut cables' far ends stand-ins
    "run-barrier-sizeonly-tofusmall-np4": (4, ["run", "tofu-small", "--workload", "barrier", "--param",
                                               "algo=recursive-doubling", "--mode", "size-only"]),
    # METIS cuts tofu-small's A, B and C rings too (2 and 3 routers long: both ports of a 2-ring lead to one router)
    "run-a2at-sizeonly-tofusmall-metis-np5": (5, ["run", "tofu-small", "--workload", "alltoall", "--param",
                                                  "algo=a2at", "--param", "size=4KiB", "--mode", "size-only",
                                                  "--partition", "metis"]),
    "run-a2at-wormhole-sizeonly-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "alltoall", "--param",
                                                     "algo=a2at", "--param", "size=2KiB", "--mode", "size-only",
                                                     "--set", "router.flow_control=wormhole", "--set",
                                                     "router.vc_buffer_flits=8"]),
    # a mesh's edges: routers without a neighbour on one side, cut into 3 column blocks
    "run-allreduce-sizeonly-mesh8x8-np3": (3, ["run", "mesh-8x8", "--workload", "allreduce", "--param", "size=8KiB",
                                               "--mode", "size-only"]),
    "oplog-put-sizeonly-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "pingpong", "--param", "dst=95",
                                             "--mode", "size-only", "--op-log", "{out}/ops.csv", "--check-ops"]),
    # the engine table from a partial build: each process's lines, in engine order on process 0
    "run-a2at-sizeonly-tni-tofusmall-np3": (3, ["run", "tofu-small", "--workload", "alltoall", "--param",
                                                "algo=a2at", "--param", "size=2KiB", "--mode", "size-only",
                                                "--tni-counters", "{out}/tni.csv"]),
}
# What a split run builds in each process (docs/parallel.md): its own part of
# a mesh/torus, unless process 0 must read every block at the end (waveforms,
# counter logs; for `kairo run` also data mode, a scenario's or the pattern
# workload's checks), and every switched fabric whole.
MESH_TORUS = {"tofu-small", "torus-8x8", "mesh-8x8", "mesh-16x16", "tofu-k"}
WHOLE_OPTIONS = {"--vcd", "--fst", "--counters", "--scenario"}


def builds_whole(args):
    if args[1] not in MESH_TORUS or any(a in WHOLE_OPTIONS for a in args):
        return True
    if args[0] == "traffic":
        return False
    mode = args[args.index("--mode") + 1] if "--mode" in args else "data"
    workload = args[args.index("--workload") + 1] if "--workload" in args else ""
    return mode != "size-only" or workload == "pattern"


# --sweep under mpirun: the points are shared out over the processes; the
# table on stdout must be the one process's, byte for byte.
SWEEPS = {
    "sweep-mesh8x8-np3": (3, ["traffic", "mesh-8x8", "--sweep", "0.1,0.2,0.3,0.45",
                              "--warmup-cycles", "300", "--measure-cycles", "1000"]),
    # experiments from kairo traffic's options: configuration x seed i on process i mod N, the table process 0's
    "compare-traffic-mesh8x8-np2": (2, ["traffic", "mesh-8x8", "--compare", "router.vcs=2,4", "--seeds", "2",
                                        "--rate", "0.3", "--warmup-cycles", "300", "--measure-cycles", "1000"]),
    "saturation-traffic-mesh8x8-np3": (3, ["traffic", "mesh-8x8", "--saturation", "--precision", "0.05",
                                           "--compare", "router.allocator=islip,round_robin",
                                           "--warmup-cycles", "300", "--measure-cycles", "1000"]),
    # kairo run's variants: value i on process i mod N, the table process 0's
    "compare-barrier-tofusmall-np2": (2, ["run", "tofu-small", "--workload", "barrier",
                                          "--compare", "algo=ring,recursive-doubling,dissemination"]),
    "sizes-bcast-torus8x8-np3": (3, ["run", "torus-8x8", "--workload", "bcast",
                                     "--param", "sizes=1KiB,8KiB,64KiB,256KiB"]),
}

TINY = """name: mesh-2x1
description: two routers, one cable
topology:
  dims:
    - {name: X, size: 2, wrap: false}
router:
  clock: 1GHz
  flit_size: 32B
  link_bandwidth: 32GB/s
  vcs: 2
  vc_buffer_flits: 8
  max_packet_flits: 8
  cable_latency: 1ns
"""
INSTANT = TINY.replace("cable_latency: 1ns", "cable_latency: 0ns\n  routing_cycles: 0\n  vc_alloc_cycles: 0\n"
                       "  sw_alloc_cycles: 0\n  switch_traversal_cycles: 0\n  credit_delay_cycles: 0")
# Bad input under mpirun: every process ends with exit code 2, the message is
# printed once, and nothing hangs. name -> (processes, platform YAML or None,
# arguments after `kairo` ({platform}: the YAML file), words the message must
# hold[, environment variables to set])
ERRORS = {
    "error-more-processes-than-routers": (3, TINY, ["traffic", "{platform}"], ["mpirun -np 3", "at most 2"]),
    "error-zero-lookahead": (2, INSTANT, ["traffic", "{platform}"], ["lookahead is 0"]),
    "error-bad-json-path": (2, None, ["traffic", "mesh-8x8", "--json", "/nonexistent-dir/r.json"],
                            ["--json", "does not exist"]),
    "error-bad-rate": (2, None, ["traffic", "mesh-8x8", "--rate", "7"], ["--rate"]),
    "error-onoff-rate-too-high": (2, None, ["traffic", "mesh-8x8", "--injection", "onoff", "--burst-alpha", "0.1",
                                            "--burst-beta", "0.4", "--rate", "0.9"], ["--rate", "highest --rate is 0.8"]),
    "error-run-more-processes-than-routers": (3, TINY, ["run", "{platform}", "--workload", "pingpong"],
                                              ["mpirun -np 3", "at most 2"]),
    "error-run-bad-tni-counters-path": (2, None, ["run", "tofu-small", "--workload", "barrier", "--tni-counters",
                                                  "/nonexistent-dir/t.csv"], ["--tni-counters", "does not exist"]),
    "error-run-hybrid-circuit-requests": (2, None, ["run", "hybrid-eps-ocs-128", "--workload", "pattern",
                                                    "--param", "circuits=request", "--set", "ocs.pathways=2", "--param", "size=64KiB"],
                                          ["circuits=request", "preset"]),
    "error-run-bad-vcd-path": (2, None, ["run", "tofu-small", "--workload", "barrier", "--vcd",
                                         "/nonexistent-dir/w.vcd"], ["--vcd", "does not exist"]),
    "error-run-bad-op-log-path": (2, None, ["run", "tofu-small", "--workload", "barrier", "--op-log",
                                            "/nonexistent-dir/ops.csv"], ["--op-log", "does not exist"]),
    # kairo loads MPI as a plugin only under mpirun (sim/mpi_transport.h): without it, no run
    "error-missing-mpi-plugin": (2, None, ["traffic", "mesh-8x8"], ["MPI plugin", "/nonexistent-dir/p.so"],
                                 {"KAIRO_MPI_PLUGIN": "/nonexistent-dir/p.so"}),
}


# Split runs (docs/reliability.md): one process meets what the others do not.
# Every process must end with exit code 2 within 10 s, the message said once,
# by process 0 or by the refusing process naming itself. name -> (processes,
# the process that differs, shell words run before kairo on that process
# only, arguments after `kairo` ({P}: the differing value), the value on the
# others and on that one, words the message must hold). Each process starts
# in its own directory d/pK, holding platform.yaml unless the case says.
SPLITS = {
    "split-host-memory-refused-on-process-0": (2, 0, "export KAIRO_HOST_MEMORY=1MiB;",
                                               ["traffic", "mesh-8x8", "--rate", "0.1"], None,
                                               ["host memory"]),
    "split-host-memory-refused-on-process-2": (3, 2, "export KAIRO_HOST_MEMORY=1MiB;",
                                               ["traffic", "mesh-8x8", "--rate", "0.1"], None,
                                               ["process 2 of 3", "host memory"]),
    "split-platform-missing-on-process-1": (2, 1, "rm platform.yaml;",
                                            ["run", "platform.yaml", "--workload", "pingpong"], None,
                                            ["process 1 of 2", "platform.yaml", "no such file"]),
    "split-platform-differs-on-process-1": (2, 1, "sed -i s/vcs:.4/vcs:\\ 3/ platform.yaml;",
                                            ["traffic", "platform.yaml", "--rate", "0.1"], None,
                                            ["processes of this run differ", "process 1 reads platform mesh-8x8"]),
    "split-command-differs-on-process-1": (2, 1, "", ["traffic", "mesh-8x8", "--rate", "{P}"], ("0.1", "0.2"),
                                           ["processes of this run differ", "process 1 runs `kairo traffic "
                                            "mesh-8x8 --rate 0.2"]),
    "split-bad-option-on-process-1": (2, 1, "", ["traffic", "mesh-8x8", "{P}", "--rate", "0.1"],
                                      ("--seed=1", "--bogus"), ["processes of this run differ", "--bogus"]),
}


def check_split(kairo, mpirun, name):
    n, who, prelude, args, values, words = SPLITS[name]
    kairo = os.path.abspath(kairo)
    mesh = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "platforms", "mesh-8x8.yaml")
    with tempfile.TemporaryDirectory() as d:
        for p in range(n):
            os.makedirs(os.path.join(d, f"p{p}"))
            shutil.copy(mesh, os.path.join(d, f"p{p}", "platform.yaml"))
        def words_for(value):
            return " ".join(shlex.quote(a.replace("{P}", value)) for a in args)
        same = words_for(values[0] if values else "")
        odd = words_for(values[1] if values else "")
        script = (f'cd {shlex.quote(d)}/p$OMPI_COMM_WORLD_RANK; if [ "$OMPI_COMM_WORLD_RANK" = {who} ]; then '
                  f'{prelude} exec {shlex.quote(kairo)} {odd} --warmup-cycles 1000 --measure-cycles 1000 --quiet; '
                  f'else exec {shlex.quote(kairo)} {same} --warmup-cycles 1000 --measure-cycles 1000 --quiet; fi')
        if args[0] == "run":
            script = script.replace(" --warmup-cycles 1000 --measure-cycles 1000", "")
        start = time.monotonic()
        try:
            p = subprocess.run([mpirun, "--oversubscribe", "-np", str(n), "sh", "-c", script], capture_output=True,
                               text=True, env=mpi_env(), timeout=60)
            code, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            code, err = None, "(no exit within 60 s)"
        took = time.monotonic() - start
    lines = [l for l in err.splitlines() if l.startswith("kairo: error:")]
    problems = []
    if code != 2:
        problems.append(f"exit code {code}, expected 2")
    if took > 10:
        problems.append(f"took {took:.1f} s, expected at most 10")
    if len(lines) != 1:
        problems.append(f"{len(lines)} error lines, expected 1")
    elif not all(w in lines[0] for w in words):
        problems.append(f"the message lacks {words}: {lines[0]}")
    if problems:
        print(f"FAIL {name}: " + "; ".join(problems) + "\n" + err[-2000:])
        return False
    print(f"ok   {name}: exit 2 in {took:.1f} s, {lines[0][:120]}")
    return True


def check_error(kairo, mpirun, name):
    n, yaml_text, args, words = ERRORS[name][:4]
    env = {**mpi_env(), **(ERRORS[name][4] if len(ERRORS[name]) > 4 else {})}
    with tempfile.TemporaryDirectory() as d:
        plat = os.path.join(d, "platform.yaml")
        if yaml_text:
            with open(plat, "w") as f:
                f.write(yaml_text)
        args = [a.replace("{platform}", plat).replace("{dir}", d) for a in args]
        code, out, err = run([mpirun, "--oversubscribe", "-np", str(n), kairo] + args + ["--quiet"], env=env)
    lines = [l for l in err.splitlines() if l.startswith("kairo: error:")]
    problems = []
    if code != 2:
        problems.append(f"exit code {code}, expected 2")
    if len(lines) != 1:
        problems.append(f"{len(lines)} error lines, expected 1 (process 0 speaks for all)")
    elif not all(w in lines[0] for w in words):
        problems.append(f"the message lacks {words}: {lines[0]}")
    if out.strip():
        problems.append("something was written to stdout")
    if problems:
        print(f"FAIL {name}: " + "; ".join(problems) + "\n" + err[-2000:])
        return False
    print(f"ok   {name}: exit 2, {lines[0][:110]}")
    return True


def check_sweep(kairo, mpirun, name):
    n, args = SWEEPS[name]
    code1, out1, err1 = run([kairo] + args + ["--quiet"])
    code2, out2, err2 = run([mpirun, "--oversubscribe", "-np", str(n), kairo] + args + ["--quiet"], env=mpi_env())
    if code1 != 0 or code2 != 0:
        print(f"FAIL {name}: exit codes {code1} and {code2}\n{err1}\n{err2}")
        return False
    if out1 != out2 or out1.count("\n") < 2:
        print(f"FAIL {name}: the tables differ\n--- one process\n{out1}--- {n} processes\n{out2}")
        return False
    print(f"ok   {name}: {n} processes, the same {out1.count(chr(10)) - 1}-point table")
    return True


def mpi_env():
    env = dict(os.environ)
    # CI runs as root on a fresh machine; Open MPI refuses root unless told.
    env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    # Oversubscribed ranks on a small machine must yield the core while they wait.
    env["OMPI_MCA_mpi_yield_when_idle"] = "1"
    return env


def strip(d):
    """The JSON without its cost fields, at any depth (events_per_put is in details)."""
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if k not in COST_KEYS}
    if isinstance(d, list):
        return [strip(v) for v in d]
    return d


def differences(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'one process' if k in a else 'the split run'}")
            else:
                out += differences(a[k], b[k], f"{path}/{k}")
        return out
    return [] if a == b else [f"{path}: one process {json.dumps(a)[:120]}, split {json.dumps(b)[:120]}"]


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    return p.returncode, p.stdout, p.stderr


def far_pattern():
    """128 x 128 bytes: nodes 64-127 (edge switches 2 and 3) each send 256 KiB
    to a node under edge switch 3, the rest nothing."""
    rows = []
    for s in range(128):
        row = [0] * 128
        if s >= 64:
            d = 96 + (s * 7 + 3) % 32
            if d != s:
                row[d] = 262144
        rows.append(",".join(map(str, row)))
    return "\n".join(rows) + "\n"


def fetch_add_scenario():
    """All 96 ranks of tofu-small add 1 to a counter on rank 95 (the other
    process's), pass a barrier and get the counter back: 96 everywhere."""
    return """scenario: every rank adds 1 to a counter on rank 95
ranks:
  - ranks: all
    regions:
      - {name: counter, size: 8B}
      - {name: old, size: 8B}
    steps:
      - fetch_add: {id: add, to: 95, region: counter, add: 1, into: old}
      - wait: {completion: add}
      - barrier: {}
      - get: {id: back, from: 95, region: counter, into: old}
expect:
  - memory: {rank: 95, region: counter, equals: {u64: 96}}
  - memory: {rank: 3, region: old, equals: {u64: 96}}
  - completion: {rank: 50, id: add, status: ok}
  - completion: {rank: 94, id: back, status: ok}
  # its fetch_add, its get and the barrier's ceil(log2 96) = 7 puts
  - counter: {rank: 95, tni: 0, name: commands, equals: 9}
"""


# the repository, for the inputs it ships ({repo}/examples/...)
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# inputs a case names as {in}/NAME
INPUTS = {"far.csv": far_pattern, "scenario.yaml": fetch_add_scenario}


def check_case(kairo, mpirun, name):
    n, args = CASES[name]
    files = sorted(os.path.basename(a) for a in args if a.startswith("{out}/"))
    with tempfile.TemporaryDirectory() as d:
        for f, make in INPUTS.items():
            with open(os.path.join(d, f), "w") as out:
                out.write(make())
        args = [a.replace("{in}", d).replace("{repo}", REPO) for a in args]
        one_dir, split_dir = os.path.join(d, "one"), os.path.join(d, "split")
        os.mkdir(one_dir)
        os.mkdir(split_dir)
        one, split = os.path.join(d, "one.json"), os.path.join(d, "split.json")
        code1, _, err1 = run([kairo] + [x.replace("{out}", one_dir) for x in args] + ["--quiet", "--json", one])
        code2, _, err2 = run([mpirun, "--oversubscribe", "-np", str(n), kairo] +
                             [x.replace("{out}", split_dir) for x in args] + ["--quiet", "--json", split],
                             env=mpi_env())
        if code1 != code2:
            print(f"FAIL {name}: exit code {code1} in one process, {code2} split over {n}\n{err1}\n{err2}")
            return False
        a, b = json.load(open(one)), json.load(open(split))
        for f in files:
            x, y = open(os.path.join(one_dir, f), "rb").read(), open(os.path.join(split_dir, f), "rb").read()
            if x != y or not x:
                print(f"FAIL {name}: {f} differs ({len(x)} bytes in one process, {len(y)} split)")
                return False
            # a waveform must hold the run, not only the signals' initial values
            steps = x.count(b"\n#")
            if f.endswith(".vcd") and steps < 20:
                print(f"FAIL {name}: {f} has {steps} time steps; expected the run's value changes")
                return False
    if args[0] == "run" and "size-only" not in args and not (a.get("verified") is True and b.get("verified") is True):
        print(f"FAIL {name}: data mode must verify in both runs (one: {a.get('verified')}, split: {b.get('verified')})")
        return False
    par = b.get("parallel")
    if not par or par.get("processes") != n:
        print(f"FAIL {name}: the split run's JSON has no 'parallel' report for {n} processes")
        return False
    if args[1] in MESH_TORUS:
        # on these platforms a router per node; a process builds at least its share, less than all when partial
        routers, built = a["nodes"], par.get("routers_built_max")
        whole = builds_whole(args)
        if built is None or (built != routers if whole else not -(-routers // n) <= built < routers):
            print(f"FAIL {name}: the largest process built {built} of {routers} routers; expected "
                  + ("all" if whole else f"its own part: at least {-(-routers // n)}, fewer than all"))
            return False
    diff = differences(strip(a), strip(b))
    if diff:
        print(f"FAIL {name} ({n} processes):")
        for line in diff[:30]:
            print("   ", line)
        return False
    same = f", identical {', '.join(files)}" if files else ""
    print(f"ok   {name}: {n} processes, {par['windows']} windows, {par['bytes_exchanged']} bytes exchanged{same}")
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kairo", required=True)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--case", action="append")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        print("\n".join(list(CASES) + list(SWEEPS) + list(ERRORS) + list(SPLITS)))
        return 0
    names = a.case or list(CASES) + list(SWEEPS) + list(ERRORS) + list(SPLITS)
    check = {**{n: check_case for n in CASES}, **{n: check_sweep for n in SWEEPS}, **{n: check_error for n in ERRORS},
             **{n: check_split for n in SPLITS}}
    bad = [n for n in names if not check[n](a.kairo, a.mpirun, n)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
