// RUN: seqpar-opt %s --pass-pipeline="builtin.module(func.func(seqpar-save-sharded))" -split-input-file 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --pass-pipeline="builtin.module(func.func(seqpar-save-sharded))" -split-input-file -verify-diagnostics -o /dev/null

// A column-parallel linear's input all-gathered from 4 of 8 tokens; the
// backward's weight gradient reads it through a transpose. Saved sharded:
// the backward all-gathers the shard again (async start/wait, which CSE
// keeps) and rebuilds the transpose on it, so the forward's gathered tensor
// is dead after the forward linear.

shard.grid @grid(shape = 2)

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x8xf32>
// CHECK: %[[G:.*]] = shard.all_gather %[[X]] on @grid grid_axes = [0] gather_axis = 0
// CHECK: linalg.matmul ins(%[[G]],
// CHECK: %[[REQ:.*]] = seqpar.all_gather_start %[[X]] on @grid grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> !seqpar.request<tensor<8x8xf32>>
// CHECK: %[[G2:.*]] = seqpar.wait %[[REQ]]
// CHECK: linalg.transpose ins(%[[G2]] : tensor<8x8xf32>)
// CHECK-NOT: %[[G]]
// CHECK: return
// expected-remark @+1 {{saved sharded: 1 all-gathered tensors are re-gathered in backward instead of saved gathered: 128 bytes less saved per rank, 128 more bytes sent per rank}}
func.func @step(%x: tensor<4x8xf32> {seqpar.seq_dim = 0 : i64}, %w: tensor<8x8xf32>) -> (tensor<f32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%g, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%y : tensor<8x8xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 1, dW = g^T . 1.
  %dy = linalg.fill ins(%one : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %gt = linalg.transpose ins(%g : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %dw = linalg.matmul ins(%gt, %dy : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %loss, %dw : tensor<f32>, tensor<8x8xf32>
}

// -----

// Not a training graph (one result): left as it is, no remark.

shard.grid @grid(shape = 2)

// CHECK-LABEL: func.func @forward(
// CHECK-NOT: seqpar.all_gather_start
func.func @forward(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
  return %g : tensor<8x8xf32>
}
