// Causal attention written out as exporters write it, with Megatron's
// additive -1e4 causal mask, and logits spanning thousands: q' = 1 + q/100
// and k' = j + k/100 at key position j, scale 500, so row i's logits are
// about 4000 j and a hidden key j > i + 2 (4000 j - 1e4) outweighs every
// visible one. A -1e4 mask is therefore not causality: the single-device
// softmax gives most weight to future keys. (Written after an outside
// tester's program; inputs come from seqpar-run.)
func.func @main(%q: tensor<1x2x8x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<1x2x8x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<1x2x8x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<1x2x8x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(b, h, j, e) -> (b, h, j, e)>, affine_map<(b, h, j, e) -> (b, h, j, e)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x2x8x8xf32>) outs(%e4 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c100 = arith.constant 0.01 : f32
    %one = arith.constant 1.0 : f32
    %y = arith.mulf %x, %c100 : f32
    %y1 = arith.addf %y, %one : f32
    linalg.yield %y1 : f32
  } -> tensor<1x2x8x8xf32>
  %ks = linalg.generic {indexing_maps = [affine_map<(b, h, j, e) -> (b, h, j, e)>, affine_map<(b, h, j, e) -> (b, h, j, e)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x8x8xf32>) outs(%e4 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c100 = arith.constant 0.01 : f32
    %j = linalg.index 2 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %y = arith.mulf %x, %c100 : f32
    %y1 = arith.addf %y, %jf : f32
    linalg.yield %y1 : f32
  } -> tensor<1x2x8x8xf32>
  %qc = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %kc = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %et = tensor.empty() : tensor<2x8x8xf32>
  %kt = linalg.transpose ins(%kc : tensor<2x8x8xf32>) outs(%et : tensor<2x8x8xf32>) permutation = [0, 2, 1]
  %fs = linalg.fill ins(%zero : f32) outs(%et : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%qc, %kt : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%fs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %em = tensor.empty() : tensor<8x8xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %fut = arith.cmpi ugt, %j, %i : index
    %hv = arith.constant -1.0e4 : f32
    %z = arith.constant 0.0 : f32
    %m = arith.select %fut, %hv, %z : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x8x8xf32>, tensor<8x8xf32>) outs(%et : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %mv: f32, %o: f32):
    %sc = arith.constant 500.0 : f32
    %y = arith.mulf %x, %sc : f32
    %y2 = arith.addf %y, %mv : f32
    linalg.yield %y2 : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%l : tensor<2x8x8xf32>) outs(%et : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x8xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = linalg.batch_matmul ins(%p, %vc : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%fo : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %r = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  return %r : tensor<1x2x8x8xf32>
}
