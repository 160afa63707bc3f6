// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,RING
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=all-gather" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,GATHER
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=ulysses" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,ULYSSES
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Tests that an attention with a dropout of its probabilities (keyed by
// the global (batch, head, query, key); docs/semantics.md §4.8) and its
// backward are distributed with the dropout in every block: each
// attention_block and attention_block_backward carries the region and
// evaluates it at the block's global positions and heads (head_offset: the
// op's, plus under Ulysses the first head of the rank's chunk). A block
// without the region, or with head_offset left at the op's under Ulysses,
// would draw another mask than the single-device program.
shard.grid @grid(shape = 2)

// REMARK: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): 1 attention -> ring ({{.*}}), 1 attention backward -> ring
// CHECK-LABEL: func.func @dropout
// The forward's blocks: every one with the region.
// RING: seqpar.attention_block %arg0, %arg1, %arg2 positions(%[[POS:.*]], %[[POS]]) head_offset(%arg4) {causal
// RING-SAME: dropout {
// RING-NEXT: ^bb0(%[[B:.*]]: index, %[[H:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index):
// RING: arith.addi %[[I]], %[[J]]
// RING: seqpar.yield
// RING: seqpar.attention_block {{.*}} positions({{.*}}) head_offset(%arg4) {causal{{.*}} dropout {
// RING: seqpar.attention_block {{.*}} positions({{.*}}) head_offset(%arg4) {causal{{.*}} dropout {
// RING: seqpar.attention_merge
// The backward's blocks regenerate the mask: the same region.
// RING: seqpar.attention_block_backward %arg0, %arg1, %arg2, %arg3, {{.*}} positions(%[[POS]], %[[POS]]) head_offset(%arg4) {causal{{.*}} dropout {
// RING: arith.addi
// RING: seqpar.yield
// RING: seqpar.attention_block_backward {{.*}} head_offset(%arg4) {causal{{.*}} dropout {
// RING: seqpar.attention_block_backward {{.*}} head_offset(%arg4) {causal{{.*}} dropout {
// RING: return
// All-gather: one block over the gathered keys, forward and backward.
// GATHER: seqpar.attention_block %arg0, {{.*}} head_offset(%arg4) {causal{{.*}} dropout {
// GATHER: seqpar.attention_block_backward %arg0, {{.*}} head_offset(%arg4) {causal{{.*}} dropout {
// Ulysses: the rank holds heads [2 u, 2 u + 2) of the op's after the
// all-to-all, so its blocks' first head is the op's plus 2 u.
// ULYSSES: %[[U:.*]] = shard.process_multi_index on @grid axes = [0]
// ULYSSES: %[[CHUNK:.*]] = arith.muli %[[U]], %c2
// ULYSSES: %[[OFF:.*]] = arith.addi %arg4, %[[CHUNK]]
// ULYSSES: seqpar.attention_block {{.*}} head_offset(%[[OFF]]) {causal{{.*}} dropout {
// ULYSSES: seqpar.attention_block_backward {{.*}} head_offset(%[[OFF]]) {causal{{.*}} dropout {
func.func @dropout(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                   %k: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                   %v: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                   %do: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                   %heads: index)
    -> (tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>) {
  %o = seqpar.attention %q, %k, %v head_offset(%heads) {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
      dropout {
      ^bb0(%b: index, %h: index, %i: index, %j: index):
        %s = arith.addi %i, %j : index
        %c3 = arith.constant 3 : index
        %c0 = arith.constant 0 : index
        %r = arith.remui %s, %c3 : index
        %keep = arith.cmpi ne, %r, %c0 : index
        %scale = arith.constant 1.5 : f32
        %zero = arith.constant 0.0 : f32
        %m = arith.select %keep, %scale, %zero : f32
        seqpar.yield %m : f32
      }
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do head_offset(%heads) {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>
      dropout {
      ^bb0(%b: index, %h: index, %i: index, %j: index):
        %s = arith.addi %i, %j : index
        %c3 = arith.constant 3 : index
        %c0 = arith.constant 0 : index
        %r = arith.remui %s, %c3 : index
        %keep = arith.cmpi ne, %r, %c0 : index
        %scale = arith.constant 1.5 : f32
        %zero = arith.constant 0.0 : f32
        %m = arith.select %keep, %scale, %zero : f32
        seqpar.yield %m : f32
      }
  return %o, %dq, %dk, %dv : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>
}

// -----

// Tests that a backward whose dropout is not its forward's (another mask)
// cannot use the forward's LSE and out: it stays whole, with a remark.
shard.grid @grid(shape = 2)

// REMARK: remark: context-parallel: all_gather before 'seqpar.attention_backward', which is an attention backward whose query, key, value, mask, scale, causal flag or dropout differ from the attention whose out it reads
// CHECK-LABEL: func.func @other_mask
// CHECK: seqpar.attention_backward
func.func @other_mask(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %k: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %v: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %do: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>) {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
      dropout {
      ^bb0(%b: index, %h: index, %i: index, %j: index):
        %two = arith.constant 2.0 : f32
        seqpar.yield %two : f32
      }
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>
      dropout {
      ^bb0(%b: index, %h: index, %i: index, %j: index):
        %three = arith.constant 3.0 : f32
        seqpar.yield %three : f32
      }
  return %o, %dq, %dk, %dv : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>
}
