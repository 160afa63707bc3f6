// RUN: seqpar-opt %s -split-input-file --seqpar-combine-all-reduces | FileCheck %s

// Two input gradients (partial sums over TP) reshaped and added: the
// partials are reshaped and added, then one all_reduce.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @pair
// CHECK-SAME: (%[[A:[a-z0-9]+]]: tensor<16x32xf32>, %[[B:[a-z0-9]+]]: tensor<16x32xf32>)
// CHECK-DAG: %[[EA:.+]] = tensor.expand_shape %[[A]]
// CHECK-DAG: %[[EB:.+]] = tensor.expand_shape %[[B]]
// CHECK: %[[S:.+]] = linalg.generic {{.*}} ins(%[[EA]], %[[EB]] :
// CHECK: %[[R:.+]] = shard.all_reduce %[[S]] on @grid grid_axes = [0] : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: return %[[R]]
func.func @pair(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>) -> tensor<2x8x32xf32> {
  %ra = shard.all_reduce %a on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
  %ea = tensor.expand_shape %ra [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
  %rb = shard.all_reduce %b on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
  %eb = tensor.expand_shape %rb [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
  %e = tensor.empty() : tensor<2x8x32xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ea, %eb : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e : tensor<2x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.addf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<2x8x32xf32>
  return %s : tensor<2x8x32xf32>
}

// -----

// The residual gradient first, then Q's, K's and V's input gradients:
// x + all_reduce(q + k + v).
shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<8x4xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: %[[P1:.+]] = linalg.add ins(%{{.+}}, %{{.+}} :
// CHECK: %[[P2:.+]] = linalg.add ins(%{{.+}}, %[[P1]] :
// CHECK: %[[R:.+]] = shard.all_reduce %[[P2]]
// CHECK: %[[S:.+]] = linalg.add ins(%[[X]], %[[R]] :
// CHECK-NOT: shard.all_reduce
// CHECK: return %[[S]]
func.func @chain(%x: tensor<8x4xf32>, %q: tensor<8x4xf32>, %k: tensor<8x4xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %rq = shard.all_reduce %q on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %s1 = linalg.add ins(%x, %rq : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %rk = shard.all_reduce %k on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %s2 = linalg.add ins(%s1, %rk : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %rv = shard.all_reduce %v on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %s3 = linalg.add ins(%s2, %rv : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %s3 : tensor<8x4xf32>
}

// -----

// Left alone: an all_reduce result used twice, all_reduces over different
// axes, a max all_reduce, and a product.
shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-8: shard.all_reduce
func.func @kept(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %r1 = shard.all_reduce %a on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %r2 = shard.all_reduce %b on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %twice = linalg.add ins(%r1, %r2 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r3 = shard.all_reduce %a on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %r4 = shard.all_reduce %b on @grid grid_axes = [1] : tensor<8x4xf32> -> tensor<8x4xf32>
  %axes = linalg.add ins(%r3, %r4 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r5 = shard.all_reduce %a on @grid grid_axes = [0] reduction = max : tensor<8x4xf32> -> tensor<8x4xf32>
  %r6 = shard.all_reduce %b on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %max = linalg.add ins(%r5, %r6 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r7 = shard.all_reduce %a on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %r8 = shard.all_reduce %b on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %mul = linalg.mul ins(%r7, %r8 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %twice, %r1, %axes, %max, %mul : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// The add is in a branch: one all_reduce there would take its place, and
// ranks that take the other branch would not join it. Both stay where they
// are; so does an add in a loop body, which would repeat it.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @in_branch
// CHECK: shard.all_reduce
// CHECK: shard.all_reduce
// CHECK: scf.if
// CHECK-NOT: shard.all_reduce
// CHECK: scf.yield
func.func @in_branch(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  %ra = shard.all_reduce %a on @grid grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %rb = shard.all_reduce %b on @grid grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %x = scf.if %c -> tensor<4x8xf32> {
    %e = tensor.empty() : tensor<4x8xf32>
    %s = linalg.add ins(%ra, %rb : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  } else {
    scf.yield %a : tensor<4x8xf32>
  }
  return %x : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @in_loop
// CHECK: shard.all_reduce
// CHECK: shard.all_reduce
// CHECK: scf.for
// CHECK-NOT: shard.all_reduce
// CHECK: scf.yield
func.func @in_loop(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %n: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ra = shard.all_reduce %a on @grid grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %rb = shard.all_reduce %b on @grid grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %x = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<4x8xf32> {
    %e = tensor.empty() : tensor<4x8xf32>
    %s = linalg.add ins(%ra, %rb : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  }
  return %x : tensor<4x8xf32>
}
