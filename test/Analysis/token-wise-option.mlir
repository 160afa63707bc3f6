// RUN: seqpar-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(seqpar-test-token-wise{seq-dim=1}))'

// Tests that the seq-dim option names the first argument's sequence dim when
// no argument has a seqpar.seq_dim attribute.

func.func @option(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-remark @below {{token-wise along dim 1}}
  %y = arith.negf %x : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// Tests that an argument attribute wins over the option.

func.func @attribute_wins(%x: tensor<8x2xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x2xf32> {
  // expected-remark @below {{token-wise along dim 0}}
  %y = arith.negf %x : tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}

// -----

// Tests that arguments of different lengths are different sequences (an
// encoder-decoder's): each value carries its own length, and an op that
// would combine two of them in one dim ([2*4] tokens beside [8]) is not
// token-wise.

func.func @two_lengths(%x: tensor<8x2xf32> {seqpar.seq_dim = 0 : i64}, %y: tensor<4x2xf32> {seqpar.seq_dim = 0 : i64}, %z: tensor<2x4x2xf32> {seqpar.seq_dim = 1 : i64}) -> (tensor<8x2xf32>, tensor<4x2xf32>, tensor<8x2xf32>) {
  // expected-remark @below {{token-wise along dim 0, 8 tokens}}
  %a = arith.negf %x : tensor<8x2xf32>
  // expected-remark @below {{token-wise along dim 0, 4 tokens}}
  %b = arith.negf %y : tensor<4x2xf32>
  // expected-remark @below {{token-wise along dim 0 (flattened: outer 2, inner 1), 4 tokens}}
  %f = tensor.collapse_shape %z [[0, 1], [2]] : tensor<2x4x2xf32> into tensor<8x2xf32>
  // expected-remark @below {{not token-wise: operand #1 carries another sequence (4 tokens, not 8)}}
  %c = arith.addf %a, %f : tensor<8x2xf32>
  // expected-remark @below {{no sequence dim}}
  %e = tensor.empty() : tensor<8x2xf32>
  // expected-remark @below {{not token-wise: operand #1 carries another sequence along loop d0 (4 tokens, not 8)}}
  %g = linalg.add ins(%a, %f : tensor<8x2xf32>, tensor<8x2xf32>) outs(%e : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %a, %b, %g : tensor<8x2xf32>, tensor<4x2xf32>, tensor<8x2xf32>
}

// -----

// Tests that a dynamic sequence length is refused.

// expected-error @below {{argument #0 has a dynamic sequence length ('tensor<?x2xf32>', dim 0); sequence parallelism needs a static length}}
func.func @dynamic(%x: tensor<?x2xf32> {seqpar.seq_dim = 0 : i64}) {
  return
}

// -----

// Tests that an empty sequence is refused.

// expected-error @below {{argument #0 has an empty sequence ('tensor<0x2xf32>', dim 0)}}
func.func @empty(%x: tensor<0x2xf32> {seqpar.seq_dim = 0 : i64}) {
  return
}
