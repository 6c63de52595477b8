#!/usr/bin/env python3
"""Checks the layers docs/design.md §1 draws, and that namespaces match folders.

The drawing in docs/design.md §1 is the table this script enforces: each
layer is a folder at the start of a line, and its `sees:` line lists the
folders its files may include besides their own ("nothing" for none,
"everything" for every folder drawn). Every C++ file git tracks must sit in
a folder of the drawing, every `#include "..."` of a kairo file must point
into its own folder or one it sees, and every `namespace kairo::X` a file
opens must be its folder's (NAMESPACES below), except a block that only
forward-declares classes of a folder it sees. A violation is printed as
file:line and the script exits 1; a drawing it cannot read exits 2.

With --sizes it checks instead that no C++ file under app/, platforms/ or
hw/ is longer than 450 lines (glue and models stay small enough to read).
With --root DIR it checks the tree at DIR (its docs/design.md and its files)
instead of this one; tests/tools/test_check_layers.py uses it on fixtures.
"""
import argparse
import pathlib
import re
import subprocess
import sys

# folder -> the namespaces (kairo::X, with any nested namespace below X)
# its files may open. A folder not listed opens none of kairo's.
NAMESPACES = {
    "sim": {"sim", "units"},
    "observe": {"observe"},
    # hw/common is the vocabulary of the hardware blocks (node ids,
    # topology, VC classes, links, packets, endpoints, the watchdog)
    "hw/common": {"hw"},
    "hw/router": {"router"},
    "hw/nic": {"nic"},
    "hw/ocs": {"ocs"},
    "platforms": {"platforms"},
    "analysis": {"analysis"},
    "traffic": {"traffic"},
    "firmware": {"fw"},
    "sw/collectives": {"coll"},
    "sw/hybrid": {"hybrid"},
    "sw/replay": {"replay"},
    "sw/workloads": {"sw"},
    "app": {"app"},
    "mpitrace": {"mpitrace"},
}
# Folders whose namespaces are their own business (tests open the
# namespace of what they test).
FREE_NAMESPACES = {"tests"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
NAMESPACE = re.compile(r"^\s*namespace\s+kairo::(\w+)")
LAYER = re.compile(r"^([a-z][\w/]*?)/?\s")
SEES = re.compile(r"^\s+sees:\s*(.*)$")

MAX_LINES = 450
SIZED = ("app/", "platforms/", "hw/")


class DrawingError(Exception):
    pass


def read_drawing(root: pathlib.Path) -> dict:
    """folder -> the folders it sees, from the first code block of §1."""
    design = root / "docs" / "design.md"
    try:
        text = design.read_text(encoding="utf-8")
    except OSError as e:
        raise DrawingError(f"{design}: {e.strerror}") from e
    section = re.search(r"^## 1\. .*?$(.*?)^## ", text, re.S | re.M)
    block = re.search(r"^```\n(.*?)^```", section.group(1) if section else "", re.S | re.M)
    if not block:
        raise DrawingError(f"{design}: §1 has no drawing (a ``` block) of the layers")
    layers, sees, current = [], {}, None
    for line in block.group(1).splitlines():
        m = LAYER.match(line + " ")
        if m and not line.startswith(" "):
            current = m.group(1)
            layers.append(current)
            continue
        s = SEES.match(line)
        if s and current:
            sees[current] = s.group(1).split()
        elif current in sees and line.strip():  # the list goes on, indented, until the next layer
            sees[current] += line.split()
    missing = [f for f in layers if f not in sees]
    if not layers or missing:
        raise DrawingError(f"{design}: §1's drawing gives no `sees:` line for {', '.join(missing) or 'any layer'}")
    allowed = {}
    for f in layers:
        words = sees[f]
        if words == ["nothing"]:
            allowed[f] = set()
        elif words == ["everything"]:
            allowed[f] = set(layers) - {f}
        else:
            unknown = [w for w in words if w.rstrip("/") not in layers]
            if unknown:
                raise DrawingError(f"{design}: §1's drawing has {f} see {', '.join(unknown)}, which it does not draw")
            allowed[f] = {w.rstrip("/") for w in words}
    return allowed


def folder_of(path: str, folders):
    for f in folders:
        if path.startswith(f + "/"):
            return f
    return None


def cpp_sources(root: pathlib.Path):
    """(path, lines) of every C++ file: those git tracks, or (outside a git tree) every one under root."""
    try:
        listed = subprocess.run(["git", "ls-files", "*.h", "*.cpp"], cwd=root, check=True, capture_output=True,
                                text=True).stdout.split()
    except (subprocess.CalledProcessError, OSError):
        listed = sorted(str(p.relative_to(root)) for ext in ("*.h", "*.cpp") for p in root.rglob(ext))
    for rel in listed:
        yield rel, (root / rel).read_text(encoding="utf-8").splitlines()


def report(problems, failed: str, passed: str) -> int:
    for p in problems:
        print(p)
    print(failed.format(len(problems)) if problems else passed)
    return 1 if problems else 0


def check_sizes(root: pathlib.Path) -> int:
    long_files = [f"{rel}: {len(lines)} lines" for rel, lines in cpp_sources(root)
                  if rel.startswith(SIZED) and len(lines) > MAX_LINES]
    return report(long_files, f"kairo layout: {{}} file(s) over {MAX_LINES} lines under app/, platforms/, hw/",
                  f"kairo layout: no C++ file under app/, platforms/ or hw/ is over {MAX_LINES} lines")


FORWARD = re.compile(r"^\s*(class|struct)\s+\w+;\s*(//.*)?$")


def declares_only(lines, n: int, space: str, sees) -> bool:
    """Whether the namespace block opened on line n (1-based) only declares
    classes of a folder this one sees (`namespace kairo::sim { class Trace; }`):
    a forward declaration names a lower layer's type, it adds nothing to it."""
    owner = [f for f, spaces in NAMESPACES.items() if space in spaces]
    if not any(f in sees for f in owner):
        return False
    for line in lines[n:]:
        if line.strip().startswith("}"):
            return True
        if line.strip() and not FORWARD.match(line):
            return False
    return False


def check_layers(root: pathlib.Path) -> int:
    allowed = read_drawing(root)
    folders = sorted(allowed, key=len, reverse=True)  # hw/router before hw
    bad = []
    for rel, lines in cpp_sources(root):
        here = folder_of(rel, folders)
        if here is None:
            bad.append(f"{rel}:1: in no layer of docs/design.md §1 (draw its folder there)")
            continue
        spaces = NAMESPACES.get(here, set())
        for n, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            there = folder_of(m.group(1), folders) if m else None
            if there is not None and there != here and there not in allowed[here]:
                bad.append(f"{rel}:{n}: {here} includes {m.group(1)} ({here} does not see {there})")
            ns = NAMESPACE.match(line)
            if ns and here not in FREE_NAMESPACES and ns.group(1) not in spaces \
                    and not declares_only(lines, n, ns.group(1), allowed[here]):
                want = " or ".join(f"kairo::{s}" for s in sorted(spaces)) or "none of kairo's"
                bad.append(f"{rel}:{n}: {here} opens namespace kairo::{ns.group(1)} (its folder's: {want})")
    return report(bad, "kairo layers: {} include(s) or namespace(s) break docs/design.md §1 (tools/check_layers.py)",
                  "kairo layers: every include points down the layers of docs/design.md §1, every namespace "
                  "matches its folder")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", action="store_true", help="check file lengths instead")
    ap.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent,
                    help="the tree to check (default: this one)")
    a = ap.parse_args()
    try:
        return check_sizes(a.root) if a.sizes else check_layers(a.root)
    except DrawingError as e:
        print(f"kairo layers: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
