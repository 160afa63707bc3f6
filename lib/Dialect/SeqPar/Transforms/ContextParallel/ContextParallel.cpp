//===- ContextParallel.cpp - shard the sequence over the CP axis ----------===//
//
// The seqpar-context-parallel pass: checks the options and each function
// (SequenceShardingPreamble.h; one block, no callers, grid axes), then
// shards it (ContextParallelBuilder.h).
//
//===----------------------------------------------------------------------===//

#include "ContextParallelBuilder.h"

#include "seqpar/Analysis/SymbolUses.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridAxis.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardingPreamble.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_CONTEXTPARALLEL
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

struct ContextParallelPass
    : public mlir::seqpar::impl::ContextParallelBase<ContextParallelPass> {
  using ContextParallelBase::ContextParallelBase;
  void runOnOperation() override;

private:
  LogicalResult runOnFunction(func::FuncOp func,
                              SequenceShardingPreamble &preamble);
};

} // namespace

void ContextParallelPass::runOnOperation() {
  ModuleOp module = getOperation();
  SequenceShardingPreamble preamble(module, "context-parallel", getArgument(),
                                    seqDim);
  // Options first, before any IR is read (strategy and load-balance values
  // are checked by the option parser).
  if (failed(preamble.checkOptions(
          {{"grid-axis", gridAxis}, {"ulysses-axis", ulyssesAxis}})))
    return signalPassFailure();
  if ((strategy == AttentionStrategy::Hybrid) != (ulyssesAxis >= 0)) {
    emitError(getOperation().getLoc())
        << (ulyssesAxis >= 0 ? "ulysses-axis is only used by strategy=hybrid"
                             : "strategy=hybrid needs the ulysses-axis option "
                               "(seqpar-pipeline: cp-ulysses)");
    return signalPassFailure();
  }
  if (keepKV && !keepsRingBlocks(strategy)) {
    emitError(getOperation().getLoc())
        << "keep-kv is only used by the ring of strategy=ring or hybrid "
           "(strategy="
        << stringifyAttentionStrategy(strategy) << ")";
    return signalPassFailure();
  }
  if (kvCacheInterleave < 0) {
    emitError(getOperation().getLoc())
        << "kv-cache-interleave=" << kvCacheInterleave.getValue()
        << " is not a block size: expected kv-cache-interleave >= 1, or 0 "
           "(results in the prefill's split)";
    return signalPassFailure();
  }
  if (failed(preamble.checkAnyFunctionBody()))
    return signalPassFailure();
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (failed(runOnFunction(func, preamble)))
      return signalPassFailure();
  if (failed(preamble.reportFunctionsWithoutSeqDim()))
    signalPassFailure();
}

LogicalResult
ContextParallelPass::runOnFunction(func::FuncOp func,
                                   SequenceShardingPreamble &preamble) {
  if (!preamble.isTensorFunction(func))
    return success();
  ArgSeqDims choice = preamble.chooseSeqDims(func);
  if (!choice.any()) {
    preamble.noteNoSeqDim(func, choice.whyNone);
    return success();
  }
  preamble.noteSeqDim();
  if (!func.getBody().hasOneBlock()) {
    emitRemark(func.getLoc()) << "context-parallel: skipped, the function has "
                                 "more than one block";
    return success();
  }
  if (isSymbolReferenced(func, getOperation())) {
    emitRemark(func.getLoc())
        << "context-parallel: skipped, the function is called (its signature "
           "would change)";
    return success();
  }
  ContextParallelTarget target;
  target.strategy = strategy;
  target.zigzag = loadBalance == LoadBalance::Zigzag;
  target.pad = pad;
  target.keepKV = keepKV;
  target.kvCacheInterleave = kvCacheInterleave;
  int16_t axis = 0;
  if (failed(resolveGridAxis(func, gridName, gridAxis, "CP", target.grid, axis,
                             target.numRanks)))
    return failure();
  // The sequence is split over `axes` (hybrid: [ring, Ulysses]).
  target.axes = {axis};
  target.axisSizes = {target.numRanks};
  if (strategy == AttentionStrategy::Hybrid) {
    int16_t second = 0;
    int64_t ulyssesRanks = 1;
    if (failed(resolveGridAxis(func, gridName, ulyssesAxis, "Ulysses",
                               target.grid, second, ulyssesRanks)))
      return failure();
    if (second == axis)
      return emitError(func.getLoc())
             << "hybrid needs two different grid axes (grid-axis = "
                "ulysses-axis = "
             << axis << ")";
    target.axes.push_back(second);
    target.axisSizes.push_back(ulyssesRanks);
    std::optional<int64_t> product =
        llvm::checkedMul(target.numRanks, ulyssesRanks);
    if (!product)
      return emitError(func.getLoc())
             << "hybrid: the " << target.numRanks << " x " << ulyssesRanks
             << " ranks of grid axes [" << axis << ", " << second << "] of "
             << target.grid << " overflow a 64-bit count";
    target.numRanks = *product;
  }
  ContextParallelCounts counts;
  if (failed(buildContextParallelFunction(func, choice, target, counts)))
    return failure();
  numRewritten += counts.attentionRewritten;
  numGathered += counts.valuesGathered;
  return success();
}
