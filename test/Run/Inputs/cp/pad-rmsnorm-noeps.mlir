// Written by an outside tester.
// RMSNorm without epsilon (x * rsqrt(mean(x^2))) before causal self-attention:
// finite on every real token; 0 * rsqrt(0) = NaN on a zero (padding) token.
func.func @main(%x: tensor<1x5x16xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<1x2x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<1x5xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x5xf32>) -> tensor<1x5xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, s, h) -> (b, s, h)>, affine_map<(b, s, h) -> (b, s)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x5x16xf32>) outs(%fr : tensor<1x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x5xf32>
  %e = tensor.empty() : tensor<1x5x16xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(b, s, h) -> (b, s, h)>, affine_map<(b, s, h) -> (b, s)>, affine_map<(b, s, h) -> (b, s, h)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %ss : tensor<1x5x16xf32>, tensor<1x5xf32>) outs(%e : tensor<1x5x16xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %c16 = arith.constant 16.0 : f32
    %m = arith.divf %s, %c16 : f32
    %r = math.rsqrt %m : f32
    %y = arith.mulf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<1x5x16xf32>
  %n4 = tensor.expand_shape %n [[0], [1], [2, 3]] output_shape [1, 5, 2, 8] : tensor<1x5x16xf32> into tensor<1x5x2x8xf32>
  %et = tensor.empty() : tensor<1x2x5x8xf32>
  %t = linalg.transpose ins(%n4 : tensor<1x5x2x8xf32>) outs(%et : tensor<1x2x5x8xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %t, %t, %t {causal, scale = 0.35 : f32}
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>
  return %o : tensor<1x2x5x8xf32>
}
