// Per-rank program on 2 ranks using every asynchronous collective, with
// compute between each start and its wait. Global x is 8x8, split by rows.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    -> (tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
        tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
        tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<8x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
        tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %e = tensor.empty() : tensor<4x8xf32>
  %r0 = seqpar.all_gather_start %x on @grid grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> !seqpar.request<tensor<8x8xf32>>
  %sq = linalg.mul ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = seqpar.wait %r0 : !seqpar.request<tensor<8x8xf32>>
  // Ring: rank r receives rank r-1's rows.
  %r1 = seqpar.shift_start %x on @grid grid_axes = [0] offset = 1 : tensor<4x8xf32> -> !seqpar.request<tensor<4x8xf32>>
  %s = seqpar.wait %r1 : !seqpar.request<tensor<4x8xf32>>
  // Every rank holds g: the reduce-scatter sum is 2 x.
  %r2 = seqpar.reduce_scatter_start %g on @grid grid_axes = [0] scatter_axis = 0 : tensor<8x8xf32> -> !seqpar.request<tensor<4x8xf32>>
  %rs = seqpar.wait %r2 : !seqpar.request<tensor<4x8xf32>>
  %r3 = seqpar.all_reduce_start %x on @grid grid_axes = [0] reduction = max : tensor<4x8xf32> -> !seqpar.request<tensor<4x8xf32>>
  %m = seqpar.wait %r3 : !seqpar.request<tensor<4x8xf32>>
  // Rows-split to columns-split.
  %r4 = seqpar.all_to_all_start %x on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x8xf32> -> !seqpar.request<tensor<8x4xf32>>
  %t = seqpar.wait %r4 : !seqpar.request<tensor<8x4xf32>>
  return %g, %s, %rs, %m, %t, %sq : tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>
}
