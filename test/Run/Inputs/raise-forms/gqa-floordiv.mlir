// GQA written as einsum generics that read K/V head h floordiv 2 directly
// (no repeat op): Q [b, a, s, d] = [2, 4, 8, 8], K/V with a_kv = 2 heads.
//   1. head-major K/V [b, a_kv, t, d]; scale and a causal select in one
//      generic; softmax as linalg.softmax;
//   2. token-major K/V [b, t, a_kv, d] (as a [b*t, h] projection expanded),
//      not causal; the output token-major [b, s, a, d].
#q1 = affine_map<(b, h, i, j, e) -> (b, h, i, e)>
#k1 = affine_map<(b, h, i, j, e) -> (b, h floordiv 2, j, e)>
#s1 = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#p1 = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v1 = affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>
#o1 = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#k2 = affine_map<(b, h, i, j, e) -> (b, j, h floordiv 2, e)>
#v2 = affine_map<(b, h, i, e, j) -> (b, j, h floordiv 2, e)>
#o2 = affine_map<(b, h, i, e, j) -> (b, i, h, e)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @forward(%q: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                   %k: tensor<2x2x8x8xf32> {seqpar.seq_dim = 2 : i64},
                   %v: tensor<2x2x8x8xf32> {seqpar.seq_dim = 2 : i64},
                   %kt: tensor<2x8x2x8xf32> {seqpar.seq_dim = 1 : i64},
                   %vt: tensor<2x8x2x8xf32> {seqpar.seq_dim = 1 : i64})
    -> (tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.35355339 : f32
  %el = tensor.empty() : tensor<2x4x8x8xf32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>

  // 1. head-major, causal.
  %s1 = linalg.generic {indexing_maps = [#q1, #k1, #s1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x8x8xf32>, tensor<2x2x8x8xf32>) outs(%zl : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %l1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<2x4x8x8xf32>) outs(%el : tensor<2x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %future, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %pr1 = linalg.softmax dimension(3) ins(%l1 : tensor<2x4x8x8xf32>) outs(%el : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o1 = linalg.generic {indexing_maps = [#p1, #v1, #o1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pr1, %v : tensor<2x4x8x8xf32>, tensor<2x2x8x8xf32>) outs(%zl : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>

  // 2. token-major K/V and output, not causal.
  %s2 = linalg.generic {indexing_maps = [#q1, #k2, #s1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<2x4x8x8xf32>, tensor<2x8x2x8xf32>) outs(%zl : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %l2 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2 : tensor<2x4x8x8xf32>) outs(%el : tensor<2x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x8x8xf32>
  %pr2 = linalg.softmax dimension(3) ins(%l2 : tensor<2x4x8x8xf32>) outs(%el : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
  %o2 = linalg.generic {indexing_maps = [#p1, #v2, #o2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pr2, %vt : tensor<2x4x8x8xf32>, tensor<2x8x2x8xf32>) outs(%zo : tensor<2x8x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x4x8xf32>
  return %o1, %o2 : tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>
}
