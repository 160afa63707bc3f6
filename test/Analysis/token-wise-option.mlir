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

// Tests that arguments must agree on the sequence length.

// expected-error @below {{arguments disagree on the sequence length: 8 and 4 (argument #1)}}
func.func @disagree(%x: tensor<8x2xf32> {seqpar.seq_dim = 0 : i64}, %y: tensor<4x2xf32> {seqpar.seq_dim = 0 : i64}) {
  return
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
