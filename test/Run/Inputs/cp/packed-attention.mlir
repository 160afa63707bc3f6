// Causal attention over a packed sequence: the batch of 2 sequences of 8
// tokens ([b, s, h], sequence dim 1) is flattened to [b*s] and attended
// as one sequence of 16 keys, so dim 2 of Q, K, V holds 2 blocks of the
// 8-token sequence (outer 2), not one sequence's tokens.
func.func @main(%x: tensor<2x8x16xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<2x8x16xf32> {
  %f = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
  %h = tensor.expand_shape %f [[0, 1], [2, 3]] output_shape [1, 16, 2, 8] : tensor<16x16xf32> into tensor<1x16x2x8xf32>
  %e = tensor.empty() : tensor<1x2x16x8xf32>
  %q = linalg.transpose ins(%h : tensor<1x16x2x8xf32>) outs(%e : tensor<1x2x16x8xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %q, %q {causal, scale = 0.35 : f32} : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x16x8xf32>
  %eb = tensor.empty() : tensor<1x16x2x8xf32>
  %ob = linalg.transpose ins(%o : tensor<1x2x16x8xf32>) outs(%eb : tensor<1x16x2x8xf32>) permutation = [0, 2, 1, 3]
  %of = tensor.collapse_shape %ob [[0, 1], [2, 3]] : tensor<1x16x2x8xf32> into tensor<16x16xf32>
  %r = tensor.expand_shape %of [[0, 1], [2]] output_shape [2, 8, 16] : tensor<16x16xf32> into tensor<2x8x16xf32>
  return %r : tensor<2x8x16xf32>
}
