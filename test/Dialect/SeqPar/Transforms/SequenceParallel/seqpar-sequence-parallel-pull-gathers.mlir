// RUN: seqpar-opt %s -verify-diagnostics --pass-pipeline='builtin.module(seqpar-sequence-parallel)' | FileCheck %s

// A value nothing else gathers (%h, an encoder output) read by two
// replicated projections (T5's cross-attention K and V, which TP keeps
// whole) whose outputs mix tokens: %h is all-gathered once and the two
// projections run on all tokens, as under TP, rather than on the shard with
// both outputs gathered (4 times %h's bytes; docs/sequence-parallel.md,
// "Ops that read gathered values"). The total is the TP program's bytes:
// the all_reduce's 128 as reduce_scatter + all_gather.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{sequence-parallel over @grid axis 0 (t=2, s=8): 1 all_reduce (128 bytes sent per rank) -> 1 reduce_scatter (64 bytes) + 1 all_gather (64 bytes) + 0 all_reduce kept (0 bytes); total 128 bytes}}
func.func @projections_of_an_output(%x: tensor<8x4xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>}, %wk: tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, %wv: tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %h = arith.addf %r, %x : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %k = linalg.matmul ins(%h, %wk : tensor<8x4xf32>, tensor<4x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = linalg.matmul ins(%h, %wv : tensor<8x4xf32>, tensor<4x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %sk = linalg.softmax dimension(0) ins(%k : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %sv = linalg.softmax dimension(0) ins(%v : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %sk, %sv : tensor<8x16xf32>, tensor<8x16xf32>
}
// CHECK-LABEL: func.func @projections_of_an_output
// CHECK: %[[RS:.*]] = shard.reduce_scatter {{.*}} -> tensor<4x4xf32>
// CHECK: %[[H:.*]] = arith.addf %[[RS]], {{.*}} : tensor<4x4xf32>
// CHECK: %[[G:.*]] = shard.all_gather %[[H]] {{.*}} : tensor<4x4xf32> -> tensor<8x4xf32>
// CHECK-NOT: shard.all_gather
// CHECK: linalg.matmul ins(%[[G]], {{.*}} -> tensor<8x16xf32>
// CHECK: linalg.matmul ins(%[[G]], {{.*}} -> tensor<8x16xf32>
