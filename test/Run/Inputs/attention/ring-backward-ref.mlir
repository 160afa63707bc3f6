// The single-device backward of causal GQA attention over all 8 tokens,
// written as an exporter writes it (the probabilities kept, softmax
// backward D = rowsum(P * dP), K/V repeated to the 4 query heads and their
// gradients summed back per K/V head); independent of the block ops.
#bhij_e = affine_map<(b, h, i, j, e) -> (b, h, i, e)>
#bhje_e = affine_map<(b, h, i, j, e) -> (b, h, j, e)>
#bhij = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row4 = affine_map<(b, h, i, j) -> (b, h, i)>
#rep = affine_map<(b, h, j, e) -> (b, h floordiv 2, j, e)>
// dK[b, g, j, e] = sum_r dKr[b, g, r, j, e] (heads viewed as [2, 2])
#grp_in = affine_map<(b, g, j, e, r) -> (b, g, r, j, e)>
#grp_out = affine_map<(b, g, j, e, r) -> (b, g, j, e)>
// out[b, h, j, e] = sum_i x[b, h, i, j] * y[b, h, i, e]
#t_x = affine_map<(b, h, j, e, i) -> (b, h, i, j)>
#t_y = affine_map<(b, h, j, e, i) -> (b, h, i, e)>
#t_o = affine_map<(b, h, j, e, i) -> (b, h, j, e)>
// out[b, h, i, e] = sum_j x[b, h, i, j] * y[b, h, j, e]
#n_x = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#n_y = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#n_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
func.func @forward(%q: tensor<1x4x8x8xf32>, %k: tensor<1x2x8x8xf32>, %v: tensor<1x2x8x8xf32>, %do: tensor<1x4x8x8xf32>)
    -> (tensor<1x4x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.35 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e4 = tensor.empty() : tensor<1x4x8x8xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e2 = tensor.empty() : tensor<1x2x8x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %er = tensor.empty() : tensor<1x4x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  // K, V repeated to the query heads.
  %kr = linalg.generic {indexing_maps = [#rep, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x8x8xf32>) outs(%e4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1x4x8x8xf32>
  %vr = linalg.generic {indexing_maps = [#rep, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x2x8x8xf32>) outs(%e4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1x4x8x8xf32>
  // P = softmax(scale * Q.K^T, causal).
  %s = linalg.generic {indexing_maps = [#bhij_e, #bhje_e, #bhij], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%z4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %l = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x8x8xf32>) outs(%e4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %scale : f32
    %r = arith.select %future, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%l : tensor<1x4x8x8xf32>) outs(%e4 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // dVr = P^T . dO, dP = dO . Vr^T.
  %dvr = linalg.generic {indexing_maps = [#t_x, #t_y, #t_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%z4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %dp = linalg.generic {indexing_maps = [#bhij_e, #bhje_e, #bhij], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %vr : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%z4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  // Softmax backward: dS = scale * P * (dP - rowsum(P * dP)).
  %d = linalg.generic {indexing_maps = [#id4, #id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %dp : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%zr : tensor<1x4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8xf32>
  %ds = linalg.generic {indexing_maps = [#id4, #id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %d : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8xf32>) outs(%e4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %c = arith.subf %y, %z : f32
    %m = arith.mulf %x, %c : f32
    %r = arith.mulf %m, %scale : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  // dQ = dS . Kr, dKr = dS^T . Q.
  %dq = linalg.generic {indexing_maps = [#n_x, #n_y, #n_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %kr : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%z4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %dkr = linalg.generic {indexing_maps = [#t_x, #t_y, #t_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%z4 : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  // Summed back per K/V head.
  %dkrg = tensor.expand_shape %dkr [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %dvrg = tensor.expand_shape %dvr [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %dk = linalg.generic {indexing_maps = [#grp_in, #grp_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%dkrg : tensor<1x2x2x8x8xf32>) outs(%z2 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %dv = linalg.generic {indexing_maps = [#grp_in, #grp_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%dvrg : tensor<1x2x2x8x8xf32>) outs(%z2 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  return %dq, %dk, %dv : tensor<1x4x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>
}
