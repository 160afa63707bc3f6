// Single-device values of async.mlir.
func.func @forward(%x: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %lo = tensor.extract_slice %x[0, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  %hi = tensor.extract_slice %x[4, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  %rolled = tensor.concat dim(0) %hi, %lo : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %twice = linalg.add ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e4 = tensor.empty() : tensor<4x8xf32>
  %max = linalg.max ins(%lo, %hi : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = linalg.mul ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %x, %rolled, %twice, %max, %x, %sq : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
