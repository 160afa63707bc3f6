//===- RaiseAttention.h - attention -> seqpar.attention ------*- C++ -*-===//
//
// The raising `seqpar-raise-attention` runs, as a function: the TP planner
// runs it after planning (its `raise-attention`), so that the pass manager
// verifies the module once for both instead of once after each
// (docs/benchmarks.md §1).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_ATTENTION_RAISEATTENTION_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_ATTENTION_RAISEATTENTION_H

#include "mlir/IR/Operation.h"

namespace mlir::seqpar {

/// What raiseAttention raised: attention blocks, and their backwards.
struct RaisedAttention {
  unsigned forward = 0;
  unsigned backward = 0;
};

/// Raises each attention written out in the functions nested in `root` to
/// seqpar.attention and, with `backward`, each raised attention's backward
/// to seqpar.attention_backward, as `seqpar-raise-attention` does (its
/// description in Passes.td); what does not match stays as it was, with a
/// remark, and so are functions in buffer form (the remark names
/// `seqpar-raise-attention`, whichever pass runs it). Never fails.
RaisedAttention raiseAttention(Operation *root, bool backward);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_ATTENTION_RAISEATTENTION_H
