// RUN: seqpar-opt %s -split-input-file --seqpar-tile-attention="kv-tile=8 backward-tile=4" | FileCheck %s
// RUN: not seqpar-opt %s --seqpar-tile-attention="backward-tile=-1" 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that a whole causal GQA backward (4 query heads on 2 K/V heads,
// s = 8) is a loop over its K/V heads g, each iteration the backward of
// query heads [2 g, 2 g + 2) against K/V head g (dQ written at those
// heads, dK and dV at head g), tiled in backward-tile = 4 square tiles
// while the forward's tiles (kv-tile = 8) leave its LSE block whole. Before,
// every tile held all 4 heads.
// CHECK-LABEL: func.func @gqa_backward
// CHECK: %[[STATS:.*]], %[[MAX:.*]], %[[SUM:.*]] = seqpar.attention_block %arg0, %arg1, %arg2 {{.*}} -> tensor<1x4x8x4xf32>, tensor<1x4x8xf32>
// CHECK: %[[GRADS:.*]]:3 = scf.for %[[H:[a-z0-9_]+]] = %c0 to %c4 step %c2 iter_args(%[[DQ:[a-z0-9_]+]] = %{{.*}}, %[[DK:[a-z0-9_]+]] = %{{.*}}, %[[DV:[a-z0-9_]+]] = %{{.*}})
// CHECK: %[[G:.*]] = arith.divui %[[H]], %c2
// CHECK: %[[Q:.*]] = tensor.extract_slice %arg0[0, %[[H]], 0, 0] [1, 2, 8, 4]
// CHECK: %[[K:.*]] = tensor.extract_slice %arg1[0, %[[G]], 0, 0] [1, 1, 8, 4]
// CHECK: %[[GMAX:.*]] = tensor.extract_slice %[[MAX]][0, %[[H]], 0] [1, 2, 8]
// CHECK: %[[GROUP:.*]]:3 = scf.for %[[Q0:[a-z0-9_]+]] = %{{.*}} to %c8 step %c4
// CHECK: tensor.extract_slice %[[Q]][0, 0, %[[Q0]], 0] [1, 2, 4, 4]
// CHECK: tensor.extract_slice %[[GMAX]][0, 0, %[[Q0]]] [1, 2, 4]
// CHECK: scf.for {{.*}} to %[[Q0]] step
// CHECK: seqpar.attention_block_backward {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>
// CHECK: scf.for
// CHECK: seqpar.attention_block_backward {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>
// CHECK: tensor.insert_slice %[[GROUP]]#0 into %[[DQ]][0, %[[H]], 0, 0] [1, 2, 8, 4]
// CHECK: tensor.insert_slice %[[GROUP]]#1 into %[[DK]][0, %[[G]], 0, 0] [1, 1, 8, 4]
// CHECK: tensor.insert_slice %[[GROUP]]#2 into %[[DV]][0, %[[G]], 0, 0] [1, 1, 8, 4]
// CHECK: return %[[GRADS]]#0, %[[GRADS]]#1, %[[GRADS]]#2
// BAD: error: tile-attention: backward-tile=-1 (seqpar-lower-to-llvm: attention-backward-tile) is not a tile size
func.func @gqa_backward(%q: tensor<1x4x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>, %o: tensor<1x4x8x4xf32>, %do: tensor<1x4x8x4xf32>)
    -> (tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>
  return %dq, %dk, %dv : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}
