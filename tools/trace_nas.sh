#!/usr/bin/env bash
# Traces the NAS Parallel Benchmarks 3.3 MPI kernels CG and MG with kairo's
# PMPI tracer (libkairo_mpitrace.so), one OTF2 archive per kernel.
#
# usage: tools/trace_nas.sh NPB_MPI_DIR OUT_DIR [CLASS] [NPROCS]
#
#   NPB_MPI_DIR  an unpacked NPB3.3-MPI directory (the one holding CG/, MG/,
#                config/, sys/), or the NPB3.3 / NPB3.3.1 directory above it.
#                A URL (http:// or https://) of an NPB3.3*.tar.gz is fetched
#                with curl into the scratch directory; nothing is downloaded
#                unless a URL is given here.
#   OUT_DIR      where the traces go: OUT_DIR/cg.CLASS.NPROCS/ and
#                OUT_DIR/mg.CLASS.NPROCS/, each with traces.otf2 (+ traces.def,
#                traces/), npb.out (the benchmark's report) and time.txt.
#   CLASS        NPB problem class, S W A B C D E (default C)
#   NPROCS       number of MPI processes, a power of two (default 128)
#
# Where to get NPB (the source is never copied into this repository):
#   official: https://www.nas.nasa.gov/assets/npb/NPB3.3.1.tar.gz
#             (unpacks to NPB3.3.1/NPB3.3-MPI)
#   mirror:   https://github.com/mbdevpl/nas-parallel-benchmarks (NPB3.3-MPI/)
#
# Environment:
#   KAIRO_MPITRACE     the tracer (default build/libkairo_mpitrace.so, relative
#                      to the repository root)
#   KAIRO_NAS_SCRATCH  build directory (default: a new mktemp -d under /tmp);
#                      must lie outside the repository
#   KAIRO_MPIRUN_ARGS  extra mpirun options (word-split)
#
# Build: Open MPI's mpif77 with gfortran >= 10 (-O2 -fallow-argument-mismatch),
# RAND = randdp. Runs use mpirun --oversubscribe --bind-to none
# --mca mpi_yield_when_idle 1 and KAIRO_TRACE_CLOCK=cpu (the gaps between MPI
# calls are process CPU time, so oversubscription does not stretch them).
set -euo pipefail

usage() { sed -n '4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "trace_nas: $*" >&2; exit 1; }
bad() { echo "trace_nas: $*" >&2; usage; }
run() { printf '+' >&2; printf ' %q' "$@" >&2; printf '\n' >&2; "$@"; }

[ $# -ge 2 ] && [ $# -le 4 ] || usage
src_arg=$1
out_dir=$2
class=${3:-C}
nprocs=${4:-128}

case $class in S|W|A|B|C|D|E) ;; *) bad "CLASS must be one of S W A B C D E, not '$class'" ;; esac
[[ $nprocs =~ ^[1-9][0-9]*$ ]] || bad "NPROCS must be a positive integer, not '$nprocs'"
(( (nprocs & (nprocs - 1)) == 0 )) || bad "NPROCS must be a power of two for CG and MG, not $nprocs"

repo=$(cd "$(dirname "$0")/.." && pwd -P)
tracer=${KAIRO_MPITRACE:-build/libkairo_mpitrace.so}
[[ $tracer = /* ]] || tracer=$repo/$tracer
[ -f "$tracer" ] || die "tracer not found: $tracer (build it, or set KAIRO_MPITRACE)"
tracer=$(cd "$(dirname "$tracer")" && pwd -P)/$(basename "$tracer")

for tool in mpif77 mpicc mpirun make cc; do
  command -v "$tool" >/dev/null || die "'$tool' not found (Debian: openmpi-bin libopenmpi-dev gfortran make gcc)"
done

scratch=${KAIRO_NAS_SCRATCH:-$(mktemp -d /tmp/kairo-nas.XXXXXX)}
scratch=$(realpath -m "$scratch")
case $scratch/ in "$repo"/*) die "scratch directory $scratch is inside the repository $repo" ;; esac
mkdir -p "$scratch"
echo "trace_nas: building in $scratch" >&2

# Locate (or fetch) the NPB3.3-MPI source.
if [[ $src_arg =~ ^https?:// ]]; then
  command -v curl >/dev/null || die "curl is needed to fetch $src_arg"
  run curl -fL --retry 3 -o "$scratch/npb.tar.gz" "$src_arg"
  mkdir -p "$scratch/unpacked"
  run tar -xzf "$scratch/npb.tar.gz" -C "$scratch/unpacked"
  src_arg=$(find "$scratch/unpacked" -maxdepth 3 -type d -name 'NPB3.3*-MPI' | head -n 1)
  [ -n "$src_arg" ] || die "no NPB3.3*-MPI directory in the downloaded archive"
fi
[ -d "$src_arg" ] || bad "NPB_MPI_DIR '$src_arg' is not a directory"
npb=$(cd "$src_arg" && pwd -P)
if [ ! -d "$npb/CG" ]; then
  sub=$(find "$npb" -maxdepth 1 -type d -name 'NPB3.3*-MPI' | head -n 1)
  [ -n "$sub" ] && npb=$sub
fi
for d in CG MG config sys common; do
  [ -d "$npb/$d" ] || die "$npb does not look like NPB3.3-MPI (no $d/)"
done
echo "trace_nas: NPB source $npb" >&2

# Build cg and mg in a scratch copy of the source.
build=$scratch/NPB3.3-MPI
rm -rf "$build"
run cp -r "$npb" "$build"
cat > "$build/config/make.def" <<'EOF'
MPIF77 = mpif77
FLINK = $(MPIF77)
FMPI_LIB =
FMPI_INC =
FFLAGS = -O2 -fallow-argument-mismatch
FLINKFLAGS = -O2
MPICC = mpicc
CLINK = $(MPICC)
CMPI_LIB =
CMPI_INC =
CFLAGS = -O2
CLINKFLAGS = -O2
CC = cc -g
BINDIR = ../bin
RAND = randdp
EOF
mkdir -p "$build/bin"
for b in cg mg; do
  echo "+ (cd $build && make $b CLASS=$class NPROCS=$nprocs) > $scratch/build.$b.log" >&2
  (cd "$build" && make "$b" CLASS="$class" NPROCS="$nprocs") > "$scratch/build.$b.log" 2>&1 \
    || { tail -n 30 "$scratch/build.$b.log" >&2; die "building $b failed (log: $scratch/build.$b.log)"; }
  [ -x "$build/bin/$b.$class.$nprocs" ] || die "build of $b left no $build/bin/$b.$class.$nprocs"
done

# Run each kernel under the tracer.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export KAIRO_TRACE_CLOCK=cpu
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd -P)
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v -o)
read -r -a extra <<< "${KAIRO_MPIRUN_ARGS:-}"

status=0
for b in cg mg; do
  name=$b.$class.$nprocs
  dir=$out_dir/$name
  if [ -e "$dir" ]; then
    echo "trace_nas: replacing $dir" >&2
    rm -rf "$dir"
  fi
  mkdir -p "$dir"
  export KAIRO_TRACE=$dir
  cmd=(mpirun -x KAIRO_TRACE -x KAIRO_TRACE_CLOCK -x "LD_PRELOAD=$tracer"
       --oversubscribe --bind-to none --mca mpi_yield_when_idle 1
       "${extra[@]}" -np "$nprocs" "$build/bin/$name")
  echo "+ KAIRO_TRACE=$dir KAIRO_TRACE_CLOCK=cpu$(printf ' %q' "${cmd[@]}") > $dir/npb.out" >&2
  start=$(date +%s.%N)
  rc=0
  if [ ${#timer[@]} -gt 0 ]; then
    "${timer[@]}" "$dir/time.txt" "${cmd[@]}" > "$dir/npb.out" 2> "$dir/npb.err" || rc=$?
  else
    "${cmd[@]}" > "$dir/npb.out" 2> "$dir/npb.err" || rc=$?
  fi
  end=$(date +%s.%N)
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  verif=$(grep -m1 'Verification' "$dir/npb.out" | awk -F= '{ gsub(/ /, "", $2); print $2 }' || true)
  echo "trace_nas: $name exit $rc, wall ${wall}s, verification ${verif:-missing}, trace $(du -sh "$dir" | cut -f1)" >&2
  if [ "$rc" -ne 0 ]; then
    tail -n 20 "$dir/npb.err" >&2
    echo "trace_nas: $name failed (exit $rc); stderr in $dir/npb.err" >&2
    status=1
  elif [ "$verif" != SUCCESSFUL ]; then
    echo "trace_nas: $name did not verify; report in $dir/npb.out" >&2
    status=1
  elif [ ! -f "$dir/traces.otf2" ]; then
    echo "trace_nas: $name wrote no $dir/traces.otf2" >&2
    status=1
  fi
done
exit $status
