//===- CreateGrid.cpp - create seqpar-pipeline's TP x CP grid -------------===//
//
// The seqpar-create-grid pass: the grid of GridContract.h, made from the TP,
// CP and Ulysses sizes.
//
//===----------------------------------------------------------------------===//

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
  void runOnOperation() override;
};

} // namespace

void CreateGridPass::runOnOperation() {
  bool created = false;
  if (failed(GridContract{tp, cp, cpUlysses}.lookupOrCreate(getOperation(),
                                                            created)))
    return signalPassFailure();
  // Nothing added: the pass manager need not verify the module again.
  if (!created)
    markAllAnalysesPreserved();
}
