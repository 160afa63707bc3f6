// Multi-query attention (one K/V head) and its backward: (1) causal, (2)
// non-causal with K and V one value (written k = v), whose K/V blocks move
// once. The sequence (s = 16) is dim 2 of Q, K, V and dO.
func.func @main(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x1x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x1x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %do: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>) {
  %o1 = seqpar.attention %q, %k, %v {causal, scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32> -> tensor<2x4x16x8xf32>
  %dq1, %dk1, %dv1 = seqpar.attention_backward %q, %k, %v, %o1, %do {causal, scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32> -> tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>
  %o2 = seqpar.attention %q, %k, %k {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32> -> tensor<2x4x16x8xf32>
  %dq2, %dk2, %dv2 = seqpar.attention_backward %q, %k, %k, %o2, %do {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32> -> tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>
  return %o1, %dq1, %dk1, %dv1, %o2, %dq2, %dk2, %dv2
      : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>
}
