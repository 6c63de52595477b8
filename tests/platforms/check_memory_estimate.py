#!/usr/bin/env python3
"""The host-memory estimate (platforms::estimated_host_bytes, docs/reliability.md) against the
peak RSS kairo reaches, on generated platforms of every family: a torus, a dragonfly, a k-ary
n-tree, a two-level cluster fabric, two clusters over a wide-area link and the hybrid EPS+OCS
network. For each, `kairo run P --workload pingpong --mode size-only` (the machine with its NICs
and ranks: the estimate `kairo check` prints) and a short `kairo traffic P` (the network alone:
the estimate `kairo traffic` refuses with) must peak within a factor of 1.25 of the estimate,
either way. The peak is the child's own (wait4's rusage). Prints the table docs/reliability.md
shows; exit 1 naming every row outside.

    check_memory_estimate.py --kairo build/kairo
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
FACTOR = 1.25


def shipped(name):
    return (ROOT / "platforms" / f"{name}.yaml").read_text()


# name -> (shipped platform, [(text, replacement)])
PLATFORMS = {
    "torus-32x32x16": ("torus-10x10x10", [("name: torus-10x10x10", "name: torus-32x32x16"),
                                          ("{name: X, size: 10", "{name: X, size: 32"),
                                          ("{name: Y, size: 10", "{name: Y, size: 32"),
                                          ("{name: Z, size: 10", "{name: Z, size: 16")]),
    "dragonfly-5256": ("dragonfly-342", [("name: dragonfly-342", "name: dragonfly-5256"),
                                         ("dragonfly: {p: 3, a: 6, h: 3}", "dragonfly: {p: 6, a: 12, h: 6}")]),
    "kary-4-16": ("ib-qdr-256", [("name: ib-qdr-256", "name: kary-4-16"),
                                 ("fat_tree: {edges: 16, hosts_per_edge: 16, uplinks_per_edge: 16, spines: 16}",
                                  "fat_tree: {levels: 4, radix: 16}")]),
    "cluster-2048": ("ib-qdr-256", [("name: ib-qdr-256", "name: cluster-2048"),
                                    ("fat_tree: {edges: 16, hosts_per_edge: 16, uplinks_per_edge: 16, spines: 16}",
                                     "fat_tree: {edges: 64, hosts_per_edge: 32, uplinks_per_edge: 16, spines: 16}")]),
    "grid-2x64": ("grid-2x32", [("name: grid-2x32", "name: grid-2x64"),
                                ("clusters: {count: 2, hosts: 32}", "clusters: {count: 2, hosts: 64}")]),
    "hybrid-eps-ocs-128": ("hybrid-eps-ocs-128", []),
}


def estimate(kairo, plat, kind):
    if kind == "run":
        p = subprocess.run([kairo, "check", plat], capture_output=True, text=True, timeout=300)
        m = re.search(r"memory +about (\d+) MiB", p.stdout)
        return float(m.group(1)) if m else None
    env = dict(os.environ, KAIRO_HOST_MEMORY="1KiB")
    p = subprocess.run([kairo, "traffic", plat], capture_output=True, text=True, env=env, timeout=300)
    m = re.search(r"would need about ([\d.]+) (KiB|MiB|GiB)", p.stderr)
    return float(m.group(1)) * {"KiB": 1 / 1024, "MiB": 1, "GiB": 1024}[m.group(2)] if m else None


def peak(kairo, args):
    p = subprocess.Popen([kairo] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read().decode()
    return usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kairo", required=True)
    args = ap.parse_args()
    failures = []
    print("| platform | run | estimate (MiB) | peak RSS (MiB) | peak / estimate |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for name, (base, edits) in PLATFORMS.items():
            text = shipped(base)
            for old, new in edits:
                if old not in text:
                    failures.append(f"{name}: {base}.yaml no longer holds {old!r}")
                text = text.replace(old, new)
            plat = os.path.join(d, name + ".yaml")
            pathlib.Path(plat).write_text(text)
            for kind, cmd in (("run", ["run", plat, "--workload", "pingpong", "--mode", "size-only", "--quiet"]),
                              ("traffic", ["traffic", plat, "--rate", "0.02", "--warmup-cycles", "100",
                                           "--measure-cycles", "200", "--quiet"])):
                e = estimate(args.kairo, plat, kind)
                rss, code, err = peak(args.kairo, cmd)
                if e is None or code != 0:
                    failures.append(f"{name} {kind}: no estimate or exit {code}: {err[-300:]}")
                    continue
                ratio = rss / e
                print(f"| {name} | `kairo {kind}` | {e:.1f} | {rss:.1f} | {ratio:.2f} |", flush=True)
                if not 1 / FACTOR <= ratio <= FACTOR:
                    failures.append(f"{name} {kind}: peak {rss:.1f} MiB against an estimate of {e:.1f} MiB")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
