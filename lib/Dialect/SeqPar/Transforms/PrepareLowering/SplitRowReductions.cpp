//===- SplitRowReductions.cpp - row reductions as vector-wide partials ----===//
//
// A LayerNorm's mean and variance reduce each row along its innermost dim:
// as one chain of dependent adds per row they run at one element per add
// latency, several times slower than the loads allow. Split into partials
// per vector lane they vectorise (docs/runtime-and-run.md, "Split
// reductions").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/PrepareLowering/SplitReduction.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_SPLITROWREDUCTIONS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The reassociation that drops the dims `unit` (each of size 1) of a
/// rank-`rank` shape: each joins the kept dim before it (or the first kept
/// dim when none is before it); none kept: rank 0 (no groups).
SmallVector<ReassociationIndices>
dropUnitDims(int64_t rank, const llvm::SmallDenseSet<int64_t> &unit) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  for (int64_t d = 0; d < rank; ++d) {
    if (unit.contains(d)) {
      (groups.empty() ? leading : groups.back()).push_back(d);
      continue;
    }
    groups.push_back(std::move(leading));
    leading.clear();
    groups.back().push_back(d);
  }
  if (!groups.empty() && !leading.empty())
    groups.back().append(leading.begin(), leading.end());
  return groups;
}

/// `op` with every operand dim its map reads at the constant 0 (a kept
/// dim of size 1: LayerNorm's [.., 1] mean) collapsed away, so that every
/// map is a projected permutation, the form upstream's splitReduction
/// takes (it reads a constant result as a dim); the new op's result is
/// expanded back to `op`'s type and replaces it. Returns the new op and
/// the expand_shape (null when the init kept its type), or a null op with
/// `op` untouched when such a dim is not of size 1 or the init would lose
/// every dim.
std::pair<linalg::GenericOp, tensor::ExpandShapeOp>
withoutUnitDims(RewriterBase &rewriter, linalg::GenericOp op) {
  // Per operand, the dims read at 0; checked for all before any change.
  SmallVector<llvm::SmallDenseSet<int64_t>> unitDims;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = cast<RankedTensorType>(operand.get().getType());
    llvm::SmallDenseSet<int64_t> &unit = unitDims.emplace_back();
    for (auto [d, expr] : llvm::enumerate(map.getResults()))
      if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
        if (constant.getValue() != 0 || type.getDimSize(d) != 1)
          return {};
        unit.insert(d);
      }
    if (op.isDpsInit(&operand) && unit.size() == map.getNumResults())
      return {};
  }
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  SmallVector<ReassociationIndices> initGroups;
  Type initType;
  for (auto [operand, unit] : llvm::zip(op->getOpOperands(), unitDims)) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> kept;
    for (auto [d, expr] : llvm::enumerate(map.getResults()))
      if (!unit.contains(d))
        kept.push_back(expr);
    Value value = operand.get();
    SmallVector<ReassociationIndices> groups =
        dropUnitDims(cast<RankedTensorType>(value.getType()).getRank(), unit);
    if (!unit.empty())
      value = tensor::CollapseShapeOp::create(rewriter, loc, value, groups);
    if (op.isDpsInit(&operand)) {
      initGroups = groups;
      initType = value.getType();
    }
    operands.push_back(value);
    maps.push_back(AffineMap::get(map.getNumDims(), 0, kept, op.getContext()));
  }
  unsigned numInputs = op.getNumDpsInputs();
  auto collapsed =
      linalg::GenericOp::create(rewriter, loc, TypeRange{initType},
                                ValueRange(operands).take_front(numInputs),
                                ValueRange(operands).drop_front(numInputs),
                                maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), collapsed.getRegion(),
                              collapsed.getRegion().begin());
  tensor::ExpandShapeOp expand;
  Value result = collapsed->getResult(0);
  if (result.getType() != op->getResult(0).getType()) {
    expand = tensor::ExpandShapeOp::create(
        rewriter, loc, op->getResult(0).getType(), result, initGroups);
    result = expand.getResult();
  }
  rewriter.replaceOp(op, result);
  return {collapsed, expand};
}

} // namespace

Value mlir::seqpar::splitInnermostReduction(RewriterBase &rewriter,
                                            linalg::GenericOp op) {
  SmallVector<utils::IteratorType> loops = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // A body reading its loop indices (linalg.index: a label's one-hot
  // pick) would read the split loops' instead, which upstream's split does
  // not remap.
  if (loops.empty() || loops.back() != utils::IteratorType::reduction ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      !op.hasPureTensorSemantics() || op.hasIndexSemantics())
    return nullptr;
  int64_t size = ranges.back();
  if (ShapedType::isDynamic(size) || size <= kReductionLanes ||
      size % kReductionLanes != 0 ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/true);
      }))
    return nullptr;
  // What upstream's splitReduction checks before it changes anything: one
  // combiner, with a neutral element to start the partials from.
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1 || !arith::getNeutralElement(combiners[0]))
    return nullptr;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  bool hasUnitDims = llvm::any_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return !map.isProjectedPermutation();
  });
  tensor::ExpandShapeOp expand;
  if (hasUnitDims) {
    std::tie(op, expand) = withoutUnitDims(rewriter, op);
    if (!op)
      return nullptr;
  }
  // The partials become the result's last dim.
  unsigned resultRank =
      cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::SplitReductionResult> split =
      linalg::splitReduction(rewriter, op, [&](linalg::LinalgOp) {
        return linalg::SplitReductionOptions{kReductionLanes, resultRank,
                                             /*innerParallel=*/true};
      });
  if (expand)
    return expand.getResult();
  if (succeeded(split))
    return split->resultCombiningLinalgOp->getResult(0);
  // Not after the checks above; the collapsed op stands for `op`.
  return hasUnitDims ? op->getResult(0) : nullptr;
}

namespace {

/// A reduction worth splitting here: one reduction loop, the last, which
/// some input reads as its innermost (contiguous) dim, and not a
/// contraction (those go to BLAS whole).
bool isRowReduction(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> loops = op.getIteratorTypesArray();
  if (loops.empty() || loops.back() != utils::IteratorType::reduction ||
      llvm::count(loops, utils::IteratorType::reduction) != 1 ||
      linalg::isaContractionOpInterface(op))
    return false;
  AffineExpr last = getAffineDimExpr(loops.size() - 1, op.getContext());
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return map.getNumResults() > 0 && map.getResults().back() == last;
  });
}

struct SplitRowReductionsPass
    : public mlir::seqpar::impl::SplitRowReductionsBase<
          SplitRowReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> rows;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isRowReduction(op))
        rows.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (linalg::GenericOp op : rows)
      if (splitInnermostReduction(rewriter, op)) {
        ++numSplit;
        changed = true;
      }
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
