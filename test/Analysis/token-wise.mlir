// RUN: seqpar-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(seqpar-test-token-wise))'

// Tests LayerNorm-style ops: a keepdim reduction over h (constant-index map)
// and a broadcast back are token-wise along s; the matmul with a weight too.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#h = affine_map<(d0, d1, d2) -> (d2)>
func.func @layernorm_like(%x: tensor<2x8x16xf32> {seqpar.seq_dim = 1 : i64}, %g: tensor<16xf32>, %w: tensor<16x4xf32>) -> tensor<2x8x4xf32> {
  // expected-remark @below {{no sequence dim}}
  %e1 = tensor.empty() : tensor<2x8x1xf32>
  // expected-remark @below {{token-wise along dim 1, loop d1}}
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x8x16xf32>) outs(%e1 : tensor<2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x8x1xf32>
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<2x8x16xf32>
  // expected-remark @below {{token-wise along dim 1, loop d1}}
  %y = linalg.generic {indexing_maps = [#id, #keep, #h, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum, %g : tensor<2x8x16xf32>, tensor<2x8x1xf32>, tensor<16xf32>) outs(%e : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %m: f32, %gg: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = arith.mulf %d, %gg : f32
    linalg.yield %r : f32
  } -> tensor<2x8x16xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %z = math.tanh %y : tensor<2x8x16xf32>
  // expected-remark @below {{no sequence dim}}
  %e2 = tensor.empty() : tensor<2x8x4xf32>
  // expected-remark @below {{token-wise along dim 1, loop d1}}
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%z, %w : tensor<2x8x16xf32>, tensor<16x4xf32>) outs(%e2 : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x4xf32>
  return %out : tensor<2x8x4xf32>
}

// -----

// Tests that a reduction over the sequence is not token-wise.

func.func @reduce_over_s(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<16xf32> {
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<16xf32>
  // expected-remark @below {{not token-wise: reduces over the sequence (loop d1)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Tests that Q.K^T reads other tokens: the scores keep the query dim.

func.func @scores(%q: tensor<4x8x16xf32> {seqpar.seq_dim = 1 : i64}, %k: tensor<4x8x16xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<4x8x8xf32> {
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<4x16x8xf32>
  // expected-remark @below {{token-wise along dim 2, loop d2}}
  %kt = linalg.transpose ins(%k : tensor<4x8x16xf32>) outs(%e : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  // expected-remark @below {{no sequence dim}}
  %e2 = tensor.empty() : tensor<4x8x8xf32>
  // expected-remark @below {{not token-wise: operand #1 reads other tokens (its sequence dim follows loop d2, not d1)}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%e2 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %sm = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e2 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %sm : tensor<4x8x8xf32>
}

// -----

// Tests that the logits written K.Q^T (K the first operand) still carry the
// queries' dim, the outermost token dim their result keeps, and that P.V
// written V^T.P^T (V the first operand, its tokens on the reduced loop)
// keeps the queries' dim of P: an attention left unraised in these forms
// hands the sequence on to what follows it.

#k = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#q = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#s = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1)>
func.func @scores_kq(%q: tensor<4x8x16xf32> {seqpar.seq_dim = 1 : i64}, %k: tensor<4x8x16xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<4x8x8xf32> {
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<4x8x8xf32>
  // expected-remark @below {{not token-wise: operand #0 reads other tokens (its sequence dim follows loop d1, not d2)}}
  %s = linalg.generic {indexing_maps = [#k, #q, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%k, %q : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %sm = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %sm : tensor<4x8x8xf32>
}

// -----

#v = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
#p = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#o = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @pv_vt(%p: tensor<4x8x8xf32> {seqpar.seq_dim = 1 : i64}, %v: tensor<4x8x16xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<4x16x8xf32> {
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<4x16x8xf32>
  // expected-remark @below {{not token-wise: operand #0 reads other tokens (its sequence dim follows loop d3, not d2)}}
  %o = linalg.generic {indexing_maps = [#v, #p, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%v, %p : tensor<4x8x16xf32>, tensor<4x8x8xf32>) outs(%e : tensor<4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x16x8xf32>
  // expected-remark @below {{token-wise along dim 2}}
  %t = math.tanh %o : tensor<4x16x8xf32>
  return %t : tensor<4x16x8xf32>
}

// -----

// Tests flattening [b, s, h] -> [b*s, h] and back, and head reshapes.

func.func @flatten(%x: tensor<2x8x16xf32> {seqpar.seq_dim = 1 : i64}, %y: tensor<8x2x16xf32> {seqpar.seq_dim = 0 : i64}) -> (tensor<2x8x4x4xf32>, tensor<16x16xf32>) {
  // expected-remark @below {{token-wise along dim 0 (flattened: outer 2, inner 1)}}
  %f = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %u = tensor.expand_shape %f [[0, 1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<16x16xf32> into tensor<2x8x4x4xf32>
  // expected-remark @below {{token-wise along dim 0 (flattened: outer 1, inner 2)}}
  %g = tensor.collapse_shape %y [[0, 1], [2]] : tensor<8x2x16xf32> into tensor<16x16xf32>
  return %u, %g : tensor<2x8x4x4xf32>, tensor<16x16xf32>
}

// -----

// Tests that a reshape splitting the sequence across dims is not token-wise.

func.func @split_sequence(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<2x4x16xf32> {
  // expected-remark @below {{not token-wise: splits the sequence across several dims}}
  %u = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 4, 16] : tensor<8x16xf32> into tensor<2x4x16xf32>
  return %u : tensor<2x4x16xf32>
}

// -----

// Tests slices: along h (fused QKV split) token-wise; along s not.

func.func @slices(%x: tensor<2x8x48xf32> {seqpar.seq_dim = 1 : i64}) -> (tensor<2x8x16xf32>, tensor<2x7x48xf32>, tensor<8x16xf32>) {
  // expected-remark @below {{token-wise along dim 1}}
  %q = tensor.extract_slice %x[0, 0, 16] [2, 8, 16] [1, 1, 1] : tensor<2x8x48xf32> to tensor<2x8x16xf32>
  // expected-remark @below {{not token-wise: slices the sequence dim 1}}
  %shift = tensor.extract_slice %x[0, 1, 0] [2, 7, 48] [1, 1, 1] : tensor<2x8x48xf32> to tensor<2x7x48xf32>
  // expected-remark @below {{token-wise along dim 0}}
  %r = tensor.extract_slice %x[1, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<2x8x48xf32> to tensor<8x16xf32>
  return %q, %shift, %r : tensor<2x8x16xf32>, tensor<2x7x48xf32>, tensor<8x16xf32>
}

// -----

// Tests that reading positions of the sequence loop is flagged, and that a
// position along another dim is not.

func.func @positions(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<8x16xf32>
  // expected-remark @below {{token-wise along dim 0, loop d0, position-dependent}}
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.mulf %a, %f : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  // expected-remark @below {{token-wise along dim 0, loop d0}}
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.mulf %a, %f : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %p, %q : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Tests ops without a rule and tosa broadcasting ops.

func.func private @timer(tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @unknown(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %b: tensor<1x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // expected-remark @below {{unknown: has no token-wise rule for 'func.call'}}
  %t = func.call @timer(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-remark @below {{token-wise along dim 0}}
  %a = tosa.add %x, %b : (tensor<8x16xf32>, tensor<1x16xf32>) -> tensor<8x16xf32>
  return %t, %a : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Tests Megatron's [s, b, h] activations meeting a [b, s] per-token tensor:
// both follow loop d0 through different dims, which is token-wise.

func.func @sbh_with_bs(%x: tensor<8x2x4xf32> {seqpar.seq_dim = 0 : i64}, %m: tensor<2x8xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<8x2x4xf32> {
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<8x2x4xf32>
  // expected-remark @below {{token-wise along dim 0, loop d0}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m : tensor<8x2x4xf32>, tensor<2x8xf32>) outs(%e : tensor<8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x2x4xf32>
  return %y : tensor<8x2x4xf32>
}

// -----

// Tests tensor.pad: padding the hidden dim is token-wise, padding the
// sequence is not.

func.func @pads(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> (tensor<8x20xf32>, tensor<10x16xf32>) {
  // expected-remark @below {{no sequence dim}}
  %z = arith.constant 0.0 : f32
  // expected-remark @below {{token-wise along dim 0}}
  %h = tensor.pad %x low[0, 2] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<8x16xf32> to tensor<8x20xf32>
  // expected-remark @below {{not token-wise: pads the sequence dim}}
  %s = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<8x16xf32> to tensor<10x16xf32>
  return %h, %s : tensor<8x20xf32>, tensor<10x16xf32>
}

// -----

// Tests the tosa rules: transpose follows the permutation, reshape keeps the
// sequence digit whole or splits it, reductions along h are token-wise, and
// a matmul is token-wise along the rows of A.

func.func @tosa_ops(%x: tensor<1x8x16xf32> {seqpar.seq_dim = 1 : i64}, %w: tensor<1x16x4xf32>) -> (tensor<1x16x8xf32>, tensor<8x16xf32>, tensor<1x2x4x16xf32>, tensor<1x8x1xf32>, tensor<1x1x16xf32>, tensor<1x8x4xf32>) {
  // expected-remark @below {{token-wise along dim 2}}
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 1>} : (tensor<1x8x16xf32>) -> tensor<1x16x8xf32>
  // expected-remark @below {{no sequence dim}}
  %s1 = tosa.const_shape {values = dense<[8, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @below {{token-wise along dim 0}}
  %r = tosa.reshape %x, %s1 : (tensor<1x8x16xf32>, !tosa.shape<2>) -> tensor<8x16xf32>
  // expected-remark @below {{no sequence dim}}
  %s2 = tosa.const_shape {values = dense<[1, 2, 4, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // expected-remark @below {{not token-wise: splits the sequence across several dims}}
  %q = tosa.reshape %x, %s2 : (tensor<1x8x16xf32>, !tosa.shape<4>) -> tensor<1x2x4x16xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<1x8x16xf32>) -> tensor<1x8x1xf32>
  // expected-remark @below {{not token-wise: reduces over the sequence}}
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<1x8x16xf32>) -> tensor<1x1x16xf32>
  // expected-remark @below {{no sequence dim}}
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x4xf32>
  return %t, %r, %q, %m, %sum, %mm : tensor<1x16x8xf32>, tensor<8x16xf32>, tensor<1x2x4x16xf32>, tensor<1x8x1xf32>, tensor<1x1x16xf32>, tensor<1x8x4xf32>
}

// -----

// Tests that reading single elements by index needs all tokens.

func.func @extract(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %i: index) -> f32 {
  // expected-remark @below {{not token-wise: reads single elements by index}}
  %e = tensor.extract %x[%i, %i] : tensor<8x16xf32>
  return %e : f32
}

// -----

// Tests inserts (tosa.concat on the feature dim lowers to them): a slice
// spanning the whole sequence is token-wise, one covering part of it is not.

func.func @inserts(%x: tensor<2x8x16xf32> {seqpar.seq_dim = 1 : i64}) -> (tensor<2x8x32xf32>, tensor<2x16x16xf32>) {
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<2x8x32xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %lo = tensor.insert_slice %x into %e[0, 0, 0] [2, 8, 16] [1, 1, 1] : tensor<2x8x16xf32> into tensor<2x8x32xf32>
  // expected-remark @below {{token-wise along dim 1}}
  %both = tensor.insert_slice %x into %lo[0, 0, 16] [2, 8, 16] [1, 1, 1] : tensor<2x8x16xf32> into tensor<2x8x32xf32>
  // expected-remark @below {{no sequence dim}}
  %e2 = tensor.empty() : tensor<2x16x16xf32>
  // expected-remark @below {{not token-wise: inserts a part of the sequence dim 1}}
  %half = tensor.insert_slice %x into %e2[0, 0, 0] [2, 8, 16] [1, 1, 1] : tensor<2x8x16xf32> into tensor<2x16x16xf32>
  return %both, %half : tensor<2x8x32xf32>, tensor<2x16x16xf32>
}
