//===- FoldReduceScatter.cpp - all_reduce + all_slice -> reduce_scatter ---===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_FOLDREDUCESCATTER
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {
/// all_slice(all_reduce<sum>(x)) over the same grid and axes, the all-reduce
/// having no other user, is reduce_scatter(x). The all-reduce's result type
/// may differ from its input only in element type (accumulation type); keep
/// that by scattering into the slice's shape with the all-reduce's element
/// type.
struct FoldAllReduceAllSlice : OpRewritePattern<shard::AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto reduce = slice.getInput().getDefiningOp<shard::AllReduceOp>();
    if (!reduce)
      return rewriter.notifyMatchFailure(slice, "input is not an all_reduce");
    if (reduce.getReduction() != shard::ReductionKind::Sum)
      return rewriter.notifyMatchFailure(slice, "all_reduce is not a sum");
    if (reduce.getGrid() != slice.getGrid() ||
        reduce.getGridAxes() != slice.getGridAxes())
      return rewriter.notifyMatchFailure(slice, "grid or axes differ");
    if (!reduce->hasOneUse())
      return rewriter.notifyMatchFailure(slice, "all_reduce has other users");
    if (!isa<RankedTensorType>(reduce.getInput().getType()))
      return rewriter.notifyMatchFailure(slice, "all_reduce is on memrefs");
    rewriter.replaceOpWithNewOp<shard::ReduceScatterOp>(
        slice, slice.getResult().getType(), slice.getGridAttr(),
        slice.getGridAxesAttr(), reduce.getInput(), reduce.getReductionAttr(),
        slice.getSliceAxisAttr());
    rewriter.eraseOp(reduce);
    return success();
  }
};

struct FoldReduceScatterPass
    : public mlir::seqpar::impl::FoldReduceScatterBase<FoldReduceScatterPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldReduceScatterPatterns(patterns);
    bool changed = false;
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     GreedyRewriteConfig(), &changed)))
      return signalPassFailure();
    // Unchanged IR: the pass manager need not verify it again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace

void mlir::seqpar::populateFoldReduceScatterPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldAllReduceAllSlice>(patterns.getContext());
}
