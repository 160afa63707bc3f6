// Tests that seqpar-pipeline shards over the grid of the grid contract
// (docs/semantics.md §4.6): it creates @grid [tp, cp/u, u] and runs the
// hybrid ring on axis 1 and Ulysses on axis 2, and it refuses a @grid the
// module already holds whose shape is not the one its options make (cp=4
// on an existing [1, 2] grid used to shard the sequence over 2 ranks).

// RUN: split-file %s %t
// RUN: seqpar-opt %t/attention.mlir --seqpar-pipeline="tp=2 cp=4 cp-strategy=hybrid cp-ulysses=2" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=HYBRID
// RUN: seqpar-opt %t/other-grid.mlir -verify-diagnostics --seqpar-pipeline=cp=4
// RUN: not seqpar-opt %t/other-grid.mlir --seqpar-pipeline=cp=4 -o /dev/null 2>/dev/null
// With TP the planner makes the grid (no pass of its own), with the same check.
// RUN: seqpar-opt %t/other-grid-tp.mlir -verify-diagnostics --seqpar-pipeline=tp=2
// RUN: seqpar-opt %t/other-grid-tp.mlir -verify-diagnostics --seqpar-pipeline="tp=2 cp=2"

//--- attention.mlir
// HYBRID: shard.grid @grid(shape = 2x2x2) {sym_visibility = "private"}
// HYBRID-LABEL: func.func @main(
// HYBRID-SAME: tensor<2x4x16x16xf32> {seqpar.seq_dim = 2 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[\], \[\], \[1, 2\] zigzag\]}}>}
// HYBRID: shard.all_to_all %{{.*}} on @grid grid_axes = [2]
// HYBRID: seqpar.shift_start %{{.*}} on @grid grid_axes = [1]
func.func @main(%q: tensor<2x4x64x16xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x64x16xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x64x16xf32> {seqpar.seq_dim = 2 : i64})
    -> tensor<2x4x64x16xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.25 : f32}
      : tensor<2x4x64x16xf32>, tensor<2x2x64x16xf32>, tensor<2x2x64x16xf32> -> tensor<2x4x64x16xf32>
  return %o : tensor<2x4x64x16xf32>
}

//--- other-grid.mlir
// expected-error @+1 {{grid for context and tensor parallelism: the module's @grid has shape [1, 2], but tp=1 cp=4 cp-ulysses=1 make the grid [1, 4]}}
shard.grid @grid(shape = 1x2)
func.func @main(%q: tensor<2x4x64x16xf32> {seqpar.seq_dim = 2 : i64})
    -> tensor<2x4x64x16xf32> {
  %o = seqpar.attention %q, %q, %q {causal, scale = 0.25 : f32}
      : tensor<2x4x64x16xf32>, tensor<2x4x64x16xf32>, tensor<2x4x64x16xf32> -> tensor<2x4x64x16xf32>
  return %o : tensor<2x4x64x16xf32>
}

//--- other-grid-tp.mlir
// expected-error-re @+1 {{grid for context and tensor parallelism: the module's @grid has shape [2, 3], but tp=2 cp={{[12]}} cp-ulysses=1 make the grid [2{{(, 2)?}}]}}
shard.grid @grid(shape = 2x3)
func.func @main(%x: tensor<2x64x16xf32>) -> tensor<2x64x16xf32> {
  return %x : tensor<2x64x16xf32>
}
