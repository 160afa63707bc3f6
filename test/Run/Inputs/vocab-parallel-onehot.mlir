// The gradient of an untied embedding table as exporters write it: a
// one-hot of the ids over the table's rows (here one generic reading the
// row loop's linalg.index), contracted with the output gradient.
#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @fused_one_hot(%ids: tensor<8xi64>, %emb: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e8x16 = tensor.empty() : tensor<8x16xf32>
  %x = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x16 : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %r = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %emb[%r, %col] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e8x8 = tensor.empty() : tensor<8x8xf32>
  %onehot = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e8x8 : tensor<8x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %v = linalg.index 1 : index
    %vi = arith.index_cast %v : index to i64
    %eq = arith.cmpi eq, %id, %vi : i64
    %f = arith.uitofp %eq : i1 to f32
    linalg.yield %f : f32
  } -> tensor<8x8xf32>
  %t8x8 = linalg.transpose ins(%onehot : tensor<8x8xf32>) outs(%e8x8 : tensor<8x8xf32>) permutation = [1, 0]
  %z = linalg.fill ins(%zero : f32) outs(%e8x16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dE = arith.mulf %x, %x : tensor<8x16xf32>
  %demb = linalg.matmul ins(%t8x8, %dE : tensor<8x8xf32>, tensor<8x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %x, %demb : tensor<8x16xf32>, tensor<8x16xf32>
}
