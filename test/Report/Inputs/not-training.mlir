// A loss and a "gradient" computed from the parameter alone: no backward
// part reads the forward, so seqpar-report cannot split the program.
func.func @forward(%x: tensor<4x8xf32> {seqpar.seq_dim = 0 : i64},
                   %w: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(j) -> (j)>, affine_map<(j) -> (j)>], iterator_types = ["parallel"]} ins(%w : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%b: f32, %o: f32):
    %d = arith.addf %b, %b : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  return %loss, %g : tensor<f32>, tensor<8xf32>
}
