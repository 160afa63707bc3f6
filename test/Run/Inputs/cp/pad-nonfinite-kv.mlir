// Written by an outside tester.
// K = log(x*x) and V = 1/x per token: finite on every real token, -inf / inf on
// the zero tokens that cp-pad appends.
func.func @main(%x: tensor<1x5x16xf32> {seqpar.seq_dim = 1 : i64}) -> (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) {
  %e = tensor.empty() : tensor<1x5x16xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(b, s, h) -> (b, s, h)>, affine_map<(b, s, h) -> (b, s, h)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x5x16xf32>) outs(%e : tensor<1x5x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %l = math.log %sq : f32
    linalg.yield %l : f32
  } -> tensor<1x5x16xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(b, s, h) -> (b, s, h)>, affine_map<(b, s, h) -> (b, s, h)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x5x16xf32>) outs(%e : tensor<1x5x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x5x16xf32>
  %x4 = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 5, 2, 8] : tensor<1x5x16xf32> into tensor<1x5x2x8xf32>
  %k4 = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [1, 5, 2, 8] : tensor<1x5x16xf32> into tensor<1x5x2x8xf32>
  %v4 = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [1, 5, 2, 8] : tensor<1x5x16xf32> into tensor<1x5x2x8xf32>
  %et = tensor.empty() : tensor<1x2x5x8xf32>
  %qt = linalg.transpose ins(%x4 : tensor<1x5x2x8xf32>) outs(%et : tensor<1x2x5x8xf32>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%k4 : tensor<1x5x2x8xf32>) outs(%et : tensor<1x2x5x8xf32>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v4 : tensor<1x5x2x8xf32>) outs(%et : tensor<1x2x5x8xf32>) permutation = [0, 2, 1, 3]
  %o1 = seqpar.attention %qt, %kt, %vt {scale = 0.1 : f32}
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>
  %o2 = seqpar.attention %qt, %kt, %vt {causal, scale = 0.1 : f32}
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>
  return %o1, %o2 : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
}
