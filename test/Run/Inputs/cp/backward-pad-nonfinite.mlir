// Padded context parallelism of an attention backward whose Q, K, V and dO
// are 1/x per token: finite on every real token, inf on the zero tokens
// that cp-pad appends (s = 5). A padding query row must add nothing to the
// real keys' dK and dV (its dO and Q are zeroed, its LSE kept finite); a
// padding key is hidden from real queries by causality or by the padding
// mask. The sequence is dim 2 of x and dy.
func.func @main(%x: tensor<1x2x5x8xf32> {seqpar.seq_dim = 2 : i64},
                %dy: tensor<1x2x5x8xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>,
        tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) {
  %e = tensor.empty() : tensor<1x2x5x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, s, d) -> (b, h, s, d)>, affine_map<(b, h, s, d) -> (b, h, s, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x5x8xf32>) outs(%e : tensor<1x2x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %q = arith.divf %one, %a : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x8xf32>
  %do = linalg.generic {indexing_maps = [affine_map<(b, h, s, d) -> (b, h, s, d)>, affine_map<(b, h, s, d) -> (b, h, s, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dy : tensor<1x2x5x8xf32>) outs(%e : tensor<1x2x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %q = arith.divf %one, %a : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x8xf32>
  %o1 = seqpar.attention %r, %r, %r {causal, scale = 0.01 : f32}
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>
  %dq1, %dk1, %dv1 = seqpar.attention_backward %r, %r, %r, %o1, %do {causal, scale = 0.01 : f32}
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
  %o2 = seqpar.attention %r, %r, %r {scale = 0.01 : f32}
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>
  %dq2, %dk2, %dv2 = seqpar.attention_backward %r, %r, %r, %o2, %do {scale = 0.01 : f32}
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
  return %o1, %dq1, %dk1, %dv1, %o2, %dq2, %dk2, %dv2
      : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>,
        tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
}
