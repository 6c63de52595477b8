#!/usr/bin/env bash
# kairo's main job on the shipped default platform: a uniform-traffic
# latency/throughput sweep on mesh-8x8 up to saturation, and uniform traffic
# on the small Tofu (tofu-small). Outputs go to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
mkdir -p out
build/kairo traffic mesh-8x8 --pattern uniform --packet-flits 4 --warmup-cycles 3000 --measure-cycles 10000 \
  --sweep 0.05,0.10,0.15,0.20,0.25,0.30,0.35,0.40,0.45,0.50 \
  --csv out/mesh-8x8-uniform-sweep.csv --json out/mesh-8x8-uniform-sweep.json
build/kairo traffic tofu-small --pattern uniform --rate 0.3 --packet-flits 16 --warmup-cycles 3000 \
  --measure-cycles 10000 --json out/tofu-small-uniform.json
echo "kairo: wrote out/mesh-8x8-uniform-sweep.csv, out/mesh-8x8-uniform-sweep.json, out/tofu-small-uniform.json"
cat out/mesh-8x8-uniform-sweep.csv
