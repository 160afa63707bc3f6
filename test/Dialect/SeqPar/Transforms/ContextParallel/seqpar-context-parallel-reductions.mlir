// RUN: seqpar-opt %s --seqpar-context-parallel --canonicalize --cse 2>&1 | FileCheck %s

// Reductions over the sequence under CP (docs/context-parallelism.md,
// "Reductions over the sequence"): a weight gradient X^T . dY over [b, s],
// a loss sum with a non-zero init and a max run on the rank's tokens and are
// all-reduced over the CP axis; nothing is gathered. Before, each read the
// all-gathered X and dY (2 all_gather) and computed the whole reduction on
// every rank. With padding they are gathered (seqpar-context-parallel-pad.mlir).
shard.grid @grid(shape = 2)

// CHECK: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): 0 attention -> ring (0 transfers, 0 bytes sent per rank), 3 all_reduce of sequence reductions (84 bytes), 0 all_gather (0 bytes) for ops that need all tokens
// CHECK-LABEL: func.func @reductions(%arg0
// CHECK-SAME: tensor<1x4x4xf32> {seqpar.seq_dim = 1 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [0] zigzag]>}
// CHECK-SAME: %arg1: tensor<1x4x4xf32> {seqpar.seq_dim = 1 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [0] zigzag]>}
// CHECK-SAME: -> (tensor<4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<f32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
// CHECK-NOT: shard.all_gather
// The weight gradient: the shard's partial sum, all-reduced.
// CHECK: %[[DW:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<1x4x4xf32>, tensor<1x4x4xf32>)
// CHECK: shard.all_reduce %[[DW]] on @grid grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// The loss sum reduces from zero; its init (1.5) is added once, after.
// CHECK: %[[PART:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<1x4x4xf32>)
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[PART]] on @grid grid_axes = [0] : tensor<f32> -> tensor<f32>
// CHECK: arith.addf %[[SUM]], %{{.*}} : tensor<f32>
// A max keeps its init and all-reduces by max.
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x4x4xf32>)
// CHECK: shard.all_reduce %[[MAX]] on @grid grid_axes = [0] reduction = {{ *}}max : tensor<4xf32> -> tensor<4xf32>
func.func @reductions(%x: tensor<1x8x4xf32> {seqpar.seq_dim = 1 : i64},
                      %dy: tensor<1x8x4xf32> {seqpar.seq_dim = 1 : i64})
    -> (tensor<4x4xf32>, tensor<f32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %init = arith.constant 1.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = linalg.generic {
      indexing_maps = [affine_map<(b, s, i, j) -> (b, s, i)>,
                       affine_map<(b, s, i, j) -> (b, s, j)>,
                       affine_map<(b, s, i, j) -> (i, j)>],
      iterator_types = ["reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %dy : tensor<1x8x4xf32>, tensor<1x8x4xf32>) outs(%z : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %i0 = linalg.fill ins(%init : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {
      indexing_maps = [affine_map<(b, s, j) -> (b, s, j)>,
                       affine_map<(b, s, j) -> ()>],
      iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%dy : tensor<1x8x4xf32>) outs(%i0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<4xf32>
  %i1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {
      indexing_maps = [affine_map<(b, s, j) -> (b, s, j)>,
                       affine_map<(b, s, j) -> (j)>],
      iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x8x4xf32>) outs(%i1 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %dw, %loss, %max : tensor<4x4xf32>, tensor<f32>, tensor<4xf32>
}

