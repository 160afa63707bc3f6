// RUN: seqpar-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(seqpar-sequence-parallel)' | FileCheck %s
// RUN: seqpar-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(seqpar-sequence-parallel{input-sharded=true output-sharded=true})' \
// RUN:   | FileCheck %s --check-prefix=SHARDED

// Tests the basic rewrite: the row-parallel all-reduce becomes a
// reduce-scatter, bias and residual run on s/t tokens (the replicated input
// sliced locally at the rank offset), and the output is gathered back.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.+]]: tensor<8x16xf32> {{.*}}, %[[W1:.+]]: tensor<16x32xf32> {{.*}}, %[[W2:.+]]: tensor<32x16xf32> {{.*}}, %[[B:.+]]: tensor<16xf32> {{.*}}) -> tensor<8x16xf32>
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[RANK:.+]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK: %[[OFF:.+]] = arith.muli %[[RANK]], %[[C4]] : index
// CHECK: %[[H:.+]] = linalg.matmul ins(%[[X]], %[[W1]] : tensor<8x16xf32>, tensor<16x32xf32>)
// CHECK: %[[P:.+]] = linalg.matmul ins(%[[H]], %[[W2]]
// CHECK-NOT: shard.all_reduce
// CHECK: %[[RS:.+]] = shard.reduce_scatter %[[P]] on @grid grid_axes = [0] scatter_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[BIAS:.+]] = linalg.generic {{.*}} ins(%[[RS]], %[[B]] : tensor<4x16xf32>, tensor<16xf32>) outs(%[[E]] : tensor<4x16xf32>)
// CHECK: %[[XS:.+]] = tensor.extract_slice %[[X]][%[[OFF]], 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
// CHECK: %[[Y:.+]] = arith.addf %[[BIAS]], %[[XS]] : tensor<4x16xf32>
// CHECK: %[[G:.+]] = shard.all_gather %[[Y]] on @grid grid_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
// CHECK: return %[[G]] : tensor<8x16xf32>

// With input and output sharded, the input is gathered before the first
// matmul and the output stays sharded; the attributes say so.
// SHARDED-LABEL: func.func @mlp
// SHARDED-SAME: (%[[X:.+]]: tensor<4x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}0]]>}
// SHARDED-SAME: -> (tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}0]]>})
// SHARDED: %[[XG:.+]] = shard.all_gather %[[X]] on @grid grid_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
// SHARDED: linalg.matmul ins(%[[XG]]
// SHARDED: shard.reduce_scatter
// SHARDED: %[[Y:.+]] = arith.addf %{{.+}}, %[[X]] : tensor<4x16xf32>
// SHARDED-NOT: shard.all_gather
// SHARDED: return %[[Y]] : tensor<4x16xf32>
func.func @mlp(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
               %w1: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
               %w2: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
               %b2: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = linalg.matmul ins(%h, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %b2 : tensor<8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %y = arith.addf %bias, %x : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Tests a flattened [b*s, h] all-reduce (b = 2 outer): the reduce-scatter
// and all-gather view the dim as [b, s] so each rank owns whole tokens of
// every batch row, and a position-keyed op gets the global row index.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @flattened
// CHECK: %[[RANK:.+]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK: %[[OFF:.+]] = arith.muli %[[RANK]], %{{.+}} : index
// CHECK: %[[V:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2]] output_shape [2, 8, 16] : tensor<16x16xf32> into tensor<2x8x16xf32>
// CHECK: %[[RS:.+]] = shard.reduce_scatter %[[V]] on @grid grid_axes = [0] scatter_axis = 1 : tensor<2x8x16xf32> -> tensor<2x4x16xf32>
// CHECK: %[[L:.+]] = tensor.collapse_shape %[[RS]] {{\[\[}}0, 1], [2]] : tensor<2x4x16xf32> into tensor<8x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[L]] : tensor<8x16xf32>)
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[Q:.+]] = arith.divui %[[I]], %[[C4]] : index
// CHECK: %[[R:.+]] = arith.remui %[[I]], %[[C4]] : index
// CHECK: %[[B:.+]] = arith.muli %[[Q]], %[[C8]] : index
// CHECK: %[[S:.+]] = arith.addi %[[R]], %[[OFF]] : index
// CHECK: %[[GI:.+]] = arith.addi %[[B]], %[[S]] : index
// CHECK: arith.index_cast %[[GI]]
// CHECK: shard.all_gather %{{.+}} on @grid grid_axes = [0] gather_axis = 1 : tensor<2x4x16xf32> -> tensor<2x8x16xf32>
// CHECK: tensor.collapse_shape
func.func @flattened(%x: tensor<2x8x16xf32> {seqpar.seq_dim = 1 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                     %w: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) -> tensor<16x16xf32> {
  %z = arith.constant 0.0 : f32
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %p = linalg.matmul ins(%flat, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x16xf32> -> tensor<16x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %a, %fi : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}

// -----

// Tests the residual stream across two layers: it stays sharded between
// them; the only all-gathers feed the next layer's column-parallel matmul
// and the return (2 reduce-scatters + 2 all-gathers = 2 all-reduces' bytes).

shard.grid @grid(shape = 4) {sym_visibility = "private"}
// CHECK-LABEL: func.func @two_layers
// CHECK: %[[RS0:.+]] = shard.reduce_scatter {{.*}} scatter_axis = 0 : tensor<16x8xf32> -> tensor<4x8xf32>
// CHECK: %[[H0:.+]] = arith.addf %[[RS0]], %{{.+}} : tensor<4x8xf32>
// CHECK: %[[G0:.+]] = shard.all_gather %[[H0]] {{.*}} : tensor<4x8xf32> -> tensor<16x8xf32>
// CHECK: linalg.matmul ins(%[[G0]]
// CHECK: %[[RS1:.+]] = shard.reduce_scatter
// CHECK: %[[H1:.+]] = arith.addf %[[RS1]], %[[H0]] : tensor<4x8xf32>
// CHECK: %[[G1:.+]] = shard.all_gather %[[H1]]
// CHECK: return %[[G1]]
func.func @two_layers(%x: tensor<16x8xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                      %w0: tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
                      %w1: tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) -> tensor<16x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p0 = linalg.matmul ins(%x, %w0 : tensor<16x8xf32>, tensor<8x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r0 = shard.all_reduce %p0 on @grid grid_axes = [0] : tensor<16x8xf32> -> tensor<16x8xf32>
  %h0 = arith.addf %r0, %x : tensor<16x8xf32>
  %p1 = linalg.matmul ins(%h0, %w1 : tensor<16x8xf32>, tensor<8x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r1 = shard.all_reduce %p1 on @grid grid_axes = [0] : tensor<16x8xf32> -> tensor<16x8xf32>
  %h1 = arith.addf %r1, %h0 : tensor<16x8xf32>
  return %h1 : tensor<16x8xf32>
}

// -----

// Tests that position-keyed seqpar.dropout on a shard gets the rank's global
// offsets and the global shape, so it draws the single-device mask.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @dropout
// CHECK: %[[RANK:.+]] = shard.process_multi_index
// CHECK: %[[OFF:.+]] = arith.muli %[[RANK]]
// CHECK: %[[RS:.+]] = shard.reduce_scatter {{.*}} scatter_axis = 1 : tensor<2x8x4xf32> -> tensor<2x4x4xf32>
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[O1:.+]] = arith.addi %[[C0]], %[[OFF]] : index
// CHECK: seqpar.dropout %[[RS]] seed %{{.+}} offsets(%[[C0]], %[[O1]], %[[C0]]) {global_shape = array<i64: 2, 8, 4>, rate = 1.000000e-01 : f64, site = 7 : i64} : tensor<2x4x4xf32>
func.func @dropout(%x: tensor<2x8x4xf32> {seqpar.seq_dim = 1 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %seed: i64) -> tensor<2x8x4xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<2x8x4xf32> -> tensor<2x8x4xf32>
  %d = seqpar.dropout %r seed %seed {rate = 0.1 : f64, site = 7 : i64} : tensor<2x8x4xf32>
  return %d : tensor<2x8x4xf32>
}

// -----

// Tests values reduced over the sequence: each shard is reduced and an
// all-reduce combines the partial results (a sum counts a non-zero init once,
// after the all-reduce; a max keeps its init), instead of all-gathering the
// [s, h] input; a position read in the reduction gets the global index.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @sequence_reductions
// CHECK-SAME: (%[[X:.+]]: tensor<8x16xf32> {{.*}}, %[[INIT:.+]]: tensor<16xf32>)
// CHECK: %[[OFF:.+]] = arith.muli
// CHECK: %[[RS:.+]] = shard.reduce_scatter
// CHECK: %[[A:.+]] = arith.addf %[[RS]], %{{.+}} : tensor<4x16xf32>
// CHECK: %[[S:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x16xf32>) outs(%{{.+}} : tensor<16xf32>)
// CHECK: %[[SUM:.+]] = shard.all_reduce %[[S]] on @grid grid_axes = [0] : tensor<16xf32> -> tensor<16xf32>
// CHECK: %[[ZERO:.+]] = linalg.fill
// CHECK: %[[P:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x16xf32>) outs(%[[ZERO]] : tensor<16xf32>)
// CHECK: %[[I:.+]] = linalg.index 1 : index
// CHECK: arith.addi %[[I]], %[[OFF]] : index
// CHECK: %[[PSUM:.+]] = shard.all_reduce %[[P]] on @grid grid_axes = [0] : tensor<16xf32> -> tensor<16xf32>
// CHECK: %[[SUM2:.+]] = arith.addf %[[PSUM]], %[[INIT]] : tensor<16xf32>
// CHECK: %[[M:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x16xf32>) outs(%[[INIT]] : tensor<16xf32>)
// CHECK: %[[MAX:.+]] = shard.all_reduce %[[M]] on @grid grid_axes = [0] reduction = max
// CHECK-NOT: shard.all_gather
// CHECK: return %[[SUM]], %[[SUM2]], %[[MAX]]
func.func @sequence_reductions(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %init: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %sum2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %v, %fi : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.maximumf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %sum, %sum2, %max : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// -----

// Tests that a reduction over the sequence with another combiner (here a
// product) needs all tokens: the input is gathered first.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @product_over_sequence
// CHECK: %[[RS:.+]] = shard.reduce_scatter
// CHECK: %[[A:.+]] = arith.addf %[[RS]]
// CHECK: %[[G:.+]] = shard.all_gather %[[A]]
// CHECK: linalg.generic {{.*}} ins(%[[G]] : tensor<8x16xf32>)
func.func @product_over_sequence(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %init: tensor<16xf32>) -> tensor<16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %p : tensor<16xf32>
}

// -----

// Tests a value gathered for an operand other than #0 of its consumer (the
// column-parallel matmul written weight-first, y^T = W^T x^T).

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @weight_first
// CHECK-SAME: (%{{.+}}, %[[WT:.+]]: tensor<32x16xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%{{.+}} : tensor<4x16xf32>) outs(%{{.+}} : tensor<16x4xf32>)
// CHECK: %[[G:.+]] = shard.all_gather %[[T]] on @grid grid_axes = [0] gather_axis = 1 : tensor<16x4xf32> -> tensor<16x8xf32>
// CHECK: linalg.matmul ins(%[[WT]], %[[G]] : tensor<32x16xf32>, tensor<16x8xf32>)
func.func @weight_first(%x: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 0 : i64},
                        %wt: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    -> (tensor<32x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %at = linalg.transpose ins(%a : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  %c0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<32x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %y = linalg.matmul ins(%wt, %at : tensor<32x16xf32>, tensor<16x8xf32>) outs(%f : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %y : tensor<32x8xf32>
}

// -----

// A row sum into a zero fill of a tensor.empty that the next op writes
// too (as CSE leaves a LayerNorm): both read one local tensor.empty, so the
// clean-up after the rewrite has nothing to merge.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @shared_empty
// CHECK: shard.reduce_scatter
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x1xf32>
// CHECK-NOT: tensor.empty() : tensor<4x1xf32>
// CHECK: %[[F:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x1xf32>)
// CHECK: %[[S:.+]] = linalg.generic {{.*}} outs(%[[F]] : tensor<4x1xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<4x1xf32>) outs(%[[E]] : tensor<4x1xf32>)
func.func @shared_empty(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                        %w: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) -> tensor<8x1xf32> {
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x1xf32>) -> tensor<8x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<8x16xf32>) outs(%f : tensor<8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x1xf32>) outs(%e : tensor<8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  return %m : tensor<8x1xf32>
}
