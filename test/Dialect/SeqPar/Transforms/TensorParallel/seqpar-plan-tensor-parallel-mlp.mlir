// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 0 linears left replicated

// A GELU MLP with biases on [b*s, h] rows: fc1 column-parallel (weight and
// bias split on the output features), fc2 row-parallel into a zero init,
// then all-reduce before the replicated bias.

// CHECK: shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[X:.*]]: tensor<16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: %[[W1:.*]]: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[\], \[0\]\]}}>}
// CHECK-SAME: %[[B1:.*]]: tensor<128xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>}
// CHECK-SAME: %[[W2:.*]]: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>}
// CHECK-SAME: %[[B2:.*]]: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: -> (tensor<16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
// CHECK: %[[H:.*]] = linalg.matmul ins(%[[X]], %[[W1]] : tensor<16x64xf32>, tensor<64x128xf32>) outs(%{{.*}} : tensor<16x128xf32>)
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[H]], %[[B1]] : tensor<16x128xf32>, tensor<128xf32>) outs(%{{.*}} : tensor<16x128xf32>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[G]], %[[W2]] : tensor<16x128xf32>, tensor<128x64xf32>) outs(%{{.*}} : tensor<16x64xf32>)
// CHECK: %[[R:.*]] = shard.all_reduce %[[P]] on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
// CHECK: linalg.generic {{.*}} ins(%[[R]], %[[B2]] :
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %b1: tensor<256xf32>,
               %w2: tensor<256x64xf32>, %b2: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %g = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<16x256xf32>, tensor<256xf32>) outs(%e1 : tensor<16x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = math.tanh %s : f32
    %m = arith.mulf %s, %t : f32
    linalg.yield %m : f32
  } -> tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %out = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b2 : tensor<16x64xf32>, tensor<64xf32>) outs(%e2 : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %out : tensor<16x64xf32>
}
