// Two attentions with different head counts: no single layer shape.
func.func @f(%x: tensor<1x16x64xf32>, %q: tensor<1x4x16x16xf32>, %p: tensor<1x2x16x32xf32>) -> (tensor<1x4x16x16xf32>, tensor<1x2x16x32xf32>) {
  %a = seqpar.attention %q, %q, %q {causal, scale = 0.25 : f32} : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32> -> tensor<1x4x16x16xf32>
  %b = seqpar.attention %p, %p, %p {causal, scale = 0.125 : f32} : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32> -> tensor<1x2x16x32xf32>
  return %a, %b : tensor<1x4x16x16xf32>, tensor<1x2x16x32xf32>
}
