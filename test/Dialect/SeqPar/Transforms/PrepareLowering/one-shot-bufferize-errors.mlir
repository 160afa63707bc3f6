// RUN: seqpar-opt %s -split-input-file --one-shot-bufferize -verify-diagnostics

// Tests that a reduction the runtime cannot do is refused at bufferization.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @product(%p: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{reduction 'product' is not supported by the seqpar runtime (sum, max, min)}}
  // expected-error @+1 {{failed to bufferize op}}
  %r = shard.all_reduce %p on @grid grid_axes = [0] reduction = product : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that collectives on dynamic shapes are refused at bufferization.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @dynamic(%p: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+2 {{cannot bufferize a collective with a dynamic shape: 'tensor<?x4xf32>' -> 'tensor<?x4xf32>'}}
  // expected-error @+1 {{failed to bufferize op}}
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<?x4xf32> -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
