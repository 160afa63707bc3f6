// RUN: seqpar-opt %s -split-input-file --seqpar-tile-attention="kv-tile=4" | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --seqpar-tile-attention="kv-tile=0" | FileCheck %s --check-prefix=OFF

// A block with 16 keys and 2 K/V heads becomes a loop over its K/V heads,
// each iteration the block of the group's 2 query heads against its K/V
// head, written into the results at the group's first head; that block is
// a loop over 4 tiles of 4 keys: each a block of all queries against the
// tile's K/V and positions, merged into the running (out, row max, row
// sum) from (0, -inf, 0).
// CHECK-LABEL: func.func @block
// CHECK: %[[HEADS:.*]]:3 = scf.for %[[H0:[a-z0-9_]+]] = %c0 to %c4 step %c2 iter_args(%[[WO:[a-z0-9_]+]] = %{{.*}}, %[[WM:[a-z0-9_]+]] = %{{.*}}, %[[WS:[a-z0-9_]+]] = %{{.*}}) -> (tensor<1x4x8x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>)
// CHECK: %[[G:.*]] = arith.divui %[[H0]], %{{.*}} : index
// CHECK: %[[QG:.*]] = tensor.extract_slice %arg0[0, %[[H0]], 0, 0] [1, 2, 8, 8] [1, 1, 1, 1]
// CHECK: %[[KG:.*]] = tensor.extract_slice %arg1[0, %[[G]], 0, 0] [1, 1, 16, 8] [1, 1, 1, 1]
// CHECK: %[[VG:.*]] = tensor.extract_slice %arg2[0, %[[G]], 0, 0] [1, 1, 16, 8] [1, 1, 1, 1]
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x8x8xf32>)
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[NEGINF:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x8xf32>)
// CHECK: %[[NOSUM:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x8xf32>)
// CHECK: %[[LOOP:.*]]:3 = scf.for %[[AT:.*]] = %{{.*}} to %c16 step %c4{{[_0-9]*}} iter_args(%[[OUT:.*]] = %[[ZERO]], %[[MAX:.*]] = %[[NEGINF]], %[[SUM:.*]] = %[[NOSUM]])
// CHECK: %[[K:.*]] = tensor.extract_slice %[[KG]][0, 0, %[[AT]], 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK: %[[V:.*]] = tensor.extract_slice %[[VG]][0, 0, %[[AT]], 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK: %[[P:.*]] = tensor.extract_slice %arg4[%[[AT]]] [4] [1]
// CHECK: %[[BO:.*]], %[[BM:.*]], %[[BS:.*]] = seqpar.attention_block %[[QG]], %[[K]], %[[V]] positions(%arg3, %[[P]]) {causal, scale = 5.000000e-01 : f32}
// CHECK: %[[MO:.*]], %[[MM:.*]], %[[MS:.*]] = seqpar.attention_merge(%[[OUT]], %[[MAX]], %[[SUM]]), (%[[BO]], %[[BM]], %[[BS]])
// CHECK: tensor.insert_slice %[[LOOP]]#0 into %[[WO]][0, %[[H0]], 0, 0] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> into tensor<1x4x8x8xf32>
// CHECK: tensor.insert_slice %[[LOOP]]#1 into %[[WM]][0, %[[H0]], 0] [1, 2, 8] [1, 1, 1]
// CHECK: tensor.insert_slice %[[LOOP]]#2 into %[[WS]][0, %[[H0]], 0] [1, 2, 8] [1, 1, 1]
// CHECK: return %[[HEADS]]#0
// OFF-LABEL: func.func @block
// OFF-NOT: scf.for
func.func @block(%q: tensor<1x4x8x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>, %qp: tensor<8xindex>, %kp: tensor<16xindex>) -> tensor<1x4x8x8xf32> {
  %o, %m, %l = seqpar.attention_block %q, %k, %v positions(%qp, %kp) {causal, scale = 0.5 : f32}
      : tensor<1x4x8x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<8xindex>, tensor<16xindex> -> tensor<1x4x8x8xf32>, tensor<1x4x8xf32>
  return %o : tensor<1x4x8x8xf32>
}

// -----

// bf16 attention: one block over positions 0.. (f32 out), split by its 2
// K/V heads and tiled, finished in bf16 (NaN where the row sum is 0, then
// rounded). Being causal, it is tiled over queries too: query tile
// [q, q+4) loops over the key tiles before q+4 only (the ones wholly in its
// future are skipped), those ending at or before q (its past) as blocks
// without `causal`, and its (out, max, sum) are written into the head's
// whole at q. A masked one slices the mask's key columns with each tile.
// One whose keys the tile does not divide is peeled: keys [0, 4) and
// [4, 6) as two blocks merged by their LSE (seqpar-tile-attention-peel.mlir).
// CHECK-LABEL: func.func @attention
// CHECK: %[[HEADS:.*]]:3 = scf.for %[[H0:[a-z0-9_]+]] = %c0 to %c2 step %c1 iter_args(
// CHECK: %[[G:.*]] = arith.divui %[[H0]], %{{.*}} : index
// CHECK: %[[QG:.*]] = tensor.extract_slice %arg0[0, %[[H0]], 0, 0] [1, 1, 8, 8] [1, 1, 1, 1]
// CHECK: %[[KG:.*]] = tensor.extract_slice %arg0[0, %[[G]], 0, 0] [1, 1, 8, 8] [1, 1, 1, 1]
// CHECK: %[[TILED:.*]]:3 = scf.for %[[QAT:[a-z0-9_]+]] = %{{.*}} to %c8 step %c4 iter_args(
// CHECK: %[[Q:.*]] = tensor.extract_slice %[[QG]][0, 0, %[[QAT]], 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK: %[[QP:.*]] = tensor.extract_slice %{{.*}}[%[[QAT]]] [4] [1]
// CHECK: %[[END:.*]] = arith.addi %[[QAT]], %{{.*}} : index
// CHECK: %[[PASTTILES:.*]] = arith.divui %[[QAT]], %{{.*}} : index
// CHECK: %[[PAST:.*]] = arith.muli %[[PASTTILES]], %{{.*}} : index
// CHECK: %[[SEEN:.*]]:3 = scf.for %[[PAT:[a-z0-9_]+]] = %{{.*}} to %[[PAST]] step %{{.*}} iter_args(
// CHECK: %[[PK:.*]] = tensor.extract_slice %[[KG]][0, 0, %[[PAT]], 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK: seqpar.attention_block %[[Q]], %[[PK]], {{.*}} positions(%[[QP]], {{.*}}) {scale = 5.000000e-01 : f32} : tensor<1x1x4x8xbf16>
// CHECK: seqpar.attention_merge
// CHECK: %[[KEYS:.*]]:3 = scf.for %[[KAT:[a-z0-9_]+]] = %[[PAST]] to %[[END]] step %{{.*}} iter_args(%{{.*}} = %[[SEEN]]#0, %{{.*}} = %[[SEEN]]#1, %{{.*}} = %[[SEEN]]#2)
// CHECK: %[[K:.*]] = tensor.extract_slice %[[KG]][0, 0, %[[KAT]], 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK: seqpar.attention_block %[[Q]], %[[K]], {{.*}} positions(%[[QP]], {{.*}}) {causal, {{.*}}} : tensor<1x1x4x8xbf16>, tensor<1x1x4x8xbf16>, tensor<1x1x4x8xbf16>, tensor<4xindex>, tensor<4xindex> -> tensor<1x1x4x8xf32>, tensor<1x1x4xf32>
// CHECK: seqpar.attention_merge
// CHECK: tensor.insert_slice %[[KEYS]]#0 into %{{.*}}[0, 0, %[[QAT]], 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<1x1x4x8xf32> into tensor<1x1x8x8xf32>
// CHECK: tensor.insert_slice %[[KEYS]]#1 into %{{.*}}[0, 0, %[[QAT]]] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<1x1x8xf32>
// CHECK: tensor.insert_slice %[[KEYS]]#2 into %{{.*}}[0, 0, %[[QAT]]] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<1x1x8xf32>
// CHECK: tensor.insert_slice %[[TILED]]#0 into %{{.*}}[0, %[[H0]], 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<1x1x8x8xf32> into tensor<1x2x8x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[HEADS]]#0, %[[HEADS]]#2 : tensor<1x2x8x8xf32>, tensor<1x2x8xf32>) outs(%{{.*}} : tensor<1x2x8x8xbf16>)
// CHECK: arith.select
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: scf.for %[[MG:[a-z0-9_]+]] =
// CHECK: scf.for %[[AT:[a-z0-9_]+]] =
// CHECK: %[[M:.*]] = tensor.extract_slice %arg1[0, 0, 0, %[[AT]]] [1, 1, 8, 4] [1, 1, 1, 1]
// CHECK: seqpar.attention_block {{.*}} mask(%[[M]] : tensor<1x1x8x4xbf16>)
// CHECK: seqpar.attention_block {{.*}} : tensor<1x1x6x8xf32>, tensor<1x1x4x8xf32>
// CHECK: seqpar.attention_block {{.*}} : tensor<1x1x6x8xf32>, tensor<1x1x2x8xf32>
// CHECK: seqpar.attention_merge
// CHECK-NOT: seqpar.attention {{.*}} : tensor<1x2x6x8xf32>
func.func @attention(%q: tensor<1x2x8x8xbf16>, %m: tensor<1x1x8x8xbf16>, %r: tensor<1x2x6x8xf32>) -> (tensor<1x2x8x8xbf16>, tensor<1x2x8x8xbf16>, tensor<1x2x6x8xf32>) {
  %o = seqpar.attention %q, %q, %q {causal, scale = 0.5 : f32}
      : tensor<1x2x8x8xbf16>, tensor<1x2x8x8xbf16>, tensor<1x2x8x8xbf16> -> tensor<1x2x8x8xbf16>
  %om = seqpar.attention %q, %q, %q mask(%m : tensor<1x1x8x8xbf16>) {scale = 0.5 : f32}
      : tensor<1x2x8x8xbf16>, tensor<1x2x8x8xbf16>, tensor<1x2x8x8xbf16> -> tensor<1x2x8x8xbf16>
  %or = seqpar.attention %r, %r, %r {scale = 0.5 : f32}
      : tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32> -> tensor<1x2x6x8xf32>
  return %o, %om, %or : tensor<1x2x8x8xbf16>, tensor<1x2x8x8xbf16>, tensor<1x2x6x8xf32>
}

// -----

// Empty K/V (d = 0) is not tiled: its slices were out of bounds (invalid
// IR).
// CHECK-LABEL: func.func @empty_head_dim
// CHECK-NOT: scf.for
// CHECK: seqpar.attention
// OFF-LABEL: func.func @empty_head_dim
func.func @empty_head_dim(%q: tensor<1x4x16x0xf32>, %k: tensor<1x2x16x0xf32>) -> tensor<1x4x16x0xf32> {
  %o = seqpar.attention %q, %k, %k {causal, scale = 0.5 : f32}
      : tensor<1x4x16x0xf32>, tensor<1x2x16x0xf32>, tensor<1x2x16x0xf32> -> tensor<1x4x16x0xf32>
  return %o : tensor<1x4x16x0xf32>
}

// -----

// Tests that a whole causal backward (GQA, s = 8, tiles of 4) becomes its
// rows' LSE (the forward's causal query x key tile loops) and its block
// backward over query tiles and, inside, the key tiles up to the query
// tile's end (the future is not computed): a query tile's dQ sums over its
// key tiles, a key tile's dK and dV accumulate over query tiles. Every
// block backward is [4 queries x 4 keys]. Before, it was one 8 x 8 block.
// The key tiles before the query tile's first row (in every row's past) are
// blocks without the causal mask; only the diagonal tile is causal.
// CHECK-LABEL: func.func @backward
// CHECK: %[[STATS:.*]]:3 = scf.for
// CHECK: seqpar.attention_block {{.*}} -> tensor<1x2x4x4xf32>, tensor<1x2x4xf32>
// CHECK: %[[DK0:.*]] = linalg.fill {{.*}} -> tensor<1x1x8x4xf32>
// CHECK: %[[DV0:.*]] = linalg.fill {{.*}} -> tensor<1x1x8x4xf32>
// CHECK: %[[GRADS:.*]]:3 = scf.for %[[Q0:[a-z0-9_]+]] = {{.*}} iter_args(%[[DQ:[a-z0-9_]+]] = %{{.*}}, %[[DK:[a-z0-9_]+]] = %[[DK0]], %[[DV:[a-z0-9_]+]] = %[[DV0]])
// CHECK: %[[MAX:.*]] = tensor.extract_slice %[[STATS]]#1[0, 0, %[[Q0]]] [1, 2, 4]
// The running sums accumulate in place: each add writes over its input.
// CHECK: %[[PAST:.*]]:3 = scf.for %[[K0:[a-z0-9_]+]] = %{{.*}} to %[[Q0]] {{.*}} iter_args(%[[PDQ:[a-z0-9_]+]] = %{{.*}}, %[[PDK:[a-z0-9_]+]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: seqpar.attention_block_backward {{.*}}, %[[MAX]], {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>, {{.*}} -> tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>
// CHECK: linalg.add ins(%[[PDQ]], %{{.*}}) outs(%[[PDQ]] :
// CHECK: %[[KS:.*]] = tensor.extract_slice %[[PDK]][0, 0, %[[K0]], 0] [1, 1, 4, 4]
// CHECK: %[[KSUM:.*]] = linalg.add ins(%[[KS]], %{{.*}}) outs(%[[KS]] :
// CHECK: tensor.insert_slice %[[KSUM]] into %[[PDK]][0, 0, %[[K0]], 0] [1, 1, 4, 4]
// CHECK: %[[END:.*]] = arith.addi %[[Q0]], %{{.*}} : index
// CHECK: %[[DIAG:.*]]:3 = scf.for %{{.*}} = %[[Q0]] to %[[END]] {{.*}} iter_args({{.*}} = %[[PAST]]#0, {{.*}} = %[[PAST]]#1, {{.*}} = %[[PAST]]#2)
// CHECK: seqpar.attention_block_backward {{.*}}, %[[MAX]], {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>, {{.*}} -> tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>
// CHECK: tensor.insert_slice %[[DIAG]]#0 into %[[DQ]][0, 0, %[[Q0]], 0] [1, 2, 4, 4]
// CHECK: return %[[GRADS]]#0, %[[GRADS]]#1, %[[GRADS]]#2
// OFF-LABEL: func.func @backward
// OFF-NOT: scf.for
// OFF: seqpar.attention_backward
func.func @backward(%q: tensor<1x2x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %o: tensor<1x2x8x4xf32>, %do: tensor<1x2x8x4xf32>) -> (tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>) {
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>
  return %dq, %dk, %dv : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>
}

// -----

// Tests that the backward of an attention (the attention's result is its
// out, same Q, K, V, scale and causality) reads the attention's row max and
// sum, tiled, instead of recomputing them: one loop of attention blocks, the
// forward's. A backward whose scale differs from the attention's recomputes
// its own (a second loop of blocks). Before, both recomputed.
// CHECK-LABEL: func.func @backward_of_attention
// CHECK: %[[FWD:.*]]:3 = scf.for
// CHECK-COUNT-2: seqpar.attention_block %
// CHECK-NOT: seqpar.attention_block %
// CHECK: %[[MAX:.*]] = tensor.extract_slice %[[FWD]]#1[0, 0, %{{.*}}] [1, 2, 4]
// CHECK: %[[SUM:.*]] = tensor.extract_slice %[[FWD]]#2[0, 0, %{{.*}}] [1, 2, 4]
// CHECK-NOT: seqpar.attention_block %
// CHECK: seqpar.attention_block_backward {{.*}}, %[[MAX]], %[[SUM]] positions
// CHECK-NOT: seqpar.attention_block %
// CHECK: return
// CHECK-LABEL: func.func @backward_of_other_attention
// CHECK: seqpar.attention_block {{.*}} {scale = 5.000000e-01
// CHECK: seqpar.attention_block {{.*}} {causal, scale = 5.000000e-01
// CHECK: seqpar.attention_block {{.*}} {scale = 2.500000e-01
// CHECK: seqpar.attention_block {{.*}} {causal, scale = 2.500000e-01
// CHECK: seqpar.attention_block_backward {{.*}} {causal, scale = 2.500000e-01 : f32}
// OFF-LABEL: func.func @backward_of_attention
// OFF-NOT: scf.for
// OFF: seqpar.attention
// OFF: seqpar.attention_backward
func.func @backward_of_attention(%q: tensor<1x2x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %do: tensor<1x2x8x4xf32>)
    -> (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>) {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x2x8x4xf32>
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>
  return %o, %dq, %dk, %dv : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>
}
func.func @backward_of_other_attention(%q: tensor<1x2x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %do: tensor<1x2x8x4xf32>)
    -> (tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>) {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x2x8x4xf32>
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {causal, scale = 0.25 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>
  return %dq, %dk : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>
}

// -----

// Tests that a ring step's block backward (global positions, not 0..; a
// mask) is tiled over every query and key tile, the mask's rows and
// columns following the tiles: causality by positions is the block's own.
// Per key tile, by its positions' bounds against the query tile's first
// and last at run time: a tile at or before the first query is a block
// without the causal mask, one after the last query is skipped (dQ, dK, dV
// as they were), the rest causal.
// CHECK-LABEL: func.func @block_backward
// CHECK: scf.for %[[Q0:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step
// CHECK: %[[QPOS:.*]] = tensor.extract_slice %arg6[%[[Q0]]] [4] [1]
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %arg7[0, 0, %[[Q0]], 0] [1, 1, 4, 8]
// CHECK: linalg.reduce ins(%[[QPOS]]
// CHECK-NEXT: (%in: index, %init: index)
// CHECK-NEXT: arith.minui
// CHECK: %[[QFIRST:.*]] = tensor.extract
// CHECK: linalg.reduce ins(%[[QPOS]]
// CHECK-NEXT: (%in: index, %init: index)
// CHECK-NEXT: arith.maxui
// CHECK: %[[QLAST:.*]] = tensor.extract
// CHECK: scf.for %[[K0:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step {{.*}} iter_args(%[[DQ:[a-z0-9_]+]] = %{{.*}}, %[[DK:[a-z0-9_]+]] = %{{.*}}, %[[DV:[a-z0-9_]+]] = %{{.*}})
// CHECK: %[[KPOS:.*]] = tensor.extract_slice %arg6[%[[K0]]] [4] [1]
// CHECK: %[[M:.*]] = tensor.extract_slice %[[ROWS]][0, 0, 0, %[[K0]]] [1, 1, 4, 4]
// CHECK: linalg.reduce ins(%[[KPOS]]
// CHECK-NEXT: (%in: index, %init: index)
// CHECK-NEXT: arith.maxui
// CHECK: %[[KLAST:.*]] = tensor.extract
// CHECK: %[[PAST:.*]] = arith.cmpi ule, %[[KLAST]], %[[QFIRST]]
// CHECK: scf.if %[[PAST]]
// CHECK: seqpar.attention_block_backward {{.*}} mask(%[[M]] : tensor<1x1x4x4xf32>) {scale = 5.000000e-01 : f32}
// CHECK: } else {
// CHECK: linalg.reduce ins(%[[KPOS]]
// CHECK-NEXT: (%in: index, %init: index)
// CHECK-NEXT: arith.minui
// CHECK: %[[KFIRST:.*]] = tensor.extract
// CHECK: %[[FUTURE:.*]] = arith.cmpi ugt, %[[KFIRST]], %[[QLAST]]
// CHECK: scf.if %[[FUTURE]]
// CHECK-NEXT: scf.yield %[[DQ]], %[[DK]], %[[DV]]
// CHECK: } else {
// CHECK: seqpar.attention_block_backward {{.*}} mask(%[[M]] : tensor<1x1x4x4xf32>) {causal, scale = 5.000000e-01 : f32}
// OFF-LABEL: func.func @block_backward
// OFF-NOT: scf.for
func.func @block_backward(%q: tensor<1x2x8x4xf32>, %k: tensor<1x1x8x4xf32>, %do: tensor<1x2x8x4xf32>,
                          %o: tensor<1x2x8x4xf32>, %max: tensor<1x2x8xf32>, %sum: tensor<1x2x8xf32>,
                          %pos: tensor<8xindex>, %m: tensor<1x1x8x8xf32>) -> (tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>) {
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %do, %o, %max, %sum positions(%pos, %pos)
      mask(%m : tensor<1x1x8x8xf32>) {causal, scale = 0.5 : f32}
      : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>,
        tensor<1x2x8xf32>, tensor<8xindex>, tensor<8xindex> -> tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>
  return %dq, %dk : tensor<1x2x8x4xf32>, tensor<1x1x8x4xf32>
}
