// Tests that seqpar-context-parallel refuses option values and inputs that
// make no sense, with a located error, before touching the IR.

// RUN: split-file %s %t
// RUN: seqpar-opt %t/grid-axis.mlir -verify-diagnostics --seqpar-context-parallel=grid-axis=-2
// RUN: seqpar-opt %t/ulysses-axis.mlir -verify-diagnostics --seqpar-context-parallel="strategy=hybrid ulysses-axis=-3"
// RUN: seqpar-opt %t/seq-dim.mlir -verify-diagnostics --seqpar-context-parallel=seq-dim=-2
// RUN: seqpar-opt %t/seq-dim-range.mlir -verify-diagnostics --seqpar-context-parallel=seq-dim=9
// RUN: seqpar-opt %t/empty.mlir -verify-diagnostics --seqpar-context-parallel
// RUN: seqpar-opt %t/more-ranks.mlir -verify-diagnostics --seqpar-context-parallel=pad=true
// RUN: not seqpar-opt %t/more-ranks.mlir --seqpar-context-parallel=pad=true -o /dev/null 2>/dev/null
// RUN: seqpar-opt %t/hybrid-overflow.mlir -verify-diagnostics --seqpar-context-parallel="strategy=hybrid grid-axis=0 ulysses-axis=1"
// RUN: seqpar-opt %t/dynamic.mlir -verify-diagnostics --seqpar-context-parallel
// RUN: seqpar-opt %t/kv-cache-interleave.mlir -verify-diagnostics --seqpar-context-parallel="kv-cache-interleave=-4"
// RUN: seqpar-opt %t/keep-kv.mlir -verify-diagnostics --seqpar-context-parallel="strategy=ulysses keep-kv=true"

//--- grid-axis.mlir
// expected-error @+1 {{context-parallel: grid-axis=-2 is not a grid axis: expected an axis >= 0, or -1 (the default)}}
module {
  shard.grid @grid(shape = 2)
  func.func @f(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
    return %q : tensor<1x4x8x4xf32>
  }
}

//--- ulysses-axis.mlir
// expected-error @+1 {{context-parallel: ulysses-axis=-3 is not a grid axis: expected an axis >= 0, or -1 (the default)}}
module {
  shard.grid @grid(shape = 2x2)
  func.func @f(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
    return %q : tensor<1x4x8x4xf32>
  }
}

//--- seq-dim.mlir
// expected-error @+1 {{context-parallel: seq-dim=-2 is not a dim: expected a dim >= 0, or -1 (the default) to infer it from the attention}}
module {
  shard.grid @grid(shape = 2)
  func.func @f(%q: tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32> {
    return %q : tensor<1x4x8x4xf32>
  }
}

//--- seq-dim-range.mlir
// The seq-dim option names no argument's dim: said at the function (not
// the module), with the option's value, and not replaced by inference.
module {
  shard.grid @grid(shape = 2)
  // expected-error @+1 {{context-parallel: no sequence dim for @f: the seq-dim=9 option applies to the first tensor argument of rank > 9, and @f has none (its tensor arguments have rank 4 at most)}}
  func.func @f(%q: tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32> {
    %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
    return %o : tensor<1x4x8x4xf32>
  }
}

//--- empty.mlir
// expected-error @+1 {{context-parallel: the module has no function with a body}}
module {
}

//--- more-ranks.mlir
// More ranks than tokens, even with padding (2c would also overflow for
// c = 2^63 - 1): refused before any size is derived from c.
module {
  shard.grid @grid(shape = 9223372036854775807)
  // expected-error @+1 {{context-parallel: the 9223372036854775807 ranks of grid axes [0] of @grid exceed the sequence length 8: a context-parallel size is at most s}}
  func.func @f(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
    %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
    return %o : tensor<1x4x8x4xf32>
  }
}

//--- hybrid-overflow.mlir
// The ring x Ulysses rank count is computed with an overflow check.
module {
  shard.grid @grid(shape = 4611686018427387904x4)
  // expected-error @+1 {{hybrid: the 4611686018427387904 x 4 ranks of grid axes [0, 1] of @grid overflow a 64-bit count}}
  func.func @f(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
    %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
    return %o : tensor<1x4x8x4xf32>
  }
}

//--- dynamic.mlir
// A grid axis of dynamic size is refused, not taken as a rank count.
module {
  shard.grid @grid(shape = ?)
  // expected-error @+1 {{grid axis 0 of @grid needs a static size to shard the sequence}}
  func.func @f(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
    %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
    return %o : tensor<1x4x8x4xf32>
  }
}

//--- kv-cache-interleave.mlir
// expected-error @+1 {{kv-cache-interleave=-4 is not a block size: expected kv-cache-interleave >= 1, or 0 (results in the prefill's split)}}
module {
}

//--- keep-kv.mlir
// keep-kv keeps the K/V blocks a ring received; Ulysses has none.
// expected-error @+1 {{keep-kv is only used by the ring of strategy=ring or hybrid (strategy=ulysses)}}
module {
  shard.grid @grid(shape = 2)
  func.func @f(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
    return %q : tensor<1x4x8x4xf32>
  }
}
