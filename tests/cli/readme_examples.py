#!/usr/bin/env python3
"""Every example of README.md's "Using it" block runs as written.

The block is read from the README at test time, so whatever lines it holds
are checked: each command (a line, with its backslash continuations; the
`build/kairo` lines, and the mpirun ones) runs in order, through bash, in a fresh
temporary directory that holds `build` (a link to the directory of the
kairo binary given), `examples`, `tests`, `platforms` and `waves` (links to the repository's) and an empty
`out/`, so that the examples' outputs stay out of the repository and later
lines find what earlier ones wrote. Each must exit with code 0.

A command whose trailing comment says it is long, "(about N min)" or
"(about N h)", is listed and skipped.

    readme_examples.py --kairo build/kairo [--readme README.md] [--list] [--keep]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

LONG = re.compile(r"\(about [0-9.,]+\s*(min|minutes|h|hours?)\b")


def using_it_block(readme):
    """The lines of the first ```sh block after the "## Using it" heading."""
    text = open(readme, encoding="utf-8").read()
    at = text.find("\n## Using it")
    if at < 0:
        raise SystemExit(f"{readme}: no '## Using it' section")
    start = text.find("```sh\n", at)
    end = text.find("\n```", start + 6)
    if start < 0 or end < 0:
        raise SystemExit(f"{readme}: no ```sh block under '## Using it'")
    return text[start + 6:end].split("\n")


def split_comment(line):
    """(command, comment): the comment starts at a '#' outside quotes after a blank."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def commands(lines):
    """The block's commands: continuation lines joined, each with its comment."""
    out, pending, comments = [], "", []
    for raw in lines:
        cmd, comment = split_comment(raw)
        if comment:
            comments.append(comment)
        if cmd.endswith("\\"):
            pending += cmd[:-1].rstrip() + " "
            continue
        full = (pending + cmd.strip()).strip()
        pending = ""
        if full:
            out.append((full, " ".join(comments)))
        comments = []
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kairo", required=True)
    ap.add_argument("--readme", default=os.path.join(os.path.dirname(__file__), "..", "..", "README.md"))
    ap.add_argument("--list", action="store_true", help="print what would run and what is skipped")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per command")
    args = ap.parse_args()
    repo = os.path.abspath(os.path.dirname(args.readme))
    cmds = commands(using_it_block(args.readme))
    # Under the sanitizers (tools/sanitize.sh sets KAIRO_README_SKIP_PRELOAD=1) a
    # line that preloads the instrumented MPI tracer into an uninstrumented
    # program cannot start (ASan wants its runtime loaded first).
    no_preload = os.environ.get("KAIRO_README_SKIP_PRELOAD") == "1"
    for c, m in cmds:
        if no_preload and "LD_PRELOAD=" in c:
            print(f"skipped (preloads the tracer, under the sanitizers): {c}")
    cmds = [(c, m) for c, m in cmds if not (no_preload and "LD_PRELOAD=" in c)]
    run = [(c, m) for c, m in cmds if not LONG.search(m)]
    if not any(c.startswith("build/kairo ") for c, _ in run):
        print("no build/kairo example found", file=sys.stderr)
        return 1
    for c, m in cmds:
        if LONG.search(m):
            print(f"skipped (long: {LONG.search(m).group(0)}): {c}")
    if args.list:
        for c, _ in run:
            print(f"runs: {c}")
        return 0
    tmp = tempfile.mkdtemp(prefix="kairo-readme-")
    os.symlink(os.path.dirname(os.path.abspath(args.kairo)), os.path.join(tmp, "build"))
    for d in ("examples", "tests", "platforms", "waves"):  # the inputs examples name (a BookSim configuration, ...)
        os.symlink(os.path.join(repo, d), os.path.join(tmp, d))
    os.mkdir(os.path.join(tmp, "out"))
    failed = 0
    for c, _ in run:
        t0 = time.monotonic()
        try:
            p = subprocess.run(["bash", "-c", c], cwd=tmp, capture_output=True, text=True, timeout=args.timeout)
            code, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            code, err = "timeout", f"no exit after {args.timeout:.0f} s"
        print(f"{time.monotonic() - t0:7.1f} s  exit {code}: {c}", flush=True)
        if code != 0:
            failed += 1
            print("  " + err.strip().replace("\n", "\n  ")[-2000:], flush=True)
    print(f"{len(run) - failed} of {len(run)} README examples ran with exit code 0 ({tmp})")
    if not args.keep:
        subprocess.run(["rm", "-rf", tmp])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
