// An MLP without attention: nothing for the planner to plan.
module {
  func.func @mlp(%x: tensor<1x16x8xf32>, %w: tensor<8x8xf32>) -> tensor<16x8xf32> {
    %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x16x8xf32> into tensor<16x8xf32>
    %z = tensor.empty() : tensor<16x8xf32>
    %y = linalg.matmul ins(%x2, %w : tensor<16x8xf32>, tensor<8x8xf32>) outs(%z : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %y : tensor<16x8xf32>
  }
}
