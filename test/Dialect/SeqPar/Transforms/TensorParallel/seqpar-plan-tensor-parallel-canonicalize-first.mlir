// With canonicalize-first the planner cleans its input up first, as
// seqpar-canonicalize-cse before it would (seqpar-pipeline runs it so: one
// verification of the module instead of two, docs/benchmarks.md §1).
// RUN: seqpar-opt %s --seqpar-canonicalize-cse --seqpar-plan-tensor-parallel=tp=2 -o %t.two 2>/dev/null
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel="tp=2 canonicalize-first=true" -o %t.one 2>/dev/null
// RUN: diff %t.two %t.one
// RUN: FileCheck %s < %t.one
// Without it, the input is planned as it is.
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 2>/dev/null | FileCheck %s --check-prefix=RAW

// An exporter's MLP: each linear reshapes the activation itself and
// accumulates into a zero fill of its own. Cleaned up, the gate and up
// projections read one reshape and one per-rank zero init.
// CHECK-LABEL: func.func @mlp(
// CHECK-COUNT-1: tensor.collapse_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<16x128xf32>
// CHECK: linalg.matmul {{.*}} outs(%[[Z]] : tensor<16x128xf32>)
// CHECK: linalg.matmul {{.*}} outs(%[[Z]] : tensor<16x128xf32>)
// CHECK: shard.all_reduce
// RAW-LABEL: func.func @mlp(
// RAW-COUNT-2: tensor.collapse_shape
func.func @mlp(%x: tensor<2x8x64xf32>, %w1: tensor<64x256xf32>, %w3: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %x1 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %up = linalg.matmul ins(%x1, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %zero3 = arith.constant 0.0 : f32
  %x3 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
  %e3 = tensor.empty() : tensor<16x256xf32>
  %z3 = linalg.fill ins(%zero3 : f32) outs(%e3 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %gate = linalg.matmul ins(%x3, %w3 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z3 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %t = math.tanh %gate : tensor<16x256xf32>
  %h = arith.mulf %t, %up : tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
