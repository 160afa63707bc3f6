//===- UnusedInits.h - erase the inits a rewrite replaced -------*- C++ -*-===//
//
// The TP planner and SP rebuild shape-only inits (tensor.empty, zero
// fills, splat constants) at per-rank shapes; the global ones they replace
// are erased by the rewrite itself, so that the clean-up after it has
// nothing to do and the module is not verified once more
// (docs/benchmarks.md §1).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_UNUSEDINITS_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_UNUSEDINITS_H

#include "mlir/IR/Operation.h"

namespace mlir::seqpar {

/// Erases those of `inits` (distinct shape-only ops) that nothing reads,
/// each linalg.fill before the tensor.empty it fills.
void eraseUnusedInits(ArrayRef<Operation *> inits);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_UNUSEDINITS_H
