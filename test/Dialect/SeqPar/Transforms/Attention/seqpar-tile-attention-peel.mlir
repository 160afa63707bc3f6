// RUN: seqpar-opt %s -split-input-file --seqpar-tile-attention="kv-tile=4 q-tile=4 backward-tile=4" | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --seqpar-tile-attention="kv-tile=8 q-tile=2" | FileCheck %s --check-prefix=PEELED

// Tests that a block whose length the tile does not divide is peeled into
// pieces that are multiples of the tile or shorter, and the pieces tiled.
// Before, such a block stayed whole: at s = 4000 with tiles of 512 every
// [b, a, s, s] score tensor was materialised, as in an untiled program.

// A causal attention over positions 0.. of 10 tokens: rows [0, 8) against
// keys [0, 8), tiled as any causal attention (query tiles, the future
// skipped); rows [8, 10) against keys [0, 8), all in their past, without
// `causal`, in key tiles; rows [8, 10) against keys [8, 10), causal. The
// last two merge by their LSE; the row pieces are written side by side.
// CHECK-LABEL: func.func @causal
// CHECK: %[[HEAD:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<1x1x8x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>)
// CHECK: seqpar.attention_block {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>
// CHECK: %[[PAST:.*]]:3 = scf.for {{.*}} -> (tensor<1x1x2x8xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>)
// CHECK: seqpar.attention_block {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x4x8xf32>
// CHECK: %[[DIAG:.*]], %{{.*}}, %{{.*}} = seqpar.attention_block {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>
// CHECK: %[[TAIL:.*]], %{{.*}}, %{{.*}} = seqpar.attention_merge(%[[PAST]]#0, %[[PAST]]#1, %[[PAST]]#2), (%[[DIAG]],
// CHECK: %[[OUT:.*]] = tensor.insert_slice %[[HEAD]]#0 into %{{.*}}[0, 0, %{{.*}}, 0] [1, 1, 8, 8]
// CHECK: tensor.insert_slice %[[TAIL]] into %[[OUT]][0, 0, %{{.*}}, 0] [1, 1, 2, 8] [1, 1, 1, 1] : tensor<1x1x2x8xf32> into tensor<1x1x10x8xf32>
// CHECK-NOT: seqpar.attention_block {{.*}} tensor<1x1x10x8xf32>
func.func @causal(%q: tensor<1x1x10x8xf32>) -> tensor<1x1x10x8xf32> {
  %o = seqpar.attention %q, %q, %q {causal, scale = 0.5 : f32}
      : tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32> -> tensor<1x1x10x8xf32>
  return %o : tensor<1x1x10x8xf32>
}

// -----

// A block over run-time positions (a ring step's, say) of 6 queries and 6
// keys: rows [0, 4) and [4, 6), each against keys [0, 4) and [4, 6),
// merged per row range, causal as the block (the positions decide at run
// time), the row ranges written side by side.
// CHECK-LABEL: func.func @block
// CHECK: %[[A:.*]], %{{.*}}, %{{.*}} = seqpar.attention_block {{.*}} {causal, {{.*}}} : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>
// CHECK: %[[B:.*]], %{{.*}}, %{{.*}} = seqpar.attention_block {{.*}} {causal, {{.*}}} : tensor<1x1x4x8xf32>, tensor<1x1x2x8xf32>
// CHECK: %[[AB:.*]], %[[ABMAX:.*]], %{{.*}} = seqpar.attention_merge(%[[A]], {{.*}}), (%[[B]],
// CHECK: %[[C:.*]], %{{.*}}, %{{.*}} = seqpar.attention_block {{.*}} {causal, {{.*}}} : tensor<1x1x2x8xf32>, tensor<1x1x4x8xf32>
// CHECK: %[[D:.*]], %{{.*}}, %{{.*}} = seqpar.attention_block {{.*}} {causal, {{.*}}} : tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>
// CHECK: %[[CD:.*]], %[[CDMAX:.*]], %{{.*}} = seqpar.attention_merge(%[[C]], {{.*}}), (%[[D]],
// CHECK: %[[O:.*]] = tensor.insert_slice %[[AB]] into %{{.*}}[0, 0, %{{.*}}, 0] [1, 1, 4, 8]
// CHECK: %[[O2:.*]] = tensor.insert_slice %[[CD]] into %[[O]][0, 0, %{{.*}}, 0] [1, 1, 2, 8]
// CHECK: %[[M:.*]] = tensor.insert_slice %[[ABMAX]] into %{{.*}}[0, 0, %{{.*}}] [1, 1, 4]
// CHECK: %[[M2:.*]] = tensor.insert_slice %[[CDMAX]] into %[[M]][0, 0, %{{.*}}] [1, 1, 2]
// CHECK: return %[[O2]], %[[M2]],
func.func @block(%q: tensor<1x1x6x8xf32>, %k: tensor<1x1x6x8xf32>, %qp: tensor<6xindex>, %kp: tensor<6xindex>)
    -> (tensor<1x1x6x8xf32>, tensor<1x1x6xf32>, tensor<1x1x6xf32>) {
  %o, %m, %l = seqpar.attention_block %q, %k, %k positions(%qp, %kp) {causal, scale = 0.5 : f32}
      : tensor<1x1x6x8xf32>, tensor<1x1x6x8xf32>, tensor<1x1x6x8xf32>, tensor<6xindex>, tensor<6xindex> -> tensor<1x1x6x8xf32>, tensor<1x1x6xf32>
  return %o, %m, %l : tensor<1x1x6x8xf32>, tensor<1x1x6xf32>, tensor<1x1x6xf32>
}

// -----

// A causal backward of 10 tokens in tiles of 4: rows [0, 8) against keys
// [0, 8) tiled (past key tiles unmasked, the diagonal causal); rows [8, 10)
// against keys [0, 8) without `causal`, in key tiles; rows [8, 10) against
// keys [8, 10), causal. dQ of rows [8, 10) sums its two pieces; dK and dV
// of keys [0, 8) sum the square's and the past piece's; keys [8, 10) have
// the diagonal's alone.
// CHECK-LABEL: func.func @backward
// CHECK: %[[SQ:.*]]:3 = scf.for {{.*}} -> (tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>)
// CHECK: seqpar.attention_block_backward {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>
// CHECK: seqpar.attention_block_backward {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>
// CHECK: %[[PAST:.*]]:3 = scf.for {{.*}} -> (tensor<1x1x2x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>)
// CHECK: seqpar.attention_block_backward {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x4x8xf32>
// CHECK: %[[DK:.*]] = linalg.add ins(%[[SQ]]#1, %[[PAST]]#1 : {{.*}}) outs(%[[SQ]]#1 :
// CHECK: %[[DV:.*]] = linalg.add ins(%[[SQ]]#2, %[[PAST]]#2 : {{.*}}) outs(%[[SQ]]#2 :
// CHECK: %[[DQD:.*]], %[[DKD:.*]], %[[DVD:.*]] = seqpar.attention_block_backward {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>
// CHECK: %[[DQT:.*]] = linalg.add ins(%[[PAST]]#0, %[[DQD]] : {{.*}}) outs(%[[PAST]]#0 :
// CHECK: %[[Q1:.*]] = tensor.insert_slice %[[SQ]]#0 into %{{.*}}[0, 0, %{{.*}}, 0] [1, 1, 8, 8]
// CHECK: %[[Q2:.*]] = tensor.insert_slice %[[DQT]] into %[[Q1]][0, 0, %{{.*}}, 0] [1, 1, 2, 8]
// CHECK: %[[K1:.*]] = tensor.insert_slice %[[DK]] into %{{.*}}[0, 0, %{{.*}}, 0] [1, 1, 8, 8]
// CHECK: %[[K2:.*]] = tensor.insert_slice %[[DKD]] into %[[K1]][0, 0, %{{.*}}, 0] [1, 1, 2, 8]
// CHECK: %[[V1:.*]] = tensor.insert_slice %[[DV]] into %{{.*}}[0, 0, %{{.*}}, 0] [1, 1, 8, 8]
// CHECK: %[[V2:.*]] = tensor.insert_slice %[[DVD]] into %[[V1]][0, 0, %{{.*}}, 0] [1, 1, 2, 8]
// CHECK: return %[[Q2]], %[[K2]], %[[V2]]
func.func @backward(%q: tensor<1x1x10x8xf32>, %o: tensor<1x1x10x8xf32>, %do: tensor<1x1x10x8xf32>)
    -> (tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32>) {
  %dq, %dk, %dv = seqpar.attention_backward %q, %q, %q, %o, %do {causal, scale = 0.5 : f32}
      : tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32> -> tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32>
  return %dq, %dk, %dv : tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32>, tensor<1x1x10x8xf32>
}

// -----

// The pieces are peeled in turn: of 14 causal tokens in key tiles of 8 and
// query tiles of 2, rows [8, 14) against keys [0, 8) are query tiles of 2
// (not 6 rows at once), and rows [8, 14) against keys [8, 14), a causal
// square over shared positions, are tiled with the causal skip: query
// tiles of 2, each over the keys up to its own last one. Before, both
// were whole blocks of 6 rows, the diagonal computing its future.
// PEELED-LABEL: func.func @causal_tail
// PEELED: scf.for {{.*}} -> (tensor<1x1x8x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>)
// PEELED: scf.for %{{.*}} = %{{.*}} to %[[SIX:.*]] step %[[TWO:.*]] iter_args({{.*}}) -> (tensor<1x1x6x8xf32>, tensor<1x1x6xf32>, tensor<1x1x6xf32>)
// PEELED: seqpar.attention_block {{.*}} {scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x8x8xf32>
// PEELED: scf.for %[[Q:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<1x1x6x8xf32>, tensor<1x1x6xf32>, tensor<1x1x6xf32>)
// PEELED: %[[END:.*]] = arith.addi %[[Q]], %{{.*}} : index
// PEELED: scf.for %{{.*}} = %{{.*}} to %[[END]] step %{{.*}} iter_args(
// PEELED: seqpar.attention_block {{.*}} {causal, scale = 5.000000e-01 : f32} : tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>
// PEELED-NOT: seqpar.attention_block {{.*}} : tensor<1x1x6x8xf32>
// PEELED: return
func.func @causal_tail(%q: tensor<1x1x14x8xf32>) -> tensor<1x1x14x8xf32> {
  %o = seqpar.attention %q, %q, %q {causal, scale = 0.5 : f32}
      : tensor<1x1x14x8xf32>, tensor<1x1x14x8xf32>, tensor<1x1x14x8xf32> -> tensor<1x1x14x8xf32>
  return %o : tensor<1x1x14x8xf32>
}
