// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefix=RING
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="load-balance=none" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefix=CONTIG
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=all-gather" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefix=GATHER
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="strategy=ulysses" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefix=ULYSSES

// Causal GQA attention (4 query heads, 2 KV heads), s = 8 on c = 2 ranks.

// Ring with zigzag: the arguments hold chunks r and 3-r of 4 (2 tokens
// each); K/V move compact (2 heads) with shift_start before the diagonal
// block and wait after it; the second step computes half a dense block: all
// local queries against the first K/V chunk (source rank earlier) or the
// second query chunk against the whole block (source rank later).
// RING-LABEL: func.func @gqa
// RING-SAME: tensor<1x4x4x4xf32> {seqpar.seq_dim = 2 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] zigzag]>}
// RING-SAME: -> (tensor<1x4x4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] zigzag]>})
// RING: %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0]
// RING: %[[QPOS:.*]] = linalg.generic
// The ring's first transfer and last wait are marked for the runtime's ring
// region (seqpar-instrument-attention).
// RING: seqpar.shift_start %arg1 on @grid grid_axes = [0] offset = 1 {seqpar.ring_begin = "attention"} : tensor<1x2x4x4xf32>
// RING: seqpar.shift_start %arg2 on @grid grid_axes = [0] offset = 1 : tensor<1x2x4x4xf32>
// RING: %[[OUT:.*]], %[[MAX:.*]], %[[SUM:.*]] = seqpar.attention_block %arg0, %arg1, %arg2 positions(%[[QPOS]], %[[QPOS]]) {causal
// RING: %[[K1:.*]] = seqpar.wait
// RING: %[[V1:.*]] = seqpar.wait {{.*}} {seqpar.ring_end = "attention"}
// RING: %[[EARLIER:.*]] = arith.cmpi uge, %[[RANK]], %c1
// RING: %[[STEP:.*]]:3 = scf.if %[[EARLIER]]
// RING: tensor.extract_slice %[[K1]][0, 0, 0, 0] [1, 2, 2, 4]
// RING: seqpar.attention_block %arg0, {{.*}} : tensor<1x4x4x4xf32>, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>, tensor<4xindex>, tensor<2xindex>
// RING: } else {
// RING: tensor.extract_slice %arg0[0, 0, 2, 0] [1, 4, 2, 4]
// RING: seqpar.attention_block {{.*}}, %[[K1]], %[[V1]] {{.*}} : tensor<1x4x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<2xindex>, tensor<4xindex>
// RING: tensor.insert_slice {{.*}}[0, 0, 2, 0] [1, 4, 2, 4]
// RING: tensor.insert_slice {{.*}}[0, 0, 2] [1, 4, 2]
// RING: tensor.insert_slice {{.*}}[0, 0, 2] [1, 4, 2]
// RING: %[[MO:.*]], %[[MM:.*]], %[[MS:.*]] = seqpar.attention_merge(%[[OUT]], %[[MAX]], %[[SUM]]), (%[[STEP]]#0, %[[STEP]]#1, %[[STEP]]#2)
// The result is NaN on rows whose every key is masked (row sum 0), as the
// single-device softmax's 0/0.
// RING: linalg.generic {{.*}} ins(%[[MO]], %[[MS]] : tensor<1x4x4x4xf32>, tensor<1x4x4xf32>)
// RING: arith.cmpf oeq
// RING: arith.select
// RING-NOT: seqpar.shift_start

// Contiguous: a later rank's block is fully masked and not computed (the
// branch yields out = 0, row max = -inf, row sum = 0, which the merge
// ignores).
// CONTIG-LABEL: func.func @gqa
// CONTIG-SAME: #seqpar.sharding<@grid, {{\[\[}}], [], [0]]>
// CONTIG-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CONTIG: seqpar.attention_block %arg0, %arg1, %arg2
// CONTIG: scf.if
// CONTIG: seqpar.attention_block %arg0, {{.*}} : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<4xindex>, tensor<4xindex>
// CONTIG: } else {
// CONTIG-NOT: seqpar.attention_block
// CONTIG: linalg.fill ins(%[[NEGINF]] : f32)
// CONTIG: seqpar.attention_merge

// All-gather KV: K and V gathered once in rank order (compact heads).
// GATHER-LABEL: func.func @gqa
// GATHER: %[[K:.*]] = shard.all_gather %arg1 on @grid grid_axes = [0] gather_axis = 2 : tensor<1x2x4x4xf32> -> tensor<1x2x8x4xf32>
// GATHER: %[[V:.*]] = shard.all_gather %arg2 on @grid grid_axes = [0] gather_axis = 2 : tensor<1x2x4x4xf32> -> tensor<1x2x8x4xf32>
// GATHER: seqpar.attention_block %arg0, %[[K]], %[[V]] positions({{.*}}) {causal, scale = 5.000000e-01 : f32} : tensor<1x4x4x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<4xindex>, tensor<8xindex>
// GATHER-NOT: scf.if

// Ulysses: sequence-sharded -> head-sharded and back.
// ULYSSES-LABEL: func.func @gqa
// ULYSSES: shard.all_to_all %arg0 on @grid grid_axes = [0] split_axis = 1 concat_axis = 2 : tensor<1x4x4x4xf32> -> tensor<1x2x8x4xf32>
// ULYSSES: shard.all_to_all %arg1 on @grid grid_axes = [0] split_axis = 1 concat_axis = 2 : tensor<1x2x4x4xf32> -> tensor<1x1x8x4xf32>
// ULYSSES: %[[O:[^,]*]], %{{.*}}, %[[S:[^ ]*]] = seqpar.attention_block {{.*}} : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<8xindex>, tensor<8xindex>
// ULYSSES: %[[R:.*]] = linalg.generic {{.*}} ins(%[[O]], %[[S]] :
// ULYSSES: shard.all_to_all %[[R]] on @grid grid_axes = [0] split_axis = 2 concat_axis = 1 {seqpar.sequence_block = array<i64: 2, 4, 1>} : tensor<1x2x8x4xf32> -> tensor<1x4x4x4xf32>
shard.grid @grid(shape = 2)
func.func @gqa(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>
  return %o : tensor<1x4x8x4xf32>
}

// -----

// Token-wise ops around attention run locally; a position-dependent op
// (linalg.index on the sequence loop) reads the global position, zigzag
// included; a replicated position table is sliced in two chunks; a value
// returned flattened ([b*a*s, d]: collapsed locally, the sequence then
// inside a larger dim) is gathered and its chunks put back in sequence
// order (rank 0 holds chunks 0 and 3, rank 1 chunks 1 and 2).
// RING-LABEL: func.func @positions
// RING-SAME: %arg0: tensor<1x2x4x4xf32> {seqpar.seq_dim = 2 : i64, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] zigzag]>}
// RING-SAME: %arg1: tensor<8x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// RING: %[[RANK:.*]] = shard.process_multi_index
// RING: %[[T0:.*]] = tensor.extract_slice %arg1[{{.*}}, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
// RING: %[[T1:.*]] = tensor.extract_slice %arg1[{{.*}}, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
// RING: tensor.concat dim(0) %[[T0]], %[[T1]]
// RING: linalg.index 2
// RING: arith.divui
// RING: arith.subi
// RING: arith.uitofp
// RING: seqpar.attention_block
// RING: tensor.collapse_shape {{.*}} : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
// RING: %[[G:.*]] = shard.all_gather %{{.*}} on @grid grid_axes = [0] gather_axis = 1 : tensor<2x4x4xf32> -> tensor<2x8x4xf32>
// RING: tensor.extract_slice %[[G]][0, 0, 0] [2, 2, 4]
// RING: tensor.extract_slice %[[G]][0, 4, 0] [2, 2, 4]
// RING: tensor.extract_slice %[[G]][0, 6, 0] [2, 2, 4]
// RING: tensor.extract_slice %[[G]][0, 2, 0] [2, 2, 4]
// RING: tensor.concat dim(1)
// RING: tensor.collapse_shape {{.*}} : tensor<2x8x4xf32> into tensor<16x4xf32>
#id = affine_map<(b, a, s, d) -> (b, a, s, d)>
#tab = affine_map<(b, a, s, d) -> (s, d)>
shard.grid @grid(shape = 2)
func.func @positions(%x: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64}, %table: tensor<8x4xf32>) -> (tensor<1x2x8x4xf32>, tensor<16x4xf32>) {
  %e = tensor.empty() : tensor<1x2x8x4xf32>
  %rope = linalg.generic {indexing_maps = [#id, #tab, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %table : tensor<1x2x8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<1x2x8x4xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %p = linalg.index 2 : index
    %pi = arith.index_cast %p : index to i64
    %pf = arith.uitofp %pi : i64 to f32
    %m = arith.mulf %a, %pf : f32
    %r = arith.addf %m, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x4xf32>
  %o = seqpar.attention %rope, %rope, %x {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  %flat = tensor.collapse_shape %o [[0, 1, 2], [3]] : tensor<1x2x8x4xf32> into tensor<16x4xf32>
  return %o, %flat : tensor<1x2x8x4xf32>, tensor<16x4xf32>
}
