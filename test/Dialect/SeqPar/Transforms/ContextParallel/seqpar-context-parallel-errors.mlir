// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel -verify-diagnostics
// RUN: not seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=ulysses" 2>&1 | FileCheck %s --check-prefix=ULYSSES
// RUN: not seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=tree" 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not seqpar-opt %s -split-input-file --seqpar-context-parallel="load-balance=random" 2>&1 | FileCheck %s --check-prefix=BALANCE

// ULYSSES: error: ulysses needs this rank's query heads (4) and key/value heads (1) divisible by the 2 Ulysses ranks; use strategy=ring or all-gather (seqpar-pipeline: cp-strategy=)
// The error is located, not followed by a dump of the attention.
// ULYSSES-NOT: see current operation
// ULYSSES: error: ulysses needs this rank's query heads (4) and key/value heads (2) divisible by the 4 Ulysses ranks; use strategy=ring, all-gather or hybrid with Ulysses ranks dividing both (seqpar-pipeline: cp-strategy=)
// STRATEGY: for the --strategy option: Cannot find option named 'tree'!
// BALANCE: for the --load-balance option: Cannot find option named 'random'!

// Zigzag needs s divisible by 2c.
shard.grid @grid(shape = 2)
// expected-error @+1 {{sequence length 6 (dim 2 of 'tensor<1x4x6x4xf32>') is not divisible by 4 (2 x the 2 ranks of grid axes [0] of @grid, zigzag); pass pad=true (seqpar-pipeline: cp-pad=true) to pad it and mask the padding}}
func.func @uneven(%q: tensor<1x4x6x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x6x4xf32> {
  %o = seqpar.attention %q, %q, %q {causal, scale = 0.5 : f32}
      : tensor<1x4x6x4xf32>, tensor<1x4x6x4xf32>, tensor<1x4x6x4xf32> -> tensor<1x4x6x4xf32>
  return %o : tensor<1x4x6x4xf32>
}

// -----

// MQA: distributed by the ring (Ulysses refuses it, see the ULYSSES run).
shard.grid @grid(shape = 2)
// expected-remark @+1 {{context-parallel over @grid axes [0] (c=2, s=8, zigzag): 1 attention -> ring (1 transfers, 64 bytes sent per rank)}}
func.func @mqa(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<1x1x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
  %o = seqpar.attention %q, %k, %k {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x4x8x4xf32>
  return %o : tensor<1x4x8x4xf32>
}

// -----

// A mask that is itself split along the sequence is not distributed: Q, K,
// V and the mask are gathered before the attention (correct, not context
// parallel), and its output is sliced back. (A replicated mask is: each
// block reads its rows and columns, seqpar-context-parallel.mlir.)
shard.grid @grid(shape = 2)
// expected-remark @+1 {{context-parallel over @grid axes [0] (c=2, s=8, zigzag): 0 attention -> ring (0 transfers, 0 bytes sent per rank), 2 all_gather (384 bytes) for ops that need all tokens}}
func.func @masked(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}, %m: tensor<1x1x8x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
  // expected-remark @+1 {{context-parallel: all_gather before 'seqpar.attention', which is an attention whose mask is sharded along the sequence}}
  %o = seqpar.attention %q, %q, %q mask(%m : tensor<1x1x8x8xf32>) {scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
  %e = tensor.empty() : tensor<1x4x8x4xf32>
  %r = linalg.add ins(%o, %q : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>) outs(%e : tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32>
  return %r : tensor<1x4x8x4xf32>
}

// -----

// A called function keeps its signature: left alone. The caller has no
// sequence dim (and no attention to infer one from): skipped.
shard.grid @grid(shape = 2)
// expected-remark @+1 {{context-parallel: skipped, the function is called (its signature would change)}}
func.func private @layer(%x: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
  return %x : tensor<1x4x8x4xf32>
}
// expected-remark @+1 {{context-parallel: skipped, no sequence dim for @caller: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: it has no attention}}
func.func @caller(%x: tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32> {
  %y = func.call @layer(%x) : (tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32>
  return %y : tensor<1x4x8x4xf32>
}

// -----

// No sequence dim anywhere: an error at the function, saying why none could
// be inferred.
module {
  shard.grid @grid(shape = 2)
  // expected-error @+1 {{context-parallel: no sequence dim for @none: none is given (a seqpar.seq_dim argument attribute or the 'seq-dim' option) and it cannot be inferred: it has no attention (seqpar.attention, or a softmax P.V product that seqpar-raise-attention recognises)}}
  func.func @none(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
    return %x : tensor<4x4xf32>
  }
}

// -----

// An argument already split over the CP axis (a per-rank program): left
// alone rather than split twice.
shard.grid @grid(shape = 2)
func.func @already(%x: tensor<1x4x4x4xf32> {seqpar.seq_dim = 2 : i64, seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0]]>}) -> tensor<1x4x4x4xf32> {
  // expected-remark @-1 {{context-parallel: skipped, argument #0 is already split along its sequence dim or over grid axes [0]}}
  return %x : tensor<1x4x4x4xf32>
}

// -----

// Tests that empty arguments (d = 0) are not sharded: the ring sliced their
// empty dims into invalid IR ("offset 3 is out-of-bounds: 0 >= 0").
shard.grid @grid(shape = 2)
// expected-remark @+3 {{context-parallel: argument #0 is empty ('tensor<1x4x16x0xf32>'): left whole}}
// expected-remark @+2 {{context-parallel: argument #1 is empty ('tensor<1x2x16x0xf32>'): left whole}}
// expected-remark @+1 {{context-parallel over @grid axes [0] (c=2, s=16, zigzag): 0 attention -> ring (0 transfers, 0 bytes sent per rank), 0 all_gather (0 bytes)}}
func.func @empty_head_dim(%q: tensor<1x4x16x0xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<1x2x16x0xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x16x0xf32> {
  %o = seqpar.attention %q, %k, %k {causal, scale = 0.5 : f32}
      : tensor<1x4x16x0xf32>, tensor<1x2x16x0xf32>, tensor<1x2x16x0xf32> -> tensor<1x4x16x0xf32>
  return %o : tensor<1x4x16x0xf32>
}

// -----

// Tests that Ulysses over 4 ranks with GQA 4/2 suggests hybrid with Ulysses
// ranks dividing both head counts (2 would), unlike MQA above.
shard.grid @grid(shape = 4)
// expected-remark @+1 {{context-parallel over @grid axes [0] (c=4, s=8, zigzag): 1 attention -> ring}}
func.func @gqa_four(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
  %o = seqpar.attention %q, %k, %k {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>
  return %o : tensor<1x4x8x4xf32>
}
