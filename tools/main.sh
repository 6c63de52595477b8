#!/usr/bin/env bash
# kairo's main job on the shipped default platform: a uniform-traffic
# latency/throughput sweep on mesh-8x8 up to saturation, uniform traffic on
# the small Tofu (tofu-small), and RDMA workloads on tofu-small and one TofuD
# rack: put latency, one rank's bandwidth on all its TNIs, and HPCC's random
# ring with every byte verified. Outputs go to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
mkdir -p out
build/kairo traffic mesh-8x8 --pattern uniform --packet-flits 4 --warmup-cycles 3000 --measure-cycles 10000 \
  --sweep 0.05,0.10,0.15,0.20,0.25,0.30,0.35,0.40,0.45,0.50 \
  --csv out/mesh-8x8-uniform-sweep.csv --json out/mesh-8x8-uniform-sweep.json
build/kairo traffic tofu-small --pattern uniform --rate 0.3 --packet-flits 16 --warmup-cycles 3000 \
  --measure-cycles 10000 --json out/tofu-small-uniform.json
build/kairo run tofud-rack --workload pingpong --param op=put --param size=8B --json out/tofud-rack-pingpong.json --quiet
build/kairo run tofu-small --workload put-bw --param size=16MiB --json out/tofu-small-put-bw.json --quiet
build/kairo run tofu-small --workload random-ring --param size=2MB --json out/tofu-small-random-ring.json \
  --tni-counters out/tofu-small-random-ring-tnis.csv --quiet
build/kairo run tofu-small --workload alltoall --param algo=a2at --param size=32KiB --mode size-only \
  --counters out/tofu-small-a2at.kcl --interval 10us --trace-nodes 0,1 --trace-tnis 0 --fst out/tofu-small-a2at.fst \
  --json out/tofu-small-a2at.json --quiet
build/kairo view out/tofu-small-a2at.kcl --out out/tofu-small-a2at-view
echo "kairo: wrote out/tofu-small-a2at.{json,kcl,fst} and the views in out/tofu-small-a2at-view/ (index.html)"
echo "kairo: wrote out/mesh-8x8-uniform-sweep.csv, out/mesh-8x8-uniform-sweep.json, out/tofu-small-uniform.json,"
echo "       out/tofud-rack-pingpong.json, out/tofu-small-put-bw.json, out/tofu-small-random-ring.json and -tnis.csv"
python3 - <<'PY'
import json
for f, what in (("out/tofud-rack-pingpong.json", "8-byte put latency, ns"),
                ("out/tofu-small-put-bw.json", "put bandwidth on all TNIs, GB/s"),
                ("out/tofu-small-random-ring.json", "random ring bandwidth per rank, GB/s")):
    j = json.load(open(f))
    v = j["latency_ns"] if "latency" in what else j["bandwidth_gbps"]
    print(f"{j['platform']:>11} {j['workload']:<12} {what}: {v:.3f} (verified: {j['verified']})")
PY
cat out/mesh-8x8-uniform-sweep.csv
