// RUN: seqpar-opt %s --seqpar-fold-index-gathers -split-input-file | FileCheck %s

// Falcon's K from its fused QKV as torch-mlir writes qkv[:, :, -2:-1, :]
// (aten.index.Tensor): aranges for batch, tokens and features, the constant
// -2 wrapped to 4 by the select of negative indices. A slice.

// CHECK-LABEL: func.func @falcon_key(
// CHECK: %[[QKV:.*]] = tensor.expand_shape
// CHECK-NOT: tensor.extract %
// CHECK: %[[K:.*]] = tensor.extract_slice %[[QKV]][0, 0, 4, 0] [2, 16, 1, 16] [1, 1, 1, 1] : tensor<2x16x6x16xf32> to tensor<2x16x1x16xf32>
// CHECK: return %[[K]]
#b = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#s = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#h = affine_map<(d0, d1, d2, d3) -> (0, 0)>
#f = affine_map<(d0, d1, d2, d3) -> (d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id1 = affine_map<(d0) -> (d0)>
func.func @falcon_key(%proj: tensor<2x16x96xf32>) -> tensor<2x16x1x16xf32> {
  %qkv = tensor.expand_shape %proj [[0], [1], [2, 3]] output_shape [2, 16, 6, 16] : tensor<2x16x96xf32> into tensor<2x16x6x16xf32>

  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %c16 = arith.constant 16 : i64
  %c6 = arith.constant 6 : i64
  %minus2 = arith.constant dense<-2> : tensor<1x1xi64>
  %e2 = tensor.empty() : tensor<2xi64>
  %ab = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e2 : tensor<2xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<2xi64>
  %e16 = tensor.empty() : tensor<16xi64>
  %a16 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e16 : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<16xi64>
  %bb = tensor.expand_shape %ab [[0, 1, 2, 3]] output_shape [2, 1, 1, 1] : tensor<2xi64> into tensor<2x1x1x1xi64>
  %ss = tensor.expand_shape %a16 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xi64> into tensor<16x1x1xi64>
  %e = tensor.empty() : tensor<2x16x1x16xf32>
  %k = linalg.generic {indexing_maps = [#b, #s, #h, #f, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb, %ss, %minus2, %a16 : tensor<2x1x1x1xi64>, tensor<16x1x1xi64>, tensor<1x1xi64>, tensor<16xi64>) outs(%e : tensor<2x16x1x16xf32>) {
  ^bb0(%i0: i64, %i1: i64, %i2: i64, %i3: i64, %out: f32):
    %n0 = arith.cmpi slt, %i0, %c0 : i64
    %w0 = arith.addi %i0, %c2 : i64
    %s0 = arith.select %n0, %w0, %i0 : i64
    %x0 = arith.index_cast %s0 : i64 to index
    %n1 = arith.cmpi slt, %i1, %c0 : i64
    %w1 = arith.addi %i1, %c16 : i64
    %s1 = arith.select %n1, %w1, %i1 : i64
    %x1 = arith.index_cast %s1 : i64 to index
    %n2 = arith.cmpi slt, %i2, %c0 : i64
    %w2 = arith.addi %i2, %c6 : i64
    %s2 = arith.select %n2, %w2, %i2 : i64
    %x2 = arith.index_cast %s2 : i64 to index
    %n3 = arith.cmpi slt, %i3, %c0 : i64
    %w3 = arith.addi %i3, %c16 : i64
    %s3 = arith.select %n3, %w3, %i3 : i64
    %x3 = arith.index_cast %s3 : i64 to index
    %v = tensor.extract %qkv[%x0, %x1, %x2, %x3] : tensor<2x16x6x16xf32>
    linalg.yield %v : f32
  } -> tensor<2x16x1x16xf32>
  return %k : tensor<2x16x1x16xf32>
}

// -----

// The picked dim dropped from the result (qkv[:, :, 5, :], linalg.index
// for the kept dims): a slice, its unit dim collapsed away.

// CHECK-LABEL: func.func @dropped_dim(
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 0, 5, 0] [2, 16, 1, 16] [1, 1, 1, 1] : tensor<2x16x6x16xf32> to tensor<2x16x1x16xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[S]] {{\[\[}}0], [1], [2, 3]] : tensor<2x16x1x16xf32> into tensor<2x16x16xf32>
// CHECK: return %[[C]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @dropped_dim(%proj: tensor<2x16x96xf32>) -> tensor<2x16x16xf32> {
  %qkv = tensor.expand_shape %proj [[0], [1], [2, 3]] output_shape [2, 16, 6, 16] : tensor<2x16x96xf32> into tensor<2x16x6x16xf32>

  %c5 = arith.constant 5 : index
  %e = tensor.empty() : tensor<2x16x16xf32>
  %v = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x16x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %l = linalg.index 2 : index
    %x = tensor.extract %qkv[%i, %j, %c5, %l] : tensor<2x16x6x16xf32>
    linalg.yield %x : f32
  } -> tensor<2x16x16xf32>
  return %v : tensor<2x16x16xf32>
}

// -----

// A batch of one: its arange has one element, the constant 0, and the
// batch loop (extent 1) reads nothing else.

// CHECK-LABEL: func.func @batch_one(
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 5, 0] [1, 16, 1, 16] [1, 1, 1, 1] : tensor<1x16x6x16xf32> to tensor<1x16x1x16xf32>
#b1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#j1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#l1 = affine_map<(d0, d1, d2, d3) -> (d3)>
#id1 = affine_map<(d0) -> (d0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @batch_one(%proj: tensor<1x16x96xf32>) -> tensor<1x16x1x16xf32> {
  %qkv = tensor.expand_shape %proj [[0], [1], [2, 3]] output_shape [1, 16, 6, 16] : tensor<1x16x96xf32> into tensor<1x16x6x16xf32>

  %c5 = arith.constant 5 : index
  %e1 = tensor.empty() : tensor<1xi64>
  %a1 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e1 : tensor<1xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<1xi64>
  %b = tensor.expand_shape %a1 [[0, 1, 2, 3]] output_shape [1, 1, 1, 1] : tensor<1xi64> into tensor<1x1x1x1xi64>
  %e16 = tensor.empty() : tensor<16xi64>
  %a16 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e16 : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<16xi64>
  %e = tensor.empty() : tensor<1x16x1x16xf32>
  %v = linalg.generic {indexing_maps = [#b1, #j1, #l1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %a16, %a16 : tensor<1x1x1x1xi64>, tensor<16xi64>, tensor<16xi64>) outs(%e : tensor<1x16x1x16xf32>) {
  ^bb0(%i0: i64, %i1: i64, %i3: i64, %out: f32):
    %x0 = arith.index_cast %i0 : i64 to index
    %x1 = arith.index_cast %i1 : i64 to index
    %x3 = arith.index_cast %i3 : i64 to index
    %x = tensor.extract %qkv[%x0, %x1, %c5, %x3] : tensor<1x16x6x16xf32>
    linalg.yield %x : f32
  } -> tensor<1x16x1x16xf32>
  return %v : tensor<1x16x1x16xf32>
}

// -----

// A batch of one as torch-mlir writes it (Falcon exported with batch 1):
// linalg.index of the unit dim folded, the arange is a generic yielding the
// constant 0, read through a map without the batch loop. Was left a gather:
// context parallelism then all-gathered K and V ("0 attention -> ring").

// CHECK-LABEL: func.func @batch_one_constant(
// CHECK-NOT: tensor.extract %
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 4, 0] [1, 16, 1, 16] [1, 1, 1, 1] : tensor<1x16x6x16xf32> to tensor<1x16x1x16xf32>
#z4 = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>
#s3 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#h2 = affine_map<(d0, d1, d2, d3) -> (0, 0)>
#f1 = affine_map<(d0, d1, d2, d3) -> (d3)>
#id1 = affine_map<(d0) -> (d0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @batch_one_constant(%proj: tensor<1x16x96xf32>) -> tensor<1x16x1x16xf32> {
  %qkv = tensor.expand_shape %proj [[0], [1], [2, 3]] output_shape [1, 16, 6, 16] : tensor<1x16x96xf32> into tensor<1x16x6x16xf32>

  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c6 = arith.constant 6 : i64
  %c16 = arith.constant 16 : i64
  %minus2 = arith.constant dense<-2> : tensor<1x1xi64>
  %e1 = tensor.empty() : tensor<1xi64>
  %a1 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e1 : tensor<1xi64>) {
  ^bb0(%out: i64):
    linalg.yield %c0 : i64
  } -> tensor<1xi64>
  %b = tensor.expand_shape %a1 [[0, 1, 2, 3]] output_shape [1, 1, 1, 1] : tensor<1xi64> into tensor<1x1x1x1xi64>
  %e16 = tensor.empty() : tensor<16xi64>
  %a16 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e16 : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<16xi64>
  %ss = tensor.expand_shape %a16 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xi64> into tensor<16x1x1xi64>
  %e = tensor.empty() : tensor<1x16x1x16xf32>
  %k = linalg.generic {indexing_maps = [#z4, #s3, #h2, #f1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %ss, %minus2, %a16 : tensor<1x1x1x1xi64>, tensor<16x1x1xi64>, tensor<1x1xi64>, tensor<16xi64>) outs(%e : tensor<1x16x1x16xf32>) {
  ^bb0(%i0: i64, %i1: i64, %i2: i64, %i3: i64, %out: f32):
    %n0 = arith.cmpi slt, %i0, %c0 : i64
    %w0 = arith.addi %i0, %c1 : i64
    %s0 = arith.select %n0, %w0, %i0 : i64
    %x0 = arith.index_cast %s0 : i64 to index
    %n1 = arith.cmpi slt, %i1, %c0 : i64
    %w1 = arith.addi %i1, %c16 : i64
    %s1 = arith.select %n1, %w1, %i1 : i64
    %x1 = arith.index_cast %s1 : i64 to index
    %n2 = arith.cmpi slt, %i2, %c0 : i64
    %w2 = arith.addi %i2, %c6 : i64
    %s2 = arith.select %n2, %w2, %i2 : i64
    %x2 = arith.index_cast %s2 : i64 to index
    %n3 = arith.cmpi slt, %i3, %c0 : i64
    %w3 = arith.addi %i3, %c16 : i64
    %s3 = arith.select %n3, %w3, %i3 : i64
    %x3 = arith.index_cast %s3 : i64 to index
    %x = tensor.extract %qkv[%x0, %x1, %x2, %x3] : tensor<1x16x6x16xf32>
    linalg.yield %x : f32
  } -> tensor<1x16x1x16xf32>
  return %k : tensor<1x16x1x16xf32>
}

// -----

// Gathers that are not slices stay: an embedding lookup at token ids, a
// constant index out of bounds, loops read out of order (a transpose), a
// loop no index reads (a broadcast); and a slice of a function argument
// (a table the function takes, such as GPT-2's position embeddings).

// CHECK-LABEL: func.func @not_slices(
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: tensor.extract_slice
#tok = affine_map<(d0, d1) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_slices(%table: tensor<32x8xf32>, %ids: tensor<4xi64>, %x: tensor<8x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %c40 = arith.constant 40 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %lookup = linalg.generic {indexing_maps = [#tok, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %r = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%r, %j] : tensor<32x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %oob = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%c40, %j] : tensor<32x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %e8 = tensor.empty() : tensor<8x8xf32>
  %transposed = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e8 : tensor<8x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %x[%j, %i] : tensor<8x8xf32>
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %repeated = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%c1, %j] : tensor<32x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %rows = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<32x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %lookup, %oob, %transposed, %repeated, %rows : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// GQA repeats of K/V heads [b, a_kv, s, d] = [1, 2, 4, 8] to a = 4 heads
// written as gathers: index_select at the constant index list [0, 0, 1, 1]
// (h floordiv 2), the same computed by divui, and a tile (h mod 2: the
// list [0, 1, 0, 1], and remui). Each becomes linalg.broadcast +
// tensor.collapse_shape (the new dim after the heads for a repeat, before
// them for a tile), which TP planning splits heads through. An index list
// of another order ([1, 0, 0, 1]) stays a gather.

// CHECK-LABEL: func.func @repeats(
// CHECK-SAME: %[[KV:.*]]: tensor<1x2x4x8xf32>
// CHECK: %[[B0:.*]] = linalg.broadcast ins(%[[KV]] : tensor<1x2x4x8xf32>) outs(%{{.*}} : tensor<1x2x2x4x8xf32>) dimensions = [2]
// CHECK: %[[R0:.*]] = tensor.collapse_shape %[[B0]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x2x4x8xf32> into tensor<1x4x4x8xf32>
// CHECK: %[[B1:.*]] = linalg.broadcast ins(%[[KV]] : tensor<1x2x4x8xf32>) outs(%{{.*}} : tensor<1x2x2x4x8xf32>) dimensions = [2]
// CHECK: %[[R1:.*]] = tensor.collapse_shape %[[B1]]
// CHECK: %[[B2:.*]] = linalg.broadcast ins(%[[KV]] : tensor<1x2x4x8xf32>) outs(%{{.*}} : tensor<1x2x2x4x8xf32>) dimensions = [1]
// CHECK: %[[R2:.*]] = tensor.collapse_shape %[[B2]]
// CHECK: %[[B3:.*]] = linalg.broadcast ins(%[[KV]] : tensor<1x2x4x8xf32>) outs(%{{.*}} : tensor<1x2x2x4x8xf32>) dimensions = [1]
// CHECK: %[[R3:.*]] = tensor.collapse_shape %[[B3]]
// CHECK: %[[OTHER:.*]] = linalg.generic
// CHECK: tensor.extract %[[KV]]
// CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[OTHER]]
#heads = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @repeats(%kv: tensor<1x2x4x8xf32>)
    -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %c2 = arith.constant 2 : index
  %repeat_list = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
  %tile_list = arith.constant dense<[0, 1, 0, 1]> : tensor<4xi64>
  %other_list = arith.constant dense<[1, 0, 0, 1]> : tensor<4xi64>
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %r0 = linalg.generic {indexing_maps = [#heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%repeat_list : tensor<4xi64>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%h: i64, %out: f32):
    %b = linalg.index 0 : index
    %hi = arith.index_cast %h : i64 to index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %v = tensor.extract %kv[%b, %hi, %i, %d] : tensor<1x2x4x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4x8xf32>
  %r1 = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %g = arith.divui %h, %c2 : index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %v = tensor.extract %kv[%b, %g, %i, %d] : tensor<1x2x4x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4x8xf32>
  %r2 = linalg.generic {indexing_maps = [#heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%tile_list : tensor<4xi64>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%h: i64, %out: f32):
    %b = linalg.index 0 : index
    %hi = arith.index_cast %h : i64 to index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %v = tensor.extract %kv[%b, %hi, %i, %d] : tensor<1x2x4x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4x8xf32>
  %r3 = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %g = arith.remui %h, %c2 : index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %v = tensor.extract %kv[%b, %g, %i, %d] : tensor<1x2x4x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4x8xf32>
  %r4 = linalg.generic {indexing_maps = [#heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%other_list : tensor<4xi64>) outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%h: i64, %out: f32):
    %b = linalg.index 0 : index
    %hi = arith.index_cast %h : i64 to index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %v = tensor.extract %kv[%b, %hi, %i, %d] : tensor<1x2x4x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4x8xf32>
  return %r0, %r1, %r2, %r3, %r4 : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}

// -----

// The same repeat once canonicalization has folded the batch of one's
// linalg.index to the constant 0.

// CHECK-LABEL: func.func @repeat_batch_one(
// CHECK: linalg.broadcast {{.*}} dimensions = [2]
// CHECK: tensor.collapse_shape
// CHECK-NOT: tensor.extract
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @repeat_batch_one(%kv: tensor<1x2x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x4x8xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 1 : index
    %g = arith.divui %h, %c2 : index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %v = tensor.extract %kv[%c0, %g, %i, %d] : tensor<1x2x4x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4x8xf32>
  return %r : tensor<1x4x4x8xf32>
}
