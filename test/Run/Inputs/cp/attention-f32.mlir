// attention-bf16.mlir in f32: the reference of the bf16 runs.
func.func @main(%q: tensor<2x4x64x16xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x64x16xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x64x16xf32> {seqpar.seq_dim = 2 : i64})
    -> tensor<2x4x64x16xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.25 : f32}
      : tensor<2x4x64x16xf32>, tensor<2x2x64x16xf32>, tensor<2x2x64x16xf32> -> tensor<2x4x64x16xf32>
  return %o : tensor<2x4x64x16xf32>
}
