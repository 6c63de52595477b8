#!/usr/bin/env python3
"""The resolved configuration (docs/parameters.md, "Resolved configuration"):
sources, defaults read from `kairo --list-params`, the default NIC's MTU
adjustment, `kairo check --resolved`, and plot legends naming real values."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

FAILURES = []


def expect(ok, what):
    if not ok:
        FAILURES.append(what)


def kairo(k, *args):
    return subprocess.run([k, *args], capture_output=True, text=True, timeout=300)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kairo", required=True)
    k = ap.parse_args().kairo
    with tempfile.TemporaryDirectory() as d:
        runs = {}
        for alloc in ("islip", "separable_input_first"):
            path = os.path.join(d, alloc + ".json")
            p = kairo(k, "traffic", "mesh-8x8", "--sweep", "0.05,0.1", "--warmup-cycles", "50", "--measure-cycles",
                      "200", "--quiet", "--set", "router.allocator=" + alloc, "--json", path)
            expect(p.returncode == 0, f"traffic sweep with {alloc} failed: {p.stderr}")
            expect("nic.mtu" not in p.stderr, "a traffic run (no NICs) says the NIC's adjustment")
            runs[alloc] = json.load(open(path))
        a, b = runs["islip"]["resolved"], runs["separable_input_first"]["resolved"]
        expect(a["router.allocator"] == {"value": "islip", "source": "set"}, f"allocator: {a['router.allocator']}")
        expect([key for key in a if a[key] != b[key]] == ["router.allocator"],
               "two runs differing only in router.allocator differ elsewhere in their resolved configuration")
        # mesh-8x8.yaml gives router.vcs; it leaves router.islip_iterations to its default.
        expect(a["router.vcs"]["source"] == "file", f"router.vcs: {a['router.vcs']}")
        table = kairo(k, "--list-params").stdout.splitlines()
        default = next(line.split()[2] for line in table if line.split()[0] == "router.islip_iterations")
        expect(a["router.islip_iterations"] == {"value": int(default), "source": "default"},
               f"islip_iterations: {a['router.islip_iterations']}, --list-params default {default}")
        # The default NIC's MTU is cut to the router's 8 x 32B packets less the 32B header.
        mtu = a["nic.mtu"]
        expect(mtu.get("source") == "adjusted" and mtu.get("requested") == 1920 and mtu.get("value") == 8 * 32 - 32
               and "router.max_packet_flits" in mtu.get("reason", ""), f"nic.mtu: {mtu}")
        p = kairo(k, "check", "mesh-8x8", "--resolved")
        expect(p.stderr.count("nic.mtu 1920B adjusted to 224B") == 1, f"check's stderr: {p.stderr}")
        keys = [line.split()[0] for line in p.stdout.splitlines()[2:]]
        expect(sorted(keys) == sorted(a), "check --resolved does not print every key of the JSON's resolved")
        svg = os.path.join(d, "p.svg")
        p = kairo(k, "plot", runs and os.path.join(d, "islip.json"), os.path.join(d, "separable_input_first.json"),
                  "--out", svg)
        expect(p.returncode == 0, f"plot failed: {p.stderr}")
        text = open(svg).read() if os.path.exists(svg) else ""
        for want in ("router.allocator=islip", "router.allocator=separable_input_first"):
            expect(want in text, f"the legend does not name {want}")
        expect("=default" not in text and "router.vcs" not in text, "the plot names a parameter that is equal")
    for f in FAILURES:
        print("FAILED " + f, file=sys.stderr)
    print("resolved configuration: " + ("ok" if not FAILURES else f"{len(FAILURES)} failure(s)"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
