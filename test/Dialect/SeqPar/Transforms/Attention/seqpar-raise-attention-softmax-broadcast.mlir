// RUN: seqpar-opt %s --seqpar-raise-attention -split-input-file -verify-diagnostics | FileCheck %s

// Softmax row statistics materialised over the row before they are used
// (stablehlo's broadcast_in_dim, legalized to linalg.broadcast or to a
// generic), and exp written as exp2(t * log2(e))
// (docs/context-parallelism.md, "Raising attention from other exporters").
// Shapes: [b*a, s, t] = [2, 4, 4].


// Row max and row sum both through linalg.broadcast, every step a named
// op: raised.
// CHECK-LABEL: func.func @softmax_broadcast_named
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
// CHECK-NOT: linalg.broadcast
func.func @softmax_broadcast_named(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %a = arith.maximumf %in, %acc : f32
      linalg.yield %a : f32
    }
  %mb = linalg.broadcast ins(%max : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [2]
  %sub = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%x, %mb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ex = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%sub : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %sb = linalg.broadcast ins(%sum : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [2]
  %p = linalg.elementwise kind=#linalg.elementwise_kind<div> ins(%ex, %sb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>

// A keepdim [.., 1] row max broadcast by a generic, x - max and exp in one
// op reading it by identity; the row sum collapsed from [.., 1] and
// broadcast by linalg.broadcast, its reciprocal taken over the whole
// tensor and multiplied; the sum's zeros written by a generic copying the
// scalar into every element (as stablehlo lowers a broadcast constant):
// raised.
// CHECK-LABEL: func.func @softmax_broadcast_generic_reciprocal
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
func.func @softmax_broadcast_generic_reciprocal(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ek = tensor.empty() : tensor<2x4x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%ek : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %max = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1xf32>
  %mb = linalg.generic {indexing_maps = [#keep, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%max : tensor<2x4x1xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %zk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> ()>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%zero : f32) outs(%ek : tensor<2x4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zk : tensor<2x4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1xf32>
  %sc = tensor.collapse_shape %sum [[0], [1, 2]] : tensor<2x4x1xf32> into tensor<2x4xf32>
  %sb = linalg.broadcast ins(%sc : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [2]
  %inv = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.divf %one, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.mul ins(%ex, %inv : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// A sum broadcast along the rows (dimensions = [1]) instead of along the
// row: each element is divided by another row's sum, not a softmax. Not
// raised (and no remark: the divisor is no row value).
// CHECK-LABEL: func.func @softmax_broadcast_wrong_dim
// CHECK-NOT: seqpar.attention
func.func @softmax_broadcast_wrong_dim(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
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
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %sb = linalg.broadcast ins(%sum : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [1]
  %p = linalg.div ins(%ex, %sb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// exp2((x - max) * log2(e)) in one body (log2(e) as f32 rounds it):
// raised.
// CHECK-LABEL: func.func @softmax_exp2_in_body
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
// CHECK-NOT: math.exp2
func.func @softmax_exp2_in_body(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %l2e = arith.constant 1.44269504 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %l2e : f32
    %r = math.exp2 %d2 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----


// Every step a named op: x - broadcast max, times a splat of log2(e),
// exp2 of that in an op of its own, divided by the broadcast sum: raised.
// CHECK-LABEL: func.func @softmax_exp2_named
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32} : tensor<1x2x4x4xf32>
func.func @softmax_exp2_named(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %l2e = arith.constant dense<1.44269504> : tensor<2x4x4xf32>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %a = arith.maximumf %in, %acc : f32
      linalg.yield %a : f32
    }
  %mb = linalg.broadcast ins(%max : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [2]
  %sub = linalg.sub ins(%x, %mb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sc = linalg.mul ins(%l2e, %sub : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp2 %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %sb = linalg.broadcast ins(%sum : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [2]
  %p = linalg.div ins(%ex, %sb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// exp2(x - max) without the log2(e) factor is softmax(x * ln 2), not
// softmax(x): not raised; the remark names the step.
// CHECK-LABEL: func.func @softmax_exp2_no_factor
// CHECK-NOT: seqpar.attention
func.func @softmax_exp2_no_factor(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp2 %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  // expected-remark @+1 {{softmax-like value not raised to seqpar.attention: the numerator is exp2 of a value not multiplied by log2(e)}}
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}
