// Elementwise ops on arguments bufferize in place: seqpar-run must give each
// call (warm-up, timed) its inputs afresh.
shard.grid @grid(shape = 2)
func.func @forward(%x: tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %w: tensor<2x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    -> (tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<2x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %o = math.exp %x : tensor<2x8x16xf32>
  %w2 = math.exp %w : tensor<2x4xf32>
  return %o, %w2 : tensor<2x8x16xf32>, tensor<2x4xf32>
}
