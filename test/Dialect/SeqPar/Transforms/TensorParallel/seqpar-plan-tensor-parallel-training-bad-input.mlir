// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -split-input-file -verify-diagnostics -o /dev/null
// RUN: not seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -split-input-file 2>/dev/null | FileCheck %s

// Bad input to training-graph planning (docs/training-graphs.md, "Bad
// input"). One MLP trained on sum(y^2): y = (x W1 + b1)^2 W2; results: the
// loss, then the gradients of W1, b1, W2 (the last three arguments, in
// order). Planned as written it is one Megatron block: W1 and b1
// column-parallel, W2 row-parallel, their gradients returned split.

// CHECK-LABEL: func.func @good(
// CHECK-SAME: -> (tensor<f32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<32x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[\], \[0\]\]}}>}
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 0 linears left replicated}}
func.func @good(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %loss, %dw1, %db1, %dw2 : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>
}

// -----

// One more result after the gradients: the activation (x W1 + b1)^2, typed
// as W1 (32 tokens, 32 features) and split as W1's gradient is. It is the
// gradient of no parameter: the block is left replicated (before, the
// activation was returned split as if it were W1's gradient). W1, b1, their
// gradients and the activation stay replicated; W2's linear is then planned
// alone as a head whose sum closes at the loss (a split of its output
// features, all-reduced), its gradient returned split.

// CHECK-LABEL: func.func @extra_activation(
// CHECK-SAME: -> (tensor<f32> {{.*}}, tensor<32x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<64x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[\], \[0\]\]}}>}, tensor<32x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 2 linears left replicated}}
func.func @extra_activation(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #4 ('linalg.mul' at {{.*}}) split, and it is the gradient of no parameter (results #1-#3 are the gradients of the last arguments, in order): only a split weight's gradient stays split}}
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #1 split, and it is not a split weight's gradient}}
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %loss, %dw1, %db1, %dw2, %g : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<32x64xf32>
}

// -----

// W1's gradient returned a second time, after the gradients: the copy pairs
// with no parameter, and the block stays replicated.
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 2 linears left replicated}}
func.func @grad_twice(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #4 ('linalg.matmul' at {{.*}}) split, and it is the gradient of no parameter}}
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #1 split, and it is not a split weight's gradient}}
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %loss, %dw1, %db1, %dw2, %dw1 : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<32x64xf32>
}

// -----

// W1's gradient transposed, one more result: typed and split as W2 (before,
// taken for a second gradient of W2); it pairs with no parameter.
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 2 linears left replicated}}
func.func @grad_transposed(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #4 ('linalg.transpose' at {{.*}}) split, and it is the gradient of no parameter}}
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #1 split, and it is not a split weight's gradient}}
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dw1t = linalg.transpose ins(%dw1 : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  return %loss, %dw1, %db1, %dw2, %dw1t : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<64x32xf32>
}

// -----

// Malformed: the gradient of W1 [32, 64] returned transposed, [64, 32], in
// W1's place: a located error at the op that computes it.
func.func @grad_shape(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<f32>, tensor<64x32xf32>, tensor<64xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
// expected-error @+1 {{training graph @grad_shape: result #1 ('tensor<64x32xf32>') is in the place of the gradient of argument #1, of type 'tensor<32x64xf32>' (results #1-#3 are the gradients of the last 3 arguments, in order): a gradient has its parameter's type}}
  %dw1t = linalg.transpose ins(%dw1 : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  return %loss, %dw1t, %db1, %dw2 : tensor<f32>, tensor<64x32xf32>, tensor<64xf32>, tensor<64x32xf32>
}

// -----

// The per-token loss [32] in place of the scalar: not read as a loss (a
// remark); every result is computed as written, and the block is planned
// (the rewrite keeps every result's value).

// CHECK-LABEL: func.func @loss_tokens(
// CHECK-SAME: -> (tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 0 linears left replicated}}
func.func @loss_tokens(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %elt = tensor.empty() : tensor<32xf32>
  %zlt = linalg.fill ins(%zero : f32) outs(%elt : tensor<32xf32>) -> tensor<32xf32>
// expected-remark @+1 {{@loss_tokens returns the gradients of its last 3 arguments after result #0 of type 'tensor<32xf32>', which is not a one-element float: it is not read as a training graph's loss (nothing is saved sharded for its backward); every result is computed as written}}
  %lt = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zlt : tensor<32xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %lt, %dw1, %db1, %dw2 : tensor<32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>
}

// -----

// Not malformed: a function of tensors that returns nothing but has an
// effect (a timer call) is left as it is, without an error.
func.func private @record(tensor<32x32xf32>)
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 0 linears left replicated}}
func.func @timer(%x: tensor<32x32xf32>) {
  func.call @record(%x) : (tensor<32x32xf32>) -> ()
  return
}

// -----

// Malformed: nothing returned.
// expected-error @+1 {{@returns_nothing returns nothing: a training graph returns its loss and the gradients of its parameters, a forward graph its outputs; there is nothing to plan}}
func.func @returns_nothing(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  return
}

// -----

// The backward calls an op the planner does not know (an external
// function) on a split value between the forward's column-parallel linear
// and its weight gradient: the block stays replicated, the remark names the
// call.
func.func private @custom_op(tensor<32x64xf32>) -> tensor<32x64xf32>
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 2 linears left replicated}}
func.func @call_external(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
// expected-remark-re @+1 {{linear left replicated: 'func.call' at {{.*}} a split value reaches 'func.call', which the planner does not handle}}
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %tc = func.call @custom_op(%t) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%tc, %tc : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #1 split, and it is not a split weight's gradient}}
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %loss, %dw1, %db1, %dw2 : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>
}

// -----

// The backward reads a split value inside a linalg body (reversed along
// the features: tosa.reverse lowers so): any rank's part may be read, the
// block stays replicated; the remark names the op whose body reads it.
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 2 linears left replicated}}
func.func @nested_read(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
// expected-remark-re @+1 {{linear left replicated: 'tensor.extract' at {{.*}} a split value is read inside the body of 'linalg.generic' (a nested region), which may read any rank's part of it}}
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %tr = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<32x64xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c63 = arith.constant 63 : index
    %r = arith.subi %c63, %j : index
    %v = tensor.extract %t[%i, %r] : tensor<32x64xf32>
    linalg.yield %v : f32
  } -> tensor<32x64xf32>
  %dh = linalg.add ins(%tr, %tr : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
// expected-remark-re @+1 {{linear left replicated: 'func.return' at {{.*}} returns result #1 split, and it is not a split weight's gradient}}
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %loss, %dw1, %db1, %dw2 : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>
}

// -----

// Malformed: the signature's result #0 differs from the returned loss (the
// verifier's located error).
func.func @mismatched_types(%x: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>)
    -> (tensor<1xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %h0 = linalg.matmul ins(%x, %w1 : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%e : tensor<32x64xf32>) dimensions = [0]
  %h = linalg.add ins(%h0, %bb : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.mul ins(%h, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %ey = tensor.empty() : tensor<32x32xf32>
  %zy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%zy : tensor<32x32xf32>) -> tensor<32x32xf32>
  %el = tensor.empty() : tensor<f32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
  %sq = linalg.mul ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %loss = linalg.reduce ins(%sq : tensor<32x32xf32>) outs(%zl : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // Backward: dL/dy = 2y.
  %dy = linalg.add ins(%y, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) -> tensor<32x32xf32>
  %egt = tensor.empty() : tensor<64x32xf32>
  %gt = linalg.transpose ins(%g : tensor<32x64xf32>) outs(%egt : tensor<64x32xf32>) permutation = [1, 0]
  %zw2 = linalg.fill ins(%zero : f32) outs(%egt : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = linalg.matmul ins(%gt, %dy : tensor<64x32xf32>, tensor<32x32xf32>) outs(%zw2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %dg = linalg.matmul ins(%dy, %w2t : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = linalg.mul ins(%dg, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dh = linalg.add ins(%t, %t : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<64xf32>) -> tensor<64xf32>
  %db1 = linalg.reduce ins(%dh : tensor<32x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%ey : tensor<32x32xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  // expected-error @+1 {{type of return operand 0 ('tensor<f32>') doesn't match function result type ('tensor<1xf32>') in function @mismatched_types}}
  return %loss, %dw1, %db1, %dw2 : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>
}
