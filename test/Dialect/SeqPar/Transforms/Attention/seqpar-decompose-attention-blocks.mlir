// RUN: seqpar-opt %s -split-input-file --seqpar-decompose-attention | FileCheck %s

// Tests that a block's LSE comes out in two parts: the row max of the
// logits (-inf on a fully masked row), recomputed from the scores Q.K^T
// inside the reduction and combined by compare-and-select (one vmaxps;
// maximumf's NaN ordering is not needed: a NaN logit still reaches its
// row through the exp), and the row sum of E = exp(l - max)
// with a fully masked row centred at 0; out is E.V divided by the sum (0
// where it is 0).
// CHECK-LABEL: func.func @block
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg0 :
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[S]], %arg1, %arg1 :
// CHECK: arith.mulf
// CHECK: arith.cmpi ule
// CHECK: %[[L:.*]] = arith.select
// CHECK-NOT: arith.maximumf
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[L]], %[[ACC:.*]] : f32
// CHECK-NEXT: arith.select %[[GT]], %[[L]], %[[ACC]] : f32
// CHECK: %[[CENTER:.*]] = linalg.generic {{.*}} ins(%[[MAX]] : tensor<1x2x4xf32>)
// CHECK: arith.cmpf oeq
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[S]], %arg1, %arg1, %[[CENTER]] : tensor<1x2x4x4xf32>, tensor<4xindex>, tensor<4xindex>, tensor<1x2x4xf32>)
// CHECK: arith.select
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<1x2x4x4xf32>)
// CHECK: arith.addf
// CHECK: %[[EV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %arg0 :
// CHECK: %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[EV]], %[[SUM]] : tensor<1x2x4x8xf32>, tensor<1x2x4xf32>)
// CHECK: arith.cmpf oeq
// CHECK: arith.divf
// CHECK: arith.select
// CHECK: return %[[OUT]], %[[MAX]], %[[SUM]]
func.func @block(%q: tensor<1x2x4x8xf32>, %p: tensor<4xindex>) -> (tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %o, %m, %l = seqpar.attention_block %q, %q, %q positions(%p, %p) {causal, scale = 0.5 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x2x4x8xf32>, tensor<1x2x4xf32>
  return %o, %m, %l : tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
}

// -----

// Tests that with 32 keys (a multiple of 16) the row max and the row sum
// are split (upstream's splitReduction): key j into partial j mod 16 of its
// row, the 16 lanes the innermost, parallel loop, then the partials reduced;
// both max reductions combine by compare-and-select.
// CHECK-LABEL: func.func @block_split
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 :
// CHECK: %[[NEG:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x4xf32>)
// CHECK: %[[S2:.*]] = tensor.expand_shape %[[S]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 2, 4, 2, 16]
// CHECK: %[[KP:.*]] = tensor.expand_shape %arg3 {{\[}}[0, 1]] output_shape [2, 16]
// CHECK: %[[PMAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%[[S2]], %arg2, %[[KP]] : {{.*}} outs(%{{.*}} : tensor<1x2x4x16xf32>)
// CHECK: %[[PL:.*]] = arith.select
// CHECK-NOT: arith.maximumf
// CHECK: %[[PGT:.*]] = arith.cmpf ogt, %[[PL]], %[[PACC:.*]] : f32
// CHECK-NEXT: arith.select %[[PGT]], %[[PL]], %[[PACC]] : f32
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[PMAX]] : tensor<1x2x4x16xf32>) outs(%[[NEG]] : tensor<1x2x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[IN]], %[[OUT]] : f32
// CHECK-NEXT: arith.select %[[GT]], %[[IN]], %[[OUT]] : f32
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[S]], %arg2, %arg3, %{{.*}} :
// CHECK: math.exp
// CHECK: %[[E2:.*]] = tensor.expand_shape %[[E]]
// CHECK: %[[PSUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%[[E2]] : tensor<1x2x4x2x16xf32>) outs(%{{.*}} : tensor<1x2x4x16xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PSUM]] : tensor<1x2x4x16xf32>)
// CHECK: return %{{.*}}, %[[MAX]], %[[SUM]]
func.func @block_split(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x32x8xf32>, %p: tensor<4xindex>, %pk: tensor<32xindex>)
    -> (tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %o, %m, %l = seqpar.attention_block %q, %k, %k positions(%p, %pk) {causal, scale = 0.5 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32>, tensor<4xindex>, tensor<32xindex> -> tensor<1x2x4x8xf32>, tensor<1x2x4xf32>
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

// -----

// Tests the block backward of docs/semantics.md §4.7 on GQA (4 query heads,
// 2 K/V heads): the block's logits as the forward block computes them
// (causal: -inf for future keys) recomputed from the scores inside P's
// generic, P from the rows' global two-part LSE (0 where the logit is -inf
// or the row sum 0), D = rowsum(dO * O), dS = scale * P * (dO . V^T - D),
// and every contraction with the query heads viewed as [2 K/V heads, 2]
// (K/V read once per K/V head, never repeated): dQ = dS . K, and
// dK = dS^T . Q, dV = P^T . dO reduced over the group and the queries.
// CHECK-LABEL: func.func @block_backward
// CHECK: %[[GQ0:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 8]
// CHECK: %[[S5:.*]] = linalg.generic {{.*}} ins(%[[GQ0]], %arg1 : tensor<1x2x2x4x8xf32>, tensor<1x2x4x8xf32>)
// CHECK: %[[S:.*]] = tensor.collapse_shape %[[S5]]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[S]], %arg6, %arg6, %arg4, %arg5 :
// CHECK: arith.cmpi ule
// CHECK: %[[LV:.*]] = arith.select
// CHECK: %[[C:.*]] = arith.subf %[[LV]], %{{.*}}
// CHECK: %[[E:.*]] = math.exp %[[C]]
// CHECK: %[[DIV:.*]] = arith.divf %[[E]], %{{.*}}
// CHECK: arith.cmpf oeq, %[[LV]]
// CHECK: arith.cmpf oeq
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[DIV]]
// CHECK: %[[D:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg2, %arg3 :
// CHECK: %[[GDO:.*]] = tensor.expand_shape %arg2
// CHECK: %[[DP5:.*]] = linalg.generic {{.*}} ins(%[[GDO]], %arg1 : tensor<1x2x2x4x8xf32>, tensor<1x2x4x8xf32>)
// CHECK: %[[DP:.*]] = tensor.collapse_shape %[[DP5]]
// CHECK: %[[DS:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[DP]], %[[D]] :
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[GDS0:.*]] = tensor.expand_shape %[[DS]]
// CHECK: %[[DQ5:.*]] = linalg.generic {{.*}} ins(%[[GDS0]], %arg1 : tensor<1x2x2x4x4xf32>, tensor<1x2x4x8xf32>) outs(%{{.*}} : tensor<1x2x2x4x8xf32>)
// CHECK: %[[DQ:.*]] = tensor.collapse_shape %[[DQ5]]
// CHECK: %[[GDS:.*]] = tensor.expand_shape %[[DS]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 4]
// CHECK: %[[GQ:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 8]
// CHECK: %[[DK:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[GDS]], %[[GQ]] : {{.*}} outs(%{{.*}} : tensor<1x2x4x8xf32>)
// CHECK: %[[GP:.*]] = tensor.expand_shape %[[P]]
// CHECK: %[[GDO2:.*]] = tensor.expand_shape %arg2
// CHECK: %[[DV:.*]] = linalg.generic {{.*}} ins(%[[GP]], %[[GDO2]] : {{.*}} outs(%{{.*}} : tensor<1x2x4x8xf32>)
// CHECK: return %[[DQ]], %[[DK]], %[[DV]]
func.func @block_backward(%q: tensor<1x4x4x8xf32>, %k: tensor<1x2x4x8xf32>, %do: tensor<1x4x4x8xf32>, %o: tensor<1x4x4x8xf32>,
                          %m: tensor<1x4x4xf32>, %l: tensor<1x4x4xf32>, %p: tensor<4xindex>) -> (tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) {
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %do, %o, %m, %l positions(%p, %p) {causal, scale = 0.5 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4xf32>,
        tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>
  return %dq, %dk, %dv : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}

// -----

// The whole backward: one block over all keys for the rows' LSE, the block
// backward, and the f32 gradients rounded to bf16.
// CHECK-LABEL: func.func @whole_backward
// CHECK-NOT: seqpar.
// CHECK: math.exp
// CHECK: arith.truncf %{{.*}} : tensor<1x4x8x16xf32> to tensor<1x4x8x16xbf16>
// CHECK: arith.truncf %{{.*}} : tensor<1x2x8x16xf32> to tensor<1x2x8x16xbf16>
// CHECK: arith.truncf %{{.*}} : tensor<1x2x8x16xf32> to tensor<1x2x8x16xbf16>
// CHECK-NOT: seqpar.
func.func @whole_backward(%q: tensor<1x4x8x16xbf16>, %k: tensor<1x2x8x16xbf16>, %o: tensor<1x4x8x16xbf16>, %do: tensor<1x4x8x16xbf16>)
    -> (tensor<1x4x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>) {
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %k, %o, %do {causal, scale = 0.25 : f32}
      : tensor<1x4x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16> -> tensor<1x4x8x16xbf16>, tensor<1x2x8x16xbf16>
  return %dq, %dk, %dv : tensor<1x4x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>
}
