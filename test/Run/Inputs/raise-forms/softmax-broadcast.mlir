// Softmax row statistics materialised over the row before use, and exp
// written as exp2(t * log2(e)), on head-major Q, K, V [b, a, s, d]
// (b = 2, a = 4, s = 8, d = 8; the sequence is dim 2), scores from
// linalg.batch_matmul on [b*a, s, d] with K^T a linalg.transpose:
//   1. named ops as stablehlo-legalize-to-linalg writes them: the row max
//      and the row sum each through linalg.broadcast, sub / exp / div as
//      linalg.elementwise; causal by an additive [s, t] table;
//   2. the keepdim [.., 1] row max broadcast by a generic and read by
//      identity in the x - max and exp op; the row sum collapsed from
//      [.., 1], broadcast by linalg.broadcast, its reciprocal over the
//      whole tensor, multiplied; not causal;
//   3. exp2((x - max) * log2(e)) in one body, / sum through a row map;
//      causal by a select of -1e9;
//   4. x - broadcast max, times a splat of log2(e), exp2 in an op of its
//      own, / broadcast sum, every step a named op or a one-op generic.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#table = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @forward(%q: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                   %k: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64},
                   %v: tensor<2x4x8x8xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.35355339 : f32
  %neg = arith.constant -1.0e9 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %l2e = arith.constant 1.44269504 : f32
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
  %mi1 = linalg.fill ins(%ninf : f32) outs(%er1 : tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
  %zr1 = linalg.fill ins(%zero : f32) outs(%er1 : tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
  %cs = linalg.fill ins(%c : f32) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>

  // 1. named ops, both row values through linalg.broadcast; causal.
  %sc1 = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%s, %cs : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %l1 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [#id3, #table, #id3] ins(%sc1, %causal : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %m1 = linalg.reduce ins(%l1 : tensor<8x8x8xf32>) outs(%mi : tensor<8x8xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %m1b = linalg.broadcast ins(%m1 : tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) dimensions = [2]
  %sh1 = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%l1, %m1b : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %ex1 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%sh1 : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %s1 = linalg.reduce ins(%ex1 : tensor<8x8x8xf32>) outs(%zr : tensor<8x8xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %s1b = linalg.broadcast ins(%s1 : tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) dimensions = [2]
  %p1 = linalg.elementwise kind=#linalg.elementwise_kind<div> ins(%ex1, %s1b : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %o1 = linalg.batch_matmul ins(%p1, %v3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>

  // 2. keepdim max broadcast by a generic; sum collapsed, broadcast, its
  // reciprocal over the whole tensor; not causal.
  %l2 = linalg.mul ins(%s, %cs : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %m2 = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%l2 : tensor<8x8x8xf32>) outs(%mi1 : tensor<8x8x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maxnumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8x1xf32>
  %m2b = linalg.generic {indexing_maps = [#keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m2 : tensor<8x8x1xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8x8x8xf32>
  %ex2 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l2, %m2b : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %s2 = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex2 : tensor<8x8x8xf32>) outs(%zr1 : tensor<8x8x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8x1xf32>
  %s2c = tensor.collapse_shape %s2 [[0], [1, 2]] : tensor<8x8x1xf32> into tensor<8x8xf32>
  %s2b = linalg.broadcast ins(%s2c : tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) dimensions = [2]
  %inv2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s2b : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %one, %x : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %p2 = linalg.mul ins(%inv2, %ex2 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %o2 = linalg.batch_matmul ins(%p2, %v3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>

  // 3. exp2((x - max) * log2(e)) in one body; causal by a select.
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
    %d2 = arith.mulf %d, %l2e : f32
    %r = math.exp2 %d2 : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %s3 = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex3 : tensor<8x8x8xf32>) outs(%zr : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %p3 = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex3, %s3 : tensor<8x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %sm: f32, %o: f32):
    %r = arith.divf %x, %sm : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>

  // 4. exp2 of x - broadcast max times a splat of log2(e), each its own
  // op; / broadcast sum; not causal.
  %l2es = linalg.fill ins(%l2e : f32) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %m4 = linalg.reduce ins(%l2 : tensor<8x8x8xf32>) outs(%mi : tensor<8x8xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %m4b = linalg.broadcast ins(%m4 : tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) dimensions = [2]
  %sh4 = linalg.sub ins(%l2, %m4b : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %t4 = linalg.mul ins(%sh4, %l2es : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %ex4 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t4 : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp2 %x : f32
    linalg.yield %r : f32
  } -> tensor<8x8x8xf32>
  %s4 = linalg.reduce ins(%ex4 : tensor<8x8x8xf32>) outs(%zr : tensor<8x8xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %s4b = linalg.broadcast ins(%s4 : tensor<8x8xf32>) outs(%e : tensor<8x8x8xf32>) dimensions = [2]
  %p4 = linalg.div ins(%ex4, %s4b : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %o4 = linalg.batch_matmul ins(%p4, %v3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  return %o1, %o2, %o3, %o4 : tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>
}
