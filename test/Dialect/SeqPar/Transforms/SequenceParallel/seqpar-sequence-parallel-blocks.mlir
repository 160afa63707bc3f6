// RUN: seqpar-opt %s --seqpar-sequence-parallel=grid-axis=0 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-sequence-parallel=grid-axis=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Tests that sequence parallelism starts from values marked
// seqpar.sequence_block (docs/context-parallelism.md, "TP x CP"): here the
// argument holds the whole sequence of 10 tokens, of which the function
// computes a block of 4 (as a padded context-parallel program does), and a
// second block of 4 comes back from an all-to-all (as Ulysses attention's
// output does). Both are sliced to the TP rank's 2 tokens; the all-reduces
// become reduce-scatters over those 4 tokens; the all-gather before the
// return is the only one.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @blocks
// CHECK: %[[RANK:.+]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK: %[[OFF:.+]] = arith.muli %[[RANK]]
// CHECK: %[[B:.+]] = tensor.extract_slice %arg0[4, 0] [4, 16] [1, 1] {seqpar.sequence_block = array<i64: 0, 4, 1>}
// CHECK: %[[P:.+]] = arith.mulf %[[B]], %[[B]] : tensor<4x16xf32>
// CHECK: %[[RS:.+]] = shard.reduce_scatter %[[P]] on @grid grid_axes = [0] scatter_axis = 0 : tensor<4x16xf32> -> tensor<2x16xf32>
// CHECK: %[[BS:.+]] = tensor.extract_slice %[[B]][%[[OFF]], 0] [2, 16] [1, 1] : tensor<4x16xf32> to tensor<2x16xf32>
// CHECK: %[[A:.+]] = arith.addf %[[RS]], %[[BS]] : tensor<2x16xf32>
// CHECK: %[[U:.+]] = shard.all_to_all %arg1 {{.*}} {seqpar.sequence_block = array<i64: 0, 4, 1>}
// CHECK: %[[Q:.+]] = arith.mulf %[[U]], %[[U]] : tensor<4x16xf32>
// CHECK: %[[RS2:.+]] = shard.reduce_scatter %[[Q]] on @grid grid_axes = [0] scatter_axis = 0 : tensor<4x16xf32> -> tensor<2x16xf32>
// CHECK: %[[US:.+]] = tensor.extract_slice %[[U]][%[[OFF]], 0] [2, 16] [1, 1] : tensor<4x16xf32> to tensor<2x16xf32>
// CHECK: %[[M:.+]] = arith.mulf %[[RS2]], %[[US]] : tensor<2x16xf32>
// CHECK: %[[S:.+]] = arith.addf %[[A]], %[[M]] : tensor<2x16xf32>
// CHECK: %[[G:.+]] = shard.all_gather %[[S]] on @grid grid_axes = [0] gather_axis = 0 : tensor<2x16xf32> -> tensor<4x16xf32>
// CHECK: return %[[G]]
// REMARK: sequence-parallel over @grid axis 0 (t=2, s=4): 2 all_reduce (512 bytes sent per rank) -> 2 reduce_scatter (256 bytes) + 1 all_gather (128 bytes) + 0 all_reduce kept (0 bytes)
func.func @blocks(%x: tensor<10x16xf32>, %y: tensor<8x8xf32>) -> tensor<4x16xf32> {
  %b = tensor.extract_slice %x[4, 0] [4, 16] [1, 1] {seqpar.sequence_block = array<i64: 0, 4, 1>} : tensor<10x16xf32> to tensor<4x16xf32>
  %p = arith.mulf %b, %b : tensor<4x16xf32>
  %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<4x16xf32> -> tensor<4x16xf32>
  %a = arith.addf %r, %b : tensor<4x16xf32>
  %u = shard.all_to_all %y on @grid grid_axes = [1] split_axis = 0 concat_axis = 1 {seqpar.sequence_block = array<i64: 0, 4, 1>} : tensor<8x8xf32> -> tensor<4x16xf32>
  %q = arith.mulf %u, %u : tensor<4x16xf32>
  %r2 = shard.all_reduce %q on @grid grid_axes = [0] : tensor<4x16xf32> -> tensor<4x16xf32>
  %m = arith.mulf %r2, %u : tensor<4x16xf32>
  %s = arith.addf %a, %m : tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}
