// The single-device program of replicas.mlir: y = x.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  return %x : tensor<4xf32>
}
