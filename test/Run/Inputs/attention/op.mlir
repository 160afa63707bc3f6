// seqpar.attention on one rank: causal GQA (4 query heads, 2 KV heads) with
// an additive mask broadcast over heads.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%q: tensor<1x4x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %k: tensor<1x2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %v: tensor<1x2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %m: tensor<1x1x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<1x4x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %o = seqpar.attention %q, %k, %v mask(%m : tensor<1x1x8x8xf32>) {causal, scale = 0.25 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
  return %o : tensor<1x4x8x16xf32>
}
