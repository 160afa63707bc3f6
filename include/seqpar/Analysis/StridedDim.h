//===- StridedDim.h - one digit of a possibly flattened dim -----*- C++ -*-===//
//
// The token-wise analysis says where the sequence lives in a value and the
// tensor-parallel planner how a value is cut over the TP ranks; both name a
// dim that may be a flattened view ([b*s, h], fused [3*a*hd]) and the digit
// of it that follows the sequence or the split features.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_STRIDEDDIM_H
#define SEQPAR_ANALYSIS_STRIDEDDIM_H

#include <cstdint>

namespace mlir::seqpar {

/// Dim `dim` of a ranked tensor read as [outer, extent, inner]: it holds
/// outer * extent * inner elements (global sizes) and the digit of interest,
/// of `extent` values, has stride `inner` in each of the `outer` blocks.
/// Split over t ranks, rank r holds chunk r of every block's extent * inner
/// elements.
///
/// The sequence (extent s): [b, s, h] is dim 1; [b*s, h] is dim 0 with outer
/// b; [s*b, h] is dim 0 with inner b. A TP split (extent the features):
/// outer > 1 is Megatron's grouped split of a fused QKV projection
/// (#seqpar.sharding `groups`); inner > 1 appears when split heads are
/// flattened with the head dim ([a, hd] -> [a*hd]).
struct StridedDim {
  int64_t dim = -1;
  int64_t inner = 1;
  int64_t outer = 1;
  /// The digit's extent where the user tracks it: the token-wise analysis
  /// gives each sequence-carrying value its sequence's length (an
  /// encoder-decoder has two); 0 where not tracked (the TP planner's splits).
  int64_t extent = 0;

  /// The same digit: same dim, stride and extent, so each element stands
  /// for the same position (the same sequence's token) whatever the dim's
  /// size.
  bool sameDigit(const StridedDim &o) const {
    return dim == o.dim && inner == o.inner && extent == o.extent;
  }
  /// The same per-rank pieces: with the dim's size fixed, rank r's chunk of
  /// each block is the same whatever part of extent * inner is called inner.
  bool samePieces(const StridedDim &o) const {
    return dim == o.dim && outer == o.outer;
  }
};

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_STRIDEDDIM_H
