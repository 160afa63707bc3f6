// Single-device inplace-args.mlir.
func.func @forward(%x: tensor<2x8x16xf32>, %w: tensor<4x4xf32>) -> (tensor<2x8x16xf32>, tensor<4x4xf32>) {
  %o = math.exp %x : tensor<2x8x16xf32>
  %w2 = math.exp %w : tensor<4x4xf32>
  return %o, %w2 : tensor<2x8x16xf32>, tensor<4x4xf32>
}
