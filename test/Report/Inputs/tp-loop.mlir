// A per-rank program whose layers are a loop (a scan over 3 iterations):
// each iteration's all_reduce and matmul run 3 times (every value is
// replicated: the sum of the replicas, then a matmul by the weight).
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @forward(%x: tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                     %w: tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
      -> (tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<4x8xf32>) {
      %p = shard.all_reduce %a on @grid grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
      %e = tensor.empty() : tensor<4x8xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
      %m = linalg.matmul ins(%p, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
      scf.yield %m : tensor<4x8xf32>
    }
    return %r : tensor<4x8xf32>
  }
}
