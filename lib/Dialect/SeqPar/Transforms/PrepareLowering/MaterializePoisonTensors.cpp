//===- MaterializePoisonTensors.cpp - poison tensors as tensor.empty ------===//
//
// lift-cf-to-scf fills the paths on which a value is undefined with
// ub.poison, which one-shot bufferization cannot bufferize; a tensor.empty
// (unspecified contents, a refinement of poison) can
// (docs/runtime-and-run.md, "Control flow").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_MATERIALIZEPOISONTENSORS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

struct MaterializePoisonTensorsPass
    : public mlir::seqpar::impl::MaterializePoisonTensorsBase<
          MaterializePoisonTensorsPass> {
  void runOnOperation() override {
    SmallVector<ub::PoisonOp> poisons;
    getOperation()->walk([&](ub::PoisonOp poison) {
      if (isa<RankedTensorType>(poison.getType()))
        poisons.push_back(poison);
    });
    if (poisons.empty())
      return markAllAnalysesPreserved();
    for (ub::PoisonOp poison : poisons) {
      if (!cast<RankedTensorType>(poison.getType()).hasStaticShape()) {
        poison.emitError()
            << "a poison tensor of dynamic shape (a value left undefined on "
               "some path of the function's control flow) cannot be "
               "bufferized: its sizes are unknown";
        return signalPassFailure();
      }
    }
    for (ub::PoisonOp poison : poisons) {
      auto type = cast<RankedTensorType>(poison.getType());
      OpBuilder builder(poison);
      Value empty =
          tensor::EmptyOp::create(builder, poison.getLoc(), type.getShape(),
                                  type.getElementType(), type.getEncoding());
      poison.getResult().replaceAllUsesWith(empty);
      poison.erase();
    }
  }
};

} // namespace
