// Attention written by hand in four output layouts on token-major Q, K, V
// [b, s, a, d] (b = 2, s = 8, a = 4, d = 8), causal by a select of -1e9:
//   @out_bsad: P.V's output map puts the sequence before the heads,
//              [b, s, a, d] (a JAX-style einsum "bhqk,bkhd->bqhd");
//   @out_badt: V^T.P^T, the result [b, a, d, s] (the head dim first);
//   @out_sbad: [s, b, a, d] (Megatron's sequence-first layout);
//   logits as K.Q^T into a [b, a, s, t] result (K the first operand);
//   @out_absd: P.V over batch loops (h, b), the result [a, b, s, d].
#q = affine_map<(b, h, i, j, e) -> (b, i, h, e)>
#k = affine_map<(b, h, i, j, e) -> (b, j, h, e)>
#s = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#kq_k = affine_map<(b, h, j, i, e) -> (b, j, h, e)>
#kq_q = affine_map<(b, h, j, i, e) -> (b, i, h, e)>
#kq_s = affine_map<(b, h, j, i, e) -> (b, h, i, j)>
#p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, j, h, e)>
#o_bsad = affine_map<(b, h, i, e, j) -> (b, i, h, e)>
#o_sbad = affine_map<(b, h, i, e, j) -> (i, b, h, e)>
#vt_v = affine_map<(b, h, e, i, j) -> (b, j, h, e)>
#vt_p = affine_map<(b, h, e, i, j) -> (b, h, i, j)>
#vt_o = affine_map<(b, h, e, i, j) -> (b, h, e, i)>
#hb_p = affine_map<(h, b, i, e, j) -> (b, h, i, j)>
#hb_v = affine_map<(h, b, i, e, j) -> (b, j, h, e)>
#hb_o = affine_map<(h, b, i, e, j) -> (h, b, i, e)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @forward(%q: tensor<2x8x4x8xf32> {seqpar.seq_dim = 1 : i64}, %k: tensor<2x8x4x8xf32> {seqpar.seq_dim = 1 : i64}, %v: tensor<2x8x4x8xf32> {seqpar.seq_dim = 1 : i64}) -> (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<8x2x4x8xf32>, tensor<4x2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.35355339 : f32
  %neg = arith.constant -1.0e9 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<2x4x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  // Q.K^T, and K.Q^T with K as the first operand.
  %s1 = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) outs(%zs : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %s2 = linalg.generic {indexing_maps = [#kq_k, #kq_q, #kq_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%k, %q : tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) outs(%zs : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %l1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %future, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %l2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2 : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %future, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %p1 = linalg.softmax dimension(3) ins(%l1 : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %p2 = linalg.softmax dimension(3) ins(%l2 : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  // [b, s, a, d]
  %e1 = tensor.empty() : tensor<2x8x4x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
  %o1 = linalg.generic {indexing_maps = [#p, #v, #o_bsad], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p1, %v : tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) outs(%z1 : tensor<2x8x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x4x8xf32>
  // V^T.P^T: [b, a, d, s]
  %z2 = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o2 = linalg.generic {indexing_maps = [#vt_v, #vt_p, #vt_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%v, %p2 : tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>) outs(%z2 : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  // [s, b, a, d] from the first probabilities again (a second consumer).
  %e3 = tensor.empty() : tensor<8x2x4x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x2x4x8xf32>) -> tensor<8x2x4x8xf32>
  %p3 = linalg.softmax dimension(3) ins(%l1 : tensor<2x4x8x8xf32>) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o3 = linalg.generic {indexing_maps = [#p, #v, #o_sbad], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p3, %v : tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) outs(%z3 : tensor<8x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<8x2x4x8xf32>
  // [a, b, s, d] over batch loops (h, b).
  %e4 = tensor.empty() : tensor<4x2x8x8xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
  %o4 = linalg.generic {indexing_maps = [#hb_p, #hb_v, #hb_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p2, %v : tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) outs(%z4 : tensor<4x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x2x8x8xf32>
  return %o1, %o2, %o3, %o4 : tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>, tensor<8x2x4x8xf32>, tensor<4x2x8x8xf32>
}
