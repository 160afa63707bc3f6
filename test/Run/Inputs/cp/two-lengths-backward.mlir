// The backward of a cross-attention between two sequences of different
// lengths (docs/context-parallelism.md, "Encoder-decoder: two sequences"):
// 8 query tokens (a decoder's) attend 16 key tokens (an encoder's, GQA
// 4/2) under a key-padding mask [b, 1, 1, 16] that seqpar-run fills with
// random values; returns out, dQ, dK, dV.
func.func @main(%q: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %do: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                %pad: tensor<2x1x1x16xf32>)
    -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) {
  %o = seqpar.attention %q, %k, %v mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x8x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x8x8xf32>
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x8x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x8x8xf32>, tensor<2x2x16x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>
}
