// Causal GQA attention over all 8 tokens (seqpar.attention, itself checked
// by attention-op.test), rows {0, 1, 6, 7}.
func.func @forward(%q: tensor<1x4x8x8xf32>, %k: tensor<1x2x8x8xf32>, %v: tensor<1x2x8x8xf32>) -> tensor<1x4x4x8xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.35 : f32}
      : tensor<1x4x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32> -> tensor<1x4x8x8xf32>
  %o0 = tensor.extract_slice %o[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %o1 = tensor.extract_slice %o[0, 0, 6, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %oz = tensor.concat dim(2) %o0, %o1 : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x4x8xf32>
  return %oz : tensor<1x4x4x8xf32>
}
