// Per-rank dropout (p = 0.5) on tokens [r*8, r*8+8) of a [2, 16, 8] tensor
// sharded along the sequence over 2 ranks: keyed by global position.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>})
    -> (tensor<2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>}) {
  %seed = arith.constant 1234 : i64
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %r = shard.process_multi_index on @grid axes = [0] : index
  %off = arith.muli %r, %c8 : index
  %y = seqpar.dropout %x seed %seed offsets(%c0, %off, %c0) {rate = 0.5 : f64, site = 3 : i64, global_shape = array<i64: 2, 16, 8>} : tensor<2x8x8xf32>
  return %y : tensor<2x8x8xf32>
}
