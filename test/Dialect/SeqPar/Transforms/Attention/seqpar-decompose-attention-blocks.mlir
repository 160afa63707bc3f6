// RUN: seqpar-opt %s -split-input-file --seqpar-decompose-attention | FileCheck %s

// Tests that a block's LSE comes out in two parts: the row max of the
// logits (-inf on a fully masked row) and the row sum of exp(l - max) with a
// fully masked row centred at 0; out divides by the sum (0 where it is 0).
// CHECK-LABEL: func.func @block
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: %[[CENTER:.*]] = linalg.generic {{.*}} ins(%[[MAX]] : tensor<1x2x4xf32>)
// CHECK: arith.cmpf oeq
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[CENTER]] : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>)
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<1x2x4x4xf32>)
// CHECK: arith.addf
// CHECK: return %{{.*}}, %[[MAX]], %[[SUM]]
func.func @block(%q: tensor<1x2x4x8xf32>, %p: tensor<4xindex>) -> (tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %o, %m, %l = seqpar.attention_block %q, %q, %q positions(%p, %p) {causal, scale = 0.5 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x2x4x8xf32>, tensor<1x2x4xf32>
  return %o, %m, %l : tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
}

// -----

// Tests that the merge weighs each block by sum * exp(max - merged max)
// (0 for a block whose max is -inf), so equal maxima weigh blocks by their
// sums (key counts) however large |max| is, and divides by the merged sum
// (0 where both blocks are empty): one generic per row, one per element.
// CHECK-LABEL: func.func @merge
// CHECK: %[[ROWS:.*]]:4 = linalg.generic {{.*}} ins(%arg1, %arg2, %arg4, %arg5 : tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
// CHECK: %[[M:.*]] = arith.maximumf %[[MA:.*]], %[[MB:.*]] : f32
// CHECK: arith.subf %[[MA]], %[[M]]
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: arith.cmpf oeq, %[[MA]], %{{.*}}
// CHECK: arith.select
// CHECK: arith.subf %[[MB]], %[[M]]
// CHECK: %[[S:.*]] = arith.addf
// CHECK: arith.divf %{{.*}}, %[[S]]
// CHECK: linalg.yield %[[M]], %[[S]]
// CHECK: %[[OUT:.*]] = linalg.generic {{.*}} ins(%arg0, %[[ROWS]]#2, %arg3, %[[ROWS]]#3 :
// CHECK: return %[[OUT]], %[[ROWS]]#0, %[[ROWS]]#1
func.func @merge(%oa: tensor<1x2x4x8xf32>, %ma: tensor<1x2x4xf32>, %la: tensor<1x2x4xf32>,
                 %ob: tensor<1x2x4x8xf32>, %mb: tensor<1x2x4xf32>, %lb: tensor<1x2x4xf32>)
    -> (tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %o, %m, %l = seqpar.attention_merge (%oa, %ma, %la), (%ob, %mb, %lb) : tensor<1x2x4x8xf32>, tensor<1x2x4xf32>
  return %o, %m, %l : tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
}
