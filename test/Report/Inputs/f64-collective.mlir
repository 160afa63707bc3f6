// A collective on f64, which the runtime does not handle: the program does
// not lower to buffers, so seqpar-report cannot predict its peak.
shard.grid @grid(shape = 2)
func.func @forward(%x: tensor<2x4xf64> {seqpar.seq_dim = 0 : i64}) -> tensor<4x4xf64> {
  %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2x4xf64> -> tensor<4x4xf64>
  return %g : tensor<4x4xf64>
}
