// A per-rank program whose second argument has no sharding attribute.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
                   %bias: tensor<4xf32>)
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %bias : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
