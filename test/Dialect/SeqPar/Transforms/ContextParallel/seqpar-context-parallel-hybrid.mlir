// RUN: seqpar-opt %s --seqpar-context-parallel="grid-axis=0 strategy=hybrid ulysses-axis=1" --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=HYBRID
// RUN: seqpar-opt %s --seqpar-context-parallel="grid-axis=0 strategy=hybrid ulysses-axis=1 load-balance=none" --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=CONTIG

// Hybrid on a 2 x 2 grid: the sequence is split over [ring axis 0, Ulysses
// axis 1] (rank 2r + u holds zigzag chunks 2r + u and 7 - 2r - u of 8).
// Ulysses' all-to-all over axis 1 gives a/2 heads of the 8 tokens of ring
// rank r; with zigzag they are reordered so both first halves come first
// (the ring's chunk r of 4), then one ring step over axis 0 computes half a
// block; the reorder and the all-to-all are undone.
// Bytes per rank: Q, K, V and out through the all-to-all (half of each
// stays): 128 + 64 + 64 + 128, and K and V of 8 tokens x 1 head shifted
// once: 2 x 128.
shard.grid @grid(shape = 2x2)
// HYBRID: remark: context-parallel over @grid axes [0, 1] (c=4, s=16, zigzag): 1 attention -> hybrid (6 transfers, 640 bytes sent per rank)
// HYBRID: func.func @hybrid(%arg0: tensor<1x4x4x4xf32> {seqpar.seq_dim = 2 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0, 1] zigzag]>}
// HYBRID: %[[IDX:.*]]:2 = shard.process_multi_index on @grid axes = [0, 1]
// HYBRID: %[[Q:.*]] = shard.all_to_all %arg0 on @grid grid_axes = [1] split_axis = 1 concat_axis = 2 : tensor<1x4x4x4xf32> -> tensor<1x2x8x4xf32>
// HYBRID: shard.all_to_all %arg1 on @grid grid_axes = [1] split_axis = 1 concat_axis = 2 : tensor<1x2x4x4xf32> -> tensor<1x1x8x4xf32>
// HYBRID: tensor.expand_shape %[[Q]] {{.*}} output_shape [1, 2, 2, 2, 2, 4]
// HYBRID: linalg.transpose {{.*}} permutation = [0, 1, 3, 2, 4, 5]
// HYBRID: seqpar.shift_start %{{.*}} on @grid grid_axes = [0] offset = 1 : tensor<1x1x8x4xf32>
// HYBRID: seqpar.attention_block {{.*}} : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<8xindex>, tensor<8xindex>
// HYBRID: arith.cmpi uge, %[[IDX]]#0, %c1
// HYBRID: seqpar.attention_block {{.*}} : tensor<1x2x8x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<8xindex>, tensor<4xindex>
// HYBRID: seqpar.attention_block {{.*}} : tensor<1x2x4x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<4xindex>, tensor<8xindex>
// HYBRID: seqpar.attention_merge
// HYBRID: linalg.transpose {{.*}} permutation = [0, 1, 3, 2, 4, 5]
// HYBRID: shard.all_to_all %{{.*}} on @grid grid_axes = [1] split_axis = 2 concat_axis = 1 {seqpar.sequence_block = array<i64: 2, 4, 1>} : tensor<1x2x8x4xf32> -> tensor<1x4x4x4xf32>

// Contiguous: ring rank r holds tokens [8r, 8r + 8) after the all-to-all,
// in order; no reorder, and the later block is skipped.
// CONTIG: func.func @hybrid(%arg0: tensor<1x4x4x4xf32> {seqpar.seq_dim = 2 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0, 1]]>}
// CONTIG-NOT: linalg.transpose
// CONTIG: seqpar.shift_start %{{.*}} on @grid grid_axes = [0]
// CONTIG: scf.if
// CONTIG: seqpar.attention_block {{.*}} : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<8xindex>, tensor<8xindex>
// CONTIG: } else {
// CONTIG: shard.all_to_all %{{.*}} on @grid grid_axes = [1] split_axis = 2 concat_axis = 1
func.func @hybrid(%q: tensor<1x4x16x4xf32> {seqpar.seq_dim = 2 : i64},
                  %k: tensor<1x2x16x4xf32> {seqpar.seq_dim = 2 : i64},
                  %v: tensor<1x2x16x4xf32> {seqpar.seq_dim = 2 : i64})
    -> tensor<1x4x16x4xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
      : tensor<1x4x16x4xf32>, tensor<1x2x16x4xf32>, tensor<1x2x16x4xf32> -> tensor<1x4x16x4xf32>
  return %o : tensor<1x4x16x4xf32>
}
