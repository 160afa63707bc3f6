//===- CheckTosaShapes.cpp - static shapes before tosa is lowered ---------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_CHECKTOSASHAPES
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {
struct CheckTosaShapesPass
    : public mlir::seqpar::impl::CheckTosaShapesBase<CheckTosaShapesPass> {
  void runOnOperation() override {
    auto isStatic = [](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return !isa<TensorType>(type) || (tensor && tensor.hasStaticShape());
    };
    WalkResult walk = getOperation().walk([&](Operation *op) {
      if (!isa_and_nonnull<tosa::TosaDialect>(op->getDialect()))
        return WalkResult::advance();
      auto report = [&](StringRef what, unsigned index, Type type) {
        op->emitOpError() << what << " #" << index << " has type " << type
                          << ": seqpar lowers tosa with static shapes only";
        return WalkResult::interrupt();
      };
      for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
        if (!isStatic(type))
          return report("operand", index, type);
      for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
        if (!isStatic(type))
          return report("result", index, type);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    // A check: nothing to verify again.
    markAllAnalysesPreserved();
  }
};
} // namespace
