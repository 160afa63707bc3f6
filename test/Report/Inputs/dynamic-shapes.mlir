// A matmul whose rows have no static extent (the argument), and a static
// program with one dynamic value inside (the cast): seqpar-report has no
// bytes or FLOPs to give either (they used to read as 0).
func.func @dynamic_argument(%x: tensor<?x32xf32>, %w: tensor<32x32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x32xf32>
  %z = tensor.empty(%n) : tensor<?x32xf32>
  %f0 = arith.constant 0.0 : f32
  %fz = linalg.fill ins(%f0 : f32) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<?x32xf32>, tensor<32x32xf32>) outs(%fz : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}

func.func @dynamic_inside(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %d = tensor.cast %x : tensor<8x32xf32> to tensor<?x32xf32>
  %e = math.tanh %d : tensor<?x32xf32>
  %s = tensor.cast %e : tensor<?x32xf32> to tensor<8x32xf32>
  return %s : tensor<8x32xf32>
}
