// s = 10 tokens, which 4 CP ranks (8 zigzag chunks) do not divide: with
// pad=true every rank takes s' / c tokens of the sequence padded at its end.
// Causal attention (masked by causality alone), non-causal attention without
// a mask (the padding keys must be masked), and both with random additive
// masks (read at clamped positions; a per-head mask for Ulysses' head
// chunks). GQA 4/2; the sequence is dim 2 of Q, K, V.
func.func @main(%q: tensor<2x4x10x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x10x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x10x8xf32> {seqpar.seq_dim = 2 : i64},
                %m: tensor<1x4x10x10xf32>, %keys: tensor<2x1x1x10xf32>)
    -> (tensor<2x4x10x8xf32>, tensor<2x4x10x8xf32>, tensor<2x4x10x8xf32>,
        tensor<2x4x10x8xf32>) {
  %o1 = seqpar.attention %q, %k, %v {causal, scale = 0.35 : f32}
      : tensor<2x4x10x8xf32>, tensor<2x2x10x8xf32>, tensor<2x2x10x8xf32> -> tensor<2x4x10x8xf32>
  %o2 = seqpar.attention %q, %k, %v {scale = 0.35 : f32}
      : tensor<2x4x10x8xf32>, tensor<2x2x10x8xf32>, tensor<2x2x10x8xf32> -> tensor<2x4x10x8xf32>
  %o3 = seqpar.attention %q, %k, %v mask(%m : tensor<1x4x10x10xf32>) {causal, scale = 0.35 : f32}
      : tensor<2x4x10x8xf32>, tensor<2x2x10x8xf32>, tensor<2x2x10x8xf32> -> tensor<2x4x10x8xf32>
  %o4 = seqpar.attention %q, %k, %v mask(%keys : tensor<2x1x1x10xf32>) {scale = 0.35 : f32}
      : tensor<2x4x10x8xf32>, tensor<2x2x10x8xf32>, tensor<2x2x10x8xf32> -> tensor<2x4x10x8xf32>
  return %o1, %o2, %o3, %o4 : tensor<2x4x10x8xf32>, tensor<2x4x10x8xf32>,
      tensor<2x4x10x8xf32>, tensor<2x4x10x8xf32>
}
