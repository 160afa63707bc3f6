// An attention of 4 * b * a * s * s * d = 2^66 FLOPs over 2^42-byte tensors:
// the graph's figures do not fit in int64.
func.func @f(%x: tensor<1x4194304x64xf32>, %q: tensor<1x1024x4194304x1024xf32>) -> tensor<1x1024x4194304x1024xf32> {
  %a = seqpar.attention %q, %q, %q {causal, scale = 0.25 : f32} : tensor<1x1024x4194304x1024xf32>, tensor<1x1024x4194304x1024xf32>, tensor<1x1024x4194304x1024xf32> -> tensor<1x1024x4194304x1024xf32>
  return %a : tensor<1x1024x4194304x1024xf32>
}
