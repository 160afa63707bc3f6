// Two attention layers whose K/V heads t does not divide, hand-written with
// PyTorch [out, in] weights and linears on the flattened [b*s, h] activation
// (b = 2, s = 8, h = 32):
//   @layer A: MQA, a = 4 heads of d = 8, one K/V head;
//   @layer B: GQA, a = 8 heads of d = 4, a_kv = 2.
// K/V repeated by broadcast + collapse, causal by a select of -inf,
// softmax as linalg.softmax on [b*a, s, t], P.V written token-major.
// Under TP the K/V projections stay replicated (narrower than t heads) and
// each rank slices its a/t query heads' K/V out of the repeated tensor.
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, i, h, e)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#lin = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
module {
  // x . W^T on [16, in] -> [16, out].
  func.func private @linear32(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>) -> tensor<16x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x32xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
    return %y : tensor<16x32xf32>
  }
  func.func private @linear8(%x: tensor<16x32xf32>, %w: tensor<8x32xf32>) -> tensor<16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
    %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<16x32xf32>, tensor<8x32xf32>) outs(%z : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %y : tensor<16x8xf32>
  }
  // softmax(scale * Q.K^T, causal) . V on [b*a, s, d], out [b, s, a, d].
  func.func private @core4x8(%q: tensor<2x4x8x8xf32>, %k: tensor<2x4x8x8xf32>, %v: tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32> {
    %zero = arith.constant 0.0 : f32
    %c = arith.constant 0.35355339 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %e3 = tensor.empty() : tensor<8x8x8xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%z3 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %l = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x8x8xf32>) outs(%e3 : tensor<8x8x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %vis = arith.cmpi ule, %j, %i : index
      %y = arith.mulf %x, %c : f32
      %r = arith.select %vis, %y, %ninf : f32
      linalg.yield %r : f32
    } -> tensor<8x8x8xf32>
    %p3 = linalg.softmax dimension(2) ins(%l : tensor<8x8x8xf32>) outs(%e3 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %p = tensor.expand_shape %p3 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %eo = tensor.empty() : tensor<2x8x4x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
    %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) outs(%zo : tensor<2x8x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x8x4x8xf32>
    return %o : tensor<2x8x4x8xf32>
  }
  func.func private @core8x4(%q: tensor<2x8x8x4xf32>, %k: tensor<2x8x8x4xf32>, %v: tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32> {
    %zero = arith.constant 0.0 : f32
    %c = arith.constant 0.5 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x8x8x4xf32> into tensor<16x8x4xf32>
    %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x8x8x4xf32> into tensor<16x8x4xf32>
    %e3 = tensor.empty() : tensor<16x8x8xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<16x8x4xf32>, tensor<16x8x4xf32>) outs(%z3 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %l = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<16x8x8xf32>) outs(%e3 : tensor<16x8x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %vis = arith.cmpi ule, %j, %i : index
      %y = arith.mulf %x, %c : f32
      %r = arith.select %vis, %y, %ninf : f32
      linalg.yield %r : f32
    } -> tensor<16x8x8xf32>
    %p3 = linalg.softmax dimension(2) ins(%l : tensor<16x8x8xf32>) outs(%e3 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %p = tensor.expand_shape %p3 [[0, 1], [2], [3]] output_shape [2, 8, 8, 8] : tensor<16x8x8xf32> into tensor<2x8x8x8xf32>
    %eo = tensor.empty() : tensor<2x8x8x4xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x8x8x8xf32>, tensor<2x8x8x4xf32>) outs(%zo : tensor<2x8x8x4xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x8x8x4xf32>
    return %o : tensor<2x8x8x4xf32>
  }

  func.func @forward(%x: tensor<2x8x32xf32>,
                     %wq_a: tensor<32x32xf32>, %wk_a: tensor<8x32xf32>, %wv_a: tensor<8x32xf32>, %wo_a: tensor<32x32xf32>,
                     %wq_b: tensor<32x32xf32>, %wk_b: tensor<8x32xf32>, %wv_b: tensor<8x32xf32>, %wo_b: tensor<32x32xf32>) -> tensor<2x8x32xf32> {
    // Layer A: MQA.
    %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %qa = func.call @linear32(%xf, %wq_a) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %ka = func.call @linear8(%xf, %wk_a) : (tensor<16x32xf32>, tensor<8x32xf32>) -> tensor<16x8xf32>
    %va = func.call @linear8(%xf, %wv_a) : (tensor<16x32xf32>, tensor<8x32xf32>) -> tensor<16x8xf32>
    %qa4 = tensor.expand_shape %qa [[0, 1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<16x32xf32> into tensor<2x8x4x8xf32>
    %ka4 = tensor.expand_shape %ka [[0, 1], [2, 3]] output_shape [2, 8, 1, 8] : tensor<16x8xf32> into tensor<2x8x1x8xf32>
    %va4 = tensor.expand_shape %va [[0, 1], [2, 3]] output_shape [2, 8, 1, 8] : tensor<16x8xf32> into tensor<2x8x1x8xf32>
    %eq = tensor.empty() : tensor<2x4x8x8xf32>
    %ek = tensor.empty() : tensor<2x1x8x8xf32>
    %qah = linalg.transpose ins(%qa4 : tensor<2x8x4x8xf32>) outs(%eq : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %kah = linalg.transpose ins(%ka4 : tensor<2x8x1x8xf32>) outs(%ek : tensor<2x1x8x8xf32>) permutation = [0, 2, 1, 3]
    %vah = linalg.transpose ins(%va4 : tensor<2x8x1x8xf32>) outs(%ek : tensor<2x1x8x8xf32>) permutation = [0, 2, 1, 3]
    %e5a = tensor.empty() : tensor<2x1x4x8x8xf32>
    %kab = linalg.broadcast ins(%kah : tensor<2x1x8x8xf32>) outs(%e5a : tensor<2x1x4x8x8xf32>) dimensions = [2]
    %vab = linalg.broadcast ins(%vah : tensor<2x1x8x8xf32>) outs(%e5a : tensor<2x1x4x8x8xf32>) dimensions = [2]
    %kar = tensor.collapse_shape %kab [[0], [1, 2], [3], [4]] : tensor<2x1x4x8x8xf32> into tensor<2x4x8x8xf32>
    %var = tensor.collapse_shape %vab [[0], [1, 2], [3], [4]] : tensor<2x1x4x8x8xf32> into tensor<2x4x8x8xf32>
    %oa = func.call @core4x8(%qah, %kar, %var) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %oaf = tensor.collapse_shape %oa [[0, 1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<16x32xf32>
    %pa = func.call @linear32(%oaf, %wo_a) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %ea = tensor.empty() : tensor<16x32xf32>
    %ha = linalg.add ins(%xf, %pa : tensor<16x32xf32>, tensor<16x32xf32>) outs(%ea : tensor<16x32xf32>) -> tensor<16x32xf32>

    // Layer B: GQA 8 / 2.
    %qb = func.call @linear32(%ha, %wq_b) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %kb = func.call @linear8(%ha, %wk_b) : (tensor<16x32xf32>, tensor<8x32xf32>) -> tensor<16x8xf32>
    %vb = func.call @linear8(%ha, %wv_b) : (tensor<16x32xf32>, tensor<8x32xf32>) -> tensor<16x8xf32>
    %qb4 = tensor.expand_shape %qb [[0, 1], [2, 3]] output_shape [2, 8, 8, 4] : tensor<16x32xf32> into tensor<2x8x8x4xf32>
    %kb4 = tensor.expand_shape %kb [[0, 1], [2, 3]] output_shape [2, 8, 2, 4] : tensor<16x8xf32> into tensor<2x8x2x4xf32>
    %vb4 = tensor.expand_shape %vb [[0, 1], [2, 3]] output_shape [2, 8, 2, 4] : tensor<16x8xf32> into tensor<2x8x2x4xf32>
    %eqb = tensor.empty() : tensor<2x8x8x4xf32>
    %ekb = tensor.empty() : tensor<2x2x8x4xf32>
    %qbh = linalg.transpose ins(%qb4 : tensor<2x8x8x4xf32>) outs(%eqb : tensor<2x8x8x4xf32>) permutation = [0, 2, 1, 3]
    %kbh = linalg.transpose ins(%kb4 : tensor<2x8x2x4xf32>) outs(%ekb : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %vbh = linalg.transpose ins(%vb4 : tensor<2x8x2x4xf32>) outs(%ekb : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %e5b = tensor.empty() : tensor<2x2x4x8x4xf32>
    %kbb = linalg.broadcast ins(%kbh : tensor<2x2x8x4xf32>) outs(%e5b : tensor<2x2x4x8x4xf32>) dimensions = [2]
    %vbb = linalg.broadcast ins(%vbh : tensor<2x2x8x4xf32>) outs(%e5b : tensor<2x2x4x8x4xf32>) dimensions = [2]
    %kbr = tensor.collapse_shape %kbb [[0], [1, 2], [3], [4]] : tensor<2x2x4x8x4xf32> into tensor<2x8x8x4xf32>
    %vbr = tensor.collapse_shape %vbb [[0], [1, 2], [3], [4]] : tensor<2x2x4x8x4xf32> into tensor<2x8x8x4xf32>
    %ob = func.call @core8x4(%qbh, %kbr, %vbr) : (tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
    %obf = tensor.collapse_shape %ob [[0, 1], [2, 3]] : tensor<2x8x8x4xf32> into tensor<16x32xf32>
    %pb = func.call @linear32(%obf, %wo_b) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %hb = linalg.add ins(%ha, %pb : tensor<16x32xf32>, tensor<16x32xf32>) outs(%ea : tensor<16x32xf32>) -> tensor<16x32xf32>
    %out = tensor.expand_shape %hb [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    return %out : tensor<2x8x32xf32>
  }
}
