// K/V repeated for GQA in the ways frontends write it, hand-written:
// Q [b, s, a, d] (a = 4), K and V [b, s, a_kv, d] (a_kv = 2) and an MQA
// K/V [b, s, 1, d], all token-major. @attend (inlined first) is one causal
// attention on K/V already repeated to [b, a, s, d]: rank-4 generic
// products over (b, h), a select of -inf in the scale op, linalg.softmax,
// P.V written token-major. The six repeats:
//   1. adding a broadcast zero tensor ([b, a_kv, 1, s, d] + zeros
//      [b, a_kv, r, s, d], collapsed: query head h reads h floordiv r);
//   2. tensor.concat of K with itself along the heads (a tile: query head
//      h reads K/V head h mod a_kv);
//   3. concat along a new dim after the heads, collapsed (h floordiv r);
//   4. index_select with a constant index list [0, 0, 1, 1] (a gather);
//   5. a gather whose index is computed, linalg.index 1 floordiv 2;
//   6. MQA: K/V [b, s, 1, d] broadcast to 4 heads.
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#kv5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>
#q = affine_map<(b, h, i, j, e) -> (b, i, h, e)>
#k = affine_map<(b, h, i, j, e) -> (b, h, j, e)>
#s = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, i, h, e)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#head = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
  func.func private @attend(%q: tensor<2x8x4x8xf32>, %k: tensor<2x4x8x8xf32>, %v: tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32> {
    %zero = arith.constant 0.0 : f32
    %c = arith.constant 0.35355339 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %es = tensor.empty() : tensor<2x4x8x8xf32>
    %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %sc = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>) outs(%zs : tensor<2x4x8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %l = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %i = linalg.index 2 : index
      %j = linalg.index 3 : index
      %visible = arith.cmpi ule, %j, %i : index
      %y = arith.mulf %x, %c : f32
      %r = arith.select %visible, %y, %ninf : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %pr = linalg.softmax dimension(3) ins(%l : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %eo = tensor.empty() : tensor<2x8x4x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
    %out = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) outs(%zo : tensor<2x8x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x8x4x8xf32>
    return %out : tensor<2x8x4x8xf32>
  }

  func.func @forward(%q: tensor<2x8x4x8xf32> {seqpar.seq_dim = 1 : i64},
                     %k: tensor<2x8x2x8xf32> {seqpar.seq_dim = 1 : i64},
                     %v: tensor<2x8x2x8xf32> {seqpar.seq_dim = 1 : i64},
                     %k1: tensor<2x8x1x8xf32> {seqpar.seq_dim = 1 : i64},
                     %v1: tensor<2x8x1x8xf32> {seqpar.seq_dim = 1 : i64})
      -> (tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) {
    %e2 = tensor.empty() : tensor<2x2x8x8xf32>
    %kh = linalg.transpose ins(%k : tensor<2x8x2x8xf32>) outs(%e2 : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
    %vh = linalg.transpose ins(%v : tensor<2x8x2x8xf32>) outs(%e2 : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
    %e4 = tensor.empty() : tensor<2x4x8x8xf32>

    // 1. + zeros.
    %k5 = tensor.expand_shape %kh [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 8, 8] : tensor<2x2x8x8xf32> into tensor<2x2x1x8x8xf32>
    %v5 = tensor.expand_shape %vh [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 8, 8] : tensor<2x2x8x8xf32> into tensor<2x2x1x8x8xf32>
    %zeros = arith.constant dense<0.0> : tensor<2x2x2x8x8xf32>
    %e5 = tensor.empty() : tensor<2x2x2x8x8xf32>
    %kz = linalg.generic {indexing_maps = [#kv5, #id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k5, %zeros : tensor<2x2x1x8x8xf32>, tensor<2x2x2x8x8xf32>) outs(%e5 : tensor<2x2x2x8x8xf32>) {
    ^bb0(%x: f32, %z: f32, %o: f32):
      %y = arith.addf %x, %z : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x8x8xf32>
    %vz = linalg.generic {indexing_maps = [#kv5, #id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v5, %zeros : tensor<2x2x1x8x8xf32>, tensor<2x2x2x8x8xf32>) outs(%e5 : tensor<2x2x2x8x8xf32>) {
    ^bb0(%x: f32, %z: f32, %o: f32):
      %y = arith.addf %z, %x : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x8x8xf32>
    %kz4 = tensor.collapse_shape %kz [[0], [1, 2], [3], [4]] : tensor<2x2x2x8x8xf32> into tensor<2x4x8x8xf32>
    %vz4 = tensor.collapse_shape %vz [[0], [1, 2], [3], [4]] : tensor<2x2x2x8x8xf32> into tensor<2x4x8x8xf32>
    %o1 = func.call @attend(%q, %kz4, %vz4) : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>

    // 2. concat along the heads: a tile.
    %kt = tensor.concat dim(1) %kh, %kh : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x4x8x8xf32>
    %vt = tensor.concat dim(1) %vh, %vh : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x4x8x8xf32>
    %o2 = func.call @attend(%q, %kt, %vt) : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>

    // 3. concat along a new dim, collapsed: a repeat.
    %kc = tensor.concat dim(2) %k5, %k5 : (tensor<2x2x1x8x8xf32>, tensor<2x2x1x8x8xf32>) -> tensor<2x2x2x8x8xf32>
    %vc = tensor.concat dim(2) %v5, %v5 : (tensor<2x2x1x8x8xf32>, tensor<2x2x1x8x8xf32>) -> tensor<2x2x2x8x8xf32>
    %kc4 = tensor.collapse_shape %kc [[0], [1, 2], [3], [4]] : tensor<2x2x2x8x8xf32> into tensor<2x4x8x8xf32>
    %vc4 = tensor.collapse_shape %vc [[0], [1, 2], [3], [4]] : tensor<2x2x2x8x8xf32> into tensor<2x4x8x8xf32>
    %o3 = func.call @attend(%q, %kc4, %vc4) : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>

    // 4. index_select with [0, 0, 1, 1].
    %idx = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
    %kg = linalg.generic {indexing_maps = [#head, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%idx : tensor<4xi64>) outs(%e4 : tensor<2x4x8x8xf32>) {
    ^bb0(%n: i64, %o: f32):
      %b = linalg.index 0 : index
      %h = arith.index_cast %n : i64 to index
      %t = linalg.index 2 : index
      %d = linalg.index 3 : index
      %x = tensor.extract %kh[%b, %h, %t, %d] : tensor<2x2x8x8xf32>
      linalg.yield %x : f32
    } -> tensor<2x4x8x8xf32>
    %vg = linalg.generic {indexing_maps = [#head, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%idx : tensor<4xi64>) outs(%e4 : tensor<2x4x8x8xf32>) {
    ^bb0(%n: i64, %o: f32):
      %b = linalg.index 0 : index
      %h = arith.index_cast %n : i64 to index
      %t = linalg.index 2 : index
      %d = linalg.index 3 : index
      %x = tensor.extract %vh[%b, %h, %t, %d] : tensor<2x2x8x8xf32>
      linalg.yield %x : f32
    } -> tensor<2x4x8x8xf32>
    %o4 = func.call @attend(%q, %kg, %vg) : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>

    // 5. a gather at head h floordiv 2, computed.
    %c2 = arith.constant 2 : index
    %ki = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e4 : tensor<2x4x8x8xf32>) {
    ^bb0(%o: f32):
      %b = linalg.index 0 : index
      %hq = linalg.index 1 : index
      %h = arith.divui %hq, %c2 : index
      %t = linalg.index 2 : index
      %d = linalg.index 3 : index
      %x = tensor.extract %kh[%b, %h, %t, %d] : tensor<2x2x8x8xf32>
      linalg.yield %x : f32
    } -> tensor<2x4x8x8xf32>
    %vi = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e4 : tensor<2x4x8x8xf32>) {
    ^bb0(%o: f32):
      %b = linalg.index 0 : index
      %hq = linalg.index 1 : index
      %h = arith.divui %hq, %c2 : index
      %t = linalg.index 2 : index
      %d = linalg.index 3 : index
      %x = tensor.extract %vh[%b, %h, %t, %d] : tensor<2x2x8x8xf32>
      linalg.yield %x : f32
    } -> tensor<2x4x8x8xf32>
    %o5 = func.call @attend(%q, %ki, %vi) : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>

    // 6. MQA.
    %e1 = tensor.empty() : tensor<2x1x8x8xf32>
    %k1h = linalg.transpose ins(%k1 : tensor<2x8x1x8xf32>) outs(%e1 : tensor<2x1x8x8xf32>) permutation = [0, 2, 1, 3]
    %v1h = linalg.transpose ins(%v1 : tensor<2x8x1x8xf32>) outs(%e1 : tensor<2x1x8x8xf32>) permutation = [0, 2, 1, 3]
    %k1c = tensor.collapse_shape %k1h [[0, 1], [2], [3]] : tensor<2x1x8x8xf32> into tensor<2x8x8xf32>
    %v1c = tensor.collapse_shape %v1h [[0, 1], [2], [3]] : tensor<2x1x8x8xf32> into tensor<2x8x8xf32>
    %km = linalg.broadcast ins(%k1c : tensor<2x8x8xf32>) outs(%e4 : tensor<2x4x8x8xf32>) dimensions = [1]
    %vm = linalg.broadcast ins(%v1c : tensor<2x8x8xf32>) outs(%e4 : tensor<2x4x8x8xf32>) dimensions = [1]
    %o6 = func.call @attend(%q, %km, %vm) : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    return %o1, %o2, %o3, %o4, %o5, %o6 : tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>
  }
}
