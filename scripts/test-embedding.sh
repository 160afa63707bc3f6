#!/usr/bin/env bash
# Installs seqpar from build dir $1 into a temporary prefix, builds
# examples/embedding against that prefix only, runs it on the bundled GPT-2
# TP program, and checks that it printed a sequence-parallel, upstream-only
# program; then builds examples/runtime-grid (the runtime alone) against the
# same prefix and runs it on 4 MPI ranks.
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

# The runtime alone: a TP x CP grid program against the same prefix.
cmake -G Ninja -S "$root/examples/runtime-grid" -B "$work/grid" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > "$work/grid-configure.log"
cmake --build "$work/grid" > "$work/grid-build.log" || { cat "$work/grid-build.log"; exit 1; }
mpi_flags=(-np 4)
[ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)
mpirun --version 2>/dev/null | grep -q "Open MPI" && mpi_flags+=(--oversubscribe)
mpirun "${mpi_flags[@]}" "$work/grid/grid-demo" > "$work/grid.out"
[ "$(grep -c ': ok$' "$work/grid.out")" -eq 4 ] || { cat "$work/grid.out"; exit 1; }
grep -q "all_gather" "$work/grid.out" || { cat "$work/grid.out"; exit 1; }
echo "runtime-grid: PASS (4 ranks, TP x CP communicators from the installed package)"
