#!/usr/bin/env bash
# Traces Debian's HPC Challenge suite (apt package hpcc, /usr/bin/hpcc, built
# against Open MPI) with kairo's PMPI tracer (libkairo_mpitrace.so).
#
# usage: tools/trace_hpcc.sh OUT_DIR [NPROCS]
#
#   OUT_DIR  the run goes into OUT_DIR/hpcc.NPROCS/: traces.otf2 (+ traces.def,
#            traces/), hpccinf.txt (the input this script writes), hpccoutf.txt
#            (hpcc's report), hpcc.out (stdout), time.txt
#   NPROCS   number of MPI processes (default 16); the HPL/PTRANS grid is the
#            most nearly square P x Q = NPROCS with P <= Q
#
# The problem is small on purpose (HPL N = 1600, NB = 80; the other tests size
# themselves from HPL's matrix memory) so that the whole suite runs in minutes
# with 16 processes oversubscribed on 2 cores.
#
# Environment:
#   KAIRO_MPITRACE     the tracer (default build/libkairo_mpitrace.so, relative
#                      to the repository root)
#   KAIRO_HPCC_N       HPL matrix size (default 1600)
#   KAIRO_MPIRUN_ARGS  extra mpirun options (word-split)
set -euo pipefail

usage() { sed -n '4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "trace_hpcc: $*" >&2; exit 1; }
bad() { echo "trace_hpcc: $*" >&2; usage; }

[ $# -ge 1 ] && [ $# -le 2 ] || usage
out_dir=$1
nprocs=${2:-16}
n=${KAIRO_HPCC_N:-1600}
[[ $nprocs =~ ^[1-9][0-9]*$ ]] || bad "NPROCS must be a positive integer, not '$nprocs'"
[[ $n =~ ^[1-9][0-9]*$ ]] || bad "KAIRO_HPCC_N must be a positive integer, not '$n'"

repo=$(cd "$(dirname "$0")/.." && pwd -P)
tracer=${KAIRO_MPITRACE:-build/libkairo_mpitrace.so}
[[ $tracer = /* ]] || tracer=$repo/$tracer
[ -f "$tracer" ] || die "tracer not found: $tracer (build it, or set KAIRO_MPITRACE)"
tracer=$(cd "$(dirname "$tracer")" && pwd -P)/$(basename "$tracer")

hpcc=$(command -v hpcc) || die "hpcc not found (Debian: apt-get install hpcc)"
command -v mpirun >/dev/null || die "mpirun not found (Debian: apt-get install openmpi-bin)"
ldd "$hpcc" | grep -q 'libmpi\.so' || die "$hpcc does not link an MPI library (ldd)"
mpirun --version 2>&1 | grep -q 'Open MPI' || die "mpirun is not Open MPI's"

# The most nearly square process grid P x Q = NPROCS, P <= Q.
p=1
for (( i = 1; i * i <= nprocs; i++ )); do
  (( nprocs % i == 0 )) && p=$i
done
q=$(( nprocs / p ))

mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd -P)
dir=$out_dir/hpcc.$nprocs
if [ -e "$dir" ]; then
  echo "trace_hpcc: replacing $dir" >&2
  rm -rf "$dir"
fi
mkdir -p "$dir"

# hpcc reads hpccinf.txt from, and writes hpccoutf.txt into, its working directory.
cat > "$dir/hpccinf.txt" <<EOF
HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
$n         Ns
1            # of NBs
80           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
$p            Ps
$q            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                               Number of additional problem sizes for PTRANS
1200 10000 30000                values of N
0                               number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64        values of NB
EOF

if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export KAIRO_TRACE=$dir KAIRO_TRACE_CLOCK=cpu
read -r -a extra <<< "${KAIRO_MPIRUN_ARGS:-}"
cmd=(mpirun -x KAIRO_TRACE -x KAIRO_TRACE_CLOCK -x "LD_PRELOAD=$tracer"
     --oversubscribe --bind-to none --mca mpi_yield_when_idle 1
     "${extra[@]}" -np "$nprocs" "$hpcc")
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v -o "$dir/time.txt")
echo "+ cd $dir && KAIRO_TRACE=$dir KAIRO_TRACE_CLOCK=cpu$(printf ' %q' "${cmd[@]}") > $dir/hpcc.out" >&2
start=$(date +%s.%N)
rc=0
(cd "$dir" && "${timer[@]}" "${cmd[@]}" > hpcc.out 2> hpcc.err) || rc=$?
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "trace_hpcc: hpcc.$nprocs exit $rc, wall ${wall}s, trace $(du -sh "$dir" | cut -f1)" >&2
if [ "$rc" -ne 0 ]; then
  tail -n 20 "$dir/hpcc.err" >&2
  die "hpcc failed (exit $rc); stderr in $dir/hpcc.err"
fi
grep -q 'End of HPC Challenge tests' "$dir/hpccoutf.txt" 2>/dev/null \
  || die "hpcc did not finish its suite; see $dir/hpccoutf.txt"
grep -E '^(HPL_Tflops|HPL_N|HPL_N_TOTAL|PTRANS_GBs|MPIRandomAccess_GUPs|MPIFFT_Gflops|RandomlyOrderedRingBandwidth_GBytes|Success|Failure)=' \
  "$dir/hpccoutf.txt" >&2 || true
grep -q '^Success=1' "$dir/hpccoutf.txt" || die "hpcc reports no Success=1; see $dir/hpccoutf.txt"
[ -f "$dir/traces.otf2" ] || die "no $dir/traces.otf2 was written"
