// An attention over no tokens: the planner divided by b * s = 0 (SIGFPE).
func.func @f(%x: tensor<1x0x64xf32>, %q: tensor<1x4x0x16xf32>) -> tensor<1x4x0x16xf32> {
  %a = seqpar.attention %q, %q, %q {causal, scale = 0.25 : f32} : tensor<1x4x0x16xf32>, tensor<1x4x0x16xf32>, tensor<1x4x0x16xf32> -> tensor<1x4x0x16xf32>
  return %a : tensor<1x4x0x16xf32>
}
