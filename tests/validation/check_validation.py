#!/usr/bin/env python3
"""Reproducibility check of docs/validation.md: each quick row's command still
produces the kairo figure the row documents.

This is not a test of the model's correctness. The expected values are kairo's
own output, written into the document when it was measured; what the check
guards is that the document stays true of the code (a figure that moves must be
re-measured and its verdict re-judged in the same change). The independent
reference is the paper's (or BookSim's) figure in the same row, and the row's
verdict is where the two are compared, by a person, with the tolerance the
document states.

The table's columns (docs/validation.md, "How to read the table"):
  kairo figure  the checked value is the **bold** number, with its unit
  command       one `build/kairo ...` command line, run from the repository root;
                its `--json FILE` is redirected to a temporary file
  field         where the figure is in the output: a JSON path, or
                `stdout: REGEX` whose one group holds a number (and its unit)
  check         quick (run by this script and by ctest), run (run with --all:
                too slow for ctest), documented (a long run quoted from another
                document), host (a wall time: depends on the machine), or -

A figure matches when the value, converted to the figure's unit, rounds to it
at the decimals written (|value - figure| <= half a unit of the last digit).

Field syntax:
  a.b[2].c            JSON path; [i] an index, [*] every element, [k.l=v] the
                      first element whose k.l equals v
  max(P), min(P)      over the list P gives
  argmin(L, K, V)     of the elements of list L, the one with the smallest K: its V
  argmax(L, K, V)     likewise, the largest K
  F / G               a ratio of two of the above (spaces around the slash)
  link_util(Z, +, 0us, 20us)
                      average utilization of the Z+ links over that window, from
                      the counter log the command writes (--counters FILE.csv)
The value's unit follows from the last name of the path: *_ns is ns, *_gbps
GB/s, *_cycles cycles, *bytes B; a ratio and any other name are plain numbers.

    python3 tests/validation/check_validation.py --kairo build/kairo           # quick rows
    python3 tests/validation/check_validation.py --kairo build/kairo --all     # and the run rows
    python3 tests/validation/check_validation.py --kairo build/kairo --row 12   # one row
"""
import argparse
import csv
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DOC = os.path.join(ROOT, "docs", "validation.md")

TIME_NS = {"ns": 1.0, "us": 1e3, "\u00b5s": 1e3, "\u03bcs": 1e3, "ms": 1e6, "s": 1e9}
BYTES = {"B": 1.0, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1024.0, "MiB": 1024.0**2,
         "GiB": 1024.0**3}
UNIT_ALIASES = {"GB/s": "GB/s", "cycles": "cycles", "cycle": "cycles"}
NUMBER = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"


class RowError(Exception):
    pass


# ---- the document -----------------------------------------------------------

def split_cells(line):
    """Cells of a markdown table line (no cell of this table holds a '|')."""
    line = line.strip()
    if not line.startswith("|") or not line.endswith("|"):
        return None
    return [c.strip() for c in line[1:-1].split("|")]


def read_table(text):
    """The rows of the table whose header has the columns this script needs."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        header = split_cells(line)
        if not header:
            continue
        names = [h.lower() for h in header]
        if not {"#", "kairo figure", "command", "field", "check", "verdict"} <= set(names):
            continue
        rows = []
        for body in lines[i + 2:]:
            cells = split_cells(body)
            if cells is None:
                break
            if len(cells) != len(names):
                raise RowError(f"table line has {len(cells)} cells, the header {len(names)}: {body[:80]}")
            rows.append(dict(zip(names, cells)))
        return rows
    raise RowError(f"{DOC}: no table with the columns #, kairo figure, command, field, check, verdict")


def code_spans(cell):
    return re.findall(r"`([^`]+)`", cell)


def documented_figure(cell):
    """(value, unit, half_unit) of the bold figure of a 'kairo figure' cell."""
    bold = re.search(r"\*\*([^*]+)\*\*", cell)
    if not bold:
        raise RowError(f"no **bold** figure in the kairo figure cell: {cell!r}")
    return parse_quantity(bold.group(1))


def parse_quantity(text):
    m = re.match(r"\s*(?:[^\d+-]*?=\s*)?(" + NUMBER + r")\s*(\S*)", text)
    if not m:
        raise RowError(f"no number in {text!r}")
    digits = m.group(1).replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    unit = m.group(2).rstrip(".,;)")
    return float(digits), unit, 0.5 * 10 ** (-decimals)


# ---- fields -------------------------------------------------------------------

def split_path(path):
    return [s for s in re.findall(r"[^.\[\]]+(?:\[[^\]]*\])*", path) if s]


def lookup(obj, path):
    """Follow a JSON path; a [*] turns the rest of the path into a map."""
    for seg in split_path(path):
        m = re.match(r"([^\[]+)((?:\[[^\]]*\])*)$", seg)
        name, brackets = m.group(1), m.group(2)
        obj = step(obj, name)
        for sel in re.findall(r"\[([^\]]*)\]", brackets):
            obj = select(obj, sel)
    return obj


def step(obj, name):
    if isinstance(obj, _Many):
        return _Many(step(o, name) for o in obj)
    if not isinstance(obj, dict) or name not in obj:
        raise RowError(f"no key {name!r} in the output")
    return obj[name]


def select(obj, sel):
    if isinstance(obj, _Many):
        return _Many(select(o, sel) for o in obj)
    if not isinstance(obj, list):
        raise RowError(f"[{sel}] applied to a non-list")
    if sel == "*":
        return _Many(obj)
    if "=" in sel:
        key, want = sel.split("=", 1)
        for item in obj:
            if str(lookup(item, key)) == want:
                return item
        raise RowError(f"no element with {key} = {want}")
    return obj[int(sel)]


class _Many(list):
    """The elements a [*] selected, mapped over by the rest of a path."""


def unit_of(path):
    last = split_path(path)[-1].split("[")[0] if path else ""
    if last.endswith("_ns"):
        return "ns"
    if last.endswith("_gbps"):
        return "GB/s"
    if last.endswith("_cycles"):
        return "cycles"
    if last.endswith("bytes"):
        return "B"
    return ""


def number(v, what):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RowError(f"{what} is {v!r}, not a number")
    return float(v)


def evaluate_term(term, data):
    term = term.strip()
    m = re.match(r"(max|min)\((.+)\)$", term)
    if m:
        values = lookup(data, m.group(2))
        if not isinstance(values, list) or not values:
            raise RowError(f"{term}: not a non-empty list")
        vals = [number(v, term) for v in values]
        return (max(vals) if m.group(1) == "max" else min(vals)), unit_of(m.group(2))
    m = re.match(r"(argmin|argmax)\(([^,]+),([^,]+),([^,]+)\)$", term)
    if m:
        items = lookup(data, m.group(2).strip())
        if not isinstance(items, list) or not items:
            raise RowError(f"{term}: not a non-empty list")
        key = m.group(3).strip()
        pick = min if m.group(1) == "argmin" else max
        best = pick(items, key=lambda it: number(lookup(it, key), key))
        value = m.group(4).strip()
        return number(lookup(best, value), value), unit_of(value)
    return number(lookup(data, term), term), unit_of(term)


def evaluate(field, data):
    parts = field.split(" / ")
    if len(parts) == 1:
        return evaluate_term(parts[0], data)
    if len(parts) != 2:
        raise RowError(f"field {field!r}: at most one ratio")
    a, _ = evaluate_term(parts[0], data)
    b, _ = evaluate_term(parts[1], data)
    return a / b, ""


def link_utilization(path, dim, direction, t_from_us, t_to_us):
    """Average utilization (busy time / time) over [from, to) of the links of
    one dimension and direction in a counter log (CSV, docs/counters.md). The
    links counted are those the log lists in any interval (a link idle for the
    whole run has no row); the window must fall on interval boundaries."""
    t0, t1 = t_from_us * 1e6, t_to_us * 1e6
    links, busy = set(), 0.0
    with open(path, newline="") as f:
        next(f)
        for r in csv.DictReader(f):
            if r["kind"] != "link" or r["dim"] != dim or r["dir"] != direction:
                continue
            links.add((r["unit"], r["port"]))
            start, end = float(r["interval_start_ps"]), float(r["interval_end_ps"])
            if start >= t0 and end <= t1:
                busy += float(r["busy_ps"])
    if not links:
        raise RowError(f"the counter log has no {dim}{direction} link")
    return busy / (len(links) * (t1 - t0))


def measured(field, json_data, stdout, counters_path=None):
    m = re.match(r"link_util\((\w+),\s*([+-]),\s*(\d+(?:\.\d+)?)us,\s*(\d+(?:\.\d+)?)us\)$", field)
    if m:
        if not counters_path or not os.path.exists(counters_path):
            raise RowError("link_util needs the command's --counters FILE.csv")
        return link_utilization(counters_path, m.group(1), m.group(2), float(m.group(3)), float(m.group(4))), ""
    if field.startswith("stdout:"):
        regex = field[len("stdout:"):].strip()
        m = re.search(regex, stdout)
        if not m:
            raise RowError(f"stdout does not match {regex!r}")
        value, unit, _ = parse_quantity(m.group(1))
        return value, unit
    if json_data is None:
        raise RowError("the command wrote no JSON (give it --json out/v.json)")
    return evaluate(field, json_data)


def convert(value, unit, to_unit):
    """value in unit, expressed in to_unit (the documented figure's)."""
    for table in (TIME_NS, BYTES):
        if unit in table or to_unit in table:
            if unit not in table or to_unit not in table:
                raise RowError(f"cannot compare {unit or 'a plain number'} with {to_unit or 'a plain number'}")
            return value * table[unit] / table[to_unit]
    if unit and UNIT_ALIASES.get(unit, unit) != UNIT_ALIASES.get(to_unit, to_unit):
        raise RowError(f"the output is in {unit}, the figure in {to_unit or 'no unit'}")
    return value


def matches(value, figure, half_unit):
    return abs(value - figure) <= half_unit * (1 + 1e-9) + 1e-12 * abs(figure)


# ---- running a row ------------------------------------------------------------

def command_of(row, kairo, json_path):
    spans = [s for s in code_spans(row["command"]) if s.startswith("build/kairo ")]
    if len(spans) != 1:
        raise RowError(f"expected one `build/kairo ...` command, found {len(spans)}")
    argv = shlex.split(spans[0])
    argv[0] = kairo
    tmp = os.path.dirname(json_path)
    if "--json" in argv:
        argv[argv.index("--json") + 1] = json_path
    if "--counters" in argv:
        argv[argv.index("--counters") + 1] = os.path.join(tmp, "counters.csv")
    return argv


def check_row(row, kairo, timeout):
    field_spans = code_spans(row["field"])
    if len(field_spans) != 1:
        raise RowError("the field cell needs exactly one `field`")
    field = field_spans[0]
    figure, fig_unit, half = documented_figure(row["kairo figure"])
    with tempfile.TemporaryDirectory() as tmp:
        json_path = os.path.join(tmp, "v.json")
        argv = command_of(row, kairo, json_path)
        try:
            proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RowError(f"the command took more than {timeout} s")
        if proc.returncode != 0:
            raise RowError(f"exit code {proc.returncode}: {proc.stderr.strip()[-300:]}")
        data = None
        if os.path.exists(json_path):
            with open(json_path) as f:
                data = json.load(f)
        value, unit = measured(field, data, proc.stdout, os.path.join(tmp, "counters.csv"))
    value = convert(value, unit, fig_unit)
    return value, figure, fig_unit, half


def self_test():
    """The parsing and the comparison reject what they must (no kairo run)."""
    assert parse_quantity("2.568 s") == (2.568, "s", 0.0005)
    assert parse_quantity("1,067.9 ms")[:2] == (1067.9, "ms")
    assert parse_quantity("n = 8")[:2] == (8.0, "")
    assert matches(convert(2567.9e6, "ns", "s"), 2.568, 0.0005)
    assert not matches(convert(2566.9e6, "ns", "s"), 2.568, 0.0005)
    assert not matches(0.41341, 0.4133, 0.00005)
    data = {"compare": [{"params": {"streams": 1}, "latency_ns": 3.0},
                        {"params": {"streams": 8}, "latency_ns": 2.0}],
            "sweep": [{"a": 0.1}, {"a": 0.3}]}
    assert evaluate("argmin(compare, latency_ns, params.streams)", data) == (8.0, "")
    assert evaluate("compare[params.streams=1].latency_ns / compare[1].latency_ns", data) == (1.5, "")
    assert evaluate("max(sweep[*].a)", data) == (0.3, "")
    try:
        convert(1.0, "ns", "GB/s")
    except RowError:
        pass
    else:
        raise AssertionError("a time compared with a bandwidth")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kairo", required=True, help="the kairo binary")
    ap.add_argument("--all", action="store_true", help="also run the rows marked run")
    ap.add_argument("--row", action="append", default=[], help="only this row number (repeatable)")
    ap.add_argument("--doc", default=DOC, help="the document (default docs/validation.md)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per command")
    args = ap.parse_args()
    self_test()
    kairo = os.path.abspath(args.kairo)
    with open(args.doc, encoding="utf-8") as f:
        rows = read_table(f.read())
    wanted = {"quick", "run"} if args.all else {"quick"}
    failures, checked, start = [], 0, time.monotonic()
    for row in rows:
        kind = row["check"].strip("`* ")
        if kind in ("quick", "run") and not code_spans(row["field"]):
            failures.append(f"row {row['#']}: marked {kind} but has no field")
            continue
        if kind not in wanted or (args.row and row["#"] not in args.row):
            continue
        t0 = time.monotonic()
        try:
            value, figure, unit, half = check_row(row, kairo, args.timeout)
        except RowError as e:
            failures.append(f"row {row['#']}: {e}")
            print(f"row {row['#']:>3}: ERROR {e}")
            continue
        checked += 1
        ok = matches(value, figure, half)
        print(f"row {row['#']:>3}: {'ok  ' if ok else 'FAIL'} documented {figure:g} {unit}, "
              f"got {value:.6g} ({time.monotonic() - t0:.1f} s)")
        if not ok:
            failures.append(f"row {row['#']}: documented {figure:g} {unit}, the command gives {value:.6g}")
    if checked == 0 and not failures:
        failures.append("no row was checked")
    print(f"{checked} rows checked in {time.monotonic() - start:.0f} s")
    for f in failures:
        print("FAILED " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
