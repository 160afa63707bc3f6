// RUN: seqpar-opt %s -split-input-file | seqpar-opt -split-input-file | FileCheck %s

// Tests that every asynchronous tensor collective and seqpar.wait round-trip.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @start_and_wait
func.func @start_and_wait(%x: tensor<2x4xf32>, %p: tensor<4x8xbf16>) {
  // CHECK: %[[AG:.+]] = seqpar.all_gather_start %{{.+}} on @grid grid_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> !seqpar.request<tensor<4x4xf32>>
  // CHECK-NEXT: seqpar.wait %[[AG]] : !seqpar.request<tensor<4x4xf32>>
  %r0 = seqpar.all_gather_start %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> !seqpar.request<tensor<4x4xf32>>
  %y0 = seqpar.wait %r0 : !seqpar.request<tensor<4x4xf32>>
  // CHECK: seqpar.reduce_scatter_start %{{.+}} on @grid grid_axes = [1] reduction = max scatter_axis = 1 : tensor<4x8xbf16> -> !seqpar.request<tensor<4x4xbf16>>
  %r1 = seqpar.reduce_scatter_start %p on @grid grid_axes = [1] reduction = max scatter_axis = 1 : tensor<4x8xbf16> -> !seqpar.request<tensor<4x4xbf16>>
  %y1 = seqpar.wait %r1 : !seqpar.request<tensor<4x4xbf16>>
  // CHECK: seqpar.all_reduce_start %{{.+}} on @grid grid_axes = [0, 1] : tensor<2x4xf32> -> !seqpar.request<tensor<2x4xf32>>
  %r2 = seqpar.all_reduce_start %x on @grid grid_axes = [0, 1] : tensor<2x4xf32> -> !seqpar.request<tensor<2x4xf32>>
  %y2 = seqpar.wait %r2 : !seqpar.request<tensor<2x4xf32>>
  // CHECK: seqpar.all_to_all_start %{{.+}} on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4xf32> -> !seqpar.request<tensor<4x2xf32>>
  %r3 = seqpar.all_to_all_start %x on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4xf32> -> !seqpar.request<tensor<4x2xf32>>
  %y3 = seqpar.wait %r3 : !seqpar.request<tensor<4x2xf32>>
  // CHECK: seqpar.shift_start %{{.+}} on @grid grid_axes = [1] offset = -1 : tensor<2x4xf32> -> !seqpar.request<tensor<2x4xf32>>
  %r4 = seqpar.shift_start %x on @grid grid_axes = [1] offset = -1 : tensor<2x4xf32> -> !seqpar.request<tensor<2x4xf32>>
  %y4 = seqpar.wait %r4 : !seqpar.request<tensor<2x4xf32>>
  return
}

// -----

// Tests that the memref-level collectives round-trip, blocking and
// asynchronous, with memref_wait.

shard.grid @grid(shape = 2) {sym_visibility = "private"}

// CHECK-LABEL: func.func @memref_collectives
func.func @memref_collectives(%a: memref<2x4xf32>, %b: memref<4x4xf32>, %c: memref<4x2xf32>) {
  // CHECK: seqpar.memref_all_gather %{{.+}}, %{{.+}} on @grid grid_axes = [0] gather_axis = 0 : memref<2x4xf32>, memref<4x4xf32>
  seqpar.memref_all_gather %a, %b on @grid grid_axes = [0] gather_axis = 0 : memref<2x4xf32>, memref<4x4xf32>
  // CHECK: seqpar.memref_reduce_scatter %{{.+}}, %{{.+}} on @grid grid_axes = [0] scatter_axis = 0 : memref<4x4xf32>, memref<2x4xf32>
  seqpar.memref_reduce_scatter %b, %a on @grid grid_axes = [0] scatter_axis = 0 : memref<4x4xf32>, memref<2x4xf32>
  // CHECK: seqpar.memref_all_reduce %{{.+}}, %{{.+}} on @grid grid_axes = [0] reduction = min : memref<2x4xf32>, memref<2x4xf32>
  seqpar.memref_all_reduce %a, %a on @grid grid_axes = [0] reduction = min : memref<2x4xf32>, memref<2x4xf32>
  // CHECK: seqpar.memref_all_to_all %{{.+}}, %{{.+}} on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : memref<2x4xf32>, memref<4x2xf32>
  seqpar.memref_all_to_all %a, %c on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : memref<2x4xf32>, memref<4x2xf32>
  // CHECK: %[[R:.+]] = seqpar.memref_shift %[[IN:.+]], %[[OUT:.+]] on @grid grid_axes = [0] offset = 1 : memref<4x4xf32>, memref<4x4xf32> -> !seqpar.request<memref<4x4xf32>>
  // CHECK-NEXT: seqpar.memref_wait %[[R]], %[[IN]], %[[OUT]] : !seqpar.request<memref<4x4xf32>>, memref<4x4xf32>, memref<4x4xf32>
  %o = memref.alloc() : memref<4x4xf32>
  %r = seqpar.memref_shift %b, %o on @grid grid_axes = [0] offset = 1 : memref<4x4xf32>, memref<4x4xf32> -> !seqpar.request<memref<4x4xf32>>
  seqpar.memref_wait %r, %b, %o : !seqpar.request<memref<4x4xf32>>, memref<4x4xf32>, memref<4x4xf32>
  return
}
