// A causal select and a padding mask on the same logits, in either order,
// as Hugging Face's GPT-2 eager attention writes them (where(causal, w,
// min) + attention_mask). Q, K, V held [b, s, a*d] (b = 2, s = 8, a = 4,
// d = 8), an integer attention-mask input %m [b, s] (1: attend, 0:
// padding); the padding term is select(m != 0, 0, -1e4), so its values
// lie in [-1e4, 0]:
//   1. select(j > i, -1e9, x * c), then + pad [b, 1, 1, t] (separate
//      generics): raised as the causal flag plus the mask;
//   2. x * c + pad, then select(j > i, -1e9, .): raised the same way;
//   3. GPT-2 eager as transformers >= 4.36 writes it: where(j > i, finfo.min)
//      then + (1 - float(m)) * finfo.min: not raised (a row whose visible
//      keys are all padding would weigh the future keys, and the integer
//      mask bounds nothing), with a remark;
//   4. GPT-2 eager in one fused body: x * c, select(j > i, finfo.min, .),
//      + select(m != 0, 0, -1e4) computed in the body: raised.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#pad4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#keys4 = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
module {
  // Q.K^T [b, a, s, t] of [b, s, a*d] inputs, scale not applied.
  func.func private @scores(%q: tensor<2x8x32xf32>, %k: tensor<2x8x32xf32>) -> tensor<2x4x8x8xf32> {
    %zero = arith.constant 0.0 : f32
    %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %k4 = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %e = tensor.empty() : tensor<2x4x8x8xf32>
    %qh = linalg.transpose ins(%q4 : tensor<2x8x4x8xf32>) outs(%e : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %kh = linalg.transpose ins(%k4 : tensor<2x8x4x8xf32>) outs(%e : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %q3 = tensor.collapse_shape %qh [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %k3 = tensor.collapse_shape %kh [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %e3 = tensor.empty() : tensor<8x8x8xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %s3 = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z3 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    return %s : tensor<2x4x8x8xf32>
  }
  // softmax(l) . V -> [b, s, a*d].
  func.func private @weigh(%l: tensor<2x4x8x8xf32>, %v: tensor<2x8x32xf32>) -> tensor<2x8x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4x8x8xf32>
    %p = linalg.softmax dimension(3) ins(%l : tensor<2x4x8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %v4 = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %eo = tensor.empty() : tensor<2x8x4x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v4 : tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) outs(%zo : tensor<2x8x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x8x4x8xf32>
    %o3 = tensor.collapse_shape %o [[0], [1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<2x8x32xf32>
    return %o3 : tensor<2x8x32xf32>
  }
  // select(j > i, hidden, x): the causal select.
  func.func private @causal(%x: tensor<2x4x8x8xf32>, %hidden: f32) -> tensor<2x4x8x8xf32> {
    %e = tensor.empty() : tensor<2x4x8x8xf32>
    %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %i = linalg.index 2 : index
      %j = linalg.index 3 : index
      %future = arith.cmpi ugt, %j, %i : index
      %y = arith.select %future, %hidden, %a : f32
      linalg.yield %y : f32
    } -> tensor<2x4x8x8xf32>
    return %r : tensor<2x4x8x8xf32>
  }
  // x + pad, pad [b, 1, 1, t].
  func.func private @add_pad(%x: tensor<2x4x8x8xf32>, %pad: tensor<2x1x1x8xf32>) -> tensor<2x4x8x8xf32> {
    %e = tensor.empty() : tensor<2x4x8x8xf32>
    %r = linalg.generic {indexing_maps = [#id4, #pad4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %pad : tensor<2x4x8x8xf32>, tensor<2x1x1x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%a: f32, %p: f32, %o: f32):
      %y = arith.addf %a, %p : f32
      linalg.yield %y : f32
    } -> tensor<2x4x8x8xf32>
    return %r : tensor<2x4x8x8xf32>
  }

  func.func @forward(%q: tensor<2x8x32xf32> {seqpar.seq_dim = 1 : i64},
                     %k: tensor<2x8x32xf32> {seqpar.seq_dim = 1 : i64},
                     %v: tensor<2x8x32xf32> {seqpar.seq_dim = 1 : i64},
                     %m: tensor<2x8xi64>)
      -> (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>) {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.35355339 : f32
    %big = arith.constant -1.0e4 : f32
    %lowest = arith.constant -3.40282347E+38 : f32
    %neg = arith.constant -1.0e9 : f32
    %z64 = arith.constant 0 : i64
    %s = func.call @scores(%q, %k) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x4x8x8xf32>
    %e = tensor.empty() : tensor<2x4x8x8xf32>
    %e2 = tensor.empty() : tensor<2x8xf32>
    %sc = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.mulf %x, %c : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    // select(m != 0, 0, -1e4) [b, 1, 1, t].
    %padsel = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x8xi64>) outs(%e2 : tensor<2x8xf32>) {
    ^bb0(%x: i64, %o: f32):
      %keep = arith.cmpi ne, %x, %z64 : i64
      %r = arith.select %keep, %zero, %big : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %pad = tensor.expand_shape %padsel [[0, 1, 2], [3]] output_shape [2, 1, 1, 8] : tensor<2x8xf32> into tensor<2x1x1x8xf32>

    // 1. select, then the padding added.
    %c1 = func.call @causal(%sc, %neg) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xf32>
    %l1 = func.call @add_pad(%c1, %pad) : (tensor<2x4x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x4x8x8xf32>
    %o1 = func.call @weigh(%l1, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 2. the padding added, then the select.
    %a2 = func.call @add_pad(%sc, %pad) : (tensor<2x4x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x4x8x8xf32>
    %l2 = func.call @causal(%a2, %neg) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xf32>
    %o2 = func.call @weigh(%l2, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 3. where(causal, w, finfo.min) + (1 - float(m)) * finfo.min.
    %minpad = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x8xi64>) outs(%e2 : tensor<2x8xf32>) {
    ^bb0(%x: i64, %o: f32):
      %f = arith.sitofp %x : i64 to f32
      %iv = arith.subf %one, %f : f32
      %r = arith.mulf %iv, %lowest : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %minpad4 = tensor.expand_shape %minpad [[0, 1, 2], [3]] output_shape [2, 1, 1, 8] : tensor<2x8xf32> into tensor<2x1x1x8xf32>
    %c3 = func.call @causal(%sc, %lowest) : (tensor<2x4x8x8xf32>, f32) -> tensor<2x4x8x8xf32>
    %l3 = func.call @add_pad(%c3, %minpad4) : (tensor<2x4x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x4x8x8xf32>
    %o3 = func.call @weigh(%l3, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 4. scale, select(finfo.min), + select(m != 0, 0, -1e4) in one body.
    %l4 = linalg.generic {indexing_maps = [#id4, #keys4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x4x8x8xf32>, tensor<2x8xi64>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %mi: i64, %o: f32):
      %y = arith.mulf %x, %c : f32
      %i = linalg.index 2 : index
      %j = linalg.index 3 : index
      %future = arith.cmpi ugt, %j, %i : index
      %w = arith.select %future, %lowest, %y : f32
      %keep = arith.cmpi ne, %mi, %z64 : i64
      %t = arith.select %keep, %zero, %big : f32
      %r = arith.addf %w, %t : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %o4 = func.call @weigh(%l4, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    return %o1, %o2, %o3, %o4 : tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>
  }
}
