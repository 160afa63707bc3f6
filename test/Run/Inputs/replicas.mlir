// A per-rank program on 2 ranks whose replicated result differs between the
// ranks: y = x + (linear process index), the mistake of a program that keys
// a replicated value on the rank.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %r = shard.process_linear_index on @grid : index
  %ri = arith.index_cast %r : index to i32
  %rf = arith.sitofp %ri : i32 to f32
  %e = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%rf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = arith.addf %x, %b : tensor<4xf32>
  return %y : tensor<4xf32>
}
