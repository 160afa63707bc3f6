// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,RING
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="load-balance=none" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,CONTIG
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=all-gather" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,GATHER
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=ulysses" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,ULYSSES
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="keep-kv=true" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefixes=CHECK,KEEP
// The remarks (stderr) are checked apart from the IR (stdout).
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel 2>&1 >/dev/null | FileCheck %s --check-prefixes=REMARK,REMARK-RING
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="load-balance=none" 2>&1 >/dev/null | FileCheck %s --check-prefixes=REMARK,REMARK-CONTIG
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=all-gather" 2>&1 >/dev/null | FileCheck %s --check-prefixes=REMARK,REMARK-GATHER
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=ulysses" 2>&1 >/dev/null | FileCheck %s --check-prefixes=REMARK,REMARK-ULYSSES
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="keep-kv=true" 2>&1 >/dev/null | FileCheck %s --check-prefixes=REMARK,REMARK-KEEP

// Tests that the backward of a distributed attention (causal GQA, 4 query
// heads on 2 K/V heads, s = 8 on 2 ranks) is distributed with it
// (docs/context-parallelism.md, "Training: the attention backward"): every
// block reads the forward's merged LSE; ring sends K/V again and dK/dV on a
// second ring (f32, c hops) back to their owner; all-gather-KV gathers K/V
// again and reduce-scatters dK/dV; Ulysses keeps the forward's head-sharded
// Q, K, V and out and sends dO and the three gradients. Before, the backward
// read all-gathered Q, K, V, out and dO and ran whole on every rank.
shard.grid @grid(shape = 2)

// REMARK-RING: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): 1 attention -> ring (2 transfers, 256 bytes sent per rank), 1 attention backward -> ring (6 transfers, 768 bytes sent per rank), 0 all_gather
// REMARK-CONTIG: remark: context-parallel over @grid axes [0] (c=2, s=8, contiguous): 1 attention -> ring (2 transfers, 256 bytes sent per rank), 1 attention backward -> ring (6 transfers, 768 bytes sent per rank), 0 all_gather
// REMARK-GATHER: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): 1 attention -> all-gather (2 transfers, 256 bytes sent per rank), 1 attention backward -> all-gather (4 transfers, 512 bytes sent per rank), 0 all_gather
// REMARK-ULYSSES: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): 1 attention -> ulysses (4 transfers, 384 bytes sent per rank), 1 attention backward -> ulysses (4 transfers, 384 bytes sent per rank), 0 all_gather
// REMARK-KEEP: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): 1 attention -> ring (2 transfers, 256 bytes sent per rank), 1 attention backward -> ring (4 transfers, 512 bytes sent per rank, 256 bytes of K/V kept from forward), 0 all_gather
// CHECK-LABEL: func.func @backward(%arg0: tensor<1x4x4x4xf32>
// CHECK-SAME: -> (tensor<1x4x4x4xf32> {{.*}}, tensor<1x4x4x4xf32> {{.*}}, tensor<1x2x4x4xf32> {{.*}}, tensor<1x2x4x4xf32> {{.*}})
// CHECK-NOT: seqpar.attention_backward

// The forward's merged LSE and its output feed every backward block.
// RING: %[[OUT:.*]], %[[MAX:.*]], %[[SUM:.*]] = seqpar.attention_merge
// RING: %[[O:.*]] = linalg.generic {{.*}} ins(%[[OUT]], %[[SUM]]
// Step 0: the K/V shifts start, then the diagonal block. The ring's first
// transfer and last wait are marked for seqpar-instrument-attention.
// RING: %[[KR:.*]] = seqpar.shift_start %arg1 on @grid grid_axes = [0] offset = 1 {seqpar.ring_begin = "attention_backward"}
// RING: %[[VR:.*]] = seqpar.shift_start %arg2 on @grid grid_axes = [0] offset = 1
// RING: %[[DQ0:.*]], %[[DK0:.*]], %[[DV0:.*]] = seqpar.attention_block_backward %arg0, %arg1, %arg2, %arg3, %[[O]], %[[MAX]], %[[SUM]] positions(%[[POS:.*]], %[[POS]]) {causal
// The block's dK/dV accumulators leave for the next rank.
// RING: %[[DKR:.*]] = seqpar.shift_start %[[DK0]] on @grid grid_axes = [0] offset = 1
// RING: %[[DVR:.*]] = seqpar.shift_start %[[DV0]] on @grid grid_axes = [0] offset = 1
// RING: %[[K1:.*]] = seqpar.wait %[[KR]]
// RING: %[[V1:.*]] = seqpar.wait %[[VR]]
// Step 1, zigzag: half an earlier rank's block, or the second local half
// against a later rank's block (as in forward).
// RING: %[[STEP:.*]]:3 = scf.if
// RING: tensor.extract_slice %[[K1]][0, 0, 0, 0] [1, 2, 2, 4]
// RING: seqpar.attention_block_backward %arg0, {{.*}} -> tensor<1x4x4x4xf32>, tensor<1x2x2x4xf32>{{$}}
// RING: } else {
// RING: tensor.extract_slice %arg0[0, 0, 2, 0] [1, 4, 2, 4]
// RING: seqpar.attention_block_backward {{.*}}, %[[K1]], %[[V1]], {{.*}} -> tensor<1x4x2x4xf32>, tensor<1x2x4x4xf32>
// dQ accumulates here; the received accumulators get this rank's part.
// RING: %[[DQ:.*]] = linalg.add ins(%[[DQ0]], %[[STEP]]#0
// RING: %[[DKIN:.*]] = seqpar.wait %[[DKR]]
// RING: %[[DK1:.*]] = linalg.add ins(%[[DKIN]], %[[STEP]]#1
// RING: %[[DVIN:.*]] = seqpar.wait %[[DVR]]
// RING: %[[DV1:.*]] = linalg.add ins(%[[DVIN]], %[[STEP]]#2
// The last hop brings each accumulator home.
// RING: %[[DKH:.*]] = seqpar.shift_start %[[DK1]]
// RING: %[[DVH:.*]] = seqpar.shift_start %[[DV1]]
// RING: %[[DK:.*]] = seqpar.wait %[[DKH]]
// RING: %[[DV:.*]] = seqpar.wait %[[DVH]] {seqpar.ring_end = "attention_backward"}
// RING: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]

// keep-kv: the backward reads the K/V blocks the forward received and sends
// only dK/dV.
// KEEP: %[[K1:.*]] = seqpar.wait
// KEEP: %[[V1:.*]] = seqpar.wait
// KEEP: seqpar.attention_merge
// KEEP-NOT: seqpar.shift_start %arg
// KEEP: seqpar.attention_block_backward %arg0, %arg1, %arg2, %arg3
// KEEP: seqpar.shift_start %key_grad
// KEEP: seqpar.shift_start %value_grad
// KEEP-NOT: seqpar.shift_start %arg
// KEEP: seqpar.attention_block_backward {{.*}}, %[[K1]], %[[V1]],
// KEEP: return

// Contiguous: a later rank's block is not computed (zero gradients).
// CONTIG: scf.if
// CONTIG: seqpar.attention_block_backward
// CONTIG: } else {
// CONTIG-NOT: seqpar.attention_block_backward
// CONTIG: linalg.fill
// CONTIG: }
// CONTIG: linalg.add

// All-gather-KV: K/V gathered again (not merged with the forward's gather),
// one block, dK/dV reduce-scattered.
// GATHER: %[[KA:.*]] = shard.all_gather %arg1 on @grid grid_axes = [0] gather_axis = 2
// GATHER: %[[VA:.*]] = shard.all_gather %arg2 on @grid grid_axes = [0] gather_axis = 2
// GATHER: seqpar.attention_block %arg0, %[[KA]], %[[VA]]
// GATHER: %[[KS:.*]] = seqpar.all_gather_start %arg1 on @grid grid_axes = [0] gather_axis = 2
// GATHER: %[[VS:.*]] = seqpar.all_gather_start %arg2 on @grid grid_axes = [0] gather_axis = 2
// GATHER: %[[KB:.*]] = seqpar.wait %[[KS]]
// GATHER: %[[VB:.*]] = seqpar.wait %[[VS]]
// GATHER: %[[DQ:.*]], %[[DKA:.*]], %[[DVA:.*]] = seqpar.attention_block_backward %arg0, %[[KB]], %[[VB]], %arg3
// GATHER: %[[DK:.*]] = shard.reduce_scatter %[[DKA]] on @grid grid_axes = [0] scatter_axis = 2 : tensor<1x2x8x4xf32> -> tensor<1x2x4x4xf32>
// GATHER: %[[DV:.*]] = shard.reduce_scatter %[[DVA]] on @grid grid_axes = [0] scatter_axis = 2 : tensor<1x2x8x4xf32> -> tensor<1x2x4x4xf32>
// GATHER: return %{{.*}}, %[[DQ]], %[[DK]], %[[DV]]

// Ulysses: the forward's all-to-alls of Q, K, V are not sent again.
// ULYSSES: %[[Q:.*]] = shard.all_to_all %arg0 on @grid grid_axes = [0] split_axis = 1 concat_axis = 2
// ULYSSES: %[[K:.*]] = shard.all_to_all %arg1
// ULYSSES: %[[V:.*]] = shard.all_to_all %arg2
// ULYSSES: %[[OUT:.*]], %[[MAX:.*]], %[[SUM:.*]] = seqpar.attention_block %[[Q]], %[[K]], %[[V]]
// ULYSSES: %[[O:.*]] = linalg.generic {{.*}} ins(%[[OUT]], %[[SUM]]
// ULYSSES: %[[DO:.*]] = shard.all_to_all %arg3 on @grid grid_axes = [0] split_axis = 1 concat_axis = 2
// ULYSSES: %[[DQH:.*]], %[[DKH:.*]], %[[DVH:.*]] = seqpar.attention_block_backward %[[Q]], %[[K]], %[[V]], %[[DO]], %[[O]], %[[MAX]], %[[SUM]]
// ULYSSES: %[[DQ:.*]] = shard.all_to_all %[[DQH]] on @grid grid_axes = [0] split_axis = 2 concat_axis = 1 {seqpar.sequence_block = array<i64: 2, 4, 1>} : tensor<1x2x8x4xf32> -> tensor<1x4x4x4xf32>
// ULYSSES: %[[DK:.*]] = shard.all_to_all %[[DKH]] on @grid grid_axes = [0] split_axis = 2 concat_axis = 1 {seqpar.sequence_block = array<i64: 2, 4, 1>} : tensor<1x1x8x4xf32> -> tensor<1x2x4x4xf32>
// ULYSSES: %[[DV:.*]] = shard.all_to_all %[[DVH]]
// ULYSSES: return %{{.*}}, %[[DQ]], %[[DK]], %[[DV]]
func.func @backward(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                    %k: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                    %v: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                    %do: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>
  return %o, %dq, %dk, %dv : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}

// -----

// Tests that a backward whose out is not its forward's result (here: the
// attention of other keys) cannot use that forward's LSE: it stays whole,
// on all-gathered operands, with a remark; its forward is distributed.
shard.grid @grid(shape = 2)

// REMARK: remark: context-parallel: all_gather before 'seqpar.attention_backward', which is an attention backward whose query, key, value, mask, scale, causal flag or dropout differ from the attention whose out it reads
// REMARK: remark: context-parallel over @grid axes [0] (c=2, s=8, {{.*}}): 1 attention -> {{[a-z-]+}} ({{.*}}), 4 all_gather
// CHECK-LABEL: func.func @other_keys
// CHECK: seqpar.attention_backward {{.*}} : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
func.func @other_keys(%q: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %k: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %v: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %do: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  %dq, %dk, %dv = seqpar.attention_backward %q, %q, %v, %o, %do {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
  return %o, %dq : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}

// -----

// Tests that a backward whose out is a function argument (no forward in
// this function) stays whole, with a remark.
shard.grid @grid(shape = 2)

// REMARK: remark: context-parallel: all_gather before 'seqpar.attention_backward', which is an attention backward whose out is not the result of an attention this pass distributes
// CHECK-LABEL: func.func @no_forward
// CHECK: seqpar.attention_backward
func.func @no_forward(%q: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %k: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %v: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %o: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                      %do: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64})
    -> tensor<1x2x8x4xf32> {
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
  return %dq : tensor<1x2x8x4xf32>
}
