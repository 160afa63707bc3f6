// Tests that seqpar-sequence-parallel (and seqpar-sp-pipeline, which
// forwards its options) refuses option values and inputs that make no
// sense, with a located error, before touching the IR.

// RUN: split-file %s %t
// RUN: seqpar-opt %t/grid-axis.mlir -verify-diagnostics --pass-pipeline='builtin.module(seqpar-sequence-parallel{grid-axis=-2})'
// RUN: seqpar-opt %t/seq-dim.mlir -verify-diagnostics --seqpar-sp-pipeline=seq-dim=-2
// RUN: seqpar-opt %t/seq-dim-range.mlir -verify-diagnostics --pass-pipeline='builtin.module(seqpar-sequence-parallel{seq-dim=3})'
// RUN: seqpar-opt %t/no-grid.mlir -verify-diagnostics --seqpar-sp-pipeline
// RUN: not seqpar-opt %t/no-grid.mlir --seqpar-sp-pipeline -o /dev/null 2>/dev/null
// RUN: seqpar-opt %t/no-all-reduce.mlir -verify-diagnostics --seqpar-sp-pipeline
// RUN: seqpar-opt %t/empty.mlir -verify-diagnostics --seqpar-sp-pipeline
// RUN: seqpar-opt %t/more-ranks.mlir -verify-diagnostics --pass-pipeline='builtin.module(seqpar-sequence-parallel{pad=true})'
// RUN: seqpar-opt %t/flattened.mlir -verify-diagnostics --pass-pipeline='builtin.module(seqpar-sequence-parallel)'

//--- grid-axis.mlir
// A negative grid axis other than the default -1.
// expected-error @+1 {{sequence-parallel: grid-axis=-2 is not a grid axis: expected an axis >= 0, or -1 (the default)}}
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @f(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
    %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
}

//--- seq-dim.mlir
// A negative sequence dim other than the default -1 (infer).
// expected-error @+1 {{sequence-parallel: seq-dim=-2 is not a dim: expected a dim >= 0, or -1 (the default) to infer it from the attention}}
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
}

//--- seq-dim-range.mlir
// A sequence dim no argument has: the message prints the option's value.
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  // expected-error @+1 {{sequence-parallel: no sequence dim for @f: the seq-dim=3 option applies to the first tensor argument of rank > 3, and @f has none (its tensor arguments have rank 2 at most)}}
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
}

//--- no-grid.mlir
// No grid and no all-reduce: not a TP per-rank program (an unsharded graph
// given to the wrong pipeline).
// expected-error @+1 {{sequence-parallel: the module has no shard.grid and no all_reduce: it is not a tensor-parallel per-rank program (seqpar-pipeline partitions an unsharded graph)}}
module {
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %y = arith.negf %x : tensor<8x16xf32>
    return %y : tensor<8x16xf32>
  }
}

//--- no-all-reduce.mlir
// A grid but nothing to rewrite: a remark says so.
// expected-remark @+1 {{sequence-parallel: no function has an all_reduce to rewrite}}
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %y = arith.negf %x : tensor<8x16xf32>
    return %y : tensor<8x16xf32>
  }
}

//--- empty.mlir
// A module without a function body (an empty input file, here spelled out).
// expected-error @+1 {{sequence-parallel: the module has no function with a body}}
module {
}

//--- more-ranks.mlir
// More ranks than tokens: refused even with padding (a padded sequence
// would be longer than the tokens it holds).
module {
  shard.grid @grid(shape = 16) {sym_visibility = "private"}
  func.func @f(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
    // expected-error @+1 {{the 16 ranks of grid axis 0 of @grid exceed the sequence length 8 (dim 0 of 'tensor<8x16xf32>')}}
    %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
    %a = arith.addf %r, %x : tensor<8x16xf32>
    return %a : tensor<8x16xf32>
  }
}

//--- flattened.mlir
// An uneven sequence met in a flattened [b*s, h] view: the message says
// what the view holds.
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @f(%x: tensor<2x7x16xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<14x16xf32> {
    %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x7x16xf32> into tensor<14x16xf32>
    // expected-error @+1 {{sequence length 7 (dim 0 of 'tensor<14x16xf32>', which flattens 2 sequences of 7 tokens) is not divisible by the 2 ranks of grid axis 0 of @grid; pass pad=true to pad it}}
    %r = shard.all_reduce %c on @grid grid_axes = [0] : tensor<14x16xf32> -> tensor<14x16xf32>
    %a = arith.addf %r, %c : tensor<14x16xf32>
    return %a : tensor<14x16xf32>
  }
}
