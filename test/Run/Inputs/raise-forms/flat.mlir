// Attention whose operands are 3-D from the start, [b*a, s, d] function
// arguments with no 4-D origin (b = 2, a = 4, a_kv = 2, s = 8, d = 8):
//   1. GQA: K and V [b*a_kv, t, d] repeated to [b*a, t, d] by a gather at
//      (n floordiv a) * a_kv + (n mod a) floordiv 2, Q.K^T a batch_matmul
//      with transposed-B maps, softmax as generics, not causal: a
//      key-padding mask [b, t] broadcast to [b, a, s, t] and collapsed to
//      [b*a, s, t] (raised as [b, 1, 1, t], the [b*a] dim split in b and a);
//   2. the same scores causal by a select of finfo.min, P.V written
//      token-major, [s, b*a, d].
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#pv_p = affine_map<(n, i, e, j) -> (n, i, j)>
#pv_v = affine_map<(n, i, e, j) -> (n, j, e)>
#pv_o = affine_map<(n, i, e, j) -> (i, n, e)>
func.func @forward(%q: tensor<8x8x8xf32> {seqpar.seq_dim = 1 : i64},
                   %k: tensor<4x8x8xf32> {seqpar.seq_dim = 1 : i64},
                   %v: tensor<4x8x8xf32> {seqpar.seq_dim = 1 : i64},
                   %pad: tensor<2x8xf32>) -> (tensor<8x8x8xf32>, tensor<8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.35355339 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<8x8x8xf32>
  // K/V head of query batch-head n: (n / 4) * 2 + (n % 4) / 2.
  %kr = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%o: f32):
    %n = linalg.index 0 : index
    %t = linalg.index 1 : index
    %d = linalg.index 2 : index
    %b = arith.divui %n, %c4 : index
    %h = arith.remui %n, %c4 : index
    %g = arith.divui %h, %c2 : index
    %b2 = arith.muli %b, %c2 : index
    %kv = arith.addi %b2, %g : index
    %x = tensor.extract %k[%kv, %t, %d] : tensor<4x8x8xf32>
    linalg.yield %x : f32
  } -> tensor<8x8x8xf32>
  %vr = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%o: f32):
    %n = linalg.index 0 : index
    %t = linalg.index 1 : index
    %d = linalg.index 2 : index
    %b = arith.divui %n, %c4 : index
    %h = arith.remui %n, %c4 : index
    %g = arith.divui %h, %c2 : index
    %b2 = arith.muli %b, %c2 : index
    %kv = arith.addi %b2, %g : index
    %x = tensor.extract %v[%kv, %t, %d] : tensor<4x8x8xf32>
    linalg.yield %x : f32
  } -> tensor<8x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %kr : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  // The key-padding mask, [b, t] -> [b, a, s, t] -> [b*a, s, t].
  %e4 = tensor.empty() : tensor<2x4x8x8xf32>
  %pb = linalg.broadcast ins(%pad : tensor<2x8xf32>) outs(%e4 : tensor<2x4x8x8xf32>) dimensions = [1, 2]
  %p3 = tensor.collapse_shape %pb [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
  %l = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %p3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    %r = arith.addf %y, %m : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %er = tensor.empty() : tensor<8x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<8x8xf32>) -> tensor<8x8xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%l : tensor<8x8x8xf32>) outs(%mi : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l, %max : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<8x8x8xf32>) outs(%zr : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %pr = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %sm: f32, %o: f32):
    %r = arith.divf %x, %sm : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %o1 = linalg.batch_matmul ins(%pr, %vr : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>

  // 2. Causal by a select of finfo.min, no GQA, P.V token-major [s, b*a, d].
  %l2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %future, %lowest, %y : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %pr2 = linalg.softmax dimension(2) ins(%l2 : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %o2 = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr2, %vr : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  return %o1, %o2 : tensor<8x8x8xf32>, tensor<8x8x8xf32>
}
