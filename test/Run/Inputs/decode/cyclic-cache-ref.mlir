// The single-device decode step of cyclic-cache.mlir: the new K/V written
// at positions len, len + 1 of the whole cache, then the two queries'
// attention over it, causal by position (slots after a query are masked).

func.func @decode_late(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %vn: tensor<1x2x2x8xf32>,
                  %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, 9, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, 9, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %qpos = arith.constant dense<[9, 10]> : tensor<2xindex>
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xindex>
  %o, %m, %l = seqpar.attention_block %q, %k, %v positions(%qpos, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<2xindex>, tensor<16xindex> -> tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  return %o, %k, %v : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

func.func @decode_early(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %vn: tensor<1x2x2x8xf32>,
                  %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %qpos = arith.constant dense<[1, 2]> : tensor<2xindex>
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xindex>
  %o, %m, %l = seqpar.attention_block %q, %k, %v positions(%qpos, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<2xindex>, tensor<16xindex> -> tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  return %o, %k, %v : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}
