#!/usr/bin/env bash
# Builds kairo and its tests with AddressSanitizer + UndefinedBehaviorSanitizer
# into build-asan/ (gcc, -O1 -g, assertions on) and runs the whole ctest suite.
#   tools/sanitize.sh [ctest args...]   e.g. tools/sanitize.sh -R Cli
# The flags go in through CMAKE_*_FLAGS on the command line (CMakeLists.txt is
# not changed); CMake passes CMAKE_CXX_FLAGS to the link too, so every
# executable (tests, and the kairo binary the CLI/golden tests run) is
# instrumented. The ctest log is build-asan/ctest.log. KAIRO_JOBS sets the
# build's and ctest's parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${KAIRO_JOBS:-2}"
start=$(date +%s)

# float-cast-overflow is not part of gcc's "undefined" group: named on its own,
# and made fatal like the rest.
san="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow"
san="$san -fno-omit-frame-pointer"
# The only C in the build is GTKWave's FST writer (kairo_fst, built from
# Debian's verilator sources), whose deliberate idioms UBSan reports:
# misaligned stores on x86 (FST_DO_MISALIGNED_OPS, fstapi.c:858) and left
# shifts of negative values (fstapi.c:1663). Not kairo's code: ASan only for C;
# kairo's C++ keeps every check.
# Debug with -O1 -g (not Release): no -DNDEBUG, so the code's assert()s are checked too.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="-fsanitize=address -fno-omit-frame-pointer" -DCMAKE_CXX_FLAGS="$san" \
  -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" >/dev/null
cmake --build build-asan -j "$jobs"
build_end=$(date +%s)

# detect_leaks=0: kairo deliberately never frees its largest objects (the
# netlist, the RDMA machine and node memories: Network/RdmaMachine
# ::keep_until_exit release() them so a big run exits without a long teardown),
# so LeakSanitizer would report them at every exit of the kairo binary and fail
# every CLI and golden test; leaks are not what this suite checks.
# abort_on_error=0: a report ends the process with exit 1, which fails the test.
# Libraries from Debian (SystemC, yaml-cpp, gtest) are not instrumented: ASan
# then only checks kairo's own accesses, with no false positives of its own
# (libstdc++'s containers carry no ASan annotations unless
# _GLIBCXX_SANITIZE_VECTOR is defined, so no container-overflow mismatch).
# SystemC's QuickThreads coroutines (sc_cor_qt) call ASan's fiber-switch API
# (__sanitizer_start/finish_switch_fiber, weak symbols in libsystemc that
# libasan provides), so SC_THREAD stack switches need no suppression either.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# Not run: the tests that start kairo under RLIMIT_AS = 4 GiB (run_limited in
# tests/firmware/test_workloads.cpp). ASan reserves ~16 TiB of shadow address space at
# start-up, so under any address-space limit the instrumented kairo dies before
# main ("ReserveShadowMemoryRange failed ... Perhaps you're using ulimit -v");
# the Release suite runs them.
skip='^Workloads\.(EveryWorkloadRefusesMoreThan8GiBOfBuffersInDataMode|EveryWorkloadRefusesBuffersLargerThanTheNodeMemory'
skip="$skip|FootprintIsExactlyWhatTheRanksAllocate)\$"
# Nor the tests that preload the MPI tracer (build/libkairo_mpitrace.so) into
# uninstrumented MPI programs: ASan refuses to start unless its runtime is
# the first library loaded ("ASan runtime does not come first in initial
# library list"), which an LD_PRELOAD of an instrumented library cannot give.
skip="$skip|^Trace\.(CProgramsSendsMatchItsOwnCount|FortranProgramsCallsAreTraced|ReplayMatchesTheProgramsOwnCount)"
# The README's line that traces a program the same way is skipped by the
# README test itself under this variable.
export KAIRO_README_SKIP_PRELOAD=1
# Nor the memory estimate against measured peak RSS: ASan's shadow memory and
# quarantine are no part of what kairo estimates (the Release suite runs it).
skip="$skip|^Platforms\.TheMemoryEstimateIsWithinAQuarterOfThePeakOnEveryFamily\$"
rc=0
(cd build-asan && ctest -j "$jobs" --output-on-failure -E "$skip" "$@") >build-asan/ctest.log 2>&1 || rc=$?
end=$(date +%s)
tail -n 40 build-asan/ctest.log
grep -oE "SUMMARY: .*|[^ ]+: runtime error: .*" build-asan/ctest.log | sort | uniq -c || true  # each distinct report
echo "kairo sanitize: build $((build_end - start))s, ctest $((end - build_end))s, total $((end - start))s; ctest exit $rc (log: build-asan/ctest.log)"
exit $rc
