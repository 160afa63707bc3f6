// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -verify-diagnostics -o /dev/null

// Zero inits as other frontends write them: fc1 accumulates into a zero
// splat constant (rebuilt at the per-rank shape), fc2, the row-parallel
// linear, into a zero fill seen through a tensor.cast: both are zero, so
// the partial sums add up (before: "accumulates into a non-zero init",
// the MLP left replicated).

// CHECK-LABEL: func.func @mlp_zero_inits(
// CHECK-SAME: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[\], \[0\]\]}}>}
// CHECK-SAME: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>}
// CHECK: %[[Z1:.*]] = arith.constant dense<0.000000e+00> : tensor<16x128xf32>
// CHECK: linalg.matmul {{.*}} outs(%[[Z1]] : tensor<16x128xf32>)
// CHECK: %[[P:.*]] = linalg.matmul {{.*}} -> tensor<16x64xf32>
// CHECK: shard.all_reduce %[[P]] on @grid grid_axes = [0] : tensor<16x64xf32>
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 0 linears left replicated}}
func.func @mlp_zero_inits(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %z1 = arith.constant dense<0.0> : tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %g = math.tanh %h : tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %d2 = tensor.cast %f2 : tensor<16x64xf32> to tensor<?x64xf32>
  %z2 = tensor.cast %d2 : tensor<?x64xf32> to tensor<16x64xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// The linears of a block that read one zero init read one per-rank init,
// built where the global one was, which is gone (it was rebuilt per linear
// and left for a clean-up to merge, and the global one to erase).
// CHECK-LABEL: func.func @shared_init(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16x128xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<16x128xf32>)
// CHECK-NEXT: tensor.empty() : tensor<16x64xf32>
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[Z]] : tensor<16x128xf32>)
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[Z]] : tensor<16x128xf32>)
// CHECK-NOT: tensor<16x256xf32>
// CHECK: return
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 2 column-parallel and 1 row-parallel linears, 0 linears left replicated}}
func.func @shared_init(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w3: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %up = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  %gate = linalg.matmul ins(%x, %w3 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  %t = math.tanh %gate : tensor<16x256xf32>
  %h = arith.mulf %t, %up : tensor<16x256xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
