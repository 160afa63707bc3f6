// Activations [s, b, h] = [7, 3, 16] whose first op flattens them to
// [s*b, h] (the linears of a post-norm block, as Megatron and BERT-style
// exporters write them): the flattened view holds each token as b rows, so
// the sequence is its outer digit with inner stride b. s = 7 is padded for
// 2 or 3 CP ranks. Non-causal attention over 2 heads of 8, residual and a
// per-token RMS normalisation; the sequence is dim 0 of %x.
func.func @main(%x: tensor<7x3x16xf32> {seqpar.seq_dim = 0 : i64},
                %wqkv: tensor<16x16xf32>, %wo: tensor<16x16xf32>)
    -> tensor<7x3x16xf32> {
  %zero = arith.constant 0.0 : f32
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<7x3x16xf32> into tensor<21x16xf32>
  %e0 = tensor.empty() : tensor<21x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<21x16xf32>) -> tensor<21x16xf32>
  %p = linalg.matmul ins(%flat, %wqkv : tensor<21x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<21x16xf32>) -> tensor<21x16xf32>
  %p4 = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [7, 3, 2, 8] : tensor<21x16xf32> into tensor<7x3x2x8xf32>
  %e1 = tensor.empty() : tensor<3x2x7x8xf32>
  %q = linalg.transpose ins(%p4 : tensor<7x3x2x8xf32>) outs(%e1 : tensor<3x2x7x8xf32>) permutation = [1, 2, 0, 3]
  %o = seqpar.attention %q, %q, %q {scale = 0.35 : f32}
      : tensor<3x2x7x8xf32>, tensor<3x2x7x8xf32>, tensor<3x2x7x8xf32> -> tensor<3x2x7x8xf32>
  %e2 = tensor.empty() : tensor<7x3x2x8xf32>
  %ot = linalg.transpose ins(%o : tensor<3x2x7x8xf32>) outs(%e2 : tensor<7x3x2x8xf32>) permutation = [2, 0, 1, 3]
  %of = tensor.collapse_shape %ot [[0, 1], [2, 3]] : tensor<7x3x2x8xf32> into tensor<21x16xf32>
  %y = linalg.matmul ins(%of, %wo : tensor<21x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<21x16xf32>) -> tensor<21x16xf32>
  %e3 = tensor.empty() : tensor<21x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%flat, %y : tensor<21x16xf32>, tensor<21x16xf32>) outs(%e3 : tensor<21x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<21x16xf32>
  %e4 = tensor.empty() : tensor<21xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<21xf32>) -> tensor<21xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<21x16xf32>) outs(%f4 : tensor<21xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<21xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %ss : tensor<21x16xf32>, tensor<21xf32>) outs(%e3 : tensor<21x16xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %c16 = arith.constant 16.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %mean = arith.divf %s, %c16 : f32
    %v = arith.addf %mean, %eps : f32
    %inv = math.rsqrt %v : f32
    %y1 = arith.mulf %a, %inv : f32
    linalg.yield %y1 : f32
  } -> tensor<21x16xf32>
  %out = tensor.expand_shape %n [[0, 1], [2]] output_shape [7, 3, 16] : tensor<21x16xf32> into tensor<7x3x16xf32>
  return %out : tensor<7x3x16xf32>
}
