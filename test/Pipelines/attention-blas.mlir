// RUN: seqpar-opt %s -split-input-file --seqpar-lower-to-llvm | FileCheck %s

// Tests that every contraction of GQA attention (4 query heads, 2 K/V heads)
// runs as cblas_sgemm calls after seqpar-lower-to-llvm
// (docs/runtime-and-run.md, "BLAS kernels"): the forward's Q.K^T and E.V,
// and the block backward's Q.K^T, dO.V^T, dS.K, dS^T.Q and P^T.dO. Before,
// the K/V heads were read as h floordiv 2, which no GEMM layout matches,
// and all of them ran as loops. (The GEMMs' batch loops are outlined into
// the functions before the entry's.)

// CHECK-LABEL: llvm.func @gqa_forward__nest0(
// CHECK-COUNT-2: llvm.call @cblas_sgemm
// CHECK-NOT: llvm.call @cblas_sgemm
// CHECK: llvm.func @gqa_forward(
func.func @gqa_forward(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x4x8x16xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.25 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
  return %o : tensor<1x4x8x16xf32>
}

// -----

// CHECK-LABEL: llvm.func @gqa_block_backward__nest0(
// CHECK-COUNT-5: llvm.call @cblas_sgemm
// CHECK-NOT: llvm.call @cblas_sgemm
// CHECK: llvm.func @gqa_block_backward(
func.func @gqa_block_backward(%q: tensor<1x4x4x8xf32>, %k: tensor<1x2x4x8xf32>, %do: tensor<1x4x4x8xf32>, %o: tensor<1x4x4x8xf32>,
                              %m: tensor<1x4x4xf32>, %l: tensor<1x4x4xf32>, %p: tensor<4xindex>) -> (tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) {
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %do, %o, %m, %l positions(%p, %p) {causal, scale = 0.5 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4xf32>,
        tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>
  return %dq, %dk, %dv : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}
