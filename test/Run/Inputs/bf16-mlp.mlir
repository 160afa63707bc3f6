// A bf16 MLP that accumulates in f32 (mixed-precision linalg.matmul: bf16
// operands, an f32 init), followed by a token-wise bias add so that SP has
// a region to shard.
func.func @bf16_mlp(%x: tensor<16x64xbf16>, %w1: tensor<64x256xbf16>, %w2: tensor<256x64xbf16>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xbf16>, tensor<64x256xbf16>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %g = math.tanh %h : tensor<16x256xf32>
  %g16 = arith.truncf %g : tensor<16x256xf32> to tensor<16x256xbf16>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%g16, %w2 : tensor<16x256xbf16>, tensor<256x64xbf16>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e3 = tensor.empty() : tensor<16x64xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<16x64xf32>, tensor<64xf32>) outs(%e3 : tensor<16x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %s = arith.addf %in, %bias : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<16x64xf32>
  return %out : tensor<16x64xf32>
}
