// RUN: seqpar-opt %s --seqpar-tile-attention="q-tile=2 kv-tile=4" | FileCheck %s

// A causal block over run-time positions (a ring step's, a Ulysses
// block's zigzag halves): per query tile of 2 rows, each key tile of 4 is
// (a) wholly at or before the tile's first query: a block without the
// causal mask (before: causal, a compare and select per score for
// nothing); (b) wholly after its last query: skipped; (c) across the
// diagonal: a loop over sub-tiles of 2 keys (the query tile's size), each
// again (a), (b) or causal (before: the whole 4-key tile causal, computing
// keys past the last query).
// CHECK-LABEL: func.func @positions
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c2
// CHECK: %[[KEYS:.*]]:3 = scf.for %[[AT:[a-z0-9_]+]] = %{{.*}} to %c16 step %c4 iter_args(%[[OUT:[a-z0-9_]+]] = %{{.*}}, %[[MAX:[a-z0-9_]+]] = %{{.*}}, %[[SUM:[a-z0-9_]+]] = %{{.*}})
// CHECK: arith.maxui
// CHECK: %[[PAST:.*]] = arith.cmpi ule, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[PAST]]
// CHECK-NEXT: seqpar.attention_block {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x4x8xf32>
// CHECK: } else {
// CHECK: arith.minui
// CHECK: %[[LATER:.*]] = arith.cmpi ugt, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[LATER]]
// CHECK-NEXT: scf.yield %[[OUT]], %[[MAX]], %[[SUM]]
// CHECK-NEXT: } else {
// CHECK: %[[END:.*]] = arith.addi %[[AT]], %c4
// CHECK: scf.for %{{.*}} = %[[AT]] to %[[END]] step %c2
// CHECK: scf.if
// CHECK-NEXT: seqpar.attention_block {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>
// CHECK: scf.if
// CHECK: seqpar.attention_block {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>
func.func @positions(%q: tensor<1x1x8x8xf32>, %k: tensor<1x1x16x8xf32>, %v: tensor<1x1x16x8xf32>, %qp: tensor<8xindex>, %kp: tensor<16xindex>) -> tensor<1x1x8x8xf32> {
  %o, %m, %l = seqpar.attention_block %q, %k, %v positions(%qp, %kp) {causal, scale = 0.5 : f32}
      : tensor<1x1x8x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>, tensor<8xindex>, tensor<16xindex> -> tensor<1x1x8x8xf32>, tensor<1x1x8xf32>
  return %o : tensor<1x1x8x8xf32>
}
