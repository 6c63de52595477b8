#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
start=$(date +%s)
status=0
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 600 || status=$?
echo "kairo tests: the suite took $(( $(date +%s) - start )) s of wall time (ctest exit $status)"
exit $status
