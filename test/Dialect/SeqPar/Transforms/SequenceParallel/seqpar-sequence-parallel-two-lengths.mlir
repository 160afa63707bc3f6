// RUN: seqpar-opt %s -split-input-file -verify-diagnostics --seqpar-sequence-parallel=grid-axis=0 -o /dev/null
// RUN: not seqpar-opt %s -split-input-file --seqpar-sequence-parallel=grid-axis=0 2>/dev/null | FileCheck %s

// Tests sequence blocks of two lengths (an encoder-decoder's two
// sequences after Ulysses CP, docs/context-parallelism.md,
// "Encoder-decoder: two sequences"): each all-reduce is reduce-scattered
// over its own sequence's tokens, 4 -> 2 and 2 -> 1.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @two_lengths
// CHECK: shard.reduce_scatter {{.*}} : tensor<4x16xf32> -> tensor<2x16xf32>
// CHECK: shard.reduce_scatter {{.*}} : tensor<2x16xf32> -> tensor<1x16xf32>
// expected-remark @+1 {{sequence-parallel over @grid axis 0 (t=2, s=4 and 2)}}
func.func @two_lengths(%x: tensor<8x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<2x16xf32>) {
  %e = shard.all_to_all %x on @grid grid_axes = [1] split_axis = 0 concat_axis = 1 {seqpar.sequence_block = array<i64: 0, 4, 1>} : tensor<8x8xf32> -> tensor<4x16xf32>
  %p = arith.mulf %e, %e : tensor<4x16xf32>
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<4x16xf32> -> tensor<4x16xf32>
  %a = arith.addf %r, %e : tensor<4x16xf32>
  %d = shard.all_to_all %y on @grid grid_axes = [1] split_axis = 0 concat_axis = 1 {seqpar.sequence_block = array<i64: 0, 2, 1>} : tensor<4x8xf32> -> tensor<2x16xf32>
  %q = arith.mulf %d, %d : tensor<2x16xf32>
  %r2 = shard.all_reduce %q on @grid grid_axes = [0] : tensor<2x16xf32> -> tensor<2x16xf32>
  %b = arith.addf %r2, %d : tensor<2x16xf32>
  return %a, %b : tensor<4x16xf32>, tensor<2x16xf32>
}

// -----

// Tests that blocks of a length t does not divide are refused with the
// reason: padding shards one length.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// expected-error @+1 {{sequence-parallel: sequences of 4 and 3 tokens, not both divisible by the 2 ranks of grid axis 0 of @grid; a padded sequence is sharded alone}}
func.func @uneven(%x: tensor<8x8xf32>, %y: tensor<6x8xf32>) -> (tensor<4x16xf32>, tensor<3x16xf32>) {
  %e = shard.all_to_all %x on @grid grid_axes = [1] split_axis = 0 concat_axis = 1 {seqpar.sequence_block = array<i64: 0, 4, 1>} : tensor<8x8xf32> -> tensor<4x16xf32>
  %p = arith.mulf %e, %e : tensor<4x16xf32>
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<4x16xf32> -> tensor<4x16xf32>
  %d = shard.all_to_all %y on @grid grid_axes = [1] split_axis = 0 concat_axis = 1 {seqpar.sequence_block = array<i64: 0, 3, 1>} : tensor<6x8xf32> -> tensor<3x16xf32>
  %q = arith.mulf %d, %d : tensor<3x16xf32>
  %r2 = shard.all_reduce %q on @grid grid_axes = [0] : tensor<3x16xf32> -> tensor<3x16xf32>
  return %r, %r2 : tensor<4x16xf32>, tensor<3x16xf32>
}
