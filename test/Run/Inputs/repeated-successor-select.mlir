// The single-device program of repeated-successor.mlir, with selects
// instead of branches.
func.func @forward(%x: tensor<8x32xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = arith.select %pos, %view, %neg : tensor<8x16xf32>
  %view2 = tensor.extract_slice %x[0, 4] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %twice = linalg.add ins(%a, %a : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = arith.select %pos, %twice, %view2 : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}
