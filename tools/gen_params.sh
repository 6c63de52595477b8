#!/usr/bin/env bash
# Regenerate the parameter table of docs/parameters.md from the parameter
# declarations: the block between the BEGIN/END parameters markers becomes
# `kairo --list-params --markdown`. Usage: tools/gen_params.sh [path/to/kairo]
# (default build/kairo). tests/platforms/test_params.cpp fails when the two differ.
set -euo pipefail
cd "$(dirname "$0")/.."
kairo="${1:-build/kairo}"
doc=docs/parameters.md
table="$(mktemp)"
trap 'rm -f "$table" "$table.doc"' EXIT
"$kairo" --list-params --markdown >"$table"
grep -q '^<!-- BEGIN parameters' "$doc" && grep -q '^<!-- END parameters' "$doc" ||
  { echo "$doc: the BEGIN/END parameters markers are missing" >&2; exit 2; }
awk -v table="$table" '
  /^<!-- BEGIN parameters/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
  /^<!-- END parameters/ { skip = 0 }
  !skip { print }
' "$doc" >"$table.doc"
cat "$table.doc" >"$doc"
echo "$doc: parameter table regenerated"

# The table of collective algorithms in docs/collectives.md, between its
# BEGIN/END algorithms markers, becomes `kairo algorithms --markdown` (the
# descriptors of sw/collectives/algorithms.cpp);
# tests/firmware/test_fw_algorithms.cpp fails when the two differ.
regen_algorithm_table() {
  local doc=docs/collectives.md algos
  grep -q '^<!-- BEGIN algorithms' "$doc" && grep -q '^<!-- END algorithms' "$doc" ||
    { echo "$doc: the BEGIN/END algorithms markers are missing" >&2; exit 2; }
  algos="$(mktemp)"
  "$kairo" algorithms --markdown >"$algos"
  # Keep the markers, drop what is between them, and put the listing after BEGIN.
  sed -i -e "/^<!-- BEGIN algorithms/r $algos" -e '/^<!-- BEGIN algorithms/,/^<!-- END algorithms/{//!d}' "$doc"
  rm -f "$algos"
  echo "$doc: algorithm table regenerated"
}
regen_algorithm_table
