#!/usr/bin/env bash
# Checks that every C++ file git tracks is formatted by clang-format with the
# repository's .clang-format (Debian bookworm's clang-format 14). Lists the
# files that are not and exits 1; `tools/check_format.sh --fix` formats them.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "kairo format: clang-format is not installed (tools/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "kairo format: ${#bad[@]} file(s) differ from clang-format ($(clang-format --version | head -1)):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "run tools/check_format.sh --fix" >&2
  exit 1
fi
echo "kairo format: ${#files[@]} C++ files formatted as .clang-format says"
