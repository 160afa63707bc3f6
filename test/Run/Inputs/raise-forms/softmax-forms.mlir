// Softmax written three more ways, on head-major Q, K, V [b, a, s, d]
// (b = 2, a = 4, s = 8, d = 8; the sequence is dim 2), scores from
// linalg.batch_matmul on [b*a, s, d] with K^T a linalg.transpose:
//   1. log-sum-exp: exp(x - (m + log(sum(exp(x - m))))), the row max a
//      linalg.reduce kept as [.., 1] by expand_shape, m + log(sum) in one
//      op; causal by an additive [s, t] constant table of 0 / -inf;
//   2. exp of torch's log_softmax: exp((x - m) - log(sum(exp(x - m)))),
//      each step its own generic, log(sum) too; not causal;
//   3. e * (1 / sum) with the reciprocal inside the multiplying op's body;
//      causal by a select of -1e9 in the scale op.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#table = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @forward(%q: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                   %k: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                   %v: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.35355339 : f32
  %neg = arith.constant -1.0e9 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %causal = arith.constant dense<[
    [0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
    [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
    [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
    [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<8x8xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
  %e = tensor.empty() : tensor<8x8x8xf32>
  %kt = linalg.transpose ins(%k3 : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) permutation = [0, 2, 1]
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %s = linalg.batch_matmul ins(%q3, %kt : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %er = tensor.empty() : tensor<8x8xf32>
  %er1 = tensor.empty() : tensor<8x8x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<8x8xf32>) -> tensor<8x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<8x8xf32>) -> tensor<8x8xf32>

  // 1. log-sum-exp, causal by the table.
  %l1 = linalg.generic {indexing_maps = [#id3, #table, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %causal : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    %r = arith.addf %y, %m : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %m1 = linalg.reduce ins(%l1 : tensor<8x8x8xf32>) outs(%mi : tensor<8x8xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %m1k = tensor.expand_shape %m1 [[0], [1, 2]] output_shape [8, 8, 1] : tensor<8x8xf32> into tensor<8x8x1xf32>
  %ex1 = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l1, %m1k : tensor<8x8x8xf32>, tensor<8x8x1xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %s1 = linalg.reduce ins(%ex1 : tensor<8x8x8xf32>) outs(%zr : tensor<8x8xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %s1k = tensor.expand_shape %s1 [[0], [1, 2]] output_shape [8, 8, 1] : tensor<8x8xf32> into tensor<8x8x1xf32>
  %lse = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m1k, %s1k : tensor<8x8x1xf32>, tensor<8x8x1xf32>) outs(%er1 : tensor<8x8x1xf32>) {
  ^bb0(%mx: f32, %sm: f32, %o: f32):
    %lg = math.log %sm : f32
    %r = arith.addf %mx, %lg : f32
    linalg.yield %r : f32
  } -> tensor<8x8x1xf32>
  %p1 = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l1, %lse : tensor<8x8x8xf32>, tensor<8x8x1xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %ls: f32, %o: f32):
    %d = arith.subf %x, %ls : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %o1 = linalg.batch_matmul ins(%p1, %v3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>

  // 2. exp(log_softmax), every step its own op; not causal.
  %l2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %m2 = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%l2 : tensor<8x8x8xf32>) outs(%mi : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maxnumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %sh2 = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l2, %m2 : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %r = arith.subf %x, %mx : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %ex2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh2 : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %s2 = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex2 : tensor<8x8x8xf32>) outs(%zr : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %ls2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s2 : tensor<8x8xf32>) outs(%er : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.log %x : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %lsm = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh2, %ls2 : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %ls: f32, %o: f32):
    %r = arith.subf %x, %ls : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %p2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lsm : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %o2 = linalg.batch_matmul ins(%p2, %v3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>

  // 3. e * (1 / sum), the reciprocal in the multiplying op's body; causal
  // by a select.
  %l3 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %future, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %m3 = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%l3 : tensor<8x8x8xf32>) outs(%mi : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %ex3 = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l3, %m3 : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %s3 = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex3 : tensor<8x8x8xf32>) outs(%zr : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %p3 = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex3, %s3 : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %sm: f32, %o: f32):
    %inv = arith.divf %one, %sm : f32
    %r = arith.mulf %inv, %x : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  return %o1, %o2, %o3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>
}
