// RUN: seqpar-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(seqpar-test-seq-dim{seq-dim=0}))'

// Tests that the seq-dim option wins over the attention
// (docs/semantics.md §3.1) but, on a [b, s, h] program where it names the
// batch, a remark names both dims.

func.func @option_disagrees(%x: tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim: the seq-dim=0 option names dim 0 of argument #0 of type 'tensor<2x8x16xf32>', but the attention reads its tokens from dim 1 of argument #0 of type 'tensor<2x8x16xf32>'; the given dim is used}}
  // expected-remark @-2 {{argument sequence dims: [0]}}
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests that the option agreeing with the attention ([s, b, h]) gives no
// remark.

func.func @option_agrees(%x: tensor<8x2x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{argument sequence dims: [0]}}
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [8, 2, 4, 4] : tensor<8x2x16xf32> into tensor<8x2x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<8x2x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [1, 2, 0, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests that an argument attribute wins over the option, and a remark says
// when the attention reads its tokens elsewhere.

func.func @attribute_disagrees(%x: tensor<2x8x16xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim: the seqpar.seq_dim attribute names dim 2 of argument #0 of type 'tensor<2x8x16xf32>', but the attention reads its tokens from dim 1 of argument #0}}
  // expected-remark @-2 {{argument sequence dims: [2]}}
  %h = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %q = linalg.transpose ins(%h : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %o : tensor<2x4x8x4xf32>
}

// -----

// Tests that the option's choice is kept without a remark when nothing can
// be inferred (no attention).

func.func @nothing_to_compare(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-remark @-1 {{argument sequence dims: [0]}}
  %y = arith.negf %x : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Tests an encoder-decoder [s, b, h] under the option: it names %x's dim 0,
// and the decoder's %y, the tokens of a self-attention that reads none of
// %x's, is sharded with it (docs/context-parallelism.md, "Encoder-decoder:
// two sequences").

func.func @option_encoder_decoder(%x: tensor<8x2x16xf32>, %y: tensor<8x2x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim: the seq-dim=0 option names dim 0 of argument #0 of type 'tensor<8x2x16xf32>'; a second sequence, the tokens of a self-attention that reads none of the first: dim 0 of argument #1 of type 'tensor<8x2x16xf32>'}}
  // expected-remark @-2 {{argument sequence dims: [0, 0]}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [8, 2, 4, 4] : tensor<8x2x16xf32> into tensor<8x2x4x4xf32>
  %hy = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [8, 2, 4, 4] : tensor<8x2x16xf32> into tensor<8x2x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %kx = linalg.transpose ins(%hx : tensor<8x2x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [1, 2, 0, 3]
  %qy = linalg.transpose ins(%hy : tensor<8x2x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [1, 2, 0, 3]
  %enc = seqpar.attention %kx, %kx, %kx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %dec = seqpar.attention %qy, %qy, %qy {scale = 0.5 : f32, causal} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %cross = seqpar.attention %dec, %enc, %enc {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %cross : tensor<2x4x8x4xf32>
}

// -----

// Tests the option naming the decoder's dim (the decoder comes first): the
// encoder, whose self-attention reads none of the decoder's tokens, joins it.

func.func @option_names_decoder(%y: tensor<8x2x16xf32>, %x: tensor<8x2x16xf32>) -> tensor<2x4x8x4xf32> {
  // expected-remark @-1 {{sequence dim: the seq-dim=0 option names dim 0 of argument #0 of type 'tensor<8x2x16xf32>'; a second sequence, the tokens of a self-attention that reads none of the first: dim 0 of argument #1 of type 'tensor<8x2x16xf32>'}}
  // expected-remark @-2 {{argument sequence dims: [0, 0]}}
  %hx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [8, 2, 4, 4] : tensor<8x2x16xf32> into tensor<8x2x4x4xf32>
  %hy = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [8, 2, 4, 4] : tensor<8x2x16xf32> into tensor<8x2x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %kx = linalg.transpose ins(%hx : tensor<8x2x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [1, 2, 0, 3]
  %qy = linalg.transpose ins(%hy : tensor<8x2x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [1, 2, 0, 3]
  %enc = seqpar.attention %kx, %kx, %kx {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %dec = seqpar.attention %qy, %qy, %qy {scale = 0.5 : f32, causal} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  %cross = seqpar.attention %dec, %enc, %enc {scale = 0.5 : f32} : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32> -> tensor<2x4x8x4xf32>
  return %cross : tensor<2x4x8x4xf32>
}
