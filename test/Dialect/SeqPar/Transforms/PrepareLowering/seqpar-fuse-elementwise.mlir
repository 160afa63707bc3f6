// RUN: seqpar-opt %s -split-input-file --seqpar-fuse-elementwise | FileCheck %s

// Tests an MLP's bias add fused into its tanh-GELU (one generic, one loop
// nest), the GELU not fused into the next linear (a contraction: BLAS needs
// its plain multiply-accumulate), and that linear's bias add fused into the
// residual add.

#x = affine_map<(b, s, n, k) -> (b, s, k)>
#w = affine_map<(b, s, n, k) -> (k, n)>
#y = affine_map<(b, s, n, k) -> (b, s, n)>
#id = affine_map<(b, s, n) -> (b, s, n)>
#bias = affine_map<(b, s, n) -> (n)>
// CHECK-LABEL: func.func @mlp
func.func @mlp(%x: tensor<1x4x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x8xf32>, %b2: tensor<8xf32>) -> tensor<1x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e1 = tensor.empty() : tensor<1x4x16xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  // CHECK: %[[H:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 :
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: arith.mulf
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: linalg.yield
  %h = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w1 : tensor<1x4x8xf32>, tensor<8x16xf32>) outs(%z1 : tensor<1x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x16xf32>
  // CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[H]], %arg2 :
  // CHECK: arith.addf
  // CHECK: math.tanh
  // CHECK: arith.mulf
  %hb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h, %b1 : tensor<1x4x16xf32>, tensor<16xf32>) outs(%e1 : tensor<1x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x4x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hb : tensor<1x4x16xf32>) outs(%e1 : tensor<1x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    %p = arith.addf %t, %half : f32
    %r = arith.mulf %a, %p : f32
    linalg.yield %r : f32
  } -> tensor<1x4x16xf32>
  %e2 = tensor.empty() : tensor<1x4x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  // CHECK: %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[G]], %arg3 :
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: arith.mulf
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: linalg.yield
  %y = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g, %w2 : tensor<1x4x16xf32>, tensor<16x8xf32>) outs(%z2 : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8xf32>
  // CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %[[Y]], %arg4 :
  // CHECK: arith.addf
  // CHECK: arith.addf
  // CHECK: return %[[R]]
  %yb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y, %b2 : tensor<1x4x8xf32>, tensor<8xf32>) outs(%e2 : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %yb : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%e2 : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

// Tests that a producer with two uses (a residual sum read by a norm's
// reduction and by the next residual add) is left alone: fusing it would
// compute it once per consumer.

#id2 = affine_map<(s, h) -> (s, h)>
#row = affine_map<(s, h) -> (s)>
// CHECK-LABEL: func.func @two_uses
func.func @two_uses(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  // CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 :
  %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %er = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  // CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>)
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  // CHECK: linalg.generic {{.*}} ins(%[[S]], %arg0 :
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %sum, %r : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// A named linalg.broadcast of a bias vector over the tokens (the frontend
// normalization writes such generics as linalg.broadcast) is generalized and
// fused: the add reads the vector in place, no [8, 16] copy is made.

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @named_broadcast
// CHECK-SAME: (%[[Y:.+]]: tensor<8x16xf32>, %[[B:.+]]: tensor<16xf32>)
// CHECK-NOT: linalg.broadcast
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[Y]], %[[B]] : tensor<8x16xf32>, tensor<16xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @named_broadcast(%y: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<8x16xf32>) dimensions = [0]
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %bb : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
