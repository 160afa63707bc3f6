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
