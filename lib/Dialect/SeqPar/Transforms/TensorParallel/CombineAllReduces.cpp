//===- CombineAllReduces.cpp - one all_reduce for a sum of partial sums ---===//
//
// all_reduce(a) + all_reduce(b) = all_reduce(a + b) for sum all-reduces over
// the same grid axes (docs/semantics.md §10): the backward of separate Q, K,
// V (or gate and up) projections adds their input gradients, each a partial
// sum with its own all_reduce after TP planning.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_COMBINEALLREDUCES
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// A value that is a sum all_reduce's result, through reshapes, each used
/// only on the way: the all_reduce and the reshapes from it to the value.
struct ReducedOperand {
  shard::AllReduceOp reduce;
  SmallVector<Operation *> reshapes; // from the all_reduce outwards
};

/// The all_reduce behind `v`, read in `block`. The all_reduce and its
/// reshapes must be in that block too: the combined all_reduce takes the
/// add's place, and an add in a branch or a loop body would make every
/// rank's collective conditional or repeated.
std::optional<ReducedOperand> getReducedOperand(Value v, Block *block) {
  ReducedOperand found;
  while (true) {
    if (!v.hasOneUse())
      return std::nullopt;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != block)
      return std::nullopt;
    if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
      found.reshapes.insert(found.reshapes.begin(), def);
      v = def->getOperand(0);
      continue;
    }
    auto reduce = dyn_cast_or_null<shard::AllReduceOp>(def);
    if (!reduce || reduce.getReduction() != shard::ReductionKind::Sum ||
        reduce.getInput().getType() != reduce.getResult().getType() ||
        !isa<RankedTensorType>(reduce.getType()))
      return std::nullopt;
    found.reduce = reduce;
    return found;
  }
}

/// True for an elementwise sum of its two inputs (linalg.add, or a generic
/// of identity maps and parallel loops yielding in0 + in1).
bool isElementwiseAdd(linalg::LinalgOp op) {
  if (isa<linalg::AddOp>(op))
    return op.hasPureTensorSemantics();
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Block *body = generic.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || &body->front() != add.getOperation())
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1);
  return (add.getLhs() == a && add.getRhs() == b) ||
         (add.getLhs() == b && add.getRhs() == a);
}

struct CombineAllReducesOfAdd : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseAdd(op))
      return rewriter.notifyMatchFailure(op, "not an elementwise add");
    std::optional<ReducedOperand> lhs =
        getReducedOperand(op.getDpsInputOperand(0)->get(), op->getBlock());
    std::optional<ReducedOperand> rhs =
        getReducedOperand(op.getDpsInputOperand(1)->get(), op->getBlock());
    if (!lhs || !rhs || lhs->reduce == rhs->reduce)
      return rewriter.notifyMatchFailure(op, "not two all_reduce results");
    if (lhs->reduce.getGrid() != rhs->reduce.getGrid() ||
        lhs->reduce.getGridAxes() != rhs->reduce.getGridAxes())
      return rewriter.notifyMatchFailure(op, "grids or axes differ");
    // The reshapes now apply to the partial sums.
    ReducedOperand operands[] = {*lhs, *rhs};
    for (auto [index, operand] : llvm::enumerate(operands)) {
      Value partial = operand.reduce.getInput();
      for (Operation *reshape : operand.reshapes) {
        rewriter.setInsertionPoint(reshape);
        Operation *moved = rewriter.clone(*reshape);
        moved->setOperand(0, partial);
        partial = moved->getResult(0);
      }
      rewriter.modifyOpInPlace(
          op, [&] { op.getDpsInputOperand(index)->set(partial); });
    }
    rewriter.setInsertionPointAfter(op);
    Value sum = op->getResult(0);
    auto reduce = shard::AllReduceOp::create(
        rewriter, op.getLoc(), sum.getType(), lhs->reduce.getGridAttr(),
        lhs->reduce.getGridAxesAttr(), sum, lhs->reduce.getReductionAttr());
    rewriter.replaceAllUsesExcept(sum, reduce.getResult(), reduce);
    for (const ReducedOperand &operand : operands) {
      for (Operation *reshape : llvm::reverse(operand.reshapes))
        rewriter.eraseOp(reshape);
      rewriter.eraseOp(operand.reduce);
    }
    return success();
  }
};

/// (x + ra) + rb, with ra and rb all_reduce results and the inner add used
/// only here, is x + (ra + rb): the backward adds each projection's input
/// gradient to the running sum in turn (the residual gradient first).
struct PairAllReducesOfSum : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp outer,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseAdd(outer))
      return rewriter.notifyMatchFailure(outer, "not an elementwise add");
    for (unsigned i : {0u, 1u}) {
      Value sum = outer.getDpsInputOperand(i)->get();
      Value rb = outer.getDpsInputOperand(1 - i)->get();
      auto inner = sum.getDefiningOp<linalg::LinalgOp>();
      Block *block = outer->getBlock();
      if (!inner || !sum.hasOneUse() || !isElementwiseAdd(inner) ||
          inner->getBlock() != block || !getReducedOperand(rb, block) ||
          inner->getName() != outer->getName())
        continue;
      for (unsigned j : {0u, 1u}) {
        Value ra = inner.getDpsInputOperand(j)->get();
        Value x = inner.getDpsInputOperand(1 - j)->get();
        if (!getReducedOperand(ra, block) || getReducedOperand(x, block))
          continue;
        rewriter.setInsertionPoint(outer);
        auto paired = cast<linalg::LinalgOp>(rewriter.clone(*inner));
        rewriter.modifyOpInPlace(paired, [&] {
          paired.getDpsInputOperand(0)->set(ra);
          paired.getDpsInputOperand(1)->set(rb);
        });
        rewriter.modifyOpInPlace(outer, [&] {
          outer.getDpsInputOperand(0)->set(x);
          outer.getDpsInputOperand(1)->set(paired->getResult(0));
        });
        rewriter.eraseOp(inner);
        return success();
      }
    }
    return rewriter.notifyMatchFailure(outer, "not (x + all_reduce) + all_reduce");
  }
};

struct CombineAllReducesPass
    : public seqpar::impl::CombineAllReducesBase<CombineAllReducesPass> {
  void runOnOperation() override {
    // Both patterns rewrite an add that reads a sum all_reduce's result
    // (through reshapes used only on the way): start from those alone,
    // with no folding, so a graph without such an add is left untouched
    // and need not be verified again (most forward graphs: compile time,
    // docs/benchmarks.md §1).
    SmallVector<Operation *> candidates;
    llvm::SmallPtrSet<Operation *, 16> seen;
    int64_t before = 0;
    getOperation()->walk([&](shard::AllReduceOp reduce) {
      ++before;
      Value v = reduce.getResult();
      while (v.hasOneUse()) {
        Operation *user = *v.getUsers().begin();
        if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user)) {
          v = user->getResult(0);
          continue;
        }
        if (isa<linalg::LinalgOp>(user) && seen.insert(user).second)
          candidates.push_back(user);
        break;
      }
    });
    if (candidates.empty())
      return markAllAnalysesPreserved();
    RewritePatternSet patterns(&getContext());
    patterns.add<CombineAllReducesOfAdd, PairAllReducesOfSum>(&getContext());
    // AnyOp: a rewrite makes later adds read an all_reduce result too.
    GreedyRewriteConfig config;
    config.enableFolding(false).setStrictness(
        GreedyRewriteStrictness::AnyOp);
    bool changed = false;
    if (failed(applyOpPatternsGreedily(candidates, std::move(patterns), config,
                                       &changed)))
      return signalPassFailure();
    int64_t after = 0;
    getOperation()->walk([&](shard::AllReduceOp) { ++after; });
    numCombined += before - after;
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
