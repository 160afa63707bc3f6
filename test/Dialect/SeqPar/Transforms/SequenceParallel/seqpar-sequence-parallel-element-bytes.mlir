// RUN: seqpar-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(seqpar-sequence-parallel)'

// Tests that the remark counts index elements as 8 bytes (docs/semantics.md
// §5, as seqpar-report does): 32 elements, N = 256 bytes over t = 2.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{sequence-parallel over @grid axis 0 (t=2, s=8): 1 all_reduce (256 bytes sent per rank) -> 1 reduce_scatter (128 bytes) + 1 all_gather (128 bytes) + 0 all_reduce kept (0 bytes); total 256 bytes}}
func.func @index_elements(%x: tensor<8x4xindex> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<8x4xindex> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x4xindex> -> tensor<8x4xindex>
  %h = arith.addi %r, %x : tensor<8x4xindex>
  return %h : tensor<8x4xindex>
}

// -----

// Tests that an i1 element counts one byte: N = 32 bytes.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-remark @below {{sequence-parallel over @grid axis 0 (t=2, s=8): 1 all_reduce (32 bytes sent per rank) -> 1 reduce_scatter (16 bytes) + 1 all_gather (16 bytes) + 0 all_reduce kept (0 bytes); total 32 bytes}}
func.func @i1_elements(%x: tensor<8x4xi1> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<8x4xi1> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x4xi1> -> tensor<8x4xi1>
  %h = arith.xori %r, %x : tensor<8x4xi1>
  return %h : tensor<8x4xi1>
}
