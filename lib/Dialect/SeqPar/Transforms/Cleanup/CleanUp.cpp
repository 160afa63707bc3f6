//===- CleanUp.cpp - canonicalize, then CSE -------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Cleanup/CleanUp.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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

std::shared_ptr<const FrozenRewritePatternSet>
seqpar::buildCanonicalizationPatterns(MLIRContext *context) {
  RewritePatternSet owning(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(owning);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(owning, context);
  return std::make_shared<FrozenRewritePatternSet>(std::move(owning));
}

bool seqpar::canonicalizeAndCSE(Operation *op,
                                const FrozenRewritePatternSet &patterns) {
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true).setRegionSimplificationLevel(
      regionSimplificationCanAct(op) ? GreedySimplifyRegionLevel::Normal
                                     : GreedySimplifyRegionLevel::Disabled);
  bool canonicalized = false;
  (void)applyPatternsGreedily(op, patterns, config, &canonicalized);
  bool deduplicated = false;
  IRRewriter rewriter(op->getContext());
  DominanceInfo dominance(op);
  eliminateCommonSubExpressions(rewriter, dominance, op, &deduplicated);
  return canonicalized || deduplicated;
}
