// RUN: seqpar-opt %s -split-input-file --seqpar-sp-pipeline | FileCheck %s

// Tests that a TP graph mixing tosa and linalg (as other compilers' frontends
// emit) is accepted: tosa is lowered to linalg first, then rewritten.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @tosa_mixed
// CHECK-NOT: tosa.
// CHECK-NOT: shard.all_reduce
// CHECK: shard.reduce_scatter %{{.+}} on @grid grid_axes = [0] scatter_axis = 1 : tensor<1x8x16xf32> -> tensor<1x4x16xf32>
// CHECK: shard.all_gather %{{.+}} on @grid grid_axes = [0] gather_axis = 1 : tensor<1x4x16xf32> -> tensor<1x8x16xf32>
// CHECK-NOT: shard.all_reduce
func.func @tosa_mixed(%x: tensor<1x8x16xf32> {seqpar.seq_dim = 1 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                      %w1: tensor<1x16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0]]>},
                      %w2: tensor<1x32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
                      %b: tensor<1x1x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<1x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x8x32xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %h = linalg.batch_matmul ins(%x, %w1 : tensor<1x8x16xf32>, tensor<1x16x32xf32>) outs(%f1 : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %g = tosa.tanh %h : (tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %e2 = tensor.empty() : tensor<1x8x16xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %p = linalg.batch_matmul ins(%g, %w2 : tensor<1x8x32xf32>, tensor<1x32x16xf32>) outs(%f2 : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
  %rb = tosa.add %r, %b : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %y = tosa.add %rb, %x : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

// Tests the form upstream shard-partition emits for an output sharded along
// the sequence: all_reduce + all_slice, folded into one reduce_scatter.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @upstream_partitioned
// CHECK-NOT: shard.all_reduce
// CHECK-NOT: shard.all_slice
// CHECK: %[[RS:.+]] = shard.reduce_scatter %{{.+}} on @grid grid_axes = [0] scatter_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK: math.tanh %[[RS]] : tensor<4x16xf32>
func.func @upstream_partitioned(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<8x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = linalg.matmul ins(%2, %w2 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %all_reduce = shard.all_reduce %3 on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %all_slice = shard.all_slice %all_reduce on @grid grid_axes = [0] slice_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
  %4 = math.tanh %all_slice : tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// Tests that the pipeline inlines outlined helpers (a LayerNorm-like
// function) so their token-wise ops join the sequence-sharded region, while
// external declarations (a timer) stay calls.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func private @timer() -> ()
func.func private @norm(%v: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %n = arith.negf %v : tensor<8x16xf32>
  return %n : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @outlined
// CHECK: call @timer() : () -> ()
// CHECK: %[[RS:.+]] = shard.reduce_scatter
// CHECK: arith.negf %{{.+}} : tensor<4x16xf32>
// CHECK: shard.all_gather
// CHECK-NOT: call @norm
func.func @outlined(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  func.call @timer() : () -> ()
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  %n = func.call @norm(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %n : tensor<8x16xf32>
}
