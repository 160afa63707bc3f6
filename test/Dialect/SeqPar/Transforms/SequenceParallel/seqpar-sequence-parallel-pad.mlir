// RUN: seqpar-opt %s --pass-pipeline='builtin.module(seqpar-sequence-parallel{pad=true})' 2>/dev/null \
// RUN:   | FileCheck %s
// RUN: seqpar-opt %s --pass-pipeline='builtin.module(seqpar-sequence-parallel{pad=true})' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK

// Tests pad=true with s = 7 tokens on t = 2 ranks: values are padded with
// zeros to 8 tokens before the reduce-scatter and the local slices, each rank
// computes 4 tokens (the last one padding on rank 1), and the all-gather's
// result is cut back to 7 tokens. Padded bytes are counted.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: (%[[X:.+]]: tensor<7x16xf32>
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[RANK:.+]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK: %[[OFF:.+]] = arith.muli %[[RANK]], %[[C4]] : index
// CHECK: %[[P:.+]] = tensor.pad %[[X]] low[0, 0] high[1, 0]
// CHECK: tensor<7x16xf32> to tensor<8x16xf32>
// CHECK: %[[RS:.+]] = shard.reduce_scatter %[[P]] on @grid grid_axes = [0] scatter_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0] high[1, 0]
// CHECK: %[[XS:.+]] = tensor.extract_slice %[[XP]][%[[OFF]], 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
// CHECK: %[[A:.+]] = arith.addf %[[RS]], %[[XS]] : tensor<4x16xf32>
// CHECK: %[[G:.+]] = shard.all_gather %[[A]] on @grid grid_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
// CHECK: %[[CUT:.+]] = tensor.extract_slice %[[G]][0, 0] [7, 16] [1, 1] : tensor<8x16xf32> to tensor<7x16xf32>
// CHECK: return %[[CUT]] : tensor<7x16xf32>
// REMARK: (t=2, s=7): 1 all_reduce (448 bytes sent per rank) -> 1 reduce_scatter (256 bytes) + 1 all_gather (256 bytes) + 0 all_reduce kept (0 bytes); total 512 bytes; sequence padded from 7 to 8 tokens; more than the TP program
func.func @uneven(%x: tensor<7x16xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<7x16xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<7x16xf32> -> tensor<7x16xf32>
  %a = arith.addf %r, %x : tensor<7x16xf32>
  return %a : tensor<7x16xf32>
}
