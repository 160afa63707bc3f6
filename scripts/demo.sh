#!/usr/bin/env bash
# The main job on a bundled example: sets up and builds, then takes the
# unsharded 12-layer GPT-2 exported from Hugging Face transformers
# (examples/imported/gpt2_12l.mlir) through seqpar-pipeline (Megatron TP
# planning + sequence parallelism, t=2), prints what was planned and
# rewritten, and runs the per-rank program on 2 MPI ranks with seqpar-run
# against the unsharded program (exits non-zero on a mismatch).
# Usage: scripts/demo.sh [unsharded.mlir [entry-function [tp]]]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
input=${1:-examples/imported/gpt2_12l.mlir}
entry=${2:-main}
tp=${3:-2}
out=build/$(basename "${input%.mlir}").tp${tp}-sp.mlir
build/bin/seqpar-opt "$input" --seqpar-pipeline="tp=$tp seq-dim=1" -o "$out" \
  2>build/demo.remarks
sed -E 's/^[^ ]*: remark: /remark: /' build/demo.remarks | grep '^remark' | cut -c1-220
echo
echo "collectives in $out:"
grep -o 'shard\.[a-z_]*' "$out" | grep -v 'shard.grid\|process_multi_index' | sort | uniq -c
echo
mpirun=(mpirun)
if mpirun --version 2>&1 | grep -q "Open MPI"; then
  mpirun+=(--oversubscribe)
  [ "$(id -u)" = 0 ] && mpirun+=(--allow-run-as-root)
fi
echo "running $out on $tp ranks against $input:"
"${mpirun[@]}" -np "$tp" build/bin/seqpar-run "$out" --entry="$entry" --reference="$input"
