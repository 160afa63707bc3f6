// RUN: seqpar-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(seqpar-test-token-wise{seq-dim=-2}))'

// Tests that a negative sequence dim other than the default -1 is refused.

// expected-error @+1 {{seq-dim=-2 is not a dim: expected a dim >= 0, or -1 (the default: none)}}
func.func @f(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}
