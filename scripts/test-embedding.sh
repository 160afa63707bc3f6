#!/usr/bin/env bash
# Installs seqpar from build dir $1 into a temporary prefix, builds
# examples/embedding against that prefix only, runs it on the bundled GPT-2
# TP program, and checks that it printed a sequence-parallel, upstream-only
# program.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -G Ninja -S "$root/examples/embedding" -B "$work/build" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
grep -q "Using SeqParConfig.cmake in: $work/prefix" "$work/configure.log" \
  || { echo "embedding: SeqPar was not found in the install prefix"; exit 1; }
cmake --build "$work/build" -j 2 > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/build/my-compiler" "$root/examples/gpt2_tp2.mlir" > "$work/out.mlir" 2> "$work/remarks"
head -1 "$work/out.mlir"
grep -q "my-compiler: 4 reduce_scatter, 4 all_gather, 0 all_reduce" "$work/out.mlir"
if grep -Eq '(^|[^#_a-z])seqpar\.[a-z]' "$work/out.mlir"; then
  echo "embedding: seqpar ops or attributes left after lowering"; exit 1
fi
# The lowered program must parse and verify with upstream mlir-opt.
sed 1d "$work/out.mlir" | /usr/lib/llvm-22/bin/mlir-opt --verify-diagnostics > /dev/null
echo "embedding: PASS (installed package, consumer build, upstream-only output)"
