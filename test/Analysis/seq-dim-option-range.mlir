// RUN: seqpar-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(seqpar-test-seq-dim{seq-dim=3}))'

// Tests that a seq-dim option naming no argument's dim is reported with
// its value and the ranks there are, and is not replaced by inference.

func.func @too_large(%x: tensor<2x8x16xf32>, %w: tensor<16x16xf32>) -> tensor<2x8x16xf32> {
  // expected-remark @-1 {{no sequence dim: the seq-dim=3 option applies to the first tensor argument of rank > 3, and @too_large has none (its tensor arguments have rank 3 at most)}}
  return %x : tensor<2x8x16xf32>
}
