// Dropout on s = 10 tokens under context parallelism: each rank keys its
// mask by the global positions of its tokens (two boxes with zigzag), so the
// per-rank program drops exactly the elements the single-device one does.
func.func @main(%x: tensor<2x10x8xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<2x10x8xf32> {
  %seed = arith.constant 1234 : i64
  %y = seqpar.dropout %x seed %seed {rate = 0.5 : f64, site = 3 : i64} : tensor<2x10x8xf32>
  return %y : tensor<2x10x8xf32>
}
