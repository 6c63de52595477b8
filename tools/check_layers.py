#!/usr/bin/env python3
"""Checks that includes point down the layers of docs/design.md §1.

Each folder may include only itself and the folders listed for it; a
violation is printed as file:line and the script exits 1. With --sizes it
checks instead that no C++ file under app/, platforms/ or hw/ is longer than
450 lines (issue 16: glue and models stay small enough to read).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# folder -> the kairo folders its files may include (besides their own)
ALLOWED = {
    "sim": set(),
    "hw/common": {"sim"},
    "observe": {"sim"},
    "hw/router": {"sim", "hw/common", "observe"},
    "hw/nic": {"sim", "hw/common", "observe"},
    "hw/ocs": {"sim", "hw/common", "observe"},
    "platforms": {"sim", "hw/common", "hw/router", "hw/nic", "hw/ocs", "observe"},
    "traffic": {"sim", "hw/common", "hw/router", "platforms"},
    "firmware": {"sim", "hw/common", "hw/nic"},
    "sw/collectives": {"sim", "firmware", "hw/common", "hw/nic", "platforms"},  # bounds need the shape
    "sw/hybrid": {"sim", "hw/common", "hw/router", "hw/ocs", "platforms"},
    "sw/workloads": {"sim", "firmware", "sw/collectives", "sw/hybrid", "hw/common", "hw/nic", "hw/ocs",
                     "hw/router", "platforms"},
}
FOLDERS = sorted(ALLOWED, key=len, reverse=True)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(path: str):
    for f in FOLDERS:
        if path.startswith(f + "/"):
            return f
    return None


MAX_LINES = 450
SIZED = ("app/", "platforms/", "hw/")


def check_sizes() -> int:
    long_files = []
    for src in sorted(ROOT.rglob("*")):
        rel = src.relative_to(ROOT).as_posix()
        if src.suffix in (".h", ".cpp") and rel.startswith(SIZED):
            n = len(src.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                long_files.append(f"{rel}: {n} lines")
    for f in long_files:
        print(f)
    if long_files:
        print(f"kairo layout: {len(long_files)} file(s) over {MAX_LINES} lines under app/, platforms/, hw/")
        return 1
    print(f"kairo layout: no C++ file under app/, platforms/ or hw/ is over {MAX_LINES} lines")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--sizes"]:
        return check_sizes()
    bad = []
    for src in sorted(ROOT.rglob("*")):
        if src.suffix not in (".h", ".cpp") or "build" in src.relative_to(ROOT).parts[0]:
            continue
        rel = src.relative_to(ROOT).as_posix()
        here = folder_of(rel)
        if here is None:
            continue
        for n, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            there = folder_of(m.group(1))
            if there is None or there == here or there in ALLOWED[here]:
                continue
            bad.append(f"{rel}:{n}: {here} includes {m.group(1)} ({there} is not below it)")
    for b in bad:
        print(b)
    if bad:
        print(f"kairo layers: {len(bad)} include(s) point up or sideways (tools/check_layers.py)")
        return 1
    print("kairo layers: every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
