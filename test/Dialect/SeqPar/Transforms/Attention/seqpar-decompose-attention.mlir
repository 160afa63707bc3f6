// RUN: seqpar-opt %s --seqpar-decompose-attention | FileCheck %s

// GQA (4 query heads, 2 KV heads): K/V are read at head h floordiv 2, never
// repeated; causal select from linalg.index; softmax over the keys.

// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 2, d3, d4)>
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 2, d4, d3)>
// CHECK-DAG: #[[M:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-LABEL: func.func @gqa
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[Q]], #[[K]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 :
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%[[S]], %arg3 : tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.index 2
// CHECK: linalg.index 3
// CHECK: arith.cmpi ule
// CHECK: arith.select
// CHECK: %[[P:.*]] = linalg.softmax dimension(3) ins(%[[L]] : tensor<1x4x8x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[V]], #{{.*}}], {{.*}} ins(%[[P]], %arg2 :
// CHECK-NOT: seqpar.attention
func.func @gqa(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %m: tensor<1x1x8x8xf32>) -> tensor<1x4x8x16xf32> {
  %o = seqpar.attention %q, %k, %v mask(%m : tensor<1x1x8x8xf32>) {causal, scale = 0.25 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
  return %o : tensor<1x4x8x16xf32>
}
