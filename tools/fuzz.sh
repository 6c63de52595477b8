#!/usr/bin/env bash
# Fuzzes kairo's input parsers with libFuzzer under ASan+UBSan (tests/fuzz):
# fuzz_platform (platform YAML), fuzz_counter_log (.kcl/.csv counter logs, as
# `kairo view` reads them), fuzz_op_log (operation logs and rules files,
# as `kairo check-ops` reads and checks them), fuzz_otf2 (OTF2 archives, as
# `kairo run --workload trace` reads them), fuzz_booksim (BookSim configuration
# files, as `kairo traffic --booksim` reads them) and fuzz_experiment
# (experiment files, as `kairo experiment` reads and checks them).
#   tools/fuzz.sh [SECONDS]   seconds per fuzzer, default 1800
# Builds in build-fuzz/ (clang, -DKAIRO_FUZZ=ON), keeps the growing corpus in
# build-fuzz/corpus/<fuzzer>/, crash/timeout/oom reproducers in
# build-fuzz/artifacts/, logs in build-fuzz/<fuzzer>.log. Exits 1 if a fuzzer
# found something. Reproduce one: build-fuzz/fuzz_platform build-fuzz/artifacts/FILE
# KAIRO_FUZZ_FLAGS adds libFuzzer flags, e.g. "-fork=1 -ignore_crashes=1" to
# keep going after a finding; KAIRO_JOBS sets the build's parallelism (2);
# KAIRO_FUZZERS names the fuzzers to run (default: all six), e.g.
# KAIRO_FUZZERS="fuzz_otf2" tools/fuzz.sh 1800.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-1800}"
jobs="${KAIRO_JOBS:-2}"
all_fuzzers="fuzz_platform fuzz_counter_log fuzz_op_log fuzz_otf2 fuzz_booksim fuzz_experiment"
for f in ${KAIRO_FUZZERS:-}; do  # checked before anything is built
  case " $all_fuzzers " in
    *" $f "*) ;;
    *) echo "kairo fuzz: error: KAIRO_FUZZERS: unknown fuzzer '$f' (expected some of: $all_fuzzers)" >&2; exit 2 ;;
  esac
done

# clang, llvm (llvm-symbolizer: readable stacks) and compiler-rt (libFuzzer
# and the sanitizer runtimes), from Debian, only when missing.
missing=()
for p in clang llvm libclang-rt-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "kairo fuzz: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DKAIRO_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# shellcheck disable=SC2086  # a list of targets
cmake --build build-fuzz -j "$jobs" --target $all_fuzzers

# Seeds, made afresh each run: the shipped and the known-bad platforms, and
# small counter logs in both formats written by the (Release) kairo binary.
seeds=build-fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds/fuzz_platform" "$seeds/fuzz_counter_log" "$seeds/fuzz_op_log" "$seeds/fuzz_otf2" \
  "$seeds/fuzz_booksim" "$seeds/fuzz_experiment" build-fuzz/artifacts
cp tests/validation/booksim_reference/cfg/*.cfg "$seeds/fuzz_booksim/"
cp examples/experiments/*.yaml "$seeds/fuzz_experiment/"
cp platforms/*.yaml tests/bad_platforms/* "$seeds/fuzz_platform/"
kairo=build/kairo
# The seeds come from kairo itself: build it first in a fresh clone (the
# Release build of tools/test.sh, configured here when build/ is missing).
if [ ! -x "$kairo" ]; then
  [ -f build/CMakeCache.txt ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$jobs" --target kairo
fi
seed() {  # seed NAME.FMT kairo-run-args...: a counter log, or a warning (fuzzing goes on without it)
  local out="$seeds/fuzz_counter_log/$1"
  shift
  "$kairo" run "$@" --counters "$out" --quiet --json /dev/null || echo "kairo fuzz: warning: no seed $out" >&2
}
for fmt in kcl csv; do
  seed "mesh-2x2.$fmt" mesh-8x8 --set topology.dims.X.size=2 --set topology.dims.Y.size=2 --workload pingpong \
    --interval 100ns
  seed "mesh-2x1-alltoall.$fmt" mesh-8x8 --set topology.dims.X.size=2 --set topology.dims.Y.size=1 \
    --workload alltoall --param size=1KiB --interval 200ns
  seed "ib-qdr-16.$fmt" ib-qdr-16 --workload pingpong --interval 1us
  seed "mesh-2x2-alloc.$fmt" mesh-8x8 --set topology.dims.X.size=2 --set topology.dims.Y.size=2 \
    --set router.vc_allocator=islip --set router.speculative=true --workload pingpong --interval 100ns  # table alloc
done

# Operation logs (a put, a get, atomics, a fence, in both forms) and rules,
# each behind the byte that says what it is (tests/fuzz/fuzz_op_log.cpp).
oplog_seed() {  # oplog_seed NAME BYTE FILE
  { printf "\\$(printf '%03o' "$2")"; cat "$3"; } >"$seeds/fuzz_op_log/$1"
}
tmp_ops=$(mktemp -d)
for fmt in csv jsonl; do
  "$kairo" run tofu-small --workload pingpong --param size=4KiB --op-log "$tmp_ops/put.$fmt" --quiet \
    --json /dev/null || echo "kairo fuzz: warning: no op-log seed" >&2
  "$kairo" run tofu-small --workload pingpong --param op=get --param size=4KiB --op-log "$tmp_ops/get.$fmt" \
    --quiet --json /dev/null || echo "kairo fuzz: warning: no op-log seed" >&2
done
for f in put get; do
  if [ -f "$tmp_ops/$f.csv" ]; then oplog_seed "$f.csv" 0 "$tmp_ops/$f.csv"; fi
  if [ -f "$tmp_ops/$f.jsonl" ]; then oplog_seed "$f.jsonl" 1 "$tmp_ops/$f.jsonl"; fi
done
printf 'rules:\n  - name: notice after writes\n    before: {event: dma_write, kind: data}\n    after: {event: notice}\n    scope: operation\n' >"$tmp_ops/rules.yaml"
oplog_seed rules.yaml 2 "$tmp_ops/rules.yaml"
rm -rf "$tmp_ops"

# OTF2: the shipped trace's files, each behind the byte that says which it
# replaces (tests/fuzz/fuzz_otf2.cpp).
otf2=examples/traces/small-8
i=0
for f in traces/0.evt traces.def traces/0.def traces.otf2; do
  { printf "\\$(printf '%03o' "$i")"; cat "$otf2/$f"; } >"$seeds/fuzz_otf2/$(basename "$f")"
  i=$((i + 1))
done

# A dictionary for the YAML fuzzer: every key and unit the shipped platforms use.
{ grep -ohE '[a-z_]+:' platforms/*.yaml tests/bad_platforms/*
  grep -ohE '[0-9][A-Za-z/]+' platforms/*.yaml | sed 's/^[0-9]//'
  echo "#set "; } | sort -u | sed 's/.*/"&"/' >build-fuzz/fuzz_platform.dict

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The fuzzers run side by side, each for $seconds;
# fuzz_one writes its summary to build-fuzz/<fuzzer>.result.
fuzz_one() {
  local f=$1 corpus="build-fuzz/corpus/$1" log="build-fuzz/$1.log" start rc=0 found result execs
  mkdir -p "$corpus"
  touch "build-fuzz/.start-$f"
  start=$(date +%s)
  local dict=()
  [ -f "build-fuzz/$f.dict" ] && dict=(-dict="build-fuzz/$f.dict")
  # libotf2 (Debian's 3.0.2) leaks its archive handle when an anchor file does
  # not parse, and callocs what a corrupt anchor's counts say (25 GB): its
  # own, handled (a NULL from calloc is an error it reports, as a Release
  # kairo shows on the reproducer: exit 2, 14 MB peak), not kairo's.
  local asan="$ASAN_OPTIONS"
  # A corrupt anchor can also keep libotf2's loader busy for 10 to 20 s
  # (Release; 37 to 132 s under ASan) before it fails cleanly: a longer timeout.
  local limit=25
  [ "$f" = fuzz_otf2 ] && dict+=(-detect_leaks=0) && limit=200 && asan="$asan:detect_leaks=0:allocator_may_return_null=1"
  # shellcheck disable=SC2086  # KAIRO_FUZZ_FLAGS is a list of flags
  ASAN_OPTIONS="$asan" "build-fuzz/$f" "$corpus" "$seeds/$f" "${dict[@]}" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout="$limit" \
    -artifact_prefix="build-fuzz/artifacts/$f-" -print_final_stats=1 ${KAIRO_FUZZ_FLAGS:-} >"$log" 2>&1 || rc=$?
  # A finding: a non-zero exit, a new reproducer, or a report in the log
  # (with -fork=1 -ignore_crashes=1 libFuzzer exits 0 after findings).
  found=$(find build-fuzz/artifacts -name "$f-*" -newer "build-fuzz/.start-$f" | sort)
  result="clean"
  if [ "$rc" -ne 0 ] || [ -n "$found" ] || grep -q -E "ERROR: (AddressSanitizer|libFuzzer)|runtime error:" "$log"; then
    result="FOUND SOMETHING (exit $rc): see $log"
  fi
  execs=$(grep -o -E "^#[0-9]+" "$log" | tail -1 | tr -d '#' || true)  # from the last status line
  {
    echo "kairo fuzz: $f: $(($(date +%s) - start))s, ${execs:-?} inputs, corpus $(ls "$corpus" | wc -l) files: $result"
    grep -E "^SUMMARY|uncaught exception|what\(\):" "$log" | sort | uniq -c | head -20 || true
    # shellcheck disable=SC2086  # one reproducer per word
    [ -z "$found" ] || printf '  reproducer: %s\n' $found
  } >"build-fuzz/$f.result"
}
# shellcheck disable=SC2206  # a list of names
fuzzers=(${KAIRO_FUZZERS:-$all_fuzzers})
for f in "${fuzzers[@]}"; do fuzz_one "$f" & done
wait
status=0
for f in "${fuzzers[@]}"; do
  cat "build-fuzz/$f.result"
  grep -q ": clean$" "build-fuzz/$f.result" || status=1
done
exit $status
