// Q without a head dim (rank 3, [b*a, s, d] with b = a = 1): raised as
// [1, 1, s, d] (it was refused before 3-D operands were viewed as such).
// dynamic sequence length: x is tensor<1x8x8xf32>; single head d=8, rank-3 batch_matmul attention, causal select
func.func @forward(%x: tensor<1x8x8xf32>, %wq: tensor<8x8xf32>, %wk: tensor<8x8xf32>, %wv: tensor<8x8xf32>) -> tensor<1x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<1x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %wqb = tensor.expand_shape %wq [[0, 1], [2]] output_shape [1, 8, 8] : tensor<8x8xf32> into tensor<1x8x8xf32>
  %wkb = tensor.expand_shape %wk [[0, 1], [2]] output_shape [1, 8, 8] : tensor<8x8xf32> into tensor<1x8x8xf32>
  %wvb = tensor.expand_shape %wv [[0, 1], [2]] output_shape [1, 8, 8] : tensor<8x8xf32> into tensor<1x8x8xf32>
  %q = linalg.batch_matmul ins(%x, %wqb : tensor<1x8x8xf32>, tensor<1x8x8xf32>) outs(%z : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %k = linalg.batch_matmul ins(%x, %wkb : tensor<1x8x8xf32>, tensor<1x8x8xf32>) outs(%z : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %v = linalg.batch_matmul ins(%x, %wvb : tensor<1x8x8xf32>, tensor<1x8x8xf32>) outs(%z : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %se = tensor.empty() : tensor<1x8x8xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %sc = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, e) -> (b, i, e)>, affine_map<(b, i, j, e) -> (b, j, e)>, affine_map<(b, i, j, e) -> (b, i, j)>] ins(%q, %k : tensor<1x8x8xf32>, tensor<1x8x8xf32>) outs(%sz : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc : tensor<1x8x8xf32>) outs(%se : tensor<1x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %vis = arith.cmpi ule, %j, %i : index
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    %r = arith.select %vis, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%l : tensor<1x8x8xf32>) outs(%se : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x8x8xf32>, tensor<1x8x8xf32>) outs(%z : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  return %o : tensor<1x8x8xf32>
}
