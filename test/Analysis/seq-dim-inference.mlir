// RUN: seqpar-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(seqpar-test-seq-dim))'

// Tests that the sequence dim is inferred from the attention of a [b, s, h]
// program: Q, K and V are heads of the input's dim 1.

func.func @bsh(%x: tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 1 of argument #0 of type 'tensor<2x8x16xf32>'}}
  // expected-remark @-2 {{argument sequence dims: [1]}}
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests Megatron's [s, b, h] layout: dim 0 (the batch is as long as the
// sequence, so only the graph can tell them apart).

func.func @sbh(%x: tensor<8x8x16xf32>) -> tensor<8x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 0 of argument #0}}
  // expected-remark @-2 {{argument sequence dims: [0]}}
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [8, 8, 4, 4] : tensor<8x8x16xf32> into tensor<8x8x4x4xf32>
  %e = tensor.empty() : tensor<8x4x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<8x8x4x4xf32>) outs(%e : tensor<8x4x8x4xf32>) permutation = [1, 2, 0, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<8x4x8x4xf32>, tensor<8x4x8x4xf32>, tensor<8x4x8x4xf32> -> tensor<8x4x8x4xf32>
  return %o : tensor<8x4x8x4xf32>
}

// -----

// Tests a flattened [b*s, h] input whose attention reshapes it to
// [b, a, s, d]: the flattened dim 0, as seq-dim=0 would name it. A weight
// argument before it carries no tokens.

#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d2, d1)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @flattened(%w: tensor<16x16xf32>, %x: tensor<16x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 0 of argument #1 of type 'tensor<16x16xf32>', which flattens 2 sequences of 8 tokens}}
  // expected-remark @-2 {{argument sequence dims: [-1, 0]}}
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %p = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%z : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %h = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<16x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests attention written out (Q.K^T, softmax, P.V as batch matmuls over
// [b*a, s, d]) on a [b, s, h] input: dim 1.

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @written_out(%x: tensor<1x8x8xf32>) -> tensor<2x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 1 of argument #0}}
  // expected-remark @-2 {{argument sequence dims: [1]}}
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 8, 2, 4] : tensor<1x8x8xf32> into tensor<1x8x2x4xf32>
  %eh = tensor.empty() : tensor<1x2x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<1x8x2x4xf32>) outs(%eh : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
  %et = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%q : tensor<1x2x8x4xf32>) outs(%et : tensor<1x2x4x8xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %l = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%l : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p3, %q3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Tests that a position table [s, d] multiplied into Q and K (RoPE-like) is
// not taken for the input: the input's tokens reach Q, K and V, the
// table's only Q and K.

#q = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
func.func @position_table(%cos: tensor<8x4xf32>, %v: tensor<2x4x8x4xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 2 of argument #1}}
  // expected-remark @-2 {{argument sequence dims: [-1, 2]}}
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %q = linalg.generic {indexing_maps = [#q, #t, #q], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v, %cos : tensor<2x4x8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<2x4x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x4x8x4xf32>
  %o = seqpar.attention %q, %q, %v {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests that a function without attention has no inferred sequence dim, and
// says why.

func.func @no_attention(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  // expected-remark @-1 {{no sequence dim: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: it has no attention (seqpar.attention, or a softmax P.V product that seqpar-raise-attention recognises)}}
  %y = arith.negf %x : tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}

// -----

// Tests that an argument holding tokens in two dims (queries from its rows,
// keys from its columns) is ambiguous.

func.func @two_dims(%s: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  // expected-remark @-1 {{no sequence dim: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: the attention's tokens come from dims 2 and 3 of argument #0 of type 'tensor<1x4x8x8xf32>'}}
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %k = linalg.transpose ins(%s : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) permutation = [0, 1, 3, 2]
  %o = seqpar.attention %s, %k, %k {scale = 0.5 : f32} : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  return %o : tensor<1x4x8x8xf32>
}

// -----

// Tests that two arguments reached by as many attention operands are
// ambiguous.

func.func @tie(%a: tensor<1x4x8x4xf32>, %b: tensor<1x4x8x4xf32>) -> (tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>) {
  // expected-remark @-1 {{no sequence dim: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: the tokens of as many attention operands come from argument #0 of type 'tensor<1x4x8x4xf32>' as from argument #1 of type 'tensor<1x4x8x4xf32>'}}
  %o1 = seqpar.attention %a, %b, %b {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
  %o2 = seqpar.attention %a, %a, %b {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
  return %o1, %o2 : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>
}

// -----

// Tests that tokens computed by an op without a rule are not followed, and
// the message names it.

func.func private @project(tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32>
func.func @opaque(%x: tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{no sequence dim: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: the attention's tokens were not followed back to an argument (no rule for 'func.call' at}}
  %q = func.call @project(%x) : (tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32>
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests an encoder-decoder (docs/context-parallelism.md, "Encoder-decoder:
// two sequences"): the encoder's self-attention and the cross-attention's
// K/V read %x, so %x is the sequence; the decoder's self-attention reads
// only %y, a second sequence of as many tokens, sharded with it.

func.func @encoder_decoder(%x: tensor<2x8x16xf32>, %y: tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 1 of argument #0 of type 'tensor<2x8x16xf32>'; a second sequence, the tokens of a self-attention that reads none of the first: dim 1 of argument #1 of type 'tensor<2x8x16xf32>'}}
  // expected-remark @-2 {{argument sequence dims: [1, 1]}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %hy = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %kx = linalg.transpose ins(%hx : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %qy = linalg.transpose ins(%hy : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %enc = seqpar.attention %kx, %kx, %kx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %dec = seqpar.attention %qy, %qy, %qy {scale = 0.5 : f32, causal} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %cross = seqpar.attention %dec, %enc, %enc {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %cross : tensor<2x4x8x4xf32>
}

// -----

// Tests a decoder sequence of another length: a second sequence too, each
// value carrying its own length (the remark gives both).

func.func @encoder_decoder_lengths(%x: tensor<2x8x16xf32>, %y: tensor<2x4x16xf32>) -> tensor<2x4x4x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 1 of argument #0 of type 'tensor<2x8x16xf32>'; a second sequence, the tokens of a self-attention that reads none of the first: dim 1 of argument #1 of type 'tensor<2x4x16xf32>' (4 tokens, the first 8)}}
  // expected-remark @-2 {{argument sequence dims: [1, 1]}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %hy = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [2, 4, 4, 4] : tensor<2x4x16xf32> into tensor<2x4x4x4xf32>
  %ex = tensor.empty() : tensor<2x4x8x4xf32>
  %ey = tensor.empty() : tensor<2x4x4x4xf32>
  %kx = linalg.transpose ins(%hx : tensor<2x8x4x4xf32>) outs(%ex : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %qy = linalg.transpose ins(%hy : tensor<2x4x4x4xf32>) outs(%ey : tensor<2x4x4x4xf32>) permutation = [0, 2, 1, 3]
  %enc = seqpar.attention %kx, %kx, %kx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %dec = seqpar.attention %qy, %qy, %qy {scale = 0.5 : f32, causal} : tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32> -> tensor<2x4x4x4xf32>
  %cross = seqpar.attention %dec, %enc, %enc {scale = 0.5 : f32} : tensor<2x4x4x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x4x4xf32>
  return %cross : tensor<2x4x4x4xf32>
}

// -----

// Tests that queries from another argument with no self-attention of their
// own (a cross-attention only) are no second sequence: every attention
// reads %x.

func.func @cross_only(%x: tensor<2x8x16xf32>, %y: tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 1 of argument #0 of type 'tensor<2x8x16xf32>'}}
  // expected-remark @-2 {{argument sequence dims: [1, -1]}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %hy = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %kx = linalg.transpose ins(%hx : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %qy = linalg.transpose ins(%hy : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %enc = seqpar.attention %kx, %kx, %kx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %cross = seqpar.attention %qy, %enc, %enc {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %cross : tensor<2x4x8x4xf32>
}

// -----

// Tests a decoder flattened to [b*s, h] (2 x 4 tokens in a dim of 8) beside
// an encoder of 8 tokens: the dims have the same size, the sequences not
// the same length; the decoder is a second sequence of 4 tokens, its dim
// read as 2 blocks of them (the token digit the attention was followed
// back along).

func.func @flattened_decoder_length(%x: tensor<2x8x16xf32>, %y: tensor<8x16xf32>) -> tensor<2x4x4x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 1 of argument #0 of type 'tensor<2x8x16xf32>'; a second sequence, the tokens of a self-attention that reads none of the first: dim 0 of argument #1 of type 'tensor<8x16xf32>', which flattens 2 sequences of 4 tokens (the first has 8)}}
  // expected-remark @-2 {{argument sequence dims: [1, 0]}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %hy = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [2, 4, 4, 4] : tensor<8x16xf32> into tensor<2x4x4x4xf32>
  %ex = tensor.empty() : tensor<2x4x8x4xf32>
  %ey = tensor.empty() : tensor<2x4x4x4xf32>
  %kx = linalg.transpose ins(%hx : tensor<2x8x4x4xf32>) outs(%ex : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %qy = linalg.transpose ins(%hy : tensor<2x4x4x4xf32>) outs(%ey : tensor<2x4x4x4xf32>) permutation = [0, 2, 1, 3]
  %enc = seqpar.attention %kx, %kx, %kx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %dec = seqpar.attention %qy, %qy, %qy {scale = 0.5 : f32, causal} : tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32> -> tensor<2x4x4x4xf32>
  %cross = seqpar.attention %dec, %enc, %enc {scale = 0.5 : f32} : tensor<2x4x4x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x4x4xf32>
  return %cross : tensor<2x4x4x4xf32>
}

// -----

// Tests a decoder of as many tokens flattened with the batch ([b*s, h],
// 2 x 8 in a dim of 16) beside an [s, b, h] encoder: a second sequence,
// its dim read as 2 blocks of 8 tokens.

func.func @flattened_decoder_layout(%x: tensor<8x2x16xf32>, %y: tensor<16x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 0 of argument #0 of type 'tensor<8x2x16xf32>'; a second sequence, the tokens of a self-attention that reads none of the first: dim 0 of argument #1 of type 'tensor<16x16xf32>', which flattens 2 sequences of 8 tokens}}
  // expected-remark @-2 {{argument sequence dims: [0, 0]}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [8, 2, 4, 4] : tensor<8x2x16xf32> into tensor<8x2x4x4xf32>
  %hy = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<16x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %kx = linalg.transpose ins(%hx : tensor<8x2x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [1, 2, 0, 3]
  %qy = linalg.transpose ins(%hy : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %enc = seqpar.attention %kx, %kx, %kx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %dec = seqpar.attention %qy, %qy, %qy {scale = 0.5 : f32, causal} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %cross = seqpar.attention %dec, %enc, %enc {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %cross : tensor<2x4x8x4xf32>
}

// -----

// Tests a learned position table [s, h] added to the input: it reaches
// every attention operand the input does, so the vote ties; the larger
// argument, the input, is the sequence, the table is read by token.

#bsh = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#sh = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @position_table(%x: tensor<2x8x16xf32>, %pos: tensor<8x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim inferred from the attention: dim 1 of argument #0 of type 'tensor<2x8x16xf32>' (argument #1 of type 'tensor<8x16xf32>' reaches as many attention operands and has fewer elements: a table read by token, not the sequence)}}
  // expected-remark @-2 {{argument sequence dims: [1, -1]}}
  %e0 = tensor.empty() : tensor<2x8x16xf32>
  %in = linalg.generic {indexing_maps = [#bsh, #sh, #bsh], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %pos : tensor<2x8x16xf32>, tensor<8x16xf32>) outs(%e0 : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x8x16xf32>
  %h = tensor.expand_shape %in [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32, causal} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests a tie between arguments of the same size: no sequence dim (two
// inputs, each read by as many attention operands).

func.func @tie(%x: tensor<2x8x16xf32>, %y: tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{no sequence dim: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: the tokens of as many attention operands come from argument #0 of type 'tensor<2x8x16xf32>' as from argument #1 of type 'tensor<2x8x16xf32>'}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %hy = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %qx = linalg.transpose ins(%hx : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %qy = linalg.transpose ins(%hy : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %qx, %qy, %qy {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %p = seqpar.attention %qy, %qx, %qx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %p : tensor<2x4x8x4xf32>
}
