//===- FoldStaticReshapes.cpp - tensor.reshape to expand/collapse_shape ---===//
//
// A tensor.reshape between static shapes that only splits dims, or only
// merges adjacent ones, says the same as a tensor.expand_shape or
// tensor.collapse_shape, whose reassociation the analyses follow
// (docs/import.md, "Other frontends").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_FOLDSTATICRESHAPES
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

/// `op` as an expand_shape or collapse_shape, or null when its shapes are
/// not both static or it is neither a pure split nor a pure merge.
Value foldReshape(OpBuilder &b, tensor::ReshapeOp op) {
  auto source = dyn_cast<RankedTensorType>(op.getSource().getType());
  auto result = dyn_cast<RankedTensorType>(op.getResult().getType());
  if (!source || !result || !source.hasStaticShape() ||
      !result.hasStaticShape() || source.getRank() == result.getRank())
    return nullptr;
  std::optional<SmallVector<ReassociationIndices>> groups =
      getReassociationIndicesForReshape(source, result);
  if (!groups)
    return nullptr;
  Location loc = op.getLoc();
  if (result.getRank() > source.getRank())
    return tensor::ExpandShapeOp::create(
        b, loc, result, op.getSource(), *groups,
        getAsIndexOpFoldResult(b.getContext(), result.getShape()));
  return tensor::CollapseShapeOp::create(b, loc, result, op.getSource(),
                                         *groups);
}

struct FoldStaticReshapesPass
    : public mlir::seqpar::impl::FoldStaticReshapesBase<
          FoldStaticReshapesPass> {
  void runOnOperation() override {
    SmallVector<tensor::ReshapeOp> reshapes;
    getOperation().walk(
        [&](tensor::ReshapeOp op) { reshapes.push_back(op); });
    OpBuilder b(&getContext());
    bool changed = false;
    for (tensor::ReshapeOp op : reshapes) {
      b.setInsertionPoint(op);
      Value folded = foldReshape(b, op);
      if (!folded)
        continue;
      op.getResult().replaceAllUsesWith(folded);
      op->erase();
      changed = true;
    }
    // Nothing changed: the pass manager need not verify the function again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
