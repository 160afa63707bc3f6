//===- CreateGrid.cpp - create seqpar-pipeline's TP x CP grid -------------===//
//
// The seqpar-create-grid pass: the grid of GridContract.h, made from the TP,
// CP and Ulysses sizes; optionally after the clean-up of Cleanup/CleanUp.h.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Cleanup/CleanUp.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridContract.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_CREATEGRID
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

struct CreateGridPass
    : public mlir::seqpar::impl::CreateGridBase<CreateGridPass> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (canonicalizeFirst)
      cleanUpPatterns = buildCanonicalizationPatterns(context);
    return success();
  }
  void runOnOperation() override;

  /// With `canonicalize-first`: the clean-up's patterns.
  std::shared_ptr<const FrozenRewritePatternSet> cleanUpPatterns;
};

} // namespace

void CreateGridPass::runOnOperation() {
  bool created = false;
  if (failed(GridContract{tp, cp, cpUlysses}.lookupOrCreate(getOperation(),
                                                            created)))
    return signalPassFailure();
  bool cleaned =
      cleanUpPatterns && canonicalizeAndCSE(getOperation(), *cleanUpPatterns);
  // Nothing changed: the pass manager need not verify the module again.
  if (!created && !cleaned)
    markAllAnalysesPreserved();
}
