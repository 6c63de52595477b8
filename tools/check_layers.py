#!/usr/bin/env python3
"""Checks that includes point down the layers of docs/design.md §1.

Each folder may include only itself and the folders listed for it; a
violation is printed as file:line and the script exits 1. With --sizes it
checks instead that no C++ file under app/, platforms/ or hw/ is longer than
450 lines (issue 16: glue and models stay small enough to read).
"""
import pathlib
import re
import subprocess
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
    # bounds need the shape and the routing function
    "sw/collectives": {"sim", "firmware", "hw/common", "hw/nic", "hw/router", "platforms"},
    "sw/hybrid": {"sim", "hw/common", "hw/router", "hw/ocs", "platforms"},
    "sw/replay": {"sim", "firmware", "sw/collectives", "sw/hybrid", "hw/common", "hw/nic"},
    "sw/workloads": {"sim", "firmware", "sw/collectives", "sw/hybrid", "sw/replay", "hw/common", "hw/nic", "hw/ocs",
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


def cpp_sources():
    """(path, lines) of every C++ file git tracks."""
    listed = subprocess.run(["git", "ls-files", "*.h", "*.cpp"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    for rel in listed:
        yield rel, (ROOT / rel).read_text(encoding="utf-8").splitlines()


def report(problems, failed: str, passed: str) -> int:
    for p in problems:
        print(p)
    print(failed.format(len(problems)) if problems else passed)
    return 1 if problems else 0


def check_sizes() -> int:
    long_files = [f"{rel}: {len(lines)} lines" for rel, lines in cpp_sources()
                  if rel.startswith(SIZED) and len(lines) > MAX_LINES]
    return report(long_files, f"kairo layout: {{}} file(s) over {MAX_LINES} lines under app/, platforms/, hw/",
                  f"kairo layout: no C++ file under app/, platforms/ or hw/ is over {MAX_LINES} lines")


def check_includes() -> int:
    bad = []
    for rel, lines in cpp_sources():
        here = folder_of(rel)
        if here is None:
            continue
        for n, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            there = folder_of(m.group(1)) if m else None
            if there is None or there == here or there in ALLOWED[here]:
                continue
            bad.append(f"{rel}:{n}: {here} includes {m.group(1)} ({there} is not below it)")
    return report(bad, "kairo layers: {} include(s) point up or sideways (tools/check_layers.py)",
                  "kairo layers: every include points down")


def main() -> int:
    return check_sizes() if sys.argv[1:] == ["--sizes"] else check_includes()


if __name__ == "__main__":
    sys.exit(main())
