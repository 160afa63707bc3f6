// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 --split-input-file -verify-diagnostics

// Products of an activation and a weight argument that the planner does not
// take as linears stay replicated, each with a remark saying why, and count
// in the summary's "left replicated" (before, the summary said 0 and
// nothing explained them): a rank-3 weight (Flax DenseGeneral's [in, heads,
// head_dim]), a fused weight sliced with a stride before its products (an
// interleaved layout; static unit-stride pieces are planned), and a product
// inside a loop over stacked layer weights.

// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 1 linears left replicated}}
func.func @rank3_weight(%x: tensor<2x8x16xf32>, %w: tensor<16x2x4xf32>) -> tensor<2x8x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x16xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(b, s, h) -> (b, s, h)>, affine_map<(b, s, h) -> (b, s, h)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x8x16xf32>) outs(%e : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<2x8x16xf32>
  %eq = tensor.empty() : tensor<2x8x2x4xf32>
  %zq = linalg.fill ins(%zero : f32) outs(%eq : tensor<2x8x2x4xf32>) -> tensor<2x8x2x4xf32>
  // expected-remark @+1 {{linear left replicated: its weight (argument #1, 'tensor<16x2x4xf32>') has rank 3: the planner splits the output features of rank-2 [in, out] or [out, in] weights}}
  %q = linalg.generic {indexing_maps = [affine_map<(b, s, n, d, k) -> (b, s, k)>, affine_map<(b, s, n, d, k) -> (k, n, d)>, affine_map<(b, s, n, d, k) -> (b, s, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%n, %w : tensor<2x8x16xf32>, tensor<16x2x4xf32>) outs(%zq : tensor<2x8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x8x2x4xf32>
  return %q : tensor<2x8x2x4xf32>
}

// -----

// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 2 linears left replicated}}
func.func @strided_fused_weight(%x: tensor<16x8xf32>, %w: tensor<8x24xf32>) -> (tensor<16x12xf32>, tensor<16x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(s, h) -> (s, h)>, affine_map<(s, h) -> (s, h)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<16x8xf32>
  %wa = tensor.extract_slice %w[0, 0] [8, 12] [1, 2] : tensor<8x24xf32> to tensor<8x12xf32>
  %wb = tensor.extract_slice %w[0, 1] [8, 12] [1, 2] : tensor<8x24xf32> to tensor<8x12xf32>
  %ea = tensor.empty() : tensor<16x12xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<16x12xf32>) -> tensor<16x12xf32>
  // expected-remark @+1 {{linear left replicated: its weight is a slice of argument #1 ('tensor<8x24xf32>') that is not a static, unit-stride piece of the same rank: the planner splits whole weight arguments and such pieces of them}}
  %a = linalg.matmul ins(%n, %wa : tensor<16x8xf32>, tensor<8x12xf32>) outs(%za : tensor<16x12xf32>) -> tensor<16x12xf32>
  // expected-remark @+1 {{linear left replicated: its weight is a slice of argument #1}}
  %b = linalg.matmul ins(%n, %wb : tensor<16x8xf32>, tensor<8x12xf32>) outs(%za : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %a, %b : tensor<16x12xf32>, tensor<16x12xf32>
}

// -----

// Layers as a loop over stacked weights [L, in, out] (lax.scan's form).
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 1 linears left replicated}}
func.func @in_a_loop(%x: tensor<16x8xf32>, %w: tensor<3x8x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<16x8xf32>) {
    %wi = tensor.extract_slice %w[%i, 0, 0] [1, 8, 8] [1, 1, 1] : tensor<3x8x8xf32> to tensor<8x8xf32>
    %e = tensor.empty() : tensor<16x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
    // expected-remark @+1 {{linear left replicated: it is inside 'scf.for' (the planner plans the linears of the function's top level)}}
    %m = linalg.matmul ins(%h, %wi : tensor<16x8xf32>, tensor<8x8xf32>) outs(%z : tensor<16x8xf32>) -> tensor<16x8xf32>
    scf.yield %m : tensor<16x8xf32>
  }
  return %y : tensor<16x8xf32>
}

// -----

// Not a linear: Q.K^T shares the batch loop with K (an argument), and
// the planner says nothing of it.
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 0 linears left replicated}}
func.func @scores(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>) -> tensor<2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x4xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b, s, d)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<2x8x4xf32>) outs(%e : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<2x8x4xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%qs, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %s : tensor<2x8x8xf32>
}
