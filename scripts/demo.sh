#!/usr/bin/env bash
# The main job on a bundled example: sets up and builds, then rewrites the
# 2-layer GPT-2-style tensor-parallel program examples/gpt2_tp2.mlir (t=2)
# into Megatron sequence parallelism and prints what was rewritten.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
input=${1:-examples/gpt2_tp2.mlir}
out=build/$(basename "${input%.mlir}").sp.mlir
build/bin/seqpar-opt "$input" --seqpar-sp-pipeline -o "$out" 2>build/demo.remarks
cat build/demo.remarks
echo
echo "collectives in $input:"
grep -o 'shard\.[a-z_]*' "$input" | grep -v 'shard.grid' | sort | uniq -c
echo "collectives in $out:"
grep -o 'shard\.[a-z_]*' "$out" | grep -v 'shard.grid\|process_multi_index' | sort | uniq -c
echo
echo "where they are (line: op):"
grep -n 'shard\.reduce_scatter\|shard\.all_gather\|tensor\.extract_slice %arg0' "$out" \
  | sed -E 's/^([0-9]+): *(%[a-z_0-9]+ = )?/\1: /' | cut -c1-150
echo "rewritten program: $out"
