//===- SinkFills.cpp - one zero fill per accumulating op, just before it --===//
//
// A fill shared by several contractions bufferizes into one early buffer
// copied per use, and the GEMM that reads it adds into it (beta = 1) after
// two passes over memory; a fill of its own just before each op is what
// seqpar-lower-matmul-to-blas turns into beta = 0 (docs/runtime-and-run.md,
// "BLAS kernels").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_SINKFILLS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

/// The uses of `fill`'s result as an init of a destination-style op.
SmallVector<OpOperand *> initUses(linalg::FillOp fill) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : fill.getResult(0).getUses()) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    if (dps && dps.isDpsInit(&use))
      uses.push_back(&use);
  }
  return uses;
}

struct SinkFillsPass : public mlir::seqpar::impl::SinkFillsBase<SinkFillsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      Value dest = fill.getOutputs()[0];
      auto empty = dest.getDefiningOp<tensor::EmptyOp>();
      // A fill over a live tensor stays (bufferization might copy that
      // tensor for each clone), as does one of a dynamically sized empty
      // tensor (exported accumulators are static; not needed so far).
      if (!empty || !empty.getDynamicSizes().empty())
        continue;
      for (OpOperand *use : initUses(fill)) {
        Operation *user = use->getOwner();
        // Already its only use, right after it: nothing to gain.
        if (fill->hasOneUse() && fill->getNextNode() == user)
          continue;
        // The same tensor.empty: bufferization then places each fill's
        // buffer as it placed the one fill's (an op that writes into the
        // empty tensor elsewhere may still take the filled buffer over).
        OpBuilder b(user);
        use->set(b.clone(*fill)->getResult(0));
      }
      if (fill->use_empty())
        fill->erase();
    }
  }
};

} // namespace
