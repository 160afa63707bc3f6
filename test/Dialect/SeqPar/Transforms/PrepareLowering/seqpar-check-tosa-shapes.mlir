// RUN: seqpar-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(seqpar-check-tosa-shapes))'
// RUN: not seqpar-opt %s -split-input-file --seqpar-pipeline=tp=2 2>&1 | FileCheck %s --check-prefix=PIPE

// Tests that a tosa op with a dynamic result over a static input is refused
// before tosa is lowered: upstream tosa-to-linalg crashed on it (through
// --seqpar-pipeline as well).
// PIPE: error: 'tosa.reduce_sum' op result #0 has type 'tensor<?x8x1xf32>': seqpar lowers tosa with static shapes only
func.func @dynamic_result(%a: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  // expected-error @below {{'tosa.reduce_sum' op result #0 has type 'tensor<?x8x1xf32>': seqpar lowers tosa with static shapes only}}
  %r = tosa.reduce_sum %a {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<?x8x1xf32>
  %s = tosa.sub %a, %r : (tensor<2x8x16xf32>, tensor<?x8x1xf32>) -> tensor<2x8x16xf32>
  return %s : tensor<2x8x16xf32>
}

// -----

// Tests that a dynamic operand is refused too, and static tosa passes.
// PIPE: error: 'tosa.tanh' op operand #0 has type 'tensor<?x16xf32>'
func.func @dynamic_operand(%a: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-error @below {{'tosa.tanh' op operand #0 has type 'tensor<?x16xf32>': seqpar lowers tosa with static shapes only}}
  %t = tosa.tanh %a : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %t : tensor<?x16xf32>
}

// -----

func.func @static(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %t = tosa.tanh %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %t : tensor<8x16xf32>
}
