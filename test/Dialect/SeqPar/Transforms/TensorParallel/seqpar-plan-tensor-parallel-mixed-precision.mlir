// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -verify-diagnostics -o /dev/null

// A bf16 MLP that accumulates in f32, as mixed-precision exports write it:
// linalg.matmul of bf16 operands into an f32 init (its body extends both
// factors), the activation in f32, truncated to bf16 for fc2. The linears
// are planned as f32 ones are; the all-reduce is of the f32 partial sums
// (before: no linear was recognised, "0 blocks").

// CHECK-LABEL: func.func @bf16_mlp(
// CHECK-SAME: tensor<64x128xbf16> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[\], \[0\]\]}}>}
// CHECK-SAME: tensor<128x64xbf16> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>}
// CHECK: linalg.matmul {{.*}} -> tensor<16x128xf32>
// CHECK: %[[P:.*]] = linalg.matmul {{.*}} tensor<16x128xbf16>, tensor<128x64xbf16>) outs(%{{.*}} : tensor<16x64xf32>)
// CHECK: shard.all_reduce %[[P]] on @grid grid_axes = [0] : tensor<16x64xf32>
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 0 linears left replicated}}
func.func @bf16_mlp(%x: tensor<16x64xbf16>, %w1: tensor<64x256xbf16>, %w2: tensor<256x64xbf16>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xbf16>, tensor<64x256xbf16>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %g = math.tanh %h : tensor<16x256xf32>
  %g16 = arith.truncf %g : tensor<16x256xf32> to tensor<16x256xbf16>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%g16, %w2 : tensor<16x256xbf16>, tensor<256x64xbf16>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
