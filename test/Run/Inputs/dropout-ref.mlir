// Single-device dropout of dropout.mlir.
func.func @forward(%x: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %seed = arith.constant 1234 : i64
  %y = seqpar.dropout %x seed %seed {rate = 0.5 : f64, site = 3 : i64} : tensor<2x16x8xf32>
  return %y : tensor<2x16x8xf32>
}
