// RUN: not seqpar-opt %s --seqpar-context-parallel="grid-axis=0 strategy=hybrid ulysses-axis=1" 2>&1 | FileCheck %s --check-prefix=HEADS
// RUN: not seqpar-opt %s --seqpar-context-parallel="grid-axis=0 strategy=hybrid" 2>&1 | FileCheck %s --check-prefix=NOAXIS
// RUN: not seqpar-opt %s --seqpar-context-parallel="grid-axis=0 ulysses-axis=1" 2>&1 | FileCheck %s --check-prefix=ONLYHYBRID
// RUN: not seqpar-opt %s --seqpar-context-parallel="grid-axis=1 strategy=hybrid ulysses-axis=1" 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not seqpar-opt %s --seqpar-context-parallel="grid-axis=0 strategy=hybrid ulysses-axis=2" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not seqpar-opt %S/../../../../Run/Inputs/cp/padded.mlir --seqpar-pipeline="cp=4 cp-strategy=hybrid cp-ulysses=3" 2>&1 | FileCheck %s --check-prefix=DIVIDE

// HEADS: error: ulysses needs this rank's query heads (4) and key/value heads (1) divisible by the 2 Ulysses ranks; use strategy=ring, or fewer ranks on the Ulysses axis (seqpar-pipeline: a smaller cp-ulysses)
// NOAXIS: error: strategy=hybrid needs the ulysses-axis option (seqpar-pipeline: cp-ulysses)
// ONLYHYBRID: error: ulysses-axis is only used by strategy=hybrid
// SAME: error: hybrid needs two different grid axes (grid-axis = ulysses-axis = 1)
// RANGE: error: grid axis 2 is out of range for grid @grid of rank 2
// DIVIDE: error: seqpar-pipeline: cp-strategy=hybrid needs cp-ulysses > 1 dividing cp (cp=4, cp-ulysses=3)

// MQA (one K/V head): K/V cannot be split over 2 Ulysses ranks.
shard.grid @grid(shape = 2x2)
func.func @mqa(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
               %k: tensor<1x1x8x4xf32> {seqpar.seq_dim = 2 : i64})
    -> tensor<1x4x8x4xf32> {
  %o = seqpar.attention %q, %k, %k {causal, scale = 0.5 : f32}
      : tensor<1x4x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x4x8x4xf32>
  return %o : tensor<1x4x8x4xf32>
}
