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

/// FLOPs of the contractions of a seqpar attention op with query
/// [b, a, s, d] and key [b, a_kv, t, d], each a multiply-add (2 FLOPs) per
/// element of the b*a*s*t*d space: seqpar.attention and
/// seqpar.attention_block 4 b a s t d (Q.K^T and P.V);
/// seqpar.attention_block_backward 10 b a s t d (Q.K^T recomputed, dO.V^T,
/// dS.K, dS^T.Q and P^T.dO: FlashAttention-2, Dao 2023, section 3.1.2);
/// seqpar.attention_backward 12 b a s t d (the block backward, and Q.K^T once
/// more for the rows' LSE). A causal block counts whole: it is computed
/// whole, then masked. None for other ops, dynamic shapes or an overflow of
/// int64.
std::optional<int64_t> getAttentionFlops(Operation *op);

/// The factors whose product getAttentionFlops is: the contractions' FLOPs
/// per point (4, 10 or 12), b, a, s, t, d; empty for other ops or dynamic
/// shapes. For callers that report an overflow themselves.
SmallVector<int64_t, 6> getAttentionFlopFactors(Operation *op);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_ATTENTIONFLOPS_H
