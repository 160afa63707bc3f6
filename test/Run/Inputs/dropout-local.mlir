// dropout.mlir keyed by local positions (each rank draws the mask of
// tokens [0, 8)): the Megatron-style mistake, which must not match.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>})
    -> (tensor<2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>}) {
  %seed = arith.constant 1234 : i64
  %y = seqpar.dropout %x seed %seed {rate = 0.5 : f64, site = 3 : i64} : tensor<2x8x8xf32>
  return %y : tensor<2x8x8xf32>
}
