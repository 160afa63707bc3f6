//===- CleanUp.h - canonicalize, then CSE --------------------*- C++ -*-===//
//
// The clean-up the named pipelines run between their rewrites, as a
// function: `seqpar-canonicalize-cse` runs it as a pass, and a rewrite that
// reads cleaned-up IR can run it first itself (the TP planner's
// `canonicalize-first`), so that the pass manager verifies the module once
// for both instead of once after each (docs/benchmarks.md §1).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_CLEANUP_CLEANUP_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_CLEANUP_CLEANUP_H

#include "mlir/Rewrite/FrozenRewritePatternSet.h"

#include <memory>

namespace mlir::seqpar {

/// The patterns MLIR's `canonicalize` applies: every loaded dialect's and
/// every registered op's canonicalization patterns. Build them once per
/// pass (in `Pass::initialize`): collecting them costs more than applying
/// them to a small module.
std::shared_ptr<const FrozenRewritePatternSet>
buildCanonicalizationPatterns(MLIRContext *context);

/// Canonicalizes `op`'s regions with `patterns` as `canonicalize` does (top
/// down, region simplification where it can do more than erase dead ops),
/// then eliminates common subexpressions as `cse` does; when canonicalizing
/// the ops CSE's merges touched (their users and the ops around them, the
/// ops kept, the producers of the ops erased) changes anything, both run
/// again, so that running it again finds nothing. Not converging within
/// the driver's iterations is no error, as for `canonicalize`; the last
/// step is CSE. Returns whether the IR changed.
bool canonicalizeAndCSE(Operation *op, const FrozenRewritePatternSet &patterns);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_CLEANUP_CLEANUP_H
