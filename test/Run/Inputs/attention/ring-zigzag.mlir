// Two ring steps done on one rank: the zigzag query block of rank 0 of c = 2
// (tokens {0, 1, 6, 7} of s = 8) against K/V block A (tokens 0-3) and block
// B (tokens 4-7), merged by their two-part LSE. Rows 0 and 1 see nothing
// of block B (row max = -inf, row sum = 0 there), so the merge's empty-block
// path is exercised.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%q: tensor<1x4x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %k: tensor<1x2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %v: tensor<1x2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<1x4x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %q0 = tensor.extract_slice %q[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %q1 = tensor.extract_slice %q[0, 0, 6, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %qz = tensor.concat dim(2) %q0, %q1 : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x4x8xf32>
  %ka = tensor.extract_slice %k[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %va = tensor.extract_slice %v[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %kb = tensor.extract_slice %k[0, 0, 4, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %vb = tensor.extract_slice %v[0, 0, 4, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %qpos = arith.constant dense<[0, 1, 6, 7]> : tensor<4xindex>
  %apos = arith.constant dense<[0, 1, 2, 3]> : tensor<4xindex>
  %bpos = arith.constant dense<[4, 5, 6, 7]> : tensor<4xindex>
  %oa, %ma, %la = seqpar.attention_block %qz, %ka, %va positions(%qpos, %apos) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  %ob, %mb, %lb = seqpar.attention_block %qz, %kb, %vb positions(%qpos, %bpos) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  %o, %m, %l = seqpar.attention_merge (%oa, %ma, %la), (%ob, %mb, %lb) : tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  return %o : tensor<1x4x4x8xf32>
}
