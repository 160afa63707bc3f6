// Masks written by hand on Q, K, V held [b, s, a*d] (b = 2, s = 8, a = 4,
// d = 8; heads split by expand_shape + transpose), with an integer
// attention-mask input %m [b, s] (1: attend, 0: padding) as Hugging Face
// models take it. Every mask below stays an additive mask except the
// causal one proven as today:
//   1. key padding from the integer mask: (1 - float(m)) * -1e4, expanded to
//      [b, 1, 1, t] and added (separate generics, as torch-mlir lowers it);
//   2. key padding with finfo.min: select(m != 0, 0, finfo.min) [b, t],
//      broadcast to [b, 1, s, t];
//   3. causal and padding combined: [b, 1, s, t] from positions and m,
//      select(j <= i and m[b, j] != 0, 0, finfo.min);
//   4. a sliding window of 3 keys: [s, t] select(j <= i and j > i - 3, 0,
//      -inf);
//   5. the padding term (1 - float(m[b, j])) * -1e4 computed in the body of
//      the scale op (a fused generic);
//   6. the sliding window as a select of -inf in the body of the scale op;
//   7. causal by an additive [s, t] mask from positions (-1e9): the causal
//      flag.
#bsh = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#pad4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#keys4 = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#b1st = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#st = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
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
  // x * scale + mask, the mask read through `map`.
  func.func private @scale_add(%s: tensor<2x4x8x8xf32>, %mask: tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32> {
    %c = arith.constant 0.35355339 : f32
    %e = tensor.empty() : tensor<2x4x8x8xf32>
    %l = linalg.generic {indexing_maps = [#id4, #b1st, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x4x8x8xf32>, tensor<2x1x8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %m: f32, %o: f32):
      %y = arith.mulf %x, %c : f32
      %r = arith.addf %y, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    return %l : tensor<2x4x8x8xf32>
  }

  func.func @forward(%q: tensor<2x8x32xf32> {seqpar.seq_dim = 1 : i64},
                     %k: tensor<2x8x32xf32> {seqpar.seq_dim = 1 : i64},
                     %v: tensor<2x8x32xf32> {seqpar.seq_dim = 1 : i64},
                     %m: tensor<2x8xi64>)
      -> (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>) {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.35355339 : f32
    %big = arith.constant -1.0e4 : f32
    %lowest = arith.constant -3.40282347E+38 : f32
    %neg = arith.constant -1.0e9 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %z64 = arith.constant 0 : i64
    %c3 = arith.constant 3 : index
    %s = func.call @scores(%q, %k) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x4x8x8xf32>
    %e = tensor.empty() : tensor<2x4x8x8xf32>
    %e2 = tensor.empty() : tensor<2x8xf32>
    %eb = tensor.empty() : tensor<2x1x8x8xf32>

    // 1. (1 - float(m)) * -1e4, [b, 1, 1, t].
    %mf = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x8xi64>) outs(%e2 : tensor<2x8xf32>) {
    ^bb0(%x: i64, %o: f32):
      %f = arith.sitofp %x : i64 to f32
      linalg.yield %f : f32
    } -> tensor<2x8xf32>
    %inv = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%mf : tensor<2x8xf32>) outs(%e2 : tensor<2x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.subf %one, %x : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %pad = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%inv : tensor<2x8xf32>) outs(%e2 : tensor<2x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.mulf %x, %big : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %pad4 = tensor.expand_shape %pad [[0, 1, 2], [3]] output_shape [2, 1, 1, 8] : tensor<2x8xf32> into tensor<2x1x1x8xf32>
    %sc1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.mulf %x, %c : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %l1 = linalg.generic {indexing_maps = [#id4, #pad4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc1, %pad4 : tensor<2x4x8x8xf32>, tensor<2x1x1x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %pm: f32, %o: f32):
      %r = arith.addf %x, %pm : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %o1 = func.call @weigh(%l1, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 2. select(m != 0, 0, finfo.min), broadcast to [b, 1, s, t].
    %minf = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x8xi64>) outs(%e2 : tensor<2x8xf32>) {
    ^bb0(%x: i64, %o: f32):
      %keep = arith.cmpi ne, %x, %z64 : i64
      %r = arith.select %keep, %zero, %lowest : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %minf4 = linalg.broadcast ins(%minf : tensor<2x8xf32>) outs(%eb : tensor<2x1x8x8xf32>) dimensions = [1, 2]
    %l2 = func.call @scale_add(%s, %minf4) : (tensor<2x4x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
    %o2 = func.call @weigh(%l2, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 3. causal and padding in one [b, 1, s, t] mask.
    %both = linalg.generic {indexing_maps = [#keys4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m : tensor<2x8xi64>) outs(%eb : tensor<2x1x8x8xf32>) {
    ^bb0(%x: i64, %o: f32):
      %i = linalg.index 2 : index
      %j = linalg.index 3 : index
      %past = arith.cmpi ule, %j, %i : index
      %keep = arith.cmpi ne, %x, %z64 : i64
      %vis = arith.andi %past, %keep : i1
      %r = arith.select %vis, %zero, %lowest : f32
      linalg.yield %r : f32
    } -> tensor<2x1x8x8xf32>
    %l3 = func.call @scale_add(%s, %both) : (tensor<2x4x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
    %o3 = func.call @weigh(%l3, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 4. a sliding window of 3 keys, [s, t] from positions.
    %e88 = tensor.empty() : tensor<8x8xf32>
    %win = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e88 : tensor<8x8xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %past = arith.cmpi ule, %j, %i : index
      %j3 = arith.addi %j, %c3 : index
      %near = arith.cmpi ugt, %j3, %i : index
      %vis = arith.andi %past, %near : i1
      %r = arith.select %vis, %zero, %ninf : f32
      linalg.yield %r : f32
    } -> tensor<8x8xf32>
    %l4 = linalg.generic {indexing_maps = [#id4, #st, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc1, %win : tensor<2x4x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %w: f32, %o: f32):
      %r = arith.addf %x, %w : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %o4 = func.call @weigh(%l4, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 5. the padding term computed in the scale op's body.
    %l5 = linalg.generic {indexing_maps = [#id4, #keys4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x4x8x8xf32>, tensor<2x8xi64>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %mi: i64, %o: f32):
      %y = arith.mulf %x, %c : f32
      %f = arith.sitofp %mi : i64 to f32
      %iv = arith.subf %one, %f : f32
      %t = arith.mulf %iv, %big : f32
      %r = arith.addf %y, %t : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %o5 = func.call @weigh(%l5, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 6. the sliding window as a select of -inf in the scale op's body.
    %l6 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %i = linalg.index 2 : index
      %j = linalg.index 3 : index
      %future = arith.cmpi ugt, %j, %i : index
      %j3 = arith.addi %j, %c3 : index
      %far = arith.cmpi ule, %j3, %i : index
      %hide = arith.ori %future, %far : i1
      %y = arith.mulf %x, %c : f32
      %r = arith.select %hide, %ninf, %y : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %o6 = func.call @weigh(%l6, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

    // 7. causal, additive [s, t] of -1e9 from positions: the causal flag.
    %cm = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e88 : tensor<8x8xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %past = arith.cmpi ule, %j, %i : index
      %r = arith.select %past, %zero, %neg : f32
      linalg.yield %r : f32
    } -> tensor<8x8xf32>
    %l7 = linalg.generic {indexing_maps = [#id4, #st, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc1, %cm : tensor<2x4x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<2x4x8x8xf32>) {
    ^bb0(%x: f32, %w: f32, %o: f32):
      %r = arith.addf %x, %w : f32
      linalg.yield %r : f32
    } -> tensor<2x4x8x8xf32>
    %o7 = func.call @weigh(%l7, %v) : (tensor<2x4x8x8xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    return %o1, %o2, %o3, %o4, %o5, %o6, %o7 : tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>
  }
}
