// RUN: seqpar-opt %s -split-input-file --seqpar-fold-reduce-scatter | FileCheck %s

// Tests that all_reduce(sum) + all_slice over the same axes fold.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @fold
// CHECK-SAME: (%[[P:.+]]: tensor<16x64xf32>)
// CHECK-NEXT: %[[RS:.+]] = shard.reduce_scatter %[[P]] on @grid grid_axes = [0] scatter_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT: return %[[RS]]
func.func @fold(%p: tensor<16x64xf32>) -> tensor<8x64xf32> {
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
  %s = shard.all_slice %r on @grid grid_axes = [0] slice_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}

// -----

// Tests that a max all-reduce does not fold.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @max
// CHECK: shard.all_reduce
// CHECK: shard.all_slice
func.func @max(%p: tensor<16x64xf32>) -> tensor<8x64xf32> {
  %r = shard.all_reduce %p on @grid grid_axes = [0] reduction = max : tensor<16x64xf32> -> tensor<16x64xf32>
  %s = shard.all_slice %r on @grid grid_axes = [0] slice_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}

// -----

// Tests that an all-reduce with another user does not fold.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @other_user
// CHECK: shard.all_reduce
// CHECK: shard.all_slice
func.func @other_user(%p: tensor<16x64xf32>) -> (tensor<8x64xf32>, tensor<16x64xf32>) {
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
  %s = shard.all_slice %r on @grid grid_axes = [0] slice_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
  return %s, %r : tensor<8x64xf32>, tensor<16x64xf32>
}

// -----

// Tests that different grid axes do not fold.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @other_axis
// CHECK: shard.all_reduce
// CHECK: shard.all_slice
func.func @other_axis(%p: tensor<16x64xf32>) -> tensor<8x64xf32> {
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
  %s = shard.all_slice %r on @grid grid_axes = [1] slice_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}

// -----

// Tests that only the pairs are rewritten: the pass is no canonicalization,
// and a foldable op beside them is left as it was.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @only_pairs
// CHECK: arith.addf
// CHECK: shard.reduce_scatter
func.func @only_pairs(%p: tensor<16x64xf32>) -> (tensor<8x64xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %sum = arith.addf %one, %zero : f32
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
  %s = shard.all_slice %r on @grid grid_axes = [0] slice_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
  return %s, %sum : tensor<8x64xf32>, f32
}

// -----

// Tests that an all_slice in a branch does not fold: the reduce_scatter
// would take its place, and ranks that take the other branch would not
// join the collective.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @in_branch
// CHECK: shard.all_reduce
// CHECK: scf.if
// CHECK: shard.all_slice
// CHECK-NOT: shard.reduce_scatter
func.func @in_branch(%p: tensor<16x64xf32>, %c: i1) -> tensor<8x64xf32> {
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
  %x = scf.if %c -> tensor<8x64xf32> {
    %s = shard.all_slice %r on @grid grid_axes = [0] slice_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
    scf.yield %s : tensor<8x64xf32>
  } else {
    %e = tensor.empty() : tensor<8x64xf32>
    scf.yield %e : tensor<8x64xf32>
  }
  return %x : tensor<8x64xf32>
}
