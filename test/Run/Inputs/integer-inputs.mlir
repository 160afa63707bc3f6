// Integer inputs as programs use them: token ids that index an embedding
// table of 8 rows, a mask tested with != 0, and labels. Everything is
// replicated, so the single-device program is this one on a grid of 1.
shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%ids: tensor<2x8xi64> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %table: tensor<8x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %mask: tensor<2x8xi32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %labels: tensor<2x8xi64> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<2x8x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %e = tensor.empty() : tensor<2x8x4xf32>
  %emb = linalg.generic {indexing_maps = [affine_map<(b, s, j) -> (b, s)>, affine_map<(b, s, j) -> (b, s, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2x8xi64>) outs(%e : tensor<2x8x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %table[%row, %col] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x8x4xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %lab = linalg.generic {indexing_maps = [affine_map<(b, s) -> (b, s)>, affine_map<(b, s) -> (b, s)>, affine_map<(b, s) -> (b, s)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mask, %labels : tensor<2x8xi32>, tensor<2x8xi64>) outs(%e2 : tensor<2x8xf32>) {
  ^bb0(%m: i32, %l: i64, %out: f32):
    %zero = arith.constant 0 : i32
    %on = arith.cmpi ne, %m, %zero : i32
    %lf = arith.sitofp %l : i64 to f32
    %none = arith.constant -1.0 : f32
    %r = arith.select %on, %lf, %none : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  return %emb, %lab : tensor<2x8x4xf32>, tensor<2x8xf32>
}
