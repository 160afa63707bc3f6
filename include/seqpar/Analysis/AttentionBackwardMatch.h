//===- AttentionBackwardMatch.h - the backward exporters write ---*- C++ -*-===//
//
// The backward of an attention AttentionMatch.h found, as a joint graph
// writes it (docs/training-graphs.md): dV = P^T . dO and dP = dO . V^T, the
// softmax backward dS = P * (dP - rowsum(dP * P)) times the forward's scale,
// then dQ = dS . K and dK = dS^T . Q, each product a plain contraction in
// any layout. Elements are traced (ElementTrace.h) in the index space
// (b, h, i, j, e): query head h, query i, key j, head-dim e. The softmax
// backward is checked as a polynomial in P, dP and the row sum, whatever
// generics and body order the exporter used.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_ATTENTIONBACKWARDMATCH_H
#define SEQPAR_ANALYSIS_ATTENTIONBACKWARDMATCH_H

#include "seqpar/Analysis/AttentionMatch.h"

#include <string>

namespace mlir::seqpar {

/// One product of the exporter's backward that seqpar.attention_backward
/// computes: its result, [batch..., m, n] with batch b * a + h or (b, h),
/// holds the gradient of `grad` ([b, a|a_kv, tokens, d] = query, key or
/// value) at (m, n) = (tokens, d), or (d, tokens) when `transposed`.
struct AttentionGradProduct {
  enum class Grad { Query, Key, Value };
  linalg::LinalgOp op;
  Grad grad;
  bool transposed = false;
  /// Grouped-query attention's dK and dV: the sum over each group's r
  /// query heads of `op`'s per-head result, whose result replaces instead.
  /// Each of its result dims is dim `groupSumDims[r]` of the compact
  /// gradient [b, a_kv, tokens, d], or -1 for a unit dim.
  linalg::LinalgOp groupSum;
  SmallVector<int64_t, 5> groupSumDims;
};

/// The backward found for one attention.
struct AttentionBackwardMatch {
  /// The gradient of the attention's output, [b, a, s, d] up to a
  /// permutation.
  HeadsOperand outGrad;
  /// The products to replace, at least one.
  SmallVector<AttentionGradProduct> products;
};

/// The backward of `forward` in its function. Fails with `why` set when P
/// has users that are not a backward this matcher recognises (or only part
/// of one: each product found is returned, the rest named in `why`), and
/// with `why` empty when P has no users but the forward's P.V (a forward
/// program). Under grouped-query attention (a_kv < a) the key and value
/// products are per query head and each needs its group sum (a reduction
/// generic over the r heads of each K/V head, after reshapes and
/// transposes).
FailureOr<AttentionBackwardMatch>
matchAttentionBackward(const AttentionMatch &forward, linalg::LinalgOp pv,
                       std::string &why);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_ATTENTIONBACKWARDMATCH_H
