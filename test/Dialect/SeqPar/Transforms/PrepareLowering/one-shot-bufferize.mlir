// RUN: seqpar-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline | FileCheck %s --check-prefix=DEALLOC

// Tests that the blocking shard collectives bufferize into memref-level
// collectives writing a new buffer.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @shard_collectives
// CHECK-SAME: (%[[X:.+]]: memref<2x4xf32>, %[[P:.+]]: memref<4x4xf32>)
func.func @shard_collectives(%x: tensor<2x4xf32>, %p: tensor<4x4xf32>)
    -> (tensor<4x4xf32>, tensor<2x4xf32>, tensor<4x4xf32>, tensor<8x2xf32>, tensor<2x4xf32>) {
  // CHECK: %[[AG:.+]] = memref.alloc() {{.*}} : memref<4x4xf32>
  // CHECK: seqpar.memref_all_gather %[[X]], %[[AG]] on @grid grid_axes = [0] gather_axis = 0 : memref<2x4xf32>, memref<4x4xf32>
  %ag = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<4x4xf32>
  // CHECK: seqpar.memref_reduce_scatter %[[P]], %{{.+}} on @grid grid_axes = [0] scatter_axis = 0
  %rs = shard.reduce_scatter %p on @grid grid_axes = [0] scatter_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
  // CHECK: seqpar.memref_all_reduce %[[P]], %{{.+}} on @grid grid_axes = [0] reduction = max
  %ar = shard.all_reduce %p on @grid grid_axes = [0] reduction = max : tensor<4x4xf32> -> tensor<4x4xf32>
  // CHECK: seqpar.memref_all_to_all %[[P]], %{{.+}} on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : memref<4x4xf32>, memref<8x2xf32>
  %aa = shard.all_to_all %p on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x4xf32> -> tensor<8x2xf32>
  // CHECK: seqpar.memref_shift %[[X]], %{{.+}} on @grid grid_axes = [0] offset = 1
  %sh = shard.shift %x on @grid grid_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<2x4xf32> -> tensor<2x4xf32>
  return %ag, %rs, %ar, %aa, %sh : tensor<4x4xf32>, tensor<2x4xf32>, tensor<4x4xf32>, tensor<8x2xf32>, tensor<2x4xf32>
}

// -----

// Tests that all_slice copies this rank's slice, offset by its in-group
// index.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @all_slice
// CHECK-SAME: (%[[P:.+]]: memref<4x8xf32>)
func.func @all_slice(%p: tensor<4x8xf32>) -> tensor<4x2xf32> {
  // CHECK: %[[I:.+]]:2 = shard.process_multi_index on @grid axes = [1, 0] : index, index
  // CHECK: %[[VIEW:.+]] = memref.subview %[[P]][0, %{{.+}}] [4, 2] [1, 1]
  // CHECK: %[[OUT:.+]] = memref.alloc() {{.*}} : memref<4x2xf32>
  // CHECK: memref.copy %[[VIEW]], %[[OUT]]
  %s = shard.all_slice %p on @grid grid_axes = [1, 0] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
  return %s : tensor<4x2xf32>
}

// -----

// Tests that a start op sends a private copy of its input into a new
// output buffer, and that seqpar.wait names both buffers, which the
// deallocation pipeline then frees after the wait.

shard.grid @grid(shape = 4) {sym_visibility = "private"}

// CHECK-LABEL: func.func @start_wait
// CHECK-SAME: (%[[KV:.+]]: memref<8x16xf32>)
// DEALLOC-LABEL: func.func @start_wait
func.func @start_wait(%kv: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: %[[SEND:.+]] = memref.alloc() {{.*}} : memref<8x16xf32>
  // CHECK: memref.copy %[[KV]], %[[SEND]]
  // CHECK: %[[RECV:.+]] = memref.alloc() {{.*}} : memref<8x16xf32>
  // CHECK: %[[R:.+]] = seqpar.memref_shift %[[SEND]], %[[RECV]] on @grid grid_axes = [0] offset = 1 : memref<8x16xf32>, memref<8x16xf32> -> !seqpar.request<memref<8x16xf32>>
  // CHECK: linalg.generic
  // CHECK: seqpar.memref_wait %[[R]], %[[SEND]], %[[RECV]]
  // DEALLOC: %[[SEND:.+]] = memref.alloc() {{.*}} : memref<8x16xf32>
  // DEALLOC: seqpar.memref_wait %{{.+}}, %[[SEND]], %{{.+}}
  // DEALLOC: memref.dealloc %[[SEND]]
  %r = seqpar.shift_start %kv on @grid grid_axes = [0] offset = 1 : tensor<8x16xf32> -> !seqpar.request<tensor<8x16xf32>>
  %e = tensor.empty() : tensor<8x16xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%kv : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %next = seqpar.wait %r : !seqpar.request<tensor<8x16xf32>>
  %sum = linalg.add ins(%sq, %next : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %sum : tensor<8x16xf32>
}
