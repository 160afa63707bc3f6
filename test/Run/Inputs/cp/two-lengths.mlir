// The attentions of an encoder-decoder whose sequences differ in length:
// 16 encoder tokens, 8 decoder tokens (dim 2 of [b, a, s, d]). Encoder
// self-attention under a key-padding mask [b, 1, 1, 16], causal decoder
// self-attention (GQA 4/2), and a cross-attention whose queries are the
// decoder's output and whose keys and values are the encoder's, under the
// same padding mask. seqpar-run fills the masks with random values, so
// every entry matters.
func.func @main(%eq: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %ek: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %ev: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %dq: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                %dk: tensor<2x2x8x8xf32> {seqpar.seq_dim = 2 : i64},
                %dv: tensor<2x2x8x8xf32> {seqpar.seq_dim = 2 : i64},
                %pad: tensor<2x1x1x16xf32>)
    -> (tensor<2x4x16x8xf32>, tensor<2x4x8x8xf32>) {
  %e = seqpar.attention %eq, %ek, %ev mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32> -> tensor<2x4x16x8xf32>
  %d = seqpar.attention %dq, %dk, %dv {causal, scale = 0.35 : f32}
      : tensor<2x4x8x8xf32>, tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32> -> tensor<2x4x8x8xf32>
  %x = seqpar.attention %d, %e, %ev mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x8x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32> -> tensor<2x4x8x8xf32>
  return %e, %x : tensor<2x4x16x8xf32>, tensor<2x4x8x8xf32>
}
