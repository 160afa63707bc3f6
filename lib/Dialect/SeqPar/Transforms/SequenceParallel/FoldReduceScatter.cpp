//===- FoldReduceScatter.cpp - all_reduce + all_slice -> reduce_scatter ---===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_FOLDREDUCESCATTER
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

/// all_slice(all_reduce<sum>(x)) over the same grid and axes, the all-reduce
/// having no other user, is reduce_scatter(x). The all-reduce's result type
/// may differ from its input only in element type (accumulation type); keep
/// that by scattering into the slice's shape with the all-reduce's element
/// type. The reduce_scatter takes the slice's place, so the two must be in
/// one block: a slice in a branch or a loop body would make every rank's
/// collective conditional or repeated.
static LogicalResult foldIntoReduceScatter(shard::AllSliceOp slice,
                                           RewriterBase &rewriter) {
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
  if (reduce->getBlock() != slice->getBlock())
    return rewriter.notifyMatchFailure(
        slice, "all_slice is not in the all_reduce's block");
  if (!isa<RankedTensorType>(reduce.getInput().getType()))
    return rewriter.notifyMatchFailure(slice, "all_reduce is on memrefs");
  rewriter.setInsertionPoint(slice);
  rewriter.replaceOpWithNewOp<shard::ReduceScatterOp>(
      slice, slice.getResult().getType(), slice.getGridAttr(),
      slice.getGridAxesAttr(), reduce.getInput(), reduce.getReductionAttr(),
      slice.getSliceAxisAttr());
  rewriter.eraseOp(reduce);
  return success();
}

namespace {
struct FoldAllReduceAllSlice : OpRewritePattern<shard::AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllSliceOp slice,
                                PatternRewriter &rewriter) const override {
    return foldIntoReduceScatter(slice, rewriter);
  }
};

struct FoldReduceScatterPass
    : public mlir::seqpar::impl::FoldReduceScatterBase<FoldReduceScatterPass> {
  void runOnOperation() override {
    // Only the all_slices are visited, and nothing else is folded: a
    // pattern driver over the whole module would fold and reorder every
    // other op too, which on an 80-layer graph costs more than the pairs
    // themselves (docs/benchmarks.md §1).
    SmallVector<shard::AllSliceOp> slices;
    getOperation()->walk(
        [&](shard::AllSliceOp slice) { slices.push_back(slice); });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (shard::AllSliceOp slice : slices)
      changed |= succeeded(foldIntoReduceScatter(slice, rewriter));
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
