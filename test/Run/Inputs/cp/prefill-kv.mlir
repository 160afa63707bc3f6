// A prefill's attention (GQA 4/2, causal, s = 32) whose key is computed by
// a position-dependent token-wise op (k * (1 + p/64) at position p, as RoPE
// is) and returned with the value, as a prefill returns each layer's K
// after RoPE and V; the raw %k is returned too, a tensor the ring does not
// carry (test/Run/prefill-kv-cache.test).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @main(%q: tensor<1x4x32x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<1x2x32x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<1x2x32x8xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<1x32x32xf32>, tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32>,
        tensor<1x2x32x8xf32>) {
  %init = tensor.empty() : tensor<1x2x32x8xf32>
  %rope = linalg.generic {indexing_maps = [#id, #id],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x32x8xf32>) outs(%init : tensor<1x2x32x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %p = linalg.index 2 : index
    %pi = arith.index_cast %p : index to i64
    %pf = arith.sitofp %pi : i64 to f32
    %c64 = arith.constant 64.0 : f32
    %one = arith.constant 1.0 : f32
    %r = arith.divf %pf, %c64 : f32
    %s = arith.addf %one, %r : f32
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<1x2x32x8xf32>
  %o = seqpar.attention %q, %rope, %v {causal, scale = 0.35355339 : f32}
      : tensor<1x4x32x8xf32>, tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32> -> tensor<1x4x32x8xf32>
  // The output as the next layer reads it, [b, s, a d].
  %tinit = tensor.empty() : tensor<1x32x4x8xf32>
  %t = linalg.transpose ins(%o : tensor<1x4x32x8xf32>)
      outs(%tinit : tensor<1x32x4x8xf32>) permutation = [0, 2, 1, 3]
  %h = tensor.collapse_shape %t [[0], [1], [2, 3]]
      : tensor<1x32x4x8xf32> into tensor<1x32x32xf32>
  return %h, %rope, %v, %k : tensor<1x32x32xf32>, tensor<1x2x32x8xf32>,
      tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32>
}
