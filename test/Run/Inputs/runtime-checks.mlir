// Programs whose indices only the run time knows (docs/runtime-and-run.md,
// "Run-time checks"): a write of 3 values at offset L into 16 slots, as a
// decode step writes its new tokens into a KV cache, and an embedding
// lookup of one token id in a table of 8 rows, on one rank (so that the
// messages of several ranks do not interleave).
shard.grid @grid(shape = 1) {sym_visibility = "private"}

func.func @insert(%buf: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                  %x: tensor<3xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                  %len: tensor<i64> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %l64 = tensor.extract %len[] : tensor<i64>
  %l = arith.index_cast %l64 : i64 to index
  %w = tensor.insert_slice %x into %buf[%l] [3] [1] : tensor<3xf32> into tensor<16xf32>
  return %w : tensor<16xf32>
}

func.func @lookup(%id: tensor<i64> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                  %table: tensor<8x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %e = tensor.empty() : tensor<4xf32>
  %row = linalg.generic {indexing_maps = [affine_map<(j) -> ()>, affine_map<(j) -> (j)>],
                         iterator_types = ["parallel"]}
      ins(%id : tensor<i64>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: i64, %out: f32):
    %r = arith.index_cast %i : i64 to index
    %c = linalg.index 0 : index
    %v = tensor.extract %table[%r, %c] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %row : tensor<4xf32>
}
