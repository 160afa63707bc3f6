//===- CanonicalizeAndCSE.cpp - canonicalize, then CSE, as one pass -------===//
//
// The named pipelines clean up after each rewrite with MLIR's canonicalizer
// and then CSE. As two passes, the pass manager verifies the whole module
// after each, and on a large graph one verification costs about as much as
// a pass (docs/benchmarks.md §1). This pass does the same two steps with
// the same patterns and settings as `canonicalize` (every loaded dialect's
// and registered op's canonicalization patterns, top-down, normal region
// simplification where it can act) followed by `cse`, and is verified once.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_CANONICALIZEANDCSE
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

/// Whether region simplification can do more in some region nested in
/// `op` than the pattern driver does: in a region of several blocks
/// (unreachable blocks, dead block arguments), and in a graph region whose
/// ops have results (a cycle of ops that use only each other is dead, but
/// each has a use, so the driver keeps it). Elsewhere it only erases the
/// dead ops the driver erases too, at the cost of a liveness walk of the
/// whole module after each of the driver's iterations (docs/benchmarks.md,
/// section 1). A module's body is a graph region, of symbols without
/// results.
static bool regionSimplificationCanAct(Operation *op) {
  return op
      ->walk([](Region *region) {
        if (region->empty())
          return WalkResult::advance();
        if (!region->hasOneBlock())
          return WalkResult::interrupt();
        if (mayBeGraphRegion(*region) &&
            llvm::any_of(region->front(), [](Operation &nested) {
              return nested.getNumResults() != 0;
            }))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {

struct CanonicalizeAndCSEPass
    : public seqpar::impl::CanonicalizeAndCSEBase<CanonicalizeAndCSEPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owning(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owning);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owning, context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owning));
    return success();
  }

  void runOnOperation() override {
    Operation *op = getOperation();
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true).setRegionSimplificationLevel(
        regionSimplificationCanAct(op) ? GreedySimplifyRegionLevel::Normal
                                       : GreedySimplifyRegionLevel::Disabled);
    bool canonicalized = false;
    // As `canonicalize`: not converging within its iterations is no error.
    (void)applyPatternsGreedily(op, *patterns, config, &canonicalized);
    bool deduplicated = false;
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(op);
    eliminateCommonSubExpressions(rewriter, dominance, op, &deduplicated);
    if (!canonicalized && !deduplicated)
      markAllAnalysesPreserved();
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace
