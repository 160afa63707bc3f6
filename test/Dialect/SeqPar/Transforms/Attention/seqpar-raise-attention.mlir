// RUN: seqpar-opt %s --seqpar-raise-attention -split-input-file -verify-diagnostics | FileCheck %s

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>

// Scale, then mask, then linalg.softmax; K^T as a transpose of K: raised,
// with K itself as the key.
// CHECK-LABEL: func.func @scale_then_mask
// CHECK: %[[O:.*]] = seqpar.attention %arg0, %arg1, %arg2 mask(%arg3 : tensor<1x1x8x8xf32>) {scale = 1.250000e-01 : f32}
// CHECK: tensor.collapse_shape %[[O]] {{\[\[}}0, 1], [2], [3]]
// CHECK-NOT: linalg.batch_matmul ins(%{{.*}}, %collapsed_{{.*}} : tensor<2x8x8xf32>
func.func @scale_then_mask(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>, %mask: tensor<1x1x8x8xf32>) -> tensor<2x8x4xf32> {
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
  %l = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask : tensor<1x2x8x8xf32>, tensor<1x1x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %y = arith.addf %x, %mk : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%l : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>

// Mask added before the scale: the op's mask is not scaled, so it stays.
// CHECK-LABEL: func.func @mask_then_scale
// CHECK-NOT: seqpar.attention
func.func @mask_then_scale(%q: tensor<1x2x8x4xf32>, %kt: tensor<1x2x4x8xf32>, %v: tensor<1x2x8x4xf32>, %mask: tensor<1x1x8x8xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<1x2x8x8xf32>, tensor<1x1x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %y = arith.addf %x, %mk : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %l = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention}}
  %p = linalg.softmax dimension(3) ins(%l : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  // expected-remark @+1 {{attention not raised: the mask is added before the scale}}
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>

// Masks built from positions: j <= i is the causal mask (-> causal flag);
// j < i (the diagonal hidden too) is not, and stays a mask operand.
// CHECK-LABEL: func.func @position_masks
// CHECK: seqpar.attention %arg0, %arg1, %arg2 {causal, scale = 1.000000e+00 : f32}
// CHECK: seqpar.attention %arg0, %arg1, %arg2 mask(%{{.*}} : tensor<1x1x8x8xf32>) {scale = 1.000000e+00 : f32}
func.func @position_masks(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>) -> (tensor<2x8x4xf32>, tensor<2x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %neg = arith.constant -3.40282347E+38 : f32
  %em = tensor.empty() : tensor<1x1x8x8xf32>
  %causal = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%em : tensor<1x1x8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %visible = arith.cmpi ule, %j, %i : index
    %r = arith.select %visible, %zero, %neg : f32
    linalg.yield %r : f32
  } -> tensor<1x1x8x8xf32>
  %strict = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%em : tensor<1x1x8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %visible = arith.cmpi ult, %j, %i : index
    %r = arith.select %visible, %zero, %neg : f32
    linalg.yield %r : f32
  } -> tensor<1x1x8x8xf32>
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
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %l1 = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %causal : tensor<1x2x8x8xf32>, tensor<1x1x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %y = arith.addf %x, %mk : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p1 = linalg.softmax dimension(3) ins(%l1 : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p13 = tensor.collapse_shape %p1 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %o1 = linalg.batch_matmul ins(%p13, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %l2 = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %strict : tensor<1x2x8x8xf32>, tensor<1x1x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %y = arith.addf %x, %mk : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p2 = linalg.softmax dimension(3) ins(%l2 : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p23 = tensor.collapse_shape %p2 [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %o2 = linalg.batch_matmul ins(%p23, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o1, %o2 : tensor<2x8x4xf32>, tensor<2x8x4xf32>
}

// -----

#q = affine_map<(b, h, i, j, e) -> (b, h, i, e)>
#k = affine_map<(b, h, i, j, e) -> (b, j, h, e)>
#s = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Rank-4 generic contractions over (b, a) batch loops, K read as [b, s, a, d]
// straight from its projection, scale and mask in one generic (select of
// -1e9 where j > i), softmax as generics with exp(x - max) fused: raised,
// K transposed to [b, a, s, d], the select proven causal.
// CHECK-LABEL: func.func @generic_select
// CHECK: %[[K:.*]] = linalg.transpose ins(%arg1 : tensor<1x4x2x8xf32>) outs(%{{.*}} : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
// CHECK: %[[O:.*]] = seqpar.attention %arg0, %[[K]], %arg2 {causal, scale = 5.000000e-01 : f32}
// CHECK: return %[[O]]
func.func @generic_select(%q: tensor<1x2x4x8xf32>, %k: tensor<1x4x2x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %neg = arith.constant -1.0e9 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<1x2x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x8xf32>, tensor<1x4x2x8xf32>) outs(%zs : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %l = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %future, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%l : tensor<1x2x4x4xf32>) outs(%mi : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%l, %max : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x4x4xf32>) outs(%zr : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %pr = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %sm: f32, %out: f32):
    %r = arith.divf %x, %sm : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %eo = tensor.empty() : tensor<1x2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) outs(%zo : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Selects that are not the causal mask are refused, with the reason: one
// hides the diagonal too (j >= i), one hides with -100, which does not act
// as -inf.
// CHECK-LABEL: func.func @select_refused
// CHECK-NOT: seqpar.attention
func.func @select_refused(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %neg = arith.constant -1.0e9 : f32
  %small = arith.constant -100.0 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %es = tensor.empty() : tensor<2x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, e) -> (b, i, e)>, affine_map<(b, i, j, e) -> (b, j, e)>, affine_map<(b, i, j, e) -> (b, i, j)>] ins(%q3, %k3 : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %strict = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %hidden = arith.cmpi uge, %j, %i : index
    %r = arith.select %hidden, %neg, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %weak = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %visible = arith.cmpi ule, %j, %i : index
    %r = arith.select %visible, %x, %small : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention}}
  %p1 = linalg.softmax dimension(2) ins(%strict : tensor<2x4x4xf32>) outs(%es : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention}}
  %p2 = linalg.softmax dimension(2) ins(%weak : tensor<2x4x4xf32>) outs(%es : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %eo = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  // expected-remark @+1 {{attention not raised: the logits are masked by a select whose condition is not key <= query}}
  %o1 = linalg.batch_matmul ins(%p1, %v3 : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  // expected-remark @+1 {{attention not raised: the select hides logits with a value above -1e8 (-32752 in f16; not -inf for every row)}}
  %o2 = linalg.batch_matmul ins(%p2, %v3 : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o1, %o2 : tensor<2x4x8xf32>, tensor<2x4x8xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#table = affine_map<(d0, d1, d2) -> (0, d1, d2)>

// The tosa form after tosa-to-linalg: a [1, s, t] constant table of 0 and
// -1e9 (causal, read element by element), a splat [1, 1, 1] scale, max and
// sum as linalg.reduce + keepdim expand_shape, and e * (1 / sum). K^T is a
// transpose of the collapsed K.
// CHECK-LABEL: func.func @tosa_softmax_table_mask
// CHECK: %[[O:.*]] = seqpar.attention %arg0, %arg1, %arg2 {causal, scale = 2.500000e-01 : f32}
// CHECK: tensor.collapse_shape %[[O]] {{\[\[}}0, 1], [2], [3]]
func.func @tosa_softmax_table_mask(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant dense<0.25> : tensor<1x1x1xf32>
  %mask = arith.constant dense<[[[0.0, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, -1.0e9], [0.0, 0.0, 0.0, 0.0]]]> : tensor<1x4x4xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %et = tensor.empty() : tensor<2x8x4xf32>
  %kt = linalg.transpose ins(%k3 : tensor<2x4x8xf32>) outs(%et : tensor<2x8x4xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q3, %kt : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%zs : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (0, 0, 0)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %scale : tensor<2x4x4xf32>, tensor<1x1x1xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %c: f32, %out: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %l = linalg.generic {indexing_maps = [#id3, #table, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scaled, %mask : tensor<2x4x4xf32>, tensor<1x4x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %r = arith.addf %x, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%l : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %max1 = tensor.expand_shape %max [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %d = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l, %max1 : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %r = arith.subf %x, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<2x4x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %sum1 = tensor.expand_shape %sum [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xf32> into tensor<2x4x1xf32>
  %e1 = tensor.empty() : tensor<2x4x1xf32>
  %inv = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum1 : tensor<2x4x1xf32>) outs(%e1 : tensor<2x4x1xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.divf %one, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1xf32>
  %pr = linalg.generic {indexing_maps = [#id3, #keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %inv : tensor<2x4x4xf32>, tensor<2x4x1xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %w: f32, %out: f32):
    %r = arith.mulf %x, %w : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %eo = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pr, %v3 : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----


#q = affine_map<(b, h, i, j, e) -> (b, h, i, e)>
#k = affine_map<(b, h, i, j, e) -> (b, j, h, e)>
#s = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Tests that attention over no heads (a = 0) is left as it was: the matcher
// divided P.V's batch count by the head count (SIGFPE).
// CHECK-LABEL: func.func @no_heads
// CHECK-NOT: seqpar.attention
func.func @no_heads(%q: tensor<1x0x4x8xf32>, %k: tensor<1x4x0x8xf32>, %v: tensor<1x0x4x8xf32>) -> tensor<1x0x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %neg = arith.constant -1.0e9 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<1x0x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x0x4x4xf32>) -> tensor<1x0x4x4xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x0x4x8xf32>, tensor<1x4x0x8xf32>) outs(%zs : tensor<1x0x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x0x4x4xf32>
  %l = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x0x4x4xf32>) outs(%es : tensor<1x0x4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %future, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x0x4x4xf32>
  %er = tensor.empty() : tensor<1x0x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x0x4xf32>) -> tensor<1x0x4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%l : tensor<1x0x4x4xf32>) outs(%mi : tensor<1x0x4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x0x4xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%l, %max : tensor<1x0x4x4xf32>, tensor<1x0x4xf32>) outs(%es : tensor<1x0x4x4xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1x0x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x0x4xf32>) -> tensor<1x0x4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x0x4x4xf32>) outs(%zr : tensor<1x0x4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x0x4xf32>
  // expected-remark @+1 {{softmax not raised to seqpar.attention}}
  %pr = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x0x4x4xf32>, tensor<1x0x4xf32>) outs(%es : tensor<1x0x4x4xf32>) {
  ^bb0(%x: f32, %sm: f32, %out: f32):
    %r = arith.divf %x, %sm : f32
    linalg.yield %r : f32
  } -> tensor<1x0x4x4xf32>
  %eo = tensor.empty() : tensor<1x0x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x0x4x8xf32>) -> tensor<1x0x4x8xf32>
  // expected-remark @+1 {{attention not raised: P.V has an empty or dynamic loop (no query, key, head or head dim to attend over)}}
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<1x0x4x4xf32>, tensor<1x0x4x8xf32>) outs(%zo : tensor<1x0x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x0x4x8xf32>
  return %o : tensor<1x0x4x8xf32>
}

// -----

// What the raiser leaves is what a clean-up would: the written-out
// attention erased, K read through one transpose of the [b, s, a, d] value
// (not a transpose of the program's K^T), the result not collapsed and
// expanded back, and one tensor.empty per type.
// CHECK-LABEL: func.func @tidy(
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x8x4xf32>
// CHECK-NEXT: %[[Q:.*]] = linalg.transpose ins(%arg0 : tensor<1x8x2x4xf32>) outs(%[[E]] : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[V:.*]] = linalg.transpose ins(%arg2 : tensor<1x8x2x4xf32>) outs(%[[E]] : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[K:.*]] = linalg.transpose ins(%arg1 : tensor<1x8x2x4xf32>) outs(%[[E]] : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[O:.*]] = seqpar.attention %[[Q]], %[[K]], %[[V]] {scale = 1.000000e+00 : f32}
// CHECK-NEXT: return %[[O]] : tensor<1x2x8x4xf32>
func.func @tidy(%q: tensor<1x8x2x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>) -> tensor<1x2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<1x2x8x4xf32>
  %qt = linalg.transpose ins(%q : tensor<1x8x2x4xf32>) outs(%e4 : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v : tensor<1x8x2x4xf32>) outs(%e4 : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
  %ekt = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x8x2x4xf32>) outs(%ekt : tensor<1x2x4x8xf32>) permutation = [0, 2, 3, 1]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  return %o4 : tensor<1x2x8x4xf32>
}
