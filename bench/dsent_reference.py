#!/usr/bin/env python3
"""Router and link energies and areas from DSENT (Sun et al. 2012), over a grid of
configurations, as the reference for kairo's energy model (docs/energy.md).

DSENT is not part of kairo: build it outside the repository (its sources are in gem5's
ext/dsent, the version with main.cc and a Makefile) and give its folder:

    python3 bench/dsent_reference.py --dsent /path/to/dsent --out bench/data/dsent_45nm.csv

Every row is one DSENT evaluation of its own configs/router.cfg (DFF-RAM input buffers, a
multiplexer crossbar, a separable switch allocator of matrix arbiters, a broadcast H-tree
clock, timing optimised at 1 GHz) or configs/electrical-link.cfg (a repeated global wire),
with the fields this script overwrites. Energies are per event in pJ, leakage in mW, area in
um^2.
"""
import argparse
import csv
import os
import re
import subprocess
import sys

ROUTER_EVENTS = {
    "write_pj": "Energy>>Router:WriteBuffer",
    "read_pj": "Energy>>Router:ReadBuffer",
    "crossbar_pj": "Energy>>Router:TraverseCrossbar->Multicast1",
    "arbitrate1_pj": "Energy>>Router:ArbitrateSwitch->ArbitrateStage1",
    "arbitrate2_pj": "Energy>>Router:ArbitrateSwitch->ArbitrateStage2",
    "clock_pj": "Energy>>Router:DistributeClock",
}
PRINTED = ["Buffer", "Crossbar", "Switch allocator", "Clock"]
AREAS = ["Buffer", "Crossbar", "Switch allocator", "Other"]


def run(dsent, cfg, overwrite, tech):
    # DSENT keeps only the last -overwrite: every field goes in one.
    overwrite += f"; ElectricalTechModelFilename=tech/tech_models/{tech}.model"
    cmd = ["./dsent", "-cfg", cfg, "-overwrite", overwrite]
    out = subprocess.run(cmd, cwd=dsent, capture_output=True, text=True, check=True).stdout
    return out


def value(out, key):
    m = re.search(r"^" + re.escape(key) + r" = ([-0-9.e+]+)", out, re.M)
    if not m:
        sys.exit(f"dsent_reference.py: {key} not in DSENT's output")
    return float(m.group(1))


def router_row(dsent, tech, ports, bits, vcs, depth):
    over = (f"NumberInputPorts={ports}; NumberOutputPorts={ports}; NumberBitsPerFlit={bits}; "
            f"NumberVirtualNetworks=1; NumberVirtualChannelsPerVirtualNetwork=[{vcs}]; "
            f"NumberBuffersPerVirtualChannel=[{depth}]")
    out = run(dsent, "configs/router.cfg", over, tech)
    row = {"tech": tech, "ports": ports, "flit_bits": bits, "vcs": vcs, "depth": depth}
    for name, key in ROUTER_EVENTS.items():
        row[name] = value(out, key) * 1e12
    # The evaluation block prints "Name:" then its dynamic and leakage power, then the areas.
    lines = out.splitlines()
    for name in PRINTED:
        i = lines.index(name + ":")
        row["leak_" + name.lower().replace(" ", "_") + "_mw"] = float(lines[i + 2].split(":")[1]) * 1e3
    i = lines.index("Area:")
    for j, name in enumerate(AREAS):
        row["area_" + name.lower().replace(" ", "_") + "_um2"] = float(lines[i + 1 + j].split(":")[1]) * 1e12
    return row


def link_row(dsent, tech, bits, length_mm):
    over = f"NumberBits={bits}; WireLength={length_mm * 1e-3}"
    out = run(dsent, "configs/electrical-link.cfg", over, tech)
    return {"tech": tech, "flit_bits": bits, "length_mm": length_mm,
            "send_pj": value(out, "Energy>>RepeatedLink:Send") * 1e12,
            "leak_mw": value(out, "NddPower>>RepeatedLink:Leakage") * 1e3}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dsent", required=True, help="DSENT's folder (its dsent binary, configs/ and tech/)")
    ap.add_argument("--out", default="bench/data/dsent_45nm.csv")
    ap.add_argument("--links", default="bench/data/dsent_45nm_links.csv")
    a = ap.parse_args()
    if not os.access(os.path.join(a.dsent, "dsent"), os.X_OK):
        sys.exit(f"dsent_reference.py: --dsent {a.dsent}: no dsent binary there")
    rows = []
    for tech in ["Bulk45LVT", "Bulk32LVT", "Bulk22LVT"]:
        grid = [(p, b, v, d) for p in (5, 7) for b in (32, 64, 128) for v, d in ((1, 4), (2, 4), (4, 4), (4, 8), (8, 8))]
        if tech != "Bulk45LVT":
            grid = [(5, 64, 2, 4), (7, 128, 4, 8)]
        for p, b, v, d in grid:
            rows.append(router_row(a.dsent, tech, p, b, v, d))
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    links = [link_row(a.dsent, "Bulk45LVT", b, mm) for b in (32, 64, 128) for mm in (0.5, 1.0, 2.0)]
    with open(a.links, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(links[0]))
        w.writeheader()
        w.writerows(links)
    print(f"{a.out}: {len(rows)} routers; {a.links}: {len(links)} links")


if __name__ == "__main__":
    main()
