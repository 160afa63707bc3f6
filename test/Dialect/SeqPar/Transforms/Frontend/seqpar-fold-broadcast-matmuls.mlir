// RUN: seqpar-opt %s --seqpar-fold-broadcast-matmuls -split-input-file | FileCheck %s

// The ONNX Llama's q_proj as torch-mlir's ONNX importer writes it: the
// [out, in] weight transposed, the transpose copied to each of the 2 batch
// elements by a generic, a batch_matmul. Becomes a matmul of the collapsed
// activation and the transpose; the copy is gone.

// CHECK-LABEL: func.func @onnx_linear(
// CHECK-SAME: %[[X:.*]]: tensor<2x16x64xf32>, %[[W:.*]]: tensor<32x64xf32>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<32x64xf32>)
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.batch_matmul
// CHECK-DAG: %[[X2:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x16x64xf32> into tensor<32x64xf32>
// CHECK-DAG: %[[ACC2:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x16x32xf32> into tensor<32x32xf32>
// CHECK: %[[Y2:.*]] = linalg.matmul ins(%[[X2]], %[[WT]] : tensor<32x64xf32>, tensor<64x32xf32>) outs(%[[ACC2]] : tensor<32x32xf32>)
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[Y2]] {{\[}}[0, 1], [2]] output_shape [2, 16, 32] : tensor<32x32xf32> into tensor<2x16x32xf32>
// CHECK: return %[[Y]]
#bcast = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @onnx_linear(%x: tensor<2x16x64xf32>, %w: tensor<32x64xf32>) -> tensor<2x16x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<2x64x32xf32>
  %wb = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%wt : tensor<64x32xf32>) outs(%eb : tensor<2x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x64x32xf32>
  %eo = tensor.empty() : tensor<2x16x32xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%eo : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x16x64xf32>, tensor<2x64x32xf32>) outs(%acc : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %y : tensor<2x16x32xf32>
}

// -----

// linalg.broadcast along dim 0, a batch of 3, the copy read by two
// batch_matmuls: both rewritten, the copy erased once.

// CHECK-LABEL: func.func @named_broadcast_two_users(
// CHECK-SAME: %[[X:.*]]: tensor<3x8x16xf32>, %[[W:.*]]: tensor<16x4xf32>
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<24x16xf32>, tensor<16x4xf32>)
// CHECK: tensor.expand_shape {{.*}} output_shape [3, 8, 4] : tensor<24x4xf32> into tensor<3x8x4xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<24x16xf32>, tensor<16x4xf32>)
// CHECK-NOT: linalg.broadcast
func.func @named_broadcast_two_users(%x: tensor<3x8x16xf32>, %w: tensor<16x4xf32>, %acc: tensor<3x8x4xf32>) -> (tensor<3x8x4xf32>, tensor<3x8x4xf32>) {
  %eb = tensor.empty() : tensor<3x16x4xf32>
  %wb = linalg.broadcast ins(%w : tensor<16x4xf32>) outs(%eb : tensor<3x16x4xf32>) dimensions = [0]
  %y = linalg.batch_matmul ins(%x, %wb : tensor<3x8x16xf32>, tensor<3x16x4xf32>) outs(%acc : tensor<3x8x4xf32>) -> tensor<3x8x4xf32>
  %z = linalg.batch_matmul ins(%x, %wb : tensor<3x8x16xf32>, tensor<3x16x4xf32>) outs(%acc : tensor<3x8x4xf32>) -> tensor<3x8x4xf32>
  return %y, %z : tensor<3x8x4xf32>, tensor<3x8x4xf32>
}

// -----

// A copy that transposes ([out, in] read at (d2, d1)): the matmul needs
// the [in, out] matrix, so the weight is transposed once (not b times).

// CHECK-LABEL: func.func @transposing_copy(
// CHECK-SAME: %[[X:.*]]: tensor<2x8x16xf32>, %[[W:.*]]: tensor<4x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<16x4xf32>) permutation = [1, 0]
// CHECK: linalg.matmul ins(%{{.*}}, %[[WT]] : tensor<16x16xf32>, tensor<16x4xf32>)
#bt = affine_map<(d0, d1, d2) -> (d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @transposing_copy(%x: tensor<2x8x16xf32>, %w: tensor<4x16xf32>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %eb = tensor.empty() : tensor<2x16x4xf32>
  %wb = linalg.generic {indexing_maps = [#bt, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<4x16xf32>) outs(%eb : tensor<2x16x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x4xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x8x16xf32>, tensor<2x16x4xf32>) outs(%acc : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// -----

// batch_matmul with the transposed-B maps (what batch_matmul_transpose_b
// was) of a broadcast [out, in] weight: the two transposes cancel, the
// matmul reads a transpose of the weight.

// CHECK-LABEL: func.func @transpose_b_maps(
// CHECK-SAME: %[[X:.*]]: tensor<2x8x16xf32>, %[[W:.*]]: tensor<4x16xf32>
// CHECK-NOT: linalg.broadcast
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<16x4xf32>) permutation = [1, 0]
// CHECK: linalg.matmul ins(%{{.*}}, %[[WT]] : tensor<16x16xf32>, tensor<16x4xf32>)
// CHECK-NOT: linalg.batch_matmul
func.func @transpose_b_maps(%x: tensor<2x8x16xf32>, %w: tensor<4x16xf32>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %eb = tensor.empty() : tensor<2x4x16xf32>
  %wb = linalg.broadcast ins(%w : tensor<4x16xf32>) outs(%eb : tensor<2x4x16xf32>) dimensions = [0]
  %y = linalg.batch_matmul indexing_maps = [
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
    ins(%x, %wb : tensor<2x8x16xf32>, tensor<2x4x16xf32>) outs(%acc : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// -----

// Mixed element types: bf16 operands accumulated in f32 (autocast's
// linear), the copy transposing; and i8 operands into i32 with the
// unsigned cast. The matmul keeps the element types and the cast function.

// CHECK-LABEL: func.func @mixed_types(
// CHECK-SAME: %[[X:.*]]: tensor<2x8x16xbf16>, %[[W:.*]]: tensor<4x16xbf16>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x16xbf16>) outs(%{{.*}} : tensor<16x4xbf16>)
// CHECK: %[[X2:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x8x16xbf16> into tensor<16x16xbf16>
// CHECK: linalg.matmul ins(%[[X2]], %[[WT]] : tensor<16x16xbf16>, tensor<16x4xbf16>) outs(%{{.*}} : tensor<16x4xf32>)
#tb = affine_map<(d0, d1, d2) -> (d2, d1)>
#tid = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @mixed_types(%x: tensor<2x8x16xbf16>, %w: tensor<4x16xbf16>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %eb = tensor.empty() : tensor<2x16x4xbf16>
  %wb = linalg.generic {indexing_maps = [#tb, #tid], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<4x16xbf16>) outs(%eb : tensor<2x16x4xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x16x4xbf16>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x8x16xbf16>, tensor<2x16x4xbf16>) outs(%acc : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @unsigned_cast(
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%{{.*}}, %{{.*}} : tensor<16x16xi8>, tensor<16x4xi8>) outs(%{{.*}} : tensor<16x4xi32>)
func.func @unsigned_cast(%x: tensor<2x8x16xi8>, %w: tensor<16x4xi8>, %acc: tensor<2x8x4xi32>) -> tensor<2x8x4xi32> {
  %eb = tensor.empty() : tensor<2x16x4xi8>
  %wb = linalg.broadcast ins(%w : tensor<16x4xi8>) outs(%eb : tensor<2x16x4xi8>) dimensions = [0]
  %y = linalg.batch_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%x, %wb : tensor<2x8x16xi8>, tensor<2x16x4xi8>) outs(%acc : tensor<2x8x4xi32>) -> tensor<2x8x4xi32>
  return %y : tensor<2x8x4xi32>
}

// -----

// Left alone: the "weight" differs per batch element (the generic reads
// its input at d0 too), a broadcast along another dim than the batch, a
// copy that does more than copy, a copy on the left-hand side, and
// dynamic shapes.

// CHECK-LABEL: func.func @per_batch_weight(
// CHECK: linalg.generic
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.matmul
#pb = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @per_batch_weight(%x: tensor<2x8x16xf32>, %w: tensor<2x16x4xf32>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %eb = tensor.empty() : tensor<2x16x4xf32>
  %wb = linalg.generic {indexing_maps = [#pb, #pb], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x16x4xf32>) outs(%eb : tensor<2x16x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x4xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x8x16xf32>, tensor<2x16x4xf32>) outs(%acc : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @broadcast_along_k(
// CHECK: linalg.broadcast
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.matmul
func.func @broadcast_along_k(%x: tensor<2x8x16xf32>, %w: tensor<2x4xf32>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %eb = tensor.empty() : tensor<2x16x4xf32>
  %wb = linalg.broadcast ins(%w : tensor<2x4xf32>) outs(%eb : tensor<2x16x4xf32>) dimensions = [1]
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x8x16xf32>, tensor<2x16x4xf32>) outs(%acc : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @scaled_copy(
// CHECK: linalg.generic
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.matmul
#bc = affine_map<(d0, d1, d2) -> (d1, d2)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scaled_copy(%x: tensor<2x8x16xf32>, %w: tensor<16x4xf32>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %eb = tensor.empty() : tensor<2x16x4xf32>
  %wb = linalg.generic {indexing_maps = [#bc, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<16x4xf32>) outs(%eb : tensor<2x16x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x16x4xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x8x16xf32>, tensor<2x16x4xf32>) outs(%acc : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @lhs_copy(
// CHECK: linalg.broadcast
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.matmul
func.func @lhs_copy(%w: tensor<8x16xf32>, %x: tensor<2x16x4xf32>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %eb = tensor.empty() : tensor<2x8x16xf32>
  %wb = linalg.broadcast ins(%w : tensor<8x16xf32>) outs(%eb : tensor<2x8x16xf32>) dimensions = [0]
  %y = linalg.batch_matmul ins(%wb, %x : tensor<2x8x16xf32>, tensor<2x16x4xf32>) outs(%acc : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %y : tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @dynamic_batch(
// CHECK: linalg.broadcast
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.matmul
func.func @dynamic_batch(%x: tensor<?x8x16xf32>, %w: tensor<16x4xf32>, %acc: tensor<?x8x4xf32>, %eb: tensor<?x16x4xf32>) -> tensor<?x8x4xf32> {
  %wb = linalg.broadcast ins(%w : tensor<16x4xf32>) outs(%eb : tensor<?x16x4xf32>) dimensions = [0]
  %y = linalg.batch_matmul ins(%x, %wb : tensor<?x8x16xf32>, tensor<?x16x4xf32>) outs(%acc : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
  return %y : tensor<?x8x4xf32>
}

