// RUN: seqpar-opt %s -verify-diagnostics --seqpar-tile-attention=kv-tile=-3

// Tests that a negative tile size is refused (it silently disabled tiling;
// 0 is the documented way).

// expected-error @+1 {{tile-attention: kv-tile=-3 (seqpar-lower-to-llvm: attention-kv-tile) is not a tile size: expected keys per tile >= 1, or 0 to disable tiling}}
module {
  func.func @f(%q: tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32> {
    %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
    return %o : tensor<1x4x8x4xf32>
  }
}
