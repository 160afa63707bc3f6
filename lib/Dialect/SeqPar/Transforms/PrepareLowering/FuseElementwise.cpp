//===- FuseElementwise.cpp - upstream elementwise fusion, BLAS kept -------===//
//
// Upstream's elementwise-op fusion, controlled so that contractions stay
// plain multiply-accumulates for seqpar-lower-matmul-to-blas and no
// producer is computed twice (docs/runtime-and-run.md, "Fusion").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

/// Fuses a producer into the consumer of `fused` when the producer has no
/// other use (else it would be computed once more per consumer) and the
/// consumer is not a contraction (BLAS takes only the plain
/// multiply-accumulate; a norm or GELU inside it would keep it as loops).
bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  return producer && consumer && producer->hasOneUse() &&
         !linalg::isaContractionOpInterface(consumer);
}

struct FuseElementwisePass
    : public mlir::seqpar::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Upstream fuses generics only: a named broadcast (a bias or mask
    // expanded over the tokens; the frontend normalization writes the
    // generics that are one as linalg.broadcast) becomes its generic, so
    // its consumer reads the vector instead of a materialised copy.
    SmallVector<linalg::BroadcastOp> broadcasts;
    getOperation()->walk([&](linalg::BroadcastOp op) {
      if (op.hasPureTensorSemantics())
        broadcasts.push_back(op);
    });
    IRRewriter rewriter(ctx);
    for (linalg::BroadcastOp op : broadcasts) {
      // One that cannot be generalized stays named: only its fusion is lost.
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    // What upstream's linalg-fuse-elementwise-ops cleans up with: operands
    // and results a fused op no longer needs.
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
