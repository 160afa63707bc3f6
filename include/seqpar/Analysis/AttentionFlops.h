//===- AttentionFlops.h - FLOPs of the seqpar attention ops -----*- C++ -*-===//
//
// One home for the FLOPs an attention op's contractions cost, shared by
// seqpar-report's cost model and the runtime's attention regions
// (seqpar-instrument-attention), so predicted and measured figures agree.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_ATTENTIONFLOPS_H
#define SEQPAR_ANALYSIS_ATTENTIONFLOPS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::seqpar {

/// The factors whose product is an attention op's FLOPs: the contractions'
/// FLOPs per (query, key, feature) point (4, 10 or 12), b, a, d, and the
/// number of (query, key) pairs the op keeps (getKeptPairs, or s * t where
/// only the run time knows them: an upper bound). Query [b, a, s, d], key
/// [b, a_kv, t, d]; each contraction is a multiply-add (2 FLOPs) per point:
/// seqpar.attention and seqpar.attention_block 4 (Q.K^T and P.V);
/// seqpar.attention_block_backward 10 (Q.K^T recomputed, dO.V^T, dS.K,
/// dS^T.Q and P^T.dO: FlashAttention-2, Dao 2023, section 3.1.2);
/// seqpar.attention_backward 12 (the block backward, and Q.K^T once more
/// for the rows' LSE), or 10 when it reads the LSE of its forward
/// (AttentionBackwardOp::getForwardAttention). Pairs the causal rule removes
/// are not counted (FlashAttention's convention, Dao et al. 2022, section 4),
/// whether or not a kernel computes them before masking; softmax is not
/// counted. Empty for other ops and dynamic shapes.
SmallVector<int64_t, 5> getAttentionFlopFactors(Operation *op);

/// The product of getAttentionFlopFactors; none for other ops, dynamic
/// shapes or an overflow of int64.
std::optional<int64_t> getAttentionFlops(Operation *op);

/// FLOPs per kept (query, key) pair: the product of the factors but the
/// pairs. None as getAttentionFlops.
std::optional<int64_t> getAttentionFlopsPerPair(Operation *op);

/// The (query, key) pairs an attention op keeps when known before run time:
/// s * t without `causal`; s (s + 1) / 2 for a causal seqpar.attention or
/// seqpar.attention_backward (query i keeps keys 0..i) and for a causal
/// block whose query and key positions are the same value (global
/// positions are distinct, so the pairs with kv <= q are s (s + 1) / 2
/// whatever their order: a ring's diagonal block); the count itself for a
/// causal block whose positions are constants. None for a causal block
/// whose positions are known only at run time (a ring's other blocks,
/// gathered K/V, a decode step), for other ops and dynamic shapes.
std::optional<int64_t> getKeptPairs(Operation *op);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_ATTENTIONFLOPS_H
