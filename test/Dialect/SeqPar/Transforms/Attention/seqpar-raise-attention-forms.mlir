// RUN: seqpar-opt %s --seqpar-raise-attention -split-input-file -verify-diagnostics | FileCheck %s
// Forward graphs have no backward to raise: with backward=true the same
// remarks and nothing about a backward (the forms that are not plain
// [b, heads, tokens, d] once got "attention backward not raised").
// RUN: seqpar-opt %s --seqpar-raise-attention=backward=true -split-input-file -verify-diagnostics -o /dev/null

// Forms of attention other frontends write (docs/context-parallelism.md,
// "Raising attention from other exporters"): result layouts, GQA repeats,
// 3-D operands, softmax forms, masks, and remarks naming the step that
// failed. Shapes: b = 1 or 2, a = 2 or 4, s = t = 4, d = 4.

#q = affine_map<(b, h, i, j, e) -> (b, h, i, e)>
#k = affine_map<(b, h, i, j, e) -> (b, h, j, e)>
#s = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, i, h, e)>

// P.V written token-major: its result map puts the sequence before the
// heads, [b, s, a, d]. Raised; the result transposed into that layout.
// CHECK-LABEL: func.func @pv_token_major
// CHECK: %[[O:.*]] = seqpar.attention %arg0, %arg1, %arg2 {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[O]] : tensor<1x2x4x4xf32>) outs(%{{.*}} : tensor<1x4x2x4xf32>) permutation = [0, 2, 1, 3]
// CHECK: return %[[T]]
func.func @pv_token_major(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> tensor<1x4x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<1x2x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %sc = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%zs : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<1x2x4x4xf32>) outs(%es : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %eo = tensor.empty() : tensor<1x4x2x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%zo : tensor<1x4x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x2x4xf32>
  return %o : tensor<1x4x2x4xf32>
}

// -----

#kq_k = affine_map<(b, h, j, i, e) -> (b, h, j, e)>
#kq_q = affine_map<(b, h, j, i, e) -> (b, h, i, e)>
#kq_s = affine_map<(b, h, j, i, e) -> (b, h, i, j)>
#vt_v = affine_map<(h, b, e, i, j) -> (b, h, j, e)>
#vt_p = affine_map<(h, b, e, i, j) -> (b, h, i, j)>
#vt_o = affine_map<(h, b, e, i, j) -> (h, b, e, i)>

// Logits as K.Q^T (K the first operand, the result [b, a, s, t]) and the
// output as V^T.P^T with the batch loops (h, b): [a, b, d, s]. Raised; the
// result transposed to [a, b, d, s].
// CHECK-LABEL: func.func @kq_and_vt_pt
// CHECK: %[[O:.*]] = seqpar.attention %arg0, %arg1, %arg2 {scale = 1.000000e+00 : f32} : tensor<2x2x4x4xf32>
// CHECK: linalg.transpose ins(%[[O]] : tensor<2x2x4x4xf32>) outs(%{{.*}} : tensor<2x2x4x4xf32>) permutation = [1, 0, 3, 2]
func.func @kq_and_vt_pt(%q: tensor<2x2x4x4xf32>, %k: tensor<2x2x4x4xf32>, %v: tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  %sc = linalg.generic {indexing_maps = [#kq_k, #kq_q, #kq_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%k, %q : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) outs(%zs : tensor<2x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x4xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x2x4x4xf32>) outs(%es : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  %o = linalg.generic {indexing_maps = [#vt_v, #vt_p, #vt_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%v, %p : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) outs(%zs : tensor<2x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x4xf32>
  return %o : tensor<2x2x4x4xf32>
}

// -----

#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#kv5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>

// GQA, K/V repeated by adding a broadcast zero tensor: raised on the K/V
// before the repeat (2 heads for 4 query heads).
// CHECK-LABEL: func.func @gqa_zero_add
// CHECK: seqpar.attention %arg0, %arg1, %arg2 {scale = 1.000000e+00 : f32} : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x4x4x4xf32>
func.func @gqa_zero_add(%q: tensor<1x4x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<1x2x2x4x4xf32>
  %e5 = tensor.empty() : tensor<1x2x2x4x4xf32>
  %k5 = tensor.expand_shape %k [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 4, 4] : tensor<1x2x4x4xf32> into tensor<1x2x1x4x4xf32>
  %v5 = tensor.expand_shape %v [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 4, 4] : tensor<1x2x4x4xf32> into tensor<1x2x1x4x4xf32>
  %kz = linalg.generic {indexing_maps = [#kv5, #id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k5, %zeros : tensor<1x2x1x4x4xf32>, tensor<1x2x2x4x4xf32>) outs(%e5 : tensor<1x2x2x4x4xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %y = arith.addf %x, %z : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4x4xf32>
  %vz = linalg.generic {indexing_maps = [#kv5, #id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v5, %zeros : tensor<1x2x1x4x4xf32>, tensor<1x2x2x4x4xf32>) outs(%e5 : tensor<1x2x2x4x4xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %y = arith.addf %z, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4x4xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %k3 = tensor.collapse_shape %kz [[0, 1, 2], [3], [4]] : tensor<1x2x2x4x4xf32> into tensor<4x4x4xf32>
  %v3 = tensor.collapse_shape %vz [[0, 1, 2], [3], [4]] : tensor<1x2x2x4x4xf32> into tensor<4x4x4xf32>
  %e = tensor.empty() : tensor<4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x4x4xf32>) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

// GQA, K/V tiled by tensor.concat along the heads: query head h reads K/V
// head h mod 2. Raised on the K/V before the concat, Q's heads renumbered
// so that head h reads h floordiv 2, and the result renumbered back.
// CHECK-LABEL: func.func @gqa_concat_tile
// CHECK: %[[Q5:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 4]
// CHECK: %[[QT:.*]] = linalg.transpose ins(%[[Q5]] : tensor<1x2x2x4x4xf32>) {{.*}} permutation = [0, 2, 1, 3, 4]
// CHECK: %[[Q:.*]] = tensor.collapse_shape %[[QT]] {{\[\[}}0], [1, 2], [3], [4]]
// CHECK: %[[O:.*]] = seqpar.attention %[[Q]], %arg1, %arg2 {scale = 1.000000e+00 : f32} : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
// CHECK: %[[O5:.*]] = tensor.expand_shape %[[O]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 4]
// CHECK: linalg.transpose ins(%[[O5]] : tensor<1x2x2x4x4xf32>) {{.*}} permutation = [0, 2, 1, 3, 4]
func.func @gqa_concat_tile(%q: tensor<1x4x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %kt = tensor.concat dim(1) %k, %k : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %vt = tensor.concat dim(1) %v, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %e = tensor.empty() : tensor<4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x4x4xf32>) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#head = affine_map<(d0, d1, d2, d3) -> (d1)>

// GQA by gathers: K by index_select with a constant list [0, 0, 1, 1], V at
// a computed index linalg.index 1 floordiv 2. Raised on K and V as given.
// CHECK-LABEL: func.func @gqa_gathers
// CHECK: seqpar.attention %arg0, %arg1, %arg2 {scale = 1.000000e+00 : f32} : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x4x4x4xf32>
func.func @gqa_gathers(%q: tensor<1x4x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %idx = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %kg = linalg.generic {indexing_maps = [#head, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%idx : tensor<4xi64>) outs(%e4 : tensor<1x4x4x4xf32>) {
  ^bb0(%n: i64, %o: f32):
    %b = linalg.index 0 : index
    %h = arith.index_cast %n : i64 to index
    %t = linalg.index 2 : index
    %d = linalg.index 3 : index
    %x = tensor.extract %k[%b, %h, %t, %d] : tensor<1x2x4x4xf32>
    linalg.yield %x : f32
  } -> tensor<1x4x4x4xf32>
  %vg = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e4 : tensor<1x4x4x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %hq = linalg.index 1 : index
    %h = arith.divui %hq, %c2 : index
    %t = linalg.index 2 : index
    %d = linalg.index 3 : index
    %x = tensor.extract %v[%b, %h, %t, %d] : tensor<1x2x4x4xf32>
    linalg.yield %x : f32
  } -> tensor<1x4x4x4xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %k3 = tensor.collapse_shape %kg [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %v3 = tensor.collapse_shape %vg [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %e = tensor.empty() : tensor<4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x4x4xf32>) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

// A gather whose index list is not a repeat or a tile ([1, 0, 0, 1]) is
// not followed: K and V are taken after it, with as many heads as Q.
// CHECK-LABEL: func.func @gqa_gather_other_order
// CHECK: seqpar.attention {{.*}} : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32> -> tensor<1x4x4x4xf32>
func.func @gqa_gather_other_order(%q: tensor<1x4x4x4xf32>, %k: tensor<1x2x4x4xf32>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %idx = arith.constant dense<[1, 0, 0, 1]> : tensor<4xi64>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %kg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%idx : tensor<4xi64>) outs(%e4 : tensor<1x4x4x4xf32>) {
  ^bb0(%n: i64, %o: f32):
    %b = linalg.index 0 : index
    %h = arith.index_cast %n : i64 to index
    %t = linalg.index 2 : index
    %d = linalg.index 3 : index
    %x = tensor.extract %k[%b, %h, %t, %d] : tensor<1x2x4x4xf32>
    linalg.yield %x : f32
  } -> tensor<1x4x4x4xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %k3 = tensor.collapse_shape %kg [[0, 1], [2], [3]] : tensor<1x4x4x4xf32> into tensor<4x4x4xf32>
  %e = tensor.empty() : tensor<4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x4x4xf32>) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %k3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

// Operands already 3-D, [b*a, s, d] arguments with no 4-D origin, and a
// key-padding mask [b, t] broadcast and collapsed to [b*a, s, t]: the
// [b*a] dims split as the mask needs, b = 2 and a = 2, the mask read as
// [b, 1, 1, t].
// CHECK-LABEL: func.func @flat_operands
// CHECK-DAG: %[[M:.*]] = tensor.expand_shape %arg3 {{\[\[}}0], [1, 2, 3]] output_shape [2, 1, 1, 4]
// CHECK-DAG: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3]] output_shape [2, 2, 4, 4]
// CHECK: %[[O:.*]] = seqpar.attention %[[Q]], %{{.*}}, %{{.*}} mask(%[[M]] : tensor<2x1x1x4xf32>) {scale = 1.000000e+00 : f32} : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32> -> tensor<2x2x4x4xf32>
// CHECK: tensor.collapse_shape %[[O]] {{\[\[}}0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
func.func @flat_operands(%q: tensor<4x4x4xf32>, %k: tensor<4x4x4xf32>, %v: tensor<4x4x4xf32>, %pad: tensor<2x4xf32>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %e4 = tensor.empty() : tensor<2x2x4x4xf32>
  %pb = linalg.broadcast ins(%pad : tensor<2x4xf32>) outs(%e4 : tensor<2x2x4x4xf32>) dimensions = [1, 2]
  %p3 = tensor.collapse_shape %pb [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %l = linalg.add ins(%s, %p3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%l : tensor<4x4x4xf32>) outs(%e : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// Softmax in log-sum-exp form: exp(x - (max + log(sum(exp(x - max))))).
// CHECK-LABEL: func.func @softmax_log_sum_exp
// CHECK: seqpar.attention {{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
// CHECK-NOT: math.log
func.func @softmax_log_sum_exp(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %lse = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%max, %sum : tensor<2x4xf32>, tensor<2x4xf32>) outs(%er : tensor<2x4xf32>) {
  ^bb0(%m: f32, %s: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %m, %l : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %lse : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %d = arith.subf %a, %l : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// exp of torch's log_softmax, exp((x - max) - log(sum(exp(x - max)))),
// each step its own op.
// CHECK-LABEL: func.func @softmax_exp_log_softmax
// CHECK: seqpar.attention {{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
func.func @softmax_exp_log_softmax(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %sh = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %r = arith.subf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %ls = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<2x4xf32>) outs(%er : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.log %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %lsm = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh, %ls : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %r = arith.subf %a, %l : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lsm : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// e * (1 / sum) with the reciprocal in the multiplying op's body: raised.
// CHECK-LABEL: func.func @softmax_reciprocal_in_body
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
func.func @softmax_reciprocal_in_body(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %inv = arith.divf %one, %s : f32
    %r = arith.mulf %inv, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// A softmax whose row max starts at 0 (above the row's max when every
// logit is negative: not a softmax) is not raised; the remark names the
// step.
// CHECK-LABEL: func.func @softmax_max_from_zero
// CHECK-NOT: seqpar.attention
func.func @softmax_max_from_zero(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  // expected-remark @+1 {{softmax-like value not raised to seqpar.attention: the row max starts from a value above -1e30 (not -inf, the lowest float or NaN): it may exceed the row's max}}
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A softmax whose product accumulates into a non-zero tensor, and one
// read by an elementwise op before any product: not raised, each remark
// naming the step.
// CHECK-LABEL: func.func @softmax_unraised_remarks
// CHECK-NOT: seqpar.attention
func.func @softmax_unraised_remarks(%x: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %acc: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>) {
  %e = tensor.empty() : tensor<2x4x4xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention: the contraction reading it ('linalg.batch_matmul') is not a P.V product}}
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%acc : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention: no contraction reads it as the probabilities of an attention}}
  %p2 = linalg.softmax dimension(2) ins(%v : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %d = linalg.mul ins(%p2, %acc : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o, %d : tensor<2x4x4xf32>, tensor<2x4x4xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#pad = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>

// A key-padding mask from an integer attention mask, (1 - float(m)) * -1e4
// expanded to [b, 1, 1, t], added after the scale: an additive mask, read
// where it is [b, 1, 1, t].
// CHECK-LABEL: func.func @mask_int_key_padding
// CHECK: %[[M:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [2, 1, 1, 4] : tensor<2x4xf32> into tensor<2x1x1x4xf32>
// CHECK: seqpar.attention %arg0, %arg1, %arg2 mask(%[[M]] : tensor<2x1x1x4xf32>) {scale = 5.000000e-01 : f32}
func.func @mask_int_key_padding(%q: tensor<2x2x4x4xf32>, %k: tensor<2x2x4x4xf32>, %v: tensor<2x2x4x4xf32>, %m: tensor<2x4xi64>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %big = arith.constant -1.0e4 : f32
  %e2 = tensor.empty() : tensor<2x4xf32>
  %mf = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x4xi64>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%x: i64, %o: f32):
    %f = arith.sitofp %x : i64 to f32
    %i = arith.subf %one, %f : f32
    %r = arith.mulf %i, %big : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %m4 = tensor.expand_shape %mf [[0, 1, 2], [3]] output_shape [2, 1, 1, 4] : tensor<2x4xf32> into tensor<2x1x1x4xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %e3 = tensor.empty() : tensor<4x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s3 = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 2, 4, 4] : tensor<4x4x4xf32> into tensor<2x2x4x4xf32>
  %e = tensor.empty() : tensor<2x2x4x4xf32>
  %l = linalg.generic {indexing_maps = [#id4, #pad, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m4 : tensor<2x2x4x4xf32>, tensor<2x1x1x4xf32>) outs(%e : tensor<2x2x4x4xf32>) {
  ^bb0(%x: f32, %pm: f32, %o: f32):
    %y = arith.mulf %x, %half : f32
    %r = arith.addf %y, %pm : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x4xf32>
  %p = linalg.softmax dimension(3) ins(%l : tensor<2x2x4x4xf32>) outs(%e : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b1st = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#keys = affine_map<(d0, d1, d2, d3) -> (d0, d3)>

// Causal and padding in one [b, 1, s, t] mask of finfo.min built from
// positions and an integer mask: not the causal mask (it also hides
// padding keys), so it stays an additive mask.
// CHECK-LABEL: func.func @mask_causal_and_padding
// CHECK: %[[M:.*]] = linalg.generic
// CHECK: seqpar.attention {{.*}} mask(%[[M]] : tensor<2x1x4x4xf32>) {scale = 5.000000e-01 : f32}
// CHECK-NOT: causal
func.func @mask_causal_and_padding(%q: tensor<2x2x4x4xf32>, %k: tensor<2x2x4x4xf32>, %v: tensor<2x2x4x4xf32>, %m: tensor<2x4xi64>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %z64 = arith.constant 0 : i64
  %eb = tensor.empty() : tensor<2x1x4x4xf32>
  %mask = linalg.generic {indexing_maps = [#keys, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m : tensor<2x4xi64>) outs(%eb : tensor<2x1x4x4xf32>) {
  ^bb0(%x: i64, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %past = arith.cmpi ule, %j, %i : index
    %keep = arith.cmpi ne, %x, %z64 : i64
    %vis = arith.andi %past, %keep : i1
    %r = arith.select %vis, %zero, %lowest : f32
    linalg.yield %r : f32
  } -> tensor<2x1x4x4xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %e3 = tensor.empty() : tensor<4x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s3 = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 2, 4, 4] : tensor<4x4x4xf32> into tensor<2x2x4x4xf32>
  %e = tensor.empty() : tensor<2x2x4x4xf32>
  %l = linalg.generic {indexing_maps = [#id4, #b1st, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x2x4x4xf32>, tensor<2x1x4x4xf32>) outs(%e : tensor<2x2x4x4xf32>) {
  ^bb0(%x: f32, %pm: f32, %o: f32):
    %y = arith.mulf %x, %half : f32
    %r = arith.addf %y, %pm : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x4xf32>
  %p = linalg.softmax dimension(3) ins(%l : tensor<2x2x4x4xf32>) outs(%e : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#st = affine_map<(d0, d1, d2) -> (d1, d2)>
#keys3 = affine_map<(d0, d1, d2) -> (d0 floordiv 2, d2)>

// Masks computed in the body of the op that applies them: the padding
// term (1 - float(m[b, j])) * -1e4 (read at (n floordiv 2, j) on [b*a, s, t]
// logits) and a sliding window of 2 keys hidden by a select of -inf. Each
// becomes a tensor over the loops it varies along, (n, j) and (i, j), read
// as [1, b*a, 1, t] and [1, 1, s, t].
// CHECK-LABEL: func.func @mask_in_body
// CHECK: %[[PAD:.*]] = linalg.generic {{.*}} ins(%arg3 : tensor<2x4xi64>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: arith.sitofp
// CHECK: %[[P4:.*]] = tensor.expand_shape %[[PAD]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 4, 1, 4]
// CHECK: seqpar.attention {{.*}} mask(%[[P4]] : tensor<1x4x1x4xf32>) {scale = 5.000000e-01 : f32}
// CHECK: %[[WIN:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: arith.select %{{.*}}, %[[NINF]], %{{.*}} : f32
// CHECK: %[[W4:.*]] = tensor.expand_shape %[[WIN]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 4, 4]
// CHECK: seqpar.attention {{.*}} mask(%[[W4]] : tensor<1x1x4x4xf32>) {scale = 5.000000e-01 : f32}
func.func @mask_in_body(%q: tensor<4x4x4xf32>, %k: tensor<4x4x4xf32>, %v: tensor<4x4x4xf32>, %m: tensor<2x4xi64>) -> (tensor<4x4x4xf32>, tensor<4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %big = arith.constant -1.0e4 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c2 = arith.constant 2 : index
  %e3 = tensor.empty() : tensor<4x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %l1 = linalg.generic {indexing_maps = [#id3, #keys3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<4x4x4xf32>, tensor<2x4xi64>) outs(%e3 : tensor<4x4x4xf32>) {
  ^bb0(%x: f32, %mi: i64, %o: f32):
    %y = arith.mulf %x, %half : f32
    %f = arith.sitofp %mi : i64 to f32
    %iv = arith.subf %one, %f : f32
    %t = arith.mulf %iv, %big : f32
    %r = arith.addf %y, %t : f32
    linalg.yield %r : f32
  } -> tensor<4x4x4xf32>
  %p1 = linalg.softmax dimension(2) ins(%l1 : tensor<4x4x4xf32>) outs(%e3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o1 = linalg.batch_matmul ins(%p1, %v : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %l2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x4x4xf32>) outs(%e3 : tensor<4x4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %future = arith.cmpi ugt, %j, %i : index
    %j2 = arith.addi %j, %c2 : index
    %far = arith.cmpi ule, %j2, %i : index
    %hide = arith.ori %future, %far : i1
    %y = arith.mulf %x, %half : f32
    %r = arith.select %hide, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x4x4xf32>
  %p2 = linalg.softmax dimension(2) ins(%l2 : tensor<4x4x4xf32>) outs(%e3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o2 = linalg.batch_matmul ins(%p2, %v : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o1, %o2 : tensor<4x4x4xf32>, tensor<4x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A select that hides keys outside a window with a finite value is not an
// additive mask (a row hiding every key would weigh its keys by x + c, not
// uniformly): refused, the remark says so.
// CHECK-LABEL: func.func @mask_select_finite_window
// CHECK-NOT: seqpar.attention
func.func @mask_select_finite_window(%q: tensor<4x4x4xf32>, %k: tensor<4x4x4xf32>, %v: tensor<4x4x4xf32>) -> tensor<4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neg = arith.constant -1.0e9 : f32
  %c2 = arith.constant 2 : index
  %e3 = tensor.empty() : tensor<4x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %l = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x4x4xf32>) outs(%e3 : tensor<4x4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %j2 = arith.addi %j, %c2 : index
    %far = arith.cmpi ule, %j2, %i : index
    %r = arith.select %far, %neg, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x4x4xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention: its P.V product was not raised: the logits are masked by a select whose condition is not key <= query and whose hidden value is not -inf}}
  %p = linalg.softmax dimension(2) ins(%l : tensor<4x4x4xf32>) outs(%e3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  // expected-remark @+1 {{attention not raised: the logits are masked by a select whose condition is not key <= query and whose hidden value is not -inf}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%z3 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

// TP's per-rank program of an MQA layer (a = 4, a_kv = 1, t = 2): the rank
// reads its 2 query heads' K/V from the repeated [b, a, s, d] tensor at
// offset 2 * rank. The raiser follows the slice back to the tensor before
// the repeat: one K/V head, at head (2 * rank) floordiv 4 = 0 of 1.
// CHECK-LABEL: func.func @tp_rank_heads_mqa
// CHECK: %[[START:.*]] = arith.floordivsi %{{.*}}, %c4 : index
// CHECK: %[[K:.*]] = tensor.extract_slice %arg1[0, %[[START]], 0, 0] [1, 1, 4, 4] [1, 1, 1, 1] : tensor<1x1x4x4xf32> to tensor<1x1x4x4xf32>
// CHECK: seqpar.attention %arg0, %[[K]], %{{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32> -> tensor<1x2x4x4xf32>
module {
  shard.grid @grid(shape = 2)
  func.func @tp_rank_heads_mqa(%q: tensor<1x2x4x4xf32>, %k: tensor<1x1x4x4xf32>, %v: tensor<1x1x4x4xf32>) -> tensor<2x4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %rank = shard.process_multi_index on @grid axes = [0] : index
    %off = arith.muli %rank, %c2 : index
    %e5 = tensor.empty() : tensor<1x1x4x4x4xf32>
    %kb = linalg.broadcast ins(%k : tensor<1x1x4x4xf32>) outs(%e5 : tensor<1x1x4x4x4xf32>) dimensions = [2]
    %vb = linalg.broadcast ins(%v : tensor<1x1x4x4xf32>) outs(%e5 : tensor<1x1x4x4x4xf32>) dimensions = [2]
    %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x1x4x4x4xf32> into tensor<1x4x4x4xf32>
    %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x1x4x4x4xf32> into tensor<1x4x4x4xf32>
    %ks = tensor.extract_slice %kr[0, %off, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
    %vs = tensor.extract_slice %vr[0, %off, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
    %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %v3 = tensor.collapse_shape %vs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %e = tensor.empty() : tensor<2x4x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %p = linalg.softmax dimension(2) ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %o = linalg.batch_matmul ins(%p, %v3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    return %o : tensor<2x4x4xf32>
  }
}

// -----

// GQA a = 8 from a_kv = 4 at t = 4: rank r's 2 query heads both read K/V
// head r, one head at a rank-dependent start.
// CHECK-LABEL: func.func @tp_rank_heads_gqa
// CHECK: seqpar.attention {{.*}} : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32> -> tensor<1x2x4x4xf32>
module {
  shard.grid @grid(shape = 4)
  func.func @tp_rank_heads_gqa(%q: tensor<1x2x4x4xf32>, %k: tensor<1x4x4x4xf32>, %v: tensor<1x4x4x4xf32>) -> tensor<2x4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %rank = shard.process_multi_index on @grid axes = [0] : index
    %off = arith.muli %rank, %c2 : index
    %e5 = tensor.empty() : tensor<1x4x2x4x4xf32>
    %kb = linalg.broadcast ins(%k : tensor<1x4x4x4xf32>) outs(%e5 : tensor<1x4x2x4x4xf32>) dimensions = [2]
    %vb = linalg.broadcast ins(%v : tensor<1x4x4x4xf32>) outs(%e5 : tensor<1x4x2x4x4xf32>) dimensions = [2]
    %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x4x2x4x4xf32> into tensor<1x8x4x4xf32>
    %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x4x2x4x4xf32> into tensor<1x8x4x4xf32>
    %ks = tensor.extract_slice %kr[0, %off, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x8x4x4xf32> to tensor<1x2x4x4xf32>
    %vs = tensor.extract_slice %vr[0, %off, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x8x4x4xf32> to tensor<1x2x4x4xf32>
    %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %v3 = tensor.collapse_shape %vs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %e = tensor.empty() : tensor<2x4x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %p = linalg.softmax dimension(2) ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %o = linalg.batch_matmul ins(%p, %v3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    return %o : tensor<2x4x4xf32>
  }
}

// -----

// A rank's heads that read K/V heads unevenly (a = 6 repeated from
// a_kv = 2, 3 each, sliced 2 per rank at t = 3: rank 1 reads heads {0, 1})
// keep the slice of the repeated tensor, as many K/V heads as query heads.
// CHECK-LABEL: func.func @tp_rank_heads_uneven
// CHECK: seqpar.attention {{.*}} : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
module {
  shard.grid @grid(shape = 3)
  func.func @tp_rank_heads_uneven(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %rank = shard.process_multi_index on @grid axes = [0] : index
    %off = arith.muli %rank, %c2 : index
    %e5 = tensor.empty() : tensor<1x2x3x4x4xf32>
    %kb = linalg.broadcast ins(%k : tensor<1x2x4x4xf32>) outs(%e5 : tensor<1x2x3x4x4xf32>) dimensions = [2]
    %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x3x4x4xf32> into tensor<1x6x4x4xf32>
    %ks = tensor.extract_slice %kr[0, %off, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x2x4x4xf32>
    %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
    %e = tensor.empty() : tensor<2x4x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q3, %k3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %p = linalg.softmax dimension(2) ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %o = linalg.batch_matmul ins(%p, %k3 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    return %o : tensor<2x4x4xf32>
  }
}

// -----

#gq = affine_map<(b, h, i, j, e) -> (b, h, i, e)>
#gk = affine_map<(b, h, i, j, e) -> (b, j, h floordiv 2, e)>
#gs = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#gp = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#gv = affine_map<(b, h, i, e, j) -> (b, j, h floordiv 2, e)>
#go = affine_map<(b, h, i, e, j) -> (b, h, i, e)>

// GQA as einsums reading the K/V head h floordiv 2 directly (no repeat
// op), K/V token-major [b, t, a_kv, d]: the repeat is materialised, and
// the attention raised with a_kv = 2 K/V heads (K/V transposed to
// [b, a_kv, t, d]).
// CHECK-LABEL: func.func @gqa_einsum_floordiv
// CHECK-DAG: %[[K:.*]] = linalg.transpose ins(%arg1 : tensor<1x4x2x4xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>) permutation = [0, 2, 1, 3]
// CHECK-DAG: %[[V:.*]] = linalg.transpose ins(%arg2 : tensor<1x4x2x4xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>) permutation = [0, 2, 1, 3]
// CHECK: seqpar.attention %arg0, %[[K]], %[[V]] {scale = 1.000000e+00 : f32} : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
func.func @gqa_einsum_floordiv(%q: tensor<1x4x4x4xf32>, %k: tensor<1x4x2x4xf32>, %v: tensor<1x4x2x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = linalg.generic {indexing_maps = [#gq, #gk, #gs], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x4x4xf32>, tensor<1x4x2x4xf32>) outs(%z : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o = linalg.generic {indexing_maps = [#gp, #gv, #go], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x4x4x4xf32>, tensor<1x4x2x4xf32>) outs(%z : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  return %o : tensor<1x4x4x4xf32>
}
