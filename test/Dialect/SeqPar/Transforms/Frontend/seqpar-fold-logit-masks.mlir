// RUN: seqpar-opt %s --seqpar-fold-logit-masks -split-input-file | FileCheck %s

// T5's logits as the FX linalg export writes them: Q.K^T (a batch_matmul
// on [b*a, s, d], expanded to [b, a, s, t]) plus the per-head relative
// position bias [1, a, s, t], plus the attention mask [b, 1, s, t], then a
// softmax. The two masks are added into one [b, a, s, t] tensor first,
// and the logits are Q.K^T plus it.

// CHECK-LABEL: func.func @t5_logits(
// CHECK-SAME: %[[Q:[^:]*]]: tensor<8x16x16xf32>, %[[K:[^:]*]]: tensor<8x16x16xf32>, %[[BIAS:[^:]*]]: tensor<1x4x16x16xf32>, %[[MASK:[^:]*]]: tensor<2x1x16x16xf32>
// CHECK: %[[QK:.*]] = linalg.batch_matmul
// CHECK: %[[S:.*]] = tensor.expand_shape %[[QK]]
// CHECK: %[[M:.*]] = linalg.generic {indexing_maps = [#[[BMAP:map[0-9]*]], #[[MMAP:map[0-9]*]], #[[ID:map[0-9]*]]]{{.*}} ins(%[[BIAS]], %[[MASK]] : tensor<1x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%{{.*}} : tensor<2x4x16x16xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[AB:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[AB]]
// CHECK: %[[L:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]]{{.*}} ins(%[[S]], %[[M]] : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>)
// CHECK: arith.addf
// CHECK-NOT: ins(%[[L]], %[[MASK]]
// CHECK: linalg.generic {{.*}} ins(%[[L]] : tensor<2x4x16x16xf32>)
// CHECK: arith.maximumf
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#mask = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#rowb = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @t5_logits(%q: tensor<8x16x16xf32>, %k: tensor<8x16x16xf32>, %bias: tensor<1x4x16x16xf32>, %mask: tensor<2x1x16x16xf32>) -> tensor<2x4x16x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<8x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %qk = linalg.batch_matmul ins(%q, %k : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%acc : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = tensor.expand_shape %qk [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %e4 = tensor.empty() : tensor<2x4x16x16xf32>
  %l1 = linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  %l2 = linalg.generic {indexing_maps = [#id4, #mask, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%l1, %mask : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  %er = tensor.empty() : tensor<2x4x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%l2 : tensor<2x4x16x16xf32>) outs(%mi : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.maximumf %a, %o : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #rowb, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%l2, %max : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x16x16xf32>) outs(%z : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.addf %a, %o : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.generic {indexing_maps = [#id4, #rowb, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.divf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  return %p : tensor<2x4x16x16xf32>
}

// -----

// The second term is computed from a contraction (an activation, not a
// mask): the logits stay as they are.

// CHECK-LABEL: func.func @term_from_activation(
// CHECK: %[[L1:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>)
// CHECK: %[[O:.*]] = linalg.batch_matmul
// CHECK: %[[OE:.*]] = tensor.expand_shape %[[O]]
// CHECK: %[[L2:.*]] = linalg.generic {{.*}} ins(%[[L1]], %[[OE]] : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[L2]] : tensor<2x4x16x16xf32>)
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @term_from_activation(%q: tensor<8x16x16xf32>, %k: tensor<8x16x16xf32>, %bias: tensor<1x4x16x16xf32>) -> tensor<2x4x16x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<8x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %qk = linalg.batch_matmul ins(%q, %k : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%acc : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = tensor.expand_shape %qk [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %e4 = tensor.empty() : tensor<2x4x16x16xf32>
  %l1 = linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  %other = linalg.batch_matmul ins(%k, %q : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%acc : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %oe = tensor.expand_shape %other [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %l2 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%l1, %oe : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  %er = tensor.empty() : tensor<2x4x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%l2 : tensor<2x4x16x16xf32>) outs(%mi : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.maximumf %a, %o : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%l2, %max : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x16x16xf32>) outs(%z : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.addf %a, %o : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.divf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  return %p : tensor<2x4x16x16xf32>
}

// -----

// Two masks added to scores that no softmax reads, and scores plus a mask
// whose sum another op reads too: both left as they are.

// CHECK-LABEL: func.func @not_logits(
// CHECK: %[[L1:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[L1]], %{{.*}} : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>)
// CHECK: return
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#mask = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @not_logits(%q: tensor<8x16x16xf32>, %k: tensor<8x16x16xf32>, %bias: tensor<1x4x16x16xf32>, %mask: tensor<2x1x16x16xf32>) -> tensor<2x4x16x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e3 = tensor.empty() : tensor<8x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %qk = linalg.batch_matmul ins(%q, %k : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%acc : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = tensor.expand_shape %qk [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %e4 = tensor.empty() : tensor<2x4x16x16xf32>
  %l1 = linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  %l2 = linalg.generic {indexing_maps = [#id4, #mask, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%l1, %mask : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x16xf32>
  return %l2 : tensor<2x4x16x16xf32>
}
