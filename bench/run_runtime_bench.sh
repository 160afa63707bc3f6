#!/usr/bin/env bash
# Runtime collectives vs the same MPI calls made directly: blocking f32
# all-gather, reduce-scatter and all-reduce on 2 ranks at 1 MiB and 16 MiB
# (sizes = bytes of the full tensor), median over iterations after warm-up,
# and the ratio MPI_time / runtime_time.
#
# --loaded: the same twice in one run, idle and then with one core kept busy
# by a shell loop (pinned to CPU 0 with taskset when there is one), each
# table headed by the load average.
#
# Builds nothing: finds seqpar-runtime-bench under build/ (or $BENCH_BIN).
# Usage: bench/run_runtime_bench.sh [--loaded] [extra seqpar-runtime-bench args, e.g. --iters=41]
# Environment: NP (ranks, default 2), BENCH_BIN, MPIRUN (default mpirun).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
NP="${NP:-2}"
MPIRUN="${MPIRUN:-mpirun}"
BIN="${BENCH_BIN:-}"
if [[ -z "$BIN" ]]; then
  for c in build/runtime/bench/seqpar-runtime-bench build-rt/bench/seqpar-runtime-bench \
           build-gpu/bench/seqpar-runtime-bench; do
    [[ -x "$c" ]] && { BIN="$c"; break; }
  done
fi
if [[ -z "$BIN" ]]; then
  BIN="$(find build* -type f -name seqpar-runtime-bench -perm -u+x 2>/dev/null | head -1 || true)"
fi
if [[ -z "$BIN" || ! -x "$BIN" ]]; then
  echo "run_runtime_bench.sh: seqpar-runtime-bench not found under build/; build it with" >&2
  echo "  ninja -C build seqpar-runtime-bench" >&2
  exit 2
fi
command -v "$MPIRUN" >/dev/null || { echo "run_runtime_bench.sh: $MPIRUN not found" >&2; exit 2; }
FLAGS=()
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
  FLAGS+=(--oversubscribe)
  [[ "$(id -u)" == 0 ]] && FLAGS+=(--allow-run-as-root)
fi
LOADED=0
ARGS=()
for a in "$@"; do
  if [[ "$a" == --loaded ]]; then LOADED=1; else ARGS+=("$a"); fi
done
echo "binary: $BIN"
bench() { "$MPIRUN" "${FLAGS[@]}" -np "$NP" "$BIN" ${ARGS[@]+"${ARGS[@]}"}; }
if [[ "$LOADED" == 0 ]]; then
  bench
  exit
fi
echo "== idle (load average $(cut -d' ' -f1-3 /proc/loadavg))"
bench
PIN=(); command -v taskset >/dev/null && PIN=(taskset -c 0)
${PIN[@]+"${PIN[@]}"} sh -c 'while :; do :; done' &
BUSY=$!
trap 'kill "$BUSY" 2>/dev/null' EXIT
sleep 0.2
echo "== one core busy (pid $BUSY${PIN[0]:+, pinned to CPU 0}; load average $(cut -d' ' -f1-3 /proc/loadavg))"
bench
