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
