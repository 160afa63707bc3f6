// RUN: seqpar-opt %s --seqpar-raise-attention -split-input-file -verify-diagnostics | FileCheck %s

// Tests that dropout of the attention probabilities (P' = P * m between the
// softmax and P.V) is raised into seqpar.attention's dropout region when m
// is proven a function of the element's (batch, head, query, key) only
// (docs/semantics.md §4.8), and that the attention is left as written, with
// a remark, when it is not.

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// m from linalg.index of P's loops: keep where (2 * j + i + h) mod 3 != 0,
// times 1.5. The region reads the global head (head 1 of the batch-head
// dim is b * 2 + h, resolved to h) and the query and key positions.
// CHECK-LABEL: func.func @positions
// CHECK: seqpar.attention %arg0, %arg1, %arg2 {scale = 1.250000e-01 : f32} : {{.*}} dropout {
// CHECK-NEXT: ^bb0(%[[B:.*]]: index, %[[H:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index):
// CHECK: arith.remsi
// CHECK: arith.cmpi ne
// CHECK: arith.select
// CHECK: seqpar.yield %{{.*}} : f32
// CHECK-NOT: linalg.batch_matmul
func.func @positions(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %et = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x8x4xf32>) outs(%et : tensor<1x2x4x8xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%scaled : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %ed = tensor.empty() : tensor<2x8x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p3 : tensor<2x8x8xf32>) outs(%ed : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %bh = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %jj = arith.muli %j, %c2 : index
    %t = arith.addi %jj, %i : index
    %u = arith.addi %t, %bh : index
    %r = arith.remsi %u, %c3 : index
    %keep = arith.cmpi ne, %r, %c0 : index
    %k15 = arith.constant 1.5 : f32
    %kept = arith.mulf %x, %k15 : f32
    %y = arith.select %keep, %kept, %zero : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%d, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// seqpar.dropout of P (Philox at P's linear index, constant seed): the
// region draws the same bit at (b * 2 + h) * 64 + i * 8 + j.
// CHECK-LABEL: func.func @philox
// CHECK: seqpar.attention %arg0, %arg1, %arg2 {scale = 1.250000e-01 : f32} : {{.*}} dropout {
// CHECK: arith.index_castui %{{.*}} : index to i64
// CHECK: arith.mului_extended
// CHECK: arith.cmpf oge
// CHECK: seqpar.yield %{{.*}} : f32
// CHECK-NOT: seqpar.dropout
func.func @philox(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %seed = arith.constant 1234 : i64
  %et = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x8x4xf32>) outs(%et : tensor<1x2x4x8xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%scaled : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %d = seqpar.dropout %p3 seed %seed {rate = 0.25 : f64, site = 0 : i64} : tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%d, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// The keep mask is an argument: data, not a function of the positions.
// Under context parallelism no rank could draw a block of it, so the
// attention stays as written, with a remark.
// CHECK-LABEL: func.func @mask_argument
// CHECK-NOT: seqpar.attention
// CHECK: linalg.batch_matmul
func.func @mask_argument(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %et = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x8x4xf32>) outs(%et : tensor<1x2x4x8xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention: its P.V product was not raised: the probabilities' dropout is not a function}}
  %p = linalg.softmax dimension(3) ins(%scaled : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %ed = tensor.empty() : tensor<2x8x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%keep, %p3 : tensor<2x8x8xi1>, tensor<2x8x8xf32>) outs(%ed : tensor<2x8x8xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %k2 = arith.constant 2.0 : f32
    %kept = arith.mulf %x, %k2 : f32
    %y = arith.select %m, %kept, %zero : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  // expected-remark @+1 {{attention not raised: the probabilities' dropout is not a function of the element's (batch, head, query, key) only: it reads argument #3 of its block (a function argument: data, not a position)}}
  %o = linalg.batch_matmul ins(%d, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}
