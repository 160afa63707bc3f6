// RUN: seqpar-opt %s -split-input-file --seqpar-lower-collectives-to-runtime -verify-diagnostics

// Tests that an element type the runtime does not handle is refused.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @f64(%a: memref<4xf64>, %b: memref<4xf64>) {
  // expected-error @+1 {{cannot lower to the seqpar runtime: unsupported element type 'f64': the seqpar runtime handles f32, f16, bf16, i32, i64, i8 and i1}}
  seqpar.memref_all_reduce %a, %b on @grid grid_axes = [0] : memref<4xf64>, memref<4xf64>
  return
}

// -----

// Tests that i1 (booleans, which the runtime moves as bytes) is not reduced:
// a sum of i1 would wrap.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @i1_sum(%a: memref<4xi1>, %b: memref<4xi1>) {
  // expected-error @+1 {{cannot lower to the seqpar runtime: 'seqpar.memref_all_reduce' reduces i1 values: the runtime moves i1 (all-gather, all-to-all, shift) but does not reduce it}}
  seqpar.memref_all_reduce %a, %b on @grid grid_axes = [0] : memref<4xi1>, memref<4xi1>
  return
}

// -----

// Tests that a dynamic shape is refused.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @dynamic(%a: memref<?x8xf32>, %b: memref<?x8xf32>) {
  // expected-error @+1 {{cannot lower to the seqpar runtime: dynamic shape 'memref<?x8xf32>' is not supported: the runtime needs static extents}}
  seqpar.memref_all_gather %a, %b on @grid grid_axes = [0] gather_axis = 0 : memref<?x8xf32>, memref<?x8xf32>
  return
}

// -----

// Tests that a buffer that is not a contiguous block is refused.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @strided(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  // expected-error @+1 {{cannot lower to the seqpar runtime: buffer 'memref<4x4xf32, strided<[8, 1]>>' is not a contiguous row-major block}}
  seqpar.memref_shift %a, %b on @grid grid_axes = [0] offset = 1 : memref<4x4xf32, strided<[8, 1]>>, memref<4x4xf32>
  return
}

// -----

// Tests that a dynamic grid is refused.

shard.grid @grid(shape = ?) {sym_visibility = "private"}
func.func @dynamic_grid() -> index {
  // expected-error @+1 {{cannot lower to the seqpar runtime: grid @grid has a dynamic extent; the runtime needs a static grid}}
  %i = shard.process_multi_index on @grid axes = [0] : index
  return %i : index
}

// -----

// Tests that collectives still on tensors are refused with a hint.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @tensor(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot lower to the seqpar runtime: operates on tensors: bufferize first (one-shot-bufferize; see the seqpar-lower-to-llvm pipeline)}}
  %r = shard.all_reduce %a on @grid grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that other shard ops are refused.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @neighbors() {
  // expected-error @+1 {{cannot lower to the seqpar runtime: is not supported by the seqpar runtime lowering}}
  %d:2 = shard.neighbors_linear_indices on @grid[] split_axes = [0] : index, index
  return
}
