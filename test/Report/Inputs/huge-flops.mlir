// A 2^21-cubed matmul: 2^64 FLOPs (printed as 0 before), with every tensor
// (2^44 bytes) well inside int64.
func.func @f(%x: tensor<2097152x2097152xf32> {seqpar.seq_dim = 0 : i64}, %w: tensor<2097152x2097152xf32>) -> tensor<2097152x2097152xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2097152x2097152xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2097152x2097152xf32>) -> tensor<2097152x2097152xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2097152x2097152xf32>, tensor<2097152x2097152xf32>) outs(%z : tensor<2097152x2097152xf32>) -> tensor<2097152x2097152xf32>
  return %y : tensor<2097152x2097152xf32>
}
