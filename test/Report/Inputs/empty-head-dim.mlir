// An attention with an empty head dim (d = 0): its LSE, one f32 per query
// row (b * a * s), was computed as numel / d (SIGFPE).
func.func @f(%x: tensor<1x16x64xf32>, %q: tensor<1x4x16x0xf32>) -> tensor<1x4x16x0xf32> {
  %a = seqpar.attention %q, %q, %q {causal, scale = 0.25 : f32} : tensor<1x4x16x0xf32>, tensor<1x4x16x0xf32>, tensor<1x4x16x0xf32> -> tensor<1x4x16x0xf32>
  return %a : tensor<1x4x16x0xf32>
}
