// RUN: seqpar-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(seqpar-sequence-parallel)'

// Tests that an all-reduce whose token-wise region reaches an op without a
// token-wise rule stays in place, with a remark naming the op.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func private @rng(tensor<8x16xf32>) -> tensor<8x16xf32>
// expected-remark @below {{sequence-parallel over @grid axis 0 (t=2, s=8): 1 all_reduce (512 bytes sent per rank) -> 0 reduce_scatter (0 bytes) + 0 all_gather (0 bytes) + 1 all_reduce kept (512 bytes); total 512 bytes}}
func.func @unknown_op(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<8x16xf32> {
  // expected-remark @below {{all_reduce kept: its sequence-sharded region would reach 'func.call' (has no token-wise rule for 'func.call')}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  // expected-note @below {{blocking op here}}
  %d = func.call @rng(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %d : tensor<8x16xf32>
}

// -----

// Tests that an all-reduce feeding only an op that needs all tokens stays.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce kept}}
func.func @nothing_token_wise(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                              %w: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>}) -> tensor<8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-remark @below {{all_reduce kept: nothing token-wise follows it; its first consumer 'linalg.matmul' has an operand sharded or partial over the TP axis}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %m = linalg.matmul ins(%r, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// -----

// Tests that an all-reduce without a sequence dim is reported and kept.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce kept}}
func.func @no_sequence(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %y: tensor<16xf32>) -> tensor<16xf32> {
  // expected-remark @below {{all_reduce kept: its result does not carry the sequence dim}}
  %r = shard.all_reduce %y on @grid grid_axes = [0] : tensor<16xf32> -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Tests that a sequence not divisible by the TP size is refused.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @uneven(%x: tensor<7x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<7x16xf32> {
  // expected-error @below {{sequence length 7 (dim 0 of 'tensor<7x16xf32>') is not divisible by the 2 ranks of grid axis 0 of @grid}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<7x16xf32> -> tensor<7x16xf32>
  %a = arith.addf %r, %x : tensor<7x16xf32>
  return %a : tensor<7x16xf32>
}

// -----

// Tests that the TP grid must be named when the module has several.

shard.grid @tp(shape = 2) {sym_visibility = "private"}
shard.grid @cp(shape = 2) {sym_visibility = "private"}
// expected-error @below {{found 2 shard.grid ops; name the TP grid with the 'grid' option}}
func.func @two_grids(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @tp grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Tests that a multi-axis grid needs the TP axis named.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// expected-error @below {{grid @grid has 2 axes; name the TP axis with the 'grid-axis' option}}
func.func @which_axis(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Tests that a dynamic grid axis is refused.

shard.grid @grid(shape = ?) {sym_visibility = "private"}
// expected-error @below {{grid axis 0 of @grid needs a static size to shard the sequence}}
func.func @dynamic_grid(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Tests that all-reduces without any sequence dim are an error that says
// why none could be inferred.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @below {{sequence-parallel: no sequence dim for @no_seq_dim: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: it has no attention (seqpar.attention, or a softmax P.V product that seqpar-raise-attention recognises)}}
func.func @no_seq_dim(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Tests that a dropout on a flattened [b*s, h] value blocks the rewrite: a
// shard is not a box of the global tensor, so the mask cannot be keyed.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce kept}}
func.func @flat_dropout(%x: tensor<2x8x4xf32> {seqpar.seq_dim = 1 : i64}, %seed: i64) -> tensor<16x4xf32> {
  %f = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x4xf32> into tensor<16x4xf32>
  // expected-remark @below {{all_reduce kept: its sequence-sharded region would reach 'seqpar.dropout' (a dropout whose sequence is flattened into a larger dim}}
  %r = shard.all_reduce %f on @grid grid_axes = [0] : tensor<16x4xf32> -> tensor<16x4xf32>
  %n = arith.negf %r : tensor<16x4xf32>
  // expected-note @below {{blocking op here}}
  %d = seqpar.dropout %n seed %seed {rate = 0.5 : f64, site = 0 : i64} : tensor<16x4xf32>
  return %d : tensor<16x4xf32>
}


// -----

// Tests that a sharded value used inside a nested region blocks the rewrite.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce kept}}
func.func @nested_use(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %c: i1) -> tensor<8x16xf32> {
  // expected-remark @below {{all_reduce kept: its sequence-sharded region would reach 'scf.if' (has regions that use a sequence-carrying value)}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  // expected-note @below {{blocking op here}}
  %y = scf.if %c -> tensor<8x16xf32> {
    %n = arith.negf %a : tensor<8x16xf32>
    scf.yield %n : tensor<8x16xf32>
  } else {
    scf.yield %x : tensor<8x16xf32>
  }
  return %y : tensor<8x16xf32>
}

// -----

// Tests that a function with several blocks is left alone, with a remark.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @blocks(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  // expected-remark @below {{all_reduce kept: sequence parallelism rewrites the top level of a single-block function only}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  cf.br ^bb1(%r : tensor<8x16xf32>)
^bb1(%v: tensor<8x16xf32>):
  return %v : tensor<8x16xf32>
}

// -----

// Tests that an all-reduce inside a loop is reported, not silently skipped,
// and counted as kept in the summary once per iteration (8x16 f32: N = 512
// bytes, 2N(t-1)/t = 512 per call, 2 calls).

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce (1024 bytes sent per rank) -> 0 reduce_scatter (0 bytes) + 0 all_gather (0 bytes) + 1 all_reduce kept (1024 bytes); total 1024 bytes}}
func.func @in_loop(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %y = scf.for %i = %c0 to %c2 step %c1 iter_args(%v = %x) -> tensor<8x16xf32> {
    // expected-remark @below {{all_reduce kept: sequence parallelism rewrites the top level of a single-block function only}}
    %r = shard.all_reduce %v on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    scf.yield %r : tensor<8x16xf32>
  }
  return %y : tensor<8x16xf32>
}

// -----

// Tests that an all-reduce in a loop that runs no iteration sends nothing.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce (0 bytes sent per rank) -> 0 reduce_scatter (0 bytes) + 0 all_gather (0 bytes) + 1 all_reduce kept (0 bytes); total 0 bytes}}
func.func @in_empty_loop(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %y = scf.for %i = %c1 to %c0 step %c1 iter_args(%v = %x) -> tensor<8x16xf32> {
    // expected-remark @below {{all_reduce kept: sequence parallelism rewrites the top level of a single-block function only}}
    %r = shard.all_reduce %v on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    scf.yield %r : tensor<8x16xf32>
  }
  return %y : tensor<8x16xf32>
}

// -----

// Tests that an unsigned loop counts its iterations unsigned: i8 from 0 to
// -126 is 0 to 130, 130 calls of 512 bytes.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce (66560 bytes sent per rank)}}
func.func @in_unsigned_loop(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %lo = arith.constant 0 : i8
  %hi = arith.constant -126 : i8
  %one = arith.constant 1 : i8
  %y = scf.for unsigned %i = %lo to %hi step %one iter_args(%v = %x) -> tensor<8x16xf32> : i8 {
    // expected-remark @below {{all_reduce kept: sequence parallelism rewrites the top level of a single-block function only}}
    %r = shard.all_reduce %v on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    scf.yield %r : tensor<8x16xf32>
  }
  return %y : tensor<8x16xf32>
}

// -----

// Tests that calls too many to count in int64 saturate the byte figures
// (INT64_MIN to INT64_MAX is 2^64 - 1 iterations; upstream's count wraps
// to 0 in 64 bits).

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce (9223372036854775807 bytes sent per rank) -> 0 reduce_scatter (0 bytes) + 0 all_gather (0 bytes) + 1 all_reduce kept (9223372036854775807 bytes); total 9223372036854775807 bytes}}
func.func @in_huge_loop(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %lo = arith.constant -9223372036854775808 : i64
  %hi = arith.constant 9223372036854775807 : i64
  %one = arith.constant 1 : i64
  %y = scf.for %i = %lo to %hi step %one iter_args(%v = %x) -> tensor<8x16xf32> : i64 {
    // expected-remark @below {{all_reduce kept: sequence parallelism rewrites the top level of a single-block function only}}
    %r = shard.all_reduce %v on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    scf.yield %r : tensor<8x16xf32>
  }
  return %y : tensor<8x16xf32>
}

// -----

// Tests that the summary counts the all-reduces it rewrites at the top level
// and those it keeps in a branch: 1 + 1 all_reduce of 512 bytes each, the
// top-level one as reduce_scatter + all_gather (256 bytes each).

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{2 all_reduce (1024 bytes sent per rank) -> 1 reduce_scatter (256 bytes) + 1 all_gather (256 bytes) + 1 all_reduce kept (512 bytes); total 1024 bytes}}
func.func @top_and_branch(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %c: i1) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.negf %r : tensor<8x16xf32>
  %y = scf.if %c -> tensor<8x16xf32> {
    // expected-remark @below {{all_reduce kept: sequence parallelism rewrites the top level of a single-block function only}}
    %n = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    scf.yield %n : tensor<8x16xf32>
  } else {
    scf.yield %x : tensor<8x16xf32>
  }
  return %a, %y : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Tests that an unused all-reduce says so.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce kept}}
func.func @unused(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) {
  // expected-remark @below {{all_reduce kept: its result is unused}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return
}

// -----

// Tests that a function with call sites keeps its signature under
// input-sharded/output-sharded (here the options are off: no remark; the
// option run is in seqpar-sequence-parallel-signature.mlir).

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{1 all_reduce}}
func.func @callee(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}
func.func @caller(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = func.call @callee(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Tests that a root whose partial-sum input would be computed on sequence
// shards (weights TP-split but not annotated in this function) makes the
// region feeding it keep its all-reduce, instead of producing wrong values.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{2 all_reduce kept}}
func.func @unannotated_weights(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0.0 : f32
  // expected-remark @below {{all_reduce kept: its sequence-sharded region would reach 'shard.all_reduce' (its partial-sum input would be computed on sequence shards; an operand on its path is probably TP-sharded without a #seqpar.sharding attribute)}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%r, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = linalg.matmul ins(%h, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  // The residual add joins both roots' regions, so both are kept.
  // expected-note @+2 {{blocking op here}}
  // expected-remark @+1 {{all_reduce kept: its sequence-sharded region would reach 'shard.all_reduce' (its partial-sum input}}
  %y = shard.all_reduce %o on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %z = arith.addf %y, %r : tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// Tests that a function with TP all-reduces but no sequence dim is skipped
// with a remark when another function of the module has one.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{sequence-parallel: skipped, no sequence dim for @helper: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: it has no attention}}
func.func @helper(%v: tensor<16xf32>) -> tensor<16xf32> {
  %r = shard.all_reduce %v on @grid grid_axes = [0] : tensor<16xf32> -> tensor<16xf32>
  return %r : tensor<16xf32>
}
// expected-remark @below {{1 all_reduce}}
func.func @entry(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %a = arith.addf %r, %x : tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}

// -----

// Tests that a linalg op whose sequence loop is a reduction that its result
// still indexes is not taken for a reduction over the sequence: the init was
// localized and the result kept its global type ("expected type of operand
// #1 ... to match type of corresponding result"). The all-reduce is kept.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{0 reduce_scatter (0 bytes) + 0 all_gather (0 bytes) + 1 all_reduce kept (512 bytes)}}
func.func @reduction_loop_kept(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<8xf32> {
  // expected-remark @below {{all_reduce kept: nothing token-wise follows it; its first consumer 'linalg.generic' mixes tokens: reduces over the sequence loop d0 but keeps it in result #0}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["reduction", "reduction"]} ins(%r : tensor<8x16xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}
