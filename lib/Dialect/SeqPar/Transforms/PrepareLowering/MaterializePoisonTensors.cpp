//===- MaterializePoisonTensors.cpp - poison tensors as tensor.empty ------===//
//
// lift-cf-to-scf fills the paths on which a value is undefined or unused
// with ub.poison, which one-shot bufferization cannot bufferize; a
// tensor.empty (unspecified contents, a refinement of poison) can
// (docs/runtime-and-run.md, "Control flow").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
      auto type = cast<RankedTensorType>(poison.getType());
      OpBuilder builder(poison);
      // Poison may be any value: a dynamic dim of size 0 is one (the
      // lifting passes it only where nothing reads it).
      SmallVector<Value> sizes;
      if (!type.hasStaticShape())
        sizes.assign(
            type.getNumDynamicDims(),
            arith::ConstantIndexOp::create(builder, poison.getLoc(), 0));
      Value empty =
          tensor::EmptyOp::create(builder, poison.getLoc(), type, sizes);
      poison.getResult().replaceAllUsesWith(empty);
      poison.erase();
    }
  }
};

} // namespace
