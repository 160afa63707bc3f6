// Causal GQA attention (4 query heads, 2 KV heads) on bf16 data; the
// sequence (s = 64) is in dim 2. Its f32 twin, attention-f32.mlir, is the
// higher-precision reference on the same (widened) inputs.
func.func @main(%q: tensor<2x4x64x16xbf16> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x64x16xbf16> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x64x16xbf16> {seqpar.seq_dim = 2 : i64})
    -> tensor<2x4x64x16xbf16> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.25 : f32}
      : tensor<2x4x64x16xbf16>, tensor<2x2x64x16xbf16>, tensor<2x2x64x16xbf16> -> tensor<2x4x64x16xbf16>
  return %o : tensor<2x4x64x16xbf16>
}
