// RUN: seqpar-opt %s --seqpar-sp-pipeline --seqpar-lower-to-upstream 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-sp-pipeline --seqpar-lower-to-upstream 2>/dev/null \
// RUN:   | mlir-opt --verify-roundtrip | FileCheck %s --check-prefix=UPSTREAM

// Tests that the TP+SP output lowered to upstream has no seqpar op or
// attribute left, keeps the sharding as strings, and parses and verifies
// with upstream mlir-opt (which has no seqpar dialect).

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @block
// CHECK-SAME: seqpar_lowered.seq_dim = "1 : i64"
// CHECK-SAME: seqpar_lowered.sharding = "#seqpar.sharding<@grid, replicated>"
// CHECK-SAME: seqpar_lowered.sharding = "#seqpar.sharding<@grid, {{\[\[}}0]]>"
// CHECK-NOT: seqpar.
// CHECK: shard.reduce_scatter
// CHECK: arith.mului_extended
// CHECK: shard.all_gather
// UPSTREAM-LABEL: func.func @block
// UPSTREAM: shard.reduce_scatter
func.func @block(%x: tensor<2x8x16xf32> {seqpar.seq_dim = 1 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                 %p: tensor<2x8x16xf32> {seqpar.seq_dim = 1 : i64, seqpar.sharding = #seqpar.sharding<@grid, [], partial = [0]>},
                 %w: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) -> tensor<2x8x16xf32> {
  %seed = arith.constant 42 : i64
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  %d = seqpar.dropout %r seed %seed {rate = 0.1 : f64, site = 0 : i64} : tensor<2x8x16xf32>
  %y = arith.addf %d, %x : tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}
