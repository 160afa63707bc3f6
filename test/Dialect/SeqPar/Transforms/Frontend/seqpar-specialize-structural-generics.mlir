// RUN: seqpar-opt %s --seqpar-specialize-structural-generics -split-input-file | FileCheck %s

// What linalg-generalize-named-ops makes of a fill, a transpose and a
// broadcast, and a frontend's fill with no input, become the named ops on
// the same operands; the generic's attributes stay.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#scalar2 = affine_map<(d0, d1) -> ()>
#perm3 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d2)>

// CHECK-LABEL: func.func @specialized(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[B:[^:]*]]: tensor<8xf32>, %[[Z:[^:]*]]: f32
// CHECK-NOT: linalg.generic
// CHECK: %[[C:.*]] = arith.constant 1.0
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[F1:.*]] = linalg.fill {frontend.tag = 1 : i64} ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: %[[F2:.*]] = linalg.fill ins(%[[C]] : f32) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: %[[E3:.*]] = tensor.empty() : tensor<2x8x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<2x4x8xf32>) outs(%[[E3]] : tensor<2x8x4xf32>) permutation = [0, 2, 1]
// CHECK: %[[E4:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK: %[[BC:.*]] = linalg.broadcast ins(%[[B]] : tensor<8xf32>) outs(%[[E4]] : tensor<2x4x8xf32>) dimensions = [0, 1]
// CHECK: return %[[F1]], %[[F2]], %[[T]], %[[BC]]
func.func @specialized(%x: tensor<2x4x8xf32>, %b: tensor<8xf32>, %z: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x8x4xf32>, tensor<2x4x8xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f1 = linalg.generic {indexing_maps = [#scalar2, #id2], iterator_types = ["parallel", "parallel"]} ins(%z : f32) outs(%e : tensor<4x8xf32>) attrs = {frontend.tag = 1 : i64} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %f2 = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    linalg.yield %one : f32
  } -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<2x8x4xf32>
  %t = linalg.generic {indexing_maps = [#perm3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x8xf32>) outs(%e3 : tensor<2x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x4xf32>
  %e4 = tensor.empty() : tensor<2x4x8xf32>
  %bc = linalg.generic {indexing_maps = [#row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%e4 : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x8xf32>
  return %f1, %f2, %t, %bc : tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x8x4xf32>, tensor<2x4x8xf32>
}

// -----

// Left alone: bodies that yield the init (not a copy of the input), a value
// computed in the body, a fill that writes one column only, an elementwise
// op, a reduction, and a generic on buffers.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr2 = affine_map<(d0, d1) -> (d1, d0)>
#col = affine_map<(d0) -> (d0, 0)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @left_alone(
// CHECK-COUNT-7: linalg.generic
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.broadcast
func.func @left_alone(%x: tensor<4x4xf32>, %y: tensor<4xf32>, %m: memref<4x4xf32>, %n: memref<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) {
  %c = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %keeps_init = linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%x : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %out : f32
  } -> tensor<4x4xf32>
  %computed = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %v = arith.addf %c, %c : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %column = linalg.generic {indexing_maps = [#col], iterator_types = ["parallel"]} outs(%x : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %c : f32
  } -> tensor<4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %c : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x4xf32>) outs(%y : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%m : memref<4x4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %c : f32
  }
  linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]} ins(%n : memref<4x4xf32>) outs(%m : memref<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return %keeps_init, %computed, %column, %scaled, %sum : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>
}

// -----

// Left alone: copies, which upstream's transpose predicate also accepts (an
// identity permutation; of rank 0, a linalg.transpose crashed upstream's
// verifier).

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<() -> ()>

// CHECK-LABEL: func.func @copies(
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.transpose
func.func @copies(%x: tensor<4x4xf32>, %y: tensor<f32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %c = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %c0 = linalg.generic {indexing_maps = [#none, #none], iterator_types = []} ins(%y : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<f32>
  return %c, %c0 : tensor<4x4xf32>, tensor<f32>
}

// -----

// A transpose written with the permutation on the init (out[d0, d2, d1] =
// in[d0, d1, d2]) and one with both maps permuted: result dim j is the
// input dim that reads the loop the init's dim j reads.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#p021 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#p120 = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
#p201 = affine_map<(d0, d1, d2) -> (d2, d0, d1)>

// CHECK-LABEL: func.func @permuted_init(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x4x8xf32>) outs(%{{.*}} : tensor<2x8x4xf32>) permutation = [0, 2, 1]
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x4x8xf32>) outs(%{{.*}} : tensor<8x2x4xf32>) permutation = [2, 0, 1]
func.func @permuted_init(%x: tensor<2x4x8xf32>) -> (tensor<2x8x4xf32>, tensor<8x2x4xf32>) {
  %e = tensor.empty() : tensor<2x8x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #p021], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x8xf32>) outs(%e : tensor<2x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x4xf32>
  // out[d1, d2, d0] = x[d2, d0, d1]: result[a, b, c] = x[b, c, a].
  %e2 = tensor.empty() : tensor<8x2x4xf32>
  %u = linalg.generic {indexing_maps = [#p201, #p120], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x8xf32>) outs(%e2 : tensor<8x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x2x4xf32>
  return %t, %u : tensor<2x8x4xf32>, tensor<8x2x4xf32>
}
