// A layer whose input arrives flattened [b*s, h] = [2*8, 16]: batch 2, 8
// tokens each (the inferred sequence: dim 0 holds 2 blocks of 8 tokens).
// Q, K, V and output projections, causal attention over 2 heads of 8,
// residual.
func.func @main(%x: tensor<16x16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x16xf32>, %wv: tensor<16x16xf32>, %wo: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %q0 = linalg.matmul ins(%x, %wq : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %k0 = linalg.matmul ins(%x, %wk : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %v0 = linalg.matmul ins(%x, %wv : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %q1 = tensor.expand_shape %q0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 8] : tensor<16x16xf32> into tensor<2x8x2x8xf32>
  %k1 = tensor.expand_shape %k0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 8] : tensor<16x16xf32> into tensor<2x8x2x8xf32>
  %v1 = tensor.expand_shape %v0 [[0, 1], [2, 3]] output_shape [2, 8, 2, 8] : tensor<16x16xf32> into tensor<2x8x2x8xf32>
  %et = tensor.empty() : tensor<2x2x8x8xf32>
  %q = linalg.transpose ins(%q1 : tensor<2x8x2x8xf32>) outs(%et : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %k = linalg.transpose ins(%k1 : tensor<2x8x2x8xf32>) outs(%et : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %v = linalg.transpose ins(%v1 : tensor<2x8x2x8xf32>) outs(%et : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.35 : f32} : tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32> -> tensor<2x2x8x8xf32>
  %eb = tensor.empty() : tensor<2x8x2x8xf32>
  %ob = linalg.transpose ins(%o : tensor<2x2x8x8xf32>) outs(%eb : tensor<2x8x2x8xf32>) permutation = [0, 2, 1, 3]
  %of = tensor.collapse_shape %ob [[0, 1], [2, 3]] : tensor<2x8x2x8xf32> into tensor<16x16xf32>
  %y = linalg.matmul ins(%of, %wo : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = arith.addf %y, %x : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
