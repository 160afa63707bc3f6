// Rank 1 skips the all-reduce, the first collective on its axis.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %r = shard.process_linear_index on @grid : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %r, %c0 : index
  %y = scf.if %first -> tensor<4x8xf32> {
    %s = shard.all_reduce %x on @grid grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  } else {
    scf.yield %x : tensor<4x8xf32>
  }
  return %y : tensor<4x8xf32>
}
