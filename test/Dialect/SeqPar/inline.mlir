// RUN: seqpar-opt %s --inline | FileCheck %s
// RUN: seqpar-opt %s --seqpar-pipeline="dcp=2" 2>&1 >/dev/null | FileCheck %s --check-prefix=DCP

// seqpar ops inline (the dialect's inliner interface): a call to a helper
// holding an attention is replaced by its body (before: MLIR's inliner left
// every such call in place, and the decode CP pass's advice to inline the
// callee could not be followed).
// CHECK-LABEL: func.func @step(
// CHECK-NOT: call
// CHECK: seqpar.attention
// CHECK-NOT: call
// CHECK: return
// CHECK-NOT: func.func private @attend

// The pipeline inlines before it plans: the decode step's attention, in the
// helper, is sharded.
// DCP: remark: decode context parallelism (2 ranks, cyclic 1): 1 attentions over 1 KV caches of 16 slots, 8 slots per rank
func.func private @attend(%q: tensor<1x4x1x8xf32>, %k: tensor<1x2x16x8xf32>) -> tensor<1x4x1x8xf32> {
  %o = seqpar.attention %q, %k, %k {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o : tensor<1x4x1x8xf32>
}
func.func @step(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %o = call @attend(%q, %k) : (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}
