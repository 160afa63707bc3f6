// RUN: seqpar-opt %s --seqpar-decompose-attention | FileCheck %s

// GQA (4 query heads, 2 KV heads) as one attention block over positions
// 0..: the query heads are viewed as [2 KV heads, 2] so K/V are read once
// per KV head through projected permutations (each a GEMM for BLAS), never
// repeated; the logits (scale, + mask, causal select from the positions)
// are recomputed inside the row max and the exp instead of materialised;
// E.V is divided by the row sums; a row with no visible key ends NaN as
// the single-device softmax's 0/0.

// CHECK-DAG: #[[GQ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>
// CHECK-DAG: #[[GS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[M:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-LABEL: func.func @gqa
// CHECK: %[[GQV:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 16]
// CHECK: %[[S5:.*]] = linalg.generic {indexing_maps = [#[[GQ]], #[[K]], #[[GS]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[GQV]], %arg1 :
// CHECK: %[[S:.*]] = tensor.collapse_shape %[[S5]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x2x8x8xf32> into tensor<1x4x8x8xf32>
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [{{.*}}, {{.*}}, {{.*}}, #[[M]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[S]], %{{.*}}, %{{.*}}, %arg3 :
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.cmpi ule
// CHECK: %[[L:.*]] = arith.select
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[L]], %[[ACC:.*]] : f32
// CHECK-NEXT: arith.select %[[GT]], %[[L]], %[[ACC]] : f32
// CHECK: %[[CENTER:.*]] = linalg.generic {{.*}} ins(%[[MAX]] :
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[S]], %{{.*}}, %{{.*}}, %arg3, %[[CENTER]] :
// CHECK: arith.cmpi ule
// CHECK: arith.select
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[E]] :
// CHECK: arith.addf
// CHECK: %[[GE:.*]] = tensor.expand_shape %[[E]]
// CHECK: %[[EV5:.*]] = linalg.generic {indexing_maps = [#[[GQ]], #[[V]], #[[GS]]], {{.*}} ins(%[[GE]], %arg2 :
// CHECK: %[[EV:.*]] = tensor.collapse_shape %[[EV5]]
// CHECK: %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[EV]], %[[SUM]] :
// CHECK: arith.divf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[OUT]], %[[SUM]] :
// CHECK: arith.constant 0x7FC00000 : f32
// CHECK: return %[[R]]
// CHECK-NOT: linalg.softmax
// CHECK-NOT: seqpar.attention
func.func @gqa(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %m: tensor<1x1x8x8xf32>) -> tensor<1x4x8x16xf32> {
  %o = seqpar.attention %q, %k, %v mask(%m : tensor<1x1x8x8xf32>) {causal, scale = 0.25 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
  return %o : tensor<1x4x8x16xf32>
}
