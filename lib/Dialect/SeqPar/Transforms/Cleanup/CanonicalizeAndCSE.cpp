//===- CanonicalizeAndCSE.cpp - canonicalize, then CSE, as one pass -------===//
//
// The named pipelines clean up after each rewrite with MLIR's canonicalizer
// and then CSE. As two passes, the pass manager verifies the whole module
// after each, and on a large graph one verification costs about as much as
// a pass (docs/benchmarks.md §1). This pass does the same two steps with
// the same patterns and settings as `canonicalize` followed by `cse`, and
// what CSE's merges make foldable (Cleanup/CleanUp.h), and is verified once.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "seqpar/Dialect/SeqPar/Transforms/Cleanup/CleanUp.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_CANONICALIZEANDCSE
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

struct CanonicalizeAndCSEPass
    : public seqpar::impl::CanonicalizeAndCSEBase<CanonicalizeAndCSEPass> {
  LogicalResult initialize(MLIRContext *context) override {
    patterns = seqpar::buildCanonicalizationPatterns(context);
    return success();
  }

  void runOnOperation() override {
    if (!seqpar::canonicalizeAndCSE(getOperation(), *patterns))
      markAllAnalysesPreserved();
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace
