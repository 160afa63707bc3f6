// A layer written with seqpar.attention (as a user or another frontend
// writes it): batch 2, 8 tokens, hidden 32, GQA 4/2 heads of 8, a per-head
// additive mask [1, 4, 8, 8] given as an argument (seqpar-run fills it with
// random values, so every head's slice matters), causal, then the output
// projection and the residual. The TP planner splits the heads: Q, K, V,
// the mask and the output along dim 1.
func.func @main(%x: tensor<2x8x32xf32>, %mask: tensor<1x4x8x8xf32>,
                %wq: tensor<32x32xf32>, %wk: tensor<32x16xf32>,
                %wv: tensor<32x16xf32>, %wo: tensor<32x32xf32>)
    -> tensor<2x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
  %e32 = tensor.empty() : tensor<16x32xf32>
  %f32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e16 = tensor.empty() : tensor<16x16xf32>
  %f16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %q0 = linalg.matmul ins(%flat, %wq : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %k0 = linalg.matmul ins(%flat, %wk : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f16 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %v0 = linalg.matmul ins(%flat, %wv : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f16 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %q1 = tensor.expand_shape %q0 [[0, 1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<16x32xf32> into tensor<2x8x4x8xf32>
  %k1 = tensor.expand_shape %k0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 8] : tensor<16x16xf32> into tensor<2x8x2x8xf32>
  %v1 = tensor.expand_shape %v0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 8] : tensor<16x16xf32> into tensor<2x8x2x8xf32>
  %eq = tensor.empty() : tensor<2x4x8x8xf32>
  %ekv = tensor.empty() : tensor<2x2x8x8xf32>
  %q = linalg.transpose ins(%q1 : tensor<2x8x4x8xf32>) outs(%eq : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
  %k = linalg.transpose ins(%k1 : tensor<2x8x2x8xf32>) outs(%ekv : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %v = linalg.transpose ins(%v1 : tensor<2x8x2x8xf32>) outs(%ekv : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %k, %v mask(%mask : tensor<1x4x8x8xf32>) {causal, scale = 0.35 : f32}
      : tensor<2x4x8x8xf32>, tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32> -> tensor<2x4x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4x8xf32>
  %ob = linalg.transpose ins(%o : tensor<2x4x8x8xf32>) outs(%eo : tensor<2x8x4x8xf32>) permutation = [0, 2, 1, 3]
  %of = tensor.collapse_shape %ob [[0, 1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<16x32xf32>
  %y = linalg.matmul ins(%of, %wo : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
  %r = arith.addf %y3, %x : tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}
