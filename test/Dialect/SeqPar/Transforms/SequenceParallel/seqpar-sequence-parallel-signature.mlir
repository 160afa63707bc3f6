// RUN: seqpar-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(seqpar-sequence-parallel{grid-axis=1 input-sharded=true output-sharded=true})' \
// RUN:   2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s -split-input-file -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(seqpar-sequence-parallel{grid-axis=1 input-sharded=true output-sharded=true})' \
// RUN:   2>&1 | FileCheck %s --check-prefix=REMARK

// Tests that a function with call sites keeps its signature: the options
// that would change it are ignored for it, with a remark.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// REMARK: signature.mlir:{{[0-9]+}}:1: remark: sequence-parallel: the function is called, so its signature is kept
// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%{{.+}}: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32>
// CHECK: shard.reduce_scatter
// CHECK: shard.all_gather
func.func @callee(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [1] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}
func.func @caller(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = func.call @callee(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Tests that an argument already split over another grid axis is split
// further: the TP axis is appended as the minor axis, the attribute stays
// true.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @compose
// CHECK-SAME: tensor<2x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}0, 1]]>}
// CHECK-SAME: -> (tensor<2x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}0, 1]]>})
func.func @compose(%x: tensor<4x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    -> (tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %r = shard.all_reduce %x on @grid grid_axes = [1] : tensor<4x16xf32> -> tensor<4x16xf32>
  %a = arith.addf %r, %x : tensor<4x16xf32>
  return %a : tensor<4x16xf32>
}
