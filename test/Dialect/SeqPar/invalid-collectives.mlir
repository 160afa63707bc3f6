// RUN: seqpar-opt %s -split-input-file -verify-diagnostics

// Tests that an all-gather result must grow the gather axis by the group size.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @gather_shape(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{result shape [8, 4] does not match the input shape [2, 4] for a group of 2 ranks: expected [4, 4]}}
  %r = seqpar.all_gather_start %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> !seqpar.request<tensor<8x4xf32>>
  %y = seqpar.wait %r : !seqpar.request<tensor<8x4xf32>>
  return
}

// -----

// Tests that a reduce-scatter input must divide by the group size.

shard.grid @grid(shape = 4) {sym_visibility = "private"}
func.func @scatter_divisible(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{input dim 0 of size 6 is not divisible by the group size 4}}
  %r = seqpar.reduce_scatter_start %x on @grid grid_axes = [0] scatter_axis = 0 : tensor<6x4xf32> -> !seqpar.request<tensor<1x4xf32>>
  %y = seqpar.wait %r : !seqpar.request<tensor<1x4xf32>>
  return
}

// -----

// Tests that only sum, max and min reductions are accepted.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @reduction_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{reduction must be sum, max or min, got product}}
  %r = seqpar.all_reduce_start %x on @grid grid_axes = [0] reduction = product : tensor<4xf32> -> !seqpar.request<tensor<4xf32>>
  %y = seqpar.wait %r : !seqpar.request<tensor<4xf32>>
  return
}

// -----

// Tests that the element type cannot change.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{input element type 'f32' differs from the result's 'f16'}}
  %r = seqpar.shift_start %x on @grid grid_axes = [0] offset = 1 : tensor<4xf32> -> !seqpar.request<tensor<4xf16>>
  %y = seqpar.wait %r : !seqpar.request<tensor<4xf16>>
  return
}

// -----

// Tests that the tensor axis must be within the rank.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @axis_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{tensor axis 1 is out of range for rank 1}}
  %r = seqpar.all_gather_start %x on @grid grid_axes = [0] gather_axis = 1 : tensor<4xf32> -> !seqpar.request<tensor<4xf32>>
  %y = seqpar.wait %r : !seqpar.request<tensor<4xf32>>
  return
}

// -----

// Tests that a grid axis may not repeat.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
func.func @repeated_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{grid axis 0 appears twice}}
  %r = seqpar.all_reduce_start %x on @grid grid_axes = [0, 0] : tensor<4xf32> -> !seqpar.request<tensor<4xf32>>
  %y = seqpar.wait %r : !seqpar.request<tensor<4xf32>>
  return
}

// -----

// Tests that a grid axis must exist in the grid.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @grid_axis_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{grid axis 1 is out of range for @grid of rank 1}}
  %r = seqpar.all_reduce_start %x on @grid grid_axes = [1] : tensor<4xf32> -> !seqpar.request<tensor<4xf32>>
  %y = seqpar.wait %r : !seqpar.request<tensor<4xf32>>
  return
}

// -----

// Tests that the grid must be a visible shard.grid.

func.func @missing_grid(%x: tensor<4xf32>) {
  // expected-error @+1 {{grid @nogrid is not a shard.grid visible here}}
  %r = seqpar.all_reduce_start %x on @nogrid grid_axes = [0] : tensor<4xf32> -> !seqpar.request<tensor<4xf32>>
  %y = seqpar.wait %r : !seqpar.request<tensor<4xf32>>
  return
}

// -----

// Tests that a request needs exactly one seqpar.wait.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @no_wait(%x: tensor<4xf32>) {
  // expected-error @+1 {{request must have exactly one use (a seqpar.wait in the same block), it has 0}}
  %r = seqpar.all_reduce_start %x on @grid grid_axes = [0] : tensor<4xf32> -> !seqpar.request<tensor<4xf32>>
  return
}

// -----

// Tests that the wait must be in the start's block.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @wait_elsewhere(%x: tensor<4xf32>, %c: i1) {
  // expected-error @+1 {{request must be used by a seqpar.wait in the same block}}
  %r = seqpar.all_reduce_start %x on @grid grid_axes = [0] : tensor<4xf32> -> !seqpar.request<tensor<4xf32>>
  scf.if %c {
    %y = seqpar.wait %r : !seqpar.request<tensor<4xf32>>
  }
  return
}

// -----

// Tests that seqpar.wait needs a request from a start op.

func.func @wait_argument(%r: !seqpar.request<tensor<4xf32>>) {
  // expected-error @+1 {{request must come from a seqpar.*_start op in the same block}}
  %y = seqpar.wait %r : !seqpar.request<tensor<4xf32>>
  return
}

// -----

// Tests that a request holds a ranked tensor or a memref.

// expected-error @+1 {{a request holds a ranked tensor or a memref, got 'tensor<*xf32>'}}
func.func @bad_request(%r: !seqpar.request<tensor<*xf32>>)

// -----

// Tests that a memref-level request must carry the output's type.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @memref_request(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{request type holds 'memref<8xf32>' but the output buffer is 'memref<4xf32>'}}
  %r = seqpar.memref_all_reduce %a, %b on @grid grid_axes = [0] : memref<4xf32>, memref<4xf32> -> !seqpar.request<memref<8xf32>>
  return
}

// -----

// Tests that memref_wait names the request's output buffer.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @memref_wait(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<2xf32>) {
  %r = seqpar.memref_all_reduce %a, %b on @grid grid_axes = [0] : memref<4xf32>, memref<4xf32> -> !seqpar.request<memref<4xf32>>
  // expected-error @+1 {{request type holds 'memref<4xf32>' but the output buffer is 'memref<2xf32>'}}
  seqpar.memref_wait %r, %a, %c : !seqpar.request<memref<4xf32>>, memref<4xf32>, memref<2xf32>
  return
}

// -----

// Tests that a memref all-to-all checks its shapes against the group.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @memref_all_to_all(%a: memref<2x4xf32>, %b: memref<2x4xf32>) {
  // expected-error @+1 {{result shape [2, 4] does not match the input shape [2, 4] for a group of 2 ranks: expected [4, 2]}}
  seqpar.memref_all_to_all %a, %b on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : memref<2x4xf32>, memref<2x4xf32>
  return
}
