// The attention backward of causal GQA over s = 8 (4 query heads on 2 K/V
// heads) computed by blocks, as a ring over c = 2 zigzag ranks does it: the
// query blocks of rank 0 (tokens {0, 1, 6, 7}) and rank 1 ({2, 3, 4, 5})
// each against K/V block A (tokens 0-3) and B (4-7). Forward blocks merged
// by their two-part LSE give each query block's out and global row
// statistics; seqpar.attention_block_backward then gives each block's dQ,
// dK, dV; dQ is summed over the K/V blocks and dK, dV over the query
// blocks. Rows 0 and 1 see nothing of block B (every logit -inf there).
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%q: tensor<1x4x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %k: tensor<1x2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %v: tensor<1x2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %do: tensor<1x4x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<1x4x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<1x2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<1x2x8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  // Zigzag query blocks of Q and dO.
  %qa = tensor.extract_slice %q[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %qb = tensor.extract_slice %q[0, 0, 6, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %q0 = tensor.concat dim(2) %qa, %qb : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x4x8xf32>
  %q1 = tensor.extract_slice %q[0, 0, 2, 0] [1, 4, 4, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x4x8xf32>
  %da = tensor.extract_slice %do[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %db = tensor.extract_slice %do[0, 0, 6, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x2x8xf32>
  %do0 = tensor.concat dim(2) %da, %db : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x4x8xf32>
  %do1 = tensor.extract_slice %do[0, 0, 2, 0] [1, 4, 4, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x4x8xf32>
  // Contiguous K/V blocks.
  %ka = tensor.extract_slice %k[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %va = tensor.extract_slice %v[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %kb = tensor.extract_slice %k[0, 0, 4, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %vb = tensor.extract_slice %v[0, 0, 4, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
  %p0 = arith.constant dense<[0, 1, 6, 7]> : tensor<4xindex>
  %p1 = arith.constant dense<[2, 3, 4, 5]> : tensor<4xindex>
  %pa = arith.constant dense<[0, 1, 2, 3]> : tensor<4xindex>
  %pb = arith.constant dense<[4, 5, 6, 7]> : tensor<4xindex>
  // Forward: each query block's out and global row statistics.
  %o0a, %m0a, %l0a = seqpar.attention_block %q0, %ka, %va positions(%p0, %pa) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  %o0b, %m0b, %l0b = seqpar.attention_block %q0, %kb, %vb positions(%p0, %pb) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  %o0, %m0, %l0 = seqpar.attention_merge (%o0a, %m0a, %l0a), (%o0b, %m0b, %l0b) : tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  %o1a, %m1a, %l1a = seqpar.attention_block %q1, %ka, %va positions(%p1, %pa) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  %o1b, %m1b, %l1b = seqpar.attention_block %q1, %kb, %vb positions(%p1, %pb) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  %o1, %m1, %l1 = seqpar.attention_merge (%o1a, %m1a, %l1a), (%o1b, %m1b, %l1b) : tensor<1x4x4x8xf32>, tensor<1x4x4xf32>
  // Backward, block by block.
  %dq0a, %dk0a, %dv0a = seqpar.attention_block_backward %q0, %ka, %va, %do0, %o0, %m0, %l0 positions(%p0, %pa) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4xf32>,
        tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>
  %dq0b, %dk0b, %dv0b = seqpar.attention_block_backward %q0, %kb, %vb, %do0, %o0, %m0, %l0 positions(%p0, %pb) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4xf32>,
        tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>
  %dq1a, %dk1a, %dv1a = seqpar.attention_block_backward %q1, %ka, %va, %do1, %o1, %m1, %l1 positions(%p1, %pa) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4xf32>,
        tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>
  %dq1b, %dk1b, %dv1b = seqpar.attention_block_backward %q1, %kb, %vb, %do1, %o1, %m1, %l1 positions(%p1, %pb) {causal, scale = 0.35 : f32}
      : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4xf32>,
        tensor<4xindex>, tensor<4xindex> -> tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>
  // dQ summed over K/V blocks, dK and dV over query blocks.
  %eq = tensor.empty() : tensor<1x4x4x8xf32>
  %ekv = tensor.empty() : tensor<1x2x4x8xf32>
  %dq0 = linalg.add ins(%dq0a, %dq0b : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) outs(%eq : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %dq1 = linalg.add ins(%dq1a, %dq1b : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) outs(%eq : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %dka = linalg.add ins(%dk0a, %dk1a : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%ekv : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %dkb = linalg.add ins(%dk0b, %dk1b : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%ekv : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %dva = linalg.add ins(%dv0a, %dv1a : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%ekv : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %dvb = linalg.add ins(%dv0b, %dv1b : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%ekv : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  // Back to token order.
  %r01 = tensor.extract_slice %dq0[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x4x8xf32> to tensor<1x4x2x8xf32>
  %r67 = tensor.extract_slice %dq0[0, 0, 2, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x4x8xf32> to tensor<1x4x2x8xf32>
  %dq = tensor.concat dim(2) %r01, %dq1, %r67 : (tensor<1x4x2x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x8x8xf32>
  %dk = tensor.concat dim(2) %dka, %dkb : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x8x8xf32>
  %dv = tensor.concat dim(2) %dva, %dvb : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x8x8xf32>
  return %dq, %dk, %dv : tensor<1x4x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>
}
