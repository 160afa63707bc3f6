// 2^58 x 4 f32 values (2^62 bytes) each: one fits, the function's three do
// not (the saved and peak sums would wrap).
func.func @f(%x: tensor<288230376151711744x4xf32> {seqpar.seq_dim = 0 : i64}) -> tensor<288230376151711744x4xf32> {
  %e = tensor.empty() : tensor<288230376151711744x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<288230376151711744x4xf32>) outs(%e : tensor<288230376151711744x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<288230376151711744x4xf32>
  return %y : tensor<288230376151711744x4xf32>
}
