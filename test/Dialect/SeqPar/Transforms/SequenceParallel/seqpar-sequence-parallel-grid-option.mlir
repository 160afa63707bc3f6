// RUN: not seqpar-opt %s \
// RUN:   --pass-pipeline='builtin.module(seqpar-sequence-parallel{grid=nope})' 2>&1 \
// RUN:   | FileCheck %s

// Tests that a grid option naming no grid is a located error and a failure.

// CHECK: grid-option.mlir:[[@LINE+2]]:1: error: no shard.grid named @nope
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @named_grid(%x: tensor<8x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
