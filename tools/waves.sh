#!/usr/bin/env bash
# Writes the waveforms the GTKWave save files in waves/ open (the .vcd files
# are not kept in the repository): runs each command of waves/README.md's
# table, from the repository root, with build/kairo. The save files and
# their filters are written again too, as the table says they were made.
#
#   tools/waves.sh          # into waves/: then `gtkwave waves/nic_put.gtkw`
#   tools/waves.sh DIR      # into DIR instead (each command's waves/ paths become DIR/)
#   KAIRO=build-asan/kairo tools/waves.sh DIR   # another kairo binary
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-waves}
kairo=${KAIRO:-build/kairo}
[ -x "$kairo" ] || { echo "tools/waves.sh: $kairo not found: build kairo first (README.md)" >&2; exit 2; }
[ -d "$out" ] || { echo "tools/waves.sh: $out: no such directory" >&2; exit 2; }
mapfile -t cmds < <(grep -o '`build/kairo [^`]*`' waves/README.md | tr -d '`')
[ "${#cmds[@]}" -gt 0 ] || { echo "tools/waves.sh: no build/kairo command in waves/README.md" >&2; exit 2; }
for cmd in "${cmds[@]}"; do
  cmd=${cmd//waves\//$out/}
  cmd=$kairo${cmd#build/kairo}
  echo "$cmd"
  eval "$cmd --quiet" > /dev/null
done
echo "tools/waves.sh: wrote the waveforms of waves/*.gtkw in $out/"
