#!/usr/bin/env bash
# Runtime collectives vs the same MPI calls made directly: blocking f32
# all-gather and reduce-scatter on 2 ranks at 1 MiB and 16 MiB (sizes = bytes
# of the full tensor), median over iterations after warm-up, and the ratio
# MPI_time / runtime_time (issue 3 asks for >= 0.95 at 16 MiB).
#
# Builds nothing: finds seqpar-runtime-bench under build/ (or $BENCH_BIN).
# Usage: bench/run_runtime_bench.sh [extra seqpar-runtime-bench args, e.g. --iters=41]
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
echo "binary: $BIN"
exec "$MPIRUN" "${FLAGS[@]}" -np "$NP" "$BIN" "$@"
