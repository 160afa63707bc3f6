// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -split-input-file 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -split-input-file -verify-diagnostics -o /dev/null

// A tied embedding and LM head with the softmax's max and sum over the
// vocabulary and the label's logit (docs/semantics.md §10, vocab-parallel):
// the table is split on its rows, the logits stay split (never gathered),
// the max and the sum over the vocabulary are partial results (all_reduce
// max, sum), and each gather reads this rank's rows at the local row, zero
// for the others' rows, summed over the ranks.

#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @tied(
// CHECK-SAME: %[[WTE:[a-z0-9]+]]: tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>})
// CHECK: %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0]
// CHECK: %[[EMB:.*]] = linalg.generic
// CHECK: %[[FIRST:.*]] = arith.muli %[[RANK]], %[[C4:.*]] : index
// A row outside the whole table stops the run instead of reading 0 on
// every rank.
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID:.*]], %c8{{.*}} : index
// CHECK: cf.assert %[[IN]], "error: run-time check failed at {{.*}}: row index outside the 8 rows of the table split over TP ranks (a token id or label out of range)"
// CHECK: %[[LOCAL:.*]] = arith.subi %[[ID]], %[[FIRST]] : index
// CHECK: %[[MINE:.*]] = arith.cmpi ult, %[[LOCAL]], %[[C4]] : index
// CHECK: %[[ROW:.*]] = arith.select %[[MINE]], %[[LOCAL]], %{{.*}} : index
// CHECK: %[[V:.*]] = tensor.extract %[[WTE]][%[[ROW]], %{{.*}}] : tensor<4x16xf32>
// CHECK: %[[MASKED:.*]] = arith.select %[[MINE]], %[[V]], %{{.*}} : f32
// CHECK: linalg.yield %[[MASKED]] : f32
// CHECK: shard.all_reduce %[[EMB]] on @grid grid_axes = [0] : tensor<8x16xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<8x4xf32>
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8x4xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: arith.maximumf
// CHECK: shard.all_reduce %[[MAX]] on @grid grid_axes = [0] reduction = max : tensor<8xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8x4xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: shard.all_reduce %[[SUM]] on @grid grid_axes = [0] : tensor<8xf32>
// CHECK: %[[PICK:.*]] = linalg.generic
// CHECK: arith.cmpi ult
// CHECK: tensor.extract %{{.*}} : tensor<8x4xf32>
// CHECK: shard.all_reduce %[[PICK]] on @grid grid_axes = [0] : tensor<8xf32>
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 0 row-parallel linears, 0 linears left replicated; 4 reductions over split dims and gathers along them}}
func.func @tied(%ids: tensor<8xi64>, %labels: tensor<8xi64>, %wte: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %e8x16 = tensor.empty() : tensor<8x16xf32>
  %emb = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %wte[%row, %col] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e16x8 = tensor.empty() : tensor<16x8xf32>
  %wt = linalg.transpose ins(%wte : tensor<8x16xf32>) outs(%e16x8 : tensor<16x8xf32>) permutation = [1, 0]
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %z8x8 = linalg.fill ins(%zero : f32) outs(%e8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %logits = linalg.matmul ins(%emb, %wt : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %low8 = linalg.fill ins(%lowest : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x8xf32>) outs(%low8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x8xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    %a = arith.addf %x, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%labels : tensor<8xi64>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%label: i64, %out: f32):
    %t = linalg.index 0 : index
    %col = arith.index_cast %label : i64 to index
    %v = tensor.extract %logits[%t, %col] : tensor<8x8xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %m2 = arith.addf %max, %sum : tensor<8xf32>
  return %m2, %picked : tensor<8xf32>, tensor<8xf32>
}

// -----

// A gather that computes with the element (zero for another rank's rows
// would not stay zero), a vocabulary tp=2 does not divide, and a sum that
// accumulates into a non-zero init stay replicated, with remarks.

#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @computes_with_gathered(
// CHECK-NOT: shard.all_reduce
// CHECK: return
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 3 linears left replicated}}
func.func @computes_with_gathered(%x: tensor<8x16xf32>, %x2: tensor<8x16xf32>, %x3: tensor<8x16xf32>, %labels: tensor<8xi64>, %lm: tensor<16x8xf32>, %odd: tensor<16x7xf32>, %lm2: tensor<16x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %z8x8 = linalg.fill ins(%zero : f32) outs(%e8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-remark @+1 {{gathers from a split value in an op that does more than yield the element}}
  %logits = linalg.matmul ins(%x, %lm : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%labels : tensor<8xi64>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%label: i64, %out: f32):
    %t = linalg.index 0 : index
    %col = arith.index_cast %label : i64 to index
    %v = tensor.extract %logits[%t, %col] : tensor<8x8xf32>
    %w = arith.addf %v, %one : f32
    linalg.yield %w : f32
  } -> tensor<8xf32>
  %e8x7 = tensor.empty() : tensor<8x7xf32>
  %z8x7 = linalg.fill ins(%zero : f32) outs(%e8x7 : tensor<8x7xf32>) -> tensor<8x7xf32>
  // expected-remark @+1 {{dim 1 holds 7 features, which tp=2 does not divide}}
  %l7 = linalg.matmul ins(%x2, %odd : tensor<8x16xf32>, tensor<16x7xf32>) outs(%z8x7 : tensor<8x7xf32>) -> tensor<8x7xf32>
  %one8 = linalg.fill ins(%one : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s7 = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%l7 : tensor<8x7xf32>) outs(%one8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  // expected-remark @+1 {{accumulates into an init that is not a zero fill or constant}}
  %l8 = linalg.matmul ins(%x3, %lm2 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s8 = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%l8 : tensor<8x8xf32>) outs(%one8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %picked, %s7, %s8 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// An embedding table no linear reads, gathered at the ids argument, and its
// gradient as exporters write it (one-hot^T . dE, the one-hot comparing the
// ids with an iota over the rows): the table is split on its rows, the
// one-hot's row loop follows the split (the iota is sliced locally), and the
// gradient is returned split like the table. A position table gathered at
// computed positions stays replicated, and a table of 3 rows tp=2 does not
// divide stays replicated with a remark.

#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @untied(
// CHECK-SAME: %[[EMB:[a-z0-9]+]]: tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>}
// CHECK-SAME: %[[POS:[a-z0-9]+]]: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: %[[TYPES:[a-z0-9]+]]: tensor<3x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>})
// CHECK: %[[IOTA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xi64>)
// CHECK: shard.all_reduce
// CHECK-NOT: shard.all_reduce
// CHECK: %[[MINE:.*]] = tensor.extract_slice %[[IOTA]][%{{.*}}] [4] [1] : tensor<8xi64> to tensor<4xi64>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[MINE]] : tensor<8xi64>, tensor<4xi64>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 0 column-parallel and 0 row-parallel linears, 0 linears left replicated; 1 reductions over split dims and gathers along them (the vocab-parallel cross-entropy and embedding); 1 embedding tables split on their rows}}
func.func @untied(%ids: tensor<8xi64>, %types: tensor<8xi64>, %emb: tensor<8x16xf32>, %pos: tensor<8x16xf32>, %typetable: tensor<3x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e8x16 = tensor.empty() : tensor<8x16xf32>
  %e8 = tensor.empty() : tensor<8xi64>
  %iota = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e8 : tensor<8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<8xi64>
  %x = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %r = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %emb[%r, %col] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %p = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%iota : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%i: i64, %out: f32):
    %r = arith.index_cast %i : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %pos[%r, %col] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  // expected-remark @+1 {{embedding table (argument #4) left replicated: 'linalg.generic'}}
  %ty = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%types : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%t: i64, %out: f32):
    %r = arith.index_cast %t : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %typetable[%r, %col] : tensor<3x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %onehot = linalg.generic {indexing_maps = [#tok, #row, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids, %iota : tensor<8xi64>, tensor<8xi64>) outs(%e8x8 : tensor<8x8xf32>) {
  ^bb0(%id: i64, %v: i64, %out: f32):
    %eq = arith.cmpi eq, %id, %v : i64
    %f = arith.uitofp %eq : i1 to f32
    linalg.yield %f : f32
  } -> tensor<8x8xf32>
  %t8x8 = linalg.transpose ins(%onehot : tensor<8x8xf32>) outs(%e8x8 : tensor<8x8xf32>) permutation = [1, 0]
  // The output gradient, as a stand-in: computed, not an argument.
  %dE = arith.addf %x, %p : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e8x16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %demb = linalg.matmul ins(%t8x8, %dE : tensor<8x8xf32>, tensor<8x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %x, %p, %ty, %demb : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A lookup that adds the token and position rows in one body: masking the
// token row to zero would leave the position row on every rank, t times in
// the sum. The table stays replicated, with a remark.

#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @fused_lookup(
// CHECK-NOT: shard.all_reduce
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 0 linears left replicated}}
func.func @fused_lookup(%ids: tensor<8xi64>, %emb: tensor<8x16xf32>, %pos: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e8x16 = tensor.empty() : tensor<8x16xf32>
  // expected-remark @+1 {{embedding table (argument #1) left replicated: 'tensor.extract'}}
  %x = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %r = arith.index_cast %id : i64 to index
    %q = linalg.index 0 : index
    %col = linalg.index 1 : index
    %v = tensor.extract %emb[%r, %col] : tensor<8x16xf32>
    %w = tensor.extract %pos[%q, %col] : tensor<8x16xf32>
    %a = arith.addf %v, %w : f32
    linalg.yield %a : f32
  } -> tensor<8x16xf32>
  return %x : tensor<8x16xf32>
}

// -----

// A one-hot written as one generic, comparing the ids with the row loop's
// linalg.index: the row loop is split, and rank r's position is its local
// one plus r * 4.

#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @fused_one_hot(
// CHECK: %[[RANK:.*]] = shard.process_multi_index
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: %[[LOCAL:.*]] = linalg.index 1 : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[RANK]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.addi %[[LOCAL]], %[[FIRST]] : index
// CHECK: arith.index_cast %[[ROW]] : index to i64
// CHECK: return %{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<4x16xf32>
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 0 column-parallel and 0 row-parallel linears, 0 linears left replicated; 1 reductions over split dims and gathers along them (the vocab-parallel cross-entropy and embedding); 1 embedding tables split on their rows}}
func.func @fused_one_hot(%ids: tensor<8xi64>, %emb: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e8x16 = tensor.empty() : tensor<8x16xf32>
  %x = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %r = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %emb[%r, %col] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %onehot = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x8 : tensor<8x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %v = linalg.index 1 : index
    %vi = arith.index_cast %v : index to i64
    %eq = arith.cmpi eq, %id, %vi : i64
    %f = arith.uitofp %eq : i1 to f32
    linalg.yield %f : f32
  } -> tensor<8x8xf32>
  %t8x8 = linalg.transpose ins(%onehot : tensor<8x8xf32>) outs(%e8x8 : tensor<8x8xf32>) permutation = [1, 0]
  %z = linalg.fill ins(%zero : f32) outs(%e8x16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dE = arith.mulf %x, %x : tensor<8x16xf32>
  %demb = linalg.matmul ins(%t8x8, %dE : tensor<8x8xf32>, tensor<8x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %x, %demb : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Found by an outside tester: an integer count over the vocabulary (TP
// combines floating-point partial sums only) and logits that merely have
// their weight's shape and are returned stay replicated; a sum from a zero
// splat constant is a zero init; a table also read by another op stays
// replicated with a remark.

#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @integer_count(
// CHECK-NOT: shard.all_reduce
// CHECK: return
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 1 linears left replicated}}
func.func @integer_count(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8xi32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i32
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %z8x8 = linalg.fill ins(%zero : f32) outs(%e8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-remark @+1 {{would all-reduce i32 partial results: TP planning combines f32, f16 and bf16 partial sums only}}
  %logits = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %ei = tensor.empty() : tensor<8xi32>
  %zi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<8xi32>) -> tensor<8xi32>
  %n = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x8xf32>) outs(%zi : tensor<8xi32>) {
  ^bb0(%in: f32, %out: i32):
    %p = arith.cmpf ogt, %in, %zero : f32
    %pi = arith.extui %p : i1 to i32
    %a = arith.addi %out, %pi : i32
    linalg.yield %a : i32
  } -> tensor<8xi32>
  return %n : tensor<8xi32>
}

// CHECK-LABEL: func.func @weight_shaped_logits(
// CHECK-SAME: %{{.*}}: tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: -> (tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 1 linears left replicated}}
func.func @weight_shaped_logits(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %z8x8 = linalg.fill ins(%zero : f32) outs(%e8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-remark @+1 {{returns result #1 split, and it is not a split weight's gradient}}
  %logits = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x8xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %sum, %logits : tensor<8xf32>, tensor<8x8xf32>
}

// CHECK-LABEL: func.func @zero_splat_init(
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8x4xf32>)
// CHECK: shard.all_reduce %[[SUM]] on @grid grid_axes = [0] : tensor<8xf32>
// expected-remark @+1 {{tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 0 row-parallel linears, 0 linears left replicated; 1 reductions over split dims and gathers along them}}
func.func @zero_splat_init(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %z8 = arith.constant dense<0.0> : tensor<8xf32>
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %z8x8 = linalg.fill ins(%zero : f32) outs(%e8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z8x8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sum = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x8xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}

// CHECK-LABEL: func.func @table_read_otherwise(
// CHECK-SAME: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// expected-remark @+1 {{tensor parallelism (tp=2): 0 blocks, 0 column-parallel and 0 row-parallel linears, 0 linears left replicated}}
func.func @table_read_otherwise(%ids: tensor<8xi64>, %emb: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e8x16 = tensor.empty() : tensor<8x16xf32>
  // expected-remark @+1 {{embedding table (argument #1) left replicated: it is also read by 'arith.mulf'}}
  %x = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %r = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %emb[%r, %col] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %sq = arith.mulf %emb, %emb : tensor<8x16xf32>
  return %x, %sq : tensor<8x16xf32>, tensor<8x16xf32>
}
