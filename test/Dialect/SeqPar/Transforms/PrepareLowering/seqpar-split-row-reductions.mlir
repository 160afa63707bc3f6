// RUN: seqpar-opt %s -split-input-file --seqpar-split-row-reductions | FileCheck %s

// A row sum over the innermost dim: 16 partials per row (a parallel loop
// over them, innermost), then a reduction of the 16 into the original
// init.
// CHECK-LABEL: func.func @row_sum
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf32> into tensor<8x4x16xf32>
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<8x4x16xf32>) outs(%[[ZEROS]] : tensor<8x16xf32>)
// CHECK: arith.addf
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<8x16xf32>) outs(%[[INIT]] : tensor<8xf32>)
// CHECK: return %[[S]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %acc, %in : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A LayerNorm's variance in keep-dim form: the mean and the result are
// [2, 8, 1], read at 0 in their last dim. Those dims are collapsed away
// first (upstream's split would read the 0 as d0), the result expanded
// back.
// CHECK-LABEL: func.func @keepdim_variance
// CHECK-DAG: %[[MEAN:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0], [1, 2]] : tensor<2x8x1xf32> into tensor<2x8xf32>
// CHECK-DAG: %[[INIT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<2x8x1xf32> into tensor<2x8xf32>
// CHECK-DAG: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1], [2, 3]] output_shape [2, 8, 4, 16]
// CHECK: %[[P:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[X]], %[[MEAN]] : tensor<2x8x4x16xf32>, tensor<2x8xf32>) outs(%{{.*}} : tensor<2x8x16xf32>)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[S:.*]] = linalg.generic {{.*}}ins(%[[P]] : tensor<2x8x16xf32>) outs(%[[INIT]] : tensor<2x8xf32>)
// CHECK: %[[R:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0], [1, 2]] output_shape [2, 8, 1] : tensor<2x8xf32> into tensor<2x8x1xf32>
// CHECK: return %[[R]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @keepdim_variance(%x: tensor<2x8x64xf32>, %mean: tensor<2x8x1xf32>) -> tensor<2x8x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %v = linalg.generic {indexing_maps = [#id3, #keep3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %mean : tensor<2x8x64xf32>, tensor<2x8x1xf32>) outs(%init : tensor<2x8x1xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %sq = arith.mulf %d, %d : f32
    %a = arith.addf %acc, %sq : f32
    linalg.yield %a : f32
  } -> tensor<2x8x1xf32>
  return %v : tensor<2x8x1xf32>
}

// -----

// Left as they are: a contraction (BLAS takes it whole), a reduction over
// the outer dim (its inner loop is parallel already), 40 and 16 elements
// (not a multiple of 16 above it), a combiner without a neutral element,
// a dim read at 0 that is not of size 1, and a body that reads its loop
// index (a label's one-hot pick: split, it would read the split loops').
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK-COUNT-7: linalg.generic
// CHECK-NOT: linalg.generic
#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#first = affine_map<(d0, d1) -> (d0, 0)>
func.func @left_alone(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %c: tensor<8x32xf32>,
                      %x40: tensor<8x40xf32>, %x16: tensor<8x16xf32>, %r: tensor<8xf32>,
                      %col_init: tensor<64xf32>, %wide: tensor<8x4xf32>, %label: tensor<8xindex>)
    -> (tensor<8x32xf32>, tensor<64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>) {
  %mm = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<64x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %cs = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%a : tensor<8x64xf32>) outs(%col_init : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %s40 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x40 : tensor<8x40xf32>) outs(%r : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %s16 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x16 : tensor<8x16xf32>) outs(%r : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x64xf32>) outs(%r : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.subf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %w = linalg.generic {indexing_maps = [#id, #first], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x64xf32>) outs(%wide : tensor<8x4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %pick = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a, %label : tensor<8x64xf32>, tensor<8xindex>) outs(%r : tensor<8xf32>) {
  ^bb0(%x: f32, %l: index, %acc: f32):
    %j = linalg.index 1 : index
    %hit = arith.cmpi eq, %j, %l : index
    %zero = arith.constant 0.0 : f32
    %v = arith.select %hit, %x, %zero : f32
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %mm, %cs, %s40, %s16, %sub, %w, %pick : tensor<8x32xf32>, tensor<64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>
}
