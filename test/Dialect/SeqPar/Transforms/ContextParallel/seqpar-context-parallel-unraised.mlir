// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel -verify-diagnostics
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel 2>/dev/null | FileCheck %s

// A function whose attention is still written out (seqpar-raise-attention
// did not run, or refused it) has nothing to distribute: the remark says
// why rather than only "0 attention". Its products still run on this
// rank's queries: Q.K^T and P.V read Q and P along the query loop, which
// they keep, and K and V along another loop; only K and V are gathered
// (docs/context-parallelism.md, "Attention left unraised"), and the output
// stays this rank's tokens.

// The pass alone on an attention the raiser would take.
// CHECK-LABEL: func.func @not_raised(
// CHECK-SAME: %[[Q:[^:]*]]: tensor<2x4x4xf32> {{.*}}, %[[K:[^:]*]]: tensor<2x4x4xf32> {{.*}}, %[[V:[^:]*]]: tensor<2x4x4xf32>
// CHECK-SAME: -> (tensor<2x4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{.*}}[0] zigzag]>})
// CHECK-NOT: shard.all_gather %[[Q]]
// CHECK: %[[KG:.*]] = shard.all_gather %[[K]] on @grid grid_axes = [0] gather_axis = 1 : tensor<2x4x4xf32> -> tensor<2x8x4xf32>
// CHECK: %[[KW:.*]] = tensor.concat dim(1) {{.*}} -> tensor<2x8x4xf32>
// CHECK: %[[S:.*]] = linalg.batch_matmul {{.*}} ins(%[[Q]], %[[KW]] : tensor<2x4x4xf32>, tensor<2x8x4xf32>) {{.*}} -> tensor<2x4x8xf32>
// CHECK: %[[P:.*]] = linalg.softmax dimension(2) ins(%[[S]] : tensor<2x4x8xf32>)
// CHECK: shard.all_gather %[[V]] {{.*}} -> tensor<2x8x4xf32>
// CHECK: %[[VW:.*]] = tensor.concat
// CHECK: %[[O:.*]] = linalg.batch_matmul ins(%[[P]], %[[VW]] : tensor<2x4x8xf32>, tensor<2x8x4xf32>) {{.*}} -> tensor<2x4x4xf32>
// CHECK: return %[[O]]
shard.grid @grid(shape = 2)
// expected-remark @+1 {{context-parallel over @grid axes [0] (c=2, s=8, zigzag): 0 attention -> ring (0 transfers, 0 bytes sent per rank), 2 all_gather (256 bytes) for ops that need all tokens; no attention is distributed: 1 softmax not raised to seqpar.attention (the first: its P.V product ('linalg.batch_matmul') matches but was not raised (seqpar-raise-attention did not run on it))}}
func.func @not_raised(%q: tensor<2x8x4xf32> {seqpar.seq_dim = 1 : i64}, %k: tensor<2x8x4xf32> {seqpar.seq_dim = 1 : i64}, %v: tensor<2x8x4xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{context-parallel: all_gather before 'linalg.batch_matmul', which operand #1 reads other tokens (its sequence dim follows loop d2, not d1); the rest of it runs on this rank's tokens}}
  %s = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  // expected-remark @+1 {{context-parallel: all_gather before 'linalg.batch_matmul', which operand #1 reads other tokens (its sequence dim follows loop d3, not d1); the rest of it runs on this rank's tokens}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// A softmax whose product accumulates into its input: no P.V product.
shard.grid @grid(shape = 2)
// expected-remark @+1 {{no attention is distributed: 1 softmax not raised to seqpar.attention (the first: the contraction reading it ('linalg.batch_matmul') is not a P.V product}}
func.func @not_attention(%x: tensor<2x8x8xf32> {seqpar.seq_dim = 1 : i64}, %v: tensor<2x8x8xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<2x8x8xf32> {
  %e = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{context-parallel: all_gather before 'linalg.batch_matmul'}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%x : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %o : tensor<2x8x8xf32>
}

// -----

#gp = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#gv = affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>
#go = affine_map<(b, h, i, e, j) -> (b, h, i, e)>

// A softmax read by an einsum whose V head is h floordiv 2, with the pass
// alone: the remark names the grouped read the raiser would materialise
// (not "no contraction reads it").
shard.grid @grid(shape = 2)
// expected-remark @+1 {{no attention is distributed: 1 softmax not raised to seqpar.attention (the first: the product reading it ('linalg.generic') reads an operand through a map with floordiv (a K/V head h floordiv r); seqpar-raise-attention materialises it as a repeat before matching (it did not run on it))}}
func.func @grouped_not_raised(%x: tensor<1x4x8x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %eo = tensor.empty() : tensor<1x4x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32>
  // expected-remark @+1 {{context-parallel: all_gather before 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#gp, #gv, #go], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x4x8x8xf32>, tensor<1x2x8x4xf32>) outs(%zo : tensor<1x4x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x4xf32>
  return %o : tensor<1x4x8x4xf32>
}
