#!/usr/bin/env python3
"""tools/waves.sh writes the waveform every save file in waves/ opens.

Runs `tools/waves.sh TMP` (waves/README.md's commands, their waves/ paths
turned into TMP/) with the kairo binary given, then checks that each
waves/*.gtkw's [dumpfile] is a non-empty file in TMP, and that each save
file and filter the commands write again is byte for byte the one in
waves/ (the table says they were made by those commands).

    check_waves.py --kairo build/kairo
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kairo", required=True)
    args = ap.parse_args()
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    tmp = tempfile.mkdtemp(prefix="kairo-waves-")
    env = dict(os.environ, KAIRO=os.path.abspath(args.kairo))
    p = subprocess.run(["bash", os.path.join(repo, "tools", "waves.sh"), tmp], env=env, capture_output=True,
                       text=True)
    if p.returncode != 0:
        print(f"tools/waves.sh {tmp}: exit {p.returncode}\n{p.stdout}{p.stderr}")
        return 1
    problems = []
    saves = sorted(glob.glob(os.path.join(repo, "waves", "*.gtkw")))
    if not saves:
        problems.append("no save file in waves/")
    for save in saves:
        m = re.search(r'^\[dumpfile\] "([^"]+)"', open(save).read(), re.M)
        if not m:
            problems.append(f"{save}: no [dumpfile] line")
            continue
        dump = os.path.join(tmp, m.group(1))
        if not os.path.isfile(dump) or os.path.getsize(dump) == 0:
            problems.append(f"waves/{os.path.basename(save)} opens {m.group(1)}, which tools/waves.sh did not write")
    for made in sorted(glob.glob(os.path.join(tmp, "*.gtkw")) + glob.glob(os.path.join(tmp, "*.txt"))):
        shipped = os.path.join(repo, "waves", os.path.basename(made))
        if not os.path.isfile(shipped):
            problems.append(f"tools/waves.sh wrote {os.path.basename(made)}, which waves/ lacks")
        elif open(made, "rb").read() != open(shipped, "rb").read():
            problems.append(f"waves/{os.path.basename(made)} differs from what its command writes today")
    for p in problems:
        print(p)
    print(f"{len(saves)} save files, {len(problems)} problems ({tmp})")
    if not problems:
        subprocess.run(["rm", "-rf", tmp])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
