//===- SplitReduction.h - partials per row of a reduction -------*- C++ -*-===//
//
// A reduction along the innermost loop is one chain of dependent
// operations per row, which LLVM's vectoriser does not take (reordering a
// float sum is its to refuse). Split into partial results, one per vector
// lane, the partials are a parallel loop it vectorises
// (docs/runtime-and-run.md, "Split reductions").
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PREPARELOWERING_SPLITREDUCTION_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PREPARELOWERING_SPLITREDUCTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::seqpar {

/// Partial results per row of a split reduction: the lanes of a vector
/// register (16 f32 in AVX-512).
constexpr int64_t kReductionLanes = 16;

/// Splits the reduction of `op` along its last loop with upstream's
/// `linalg::splitReduction` into kReductionLanes partial results per row,
/// element j going to partial j mod kReductionLanes, and a reduction of
/// the partials, which replaces `op`; operand dims a map reads at the
/// constant 0 (kept dims of size 1) are collapsed away first. Returns the
/// value that replaced `op`'s result, or null with `op` left as it was
/// when it does not split: the last loop is not a reduction, its static
/// size is not a multiple of kReductionLanes above it, a map is not a
/// projected permutation (up to such 0s), the body reads its loop indices
/// (`linalg.index`), or the body is not a reduction upstream splits (one
/// init, one combiner with a neutral element).
Value splitInnermostReduction(RewriterBase &rewriter, linalg::GenericOp op);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PREPARELOWERING_SPLITREDUCTION_H
