// Attention with additive masks given as arguments (seqpar-run fills them
// with random values, so every mask entry matters): a per-head [1, a, s, s]
// mask on causal GQA 4/2 attention, and a key-padding-shaped [b, 1, 1, s]
// mask on non-causal attention. The sequence (s = 16) is in dim 2 of Q, K, V.
func.func @main(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %m: tensor<1x4x16x16xf32>, %pad: tensor<2x1x1x16xf32>)
    -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) {
  %o1 = seqpar.attention %q, %k, %v mask(%m : tensor<1x4x16x16xf32>) {causal, scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %o2 = seqpar.attention %q, %k, %v mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  return %o1, %o2 : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>
}
