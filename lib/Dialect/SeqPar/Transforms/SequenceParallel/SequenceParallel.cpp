//===- SequenceParallel.cpp - TP program -> Megatron TP+SP program --------===//
//
// The seqpar-sequence-parallel pass: checks the options and each function
// (SequenceShardingPreamble.h; grid axis, divisibility), then plans and
// rewrites it (SequenceParallelPlan.h).
//
//===----------------------------------------------------------------------===//

#include "SequenceParallelPlan.h"

#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Analysis/SeqDimChoice.h"
#include "seqpar/Analysis/SymbolUses.h"
#include "seqpar/Analysis/TokenWiseAnalysis.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridAxis.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardingPreamble.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_SEQUENCEPARALLEL
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

struct SequenceParallelPass
    : public mlir::seqpar::impl::SequenceParallelBase<SequenceParallelPass> {
  using SequenceParallelBase::SequenceParallelBase;
  void runOnOperation() override;

private:
  LogicalResult runOnFunction(func::FuncOp func,
                              SequenceShardingPreamble &preamble);
};

} // namespace

void SequenceParallelPass::runOnOperation() {
  ModuleOp module = getOperation();
  SequenceShardingPreamble preamble(module, "sequence-parallel", getArgument(),
                                    seqDim);
  // Options first, before any IR is read.
  if (failed(preamble.checkOptions({{"grid-axis", gridAxis}})) ||
      failed(preamble.checkAnyFunctionBody()))
    return signalPassFailure();
  bool anyAllReduce = false, anyBufferForm = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    anyBufferForm |= findBufferFormOp(func) != nullptr;
    func.walk([&](shard::AllReduceOp) { anyAllReduce = true; });
  }
  // Nothing to rewrite: a TP per-rank program has all-reduces on a grid
  // (buffer-form functions are reported below, one by one).
  if (!anyAllReduce && !inputSharded && !anyBufferForm) {
    if (module.getOps<shard::GridOp>().empty()) {
      emitError(module.getLoc())
          << "sequence-parallel: the module has no shard.grid and no "
             "all_reduce: it is not a tensor-parallel per-rank program "
             "(seqpar-pipeline partitions an unsharded graph)";
      return signalPassFailure();
    }
    emitRemark(module.getLoc())
        << "sequence-parallel: no function has an all_reduce to rewrite";
    return;
  }
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (failed(runOnFunction(func, preamble)))
      return signalPassFailure();
  // TP all-reduces in functions without a sequence dim.
  if (failed(preamble.reportFunctionsWithoutSeqDim()))
    signalPassFailure();
}

/// "dim 0 of 'tensor<30x64xf32>', which flattens 2 sequences of 15 tokens":
/// where `value` holds the sequence, saying so when the dim holds more than
/// the sequence (an [b*s, h] or [s*b, h] view).
static std::string describeSeqDim(Value value, StridedDim seq) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "dim " << seq.dim << " of '" << value.getType() << "'"
     << describeFlattening(seq);
  return text;
}

/// Reports TP all-reduces the rewrite does not see: only the top level of a
/// single-block function is rewritten.
static void remarkOnNestedAllReduces(func::FuncOp func, bool wholeFunction) {
  func.walk([&](shard::AllReduceOp reduce) {
    if (!wholeFunction && reduce->getParentOp() == func.getOperation() &&
        reduce->getBlock() == &func.getBody().front())
      return;
    emitRemark(reduce.getLoc())
        << "all_reduce kept: sequence parallelism rewrites the top level of "
           "a single-block function only";
  });
}

LogicalResult
SequenceParallelPass::runOnFunction(func::FuncOp func,
                                    SequenceShardingPreamble &preamble) {
  if (!preamble.isTensorFunction(func))
    return success();
  bool anyAllReduce = false;
  func.walk([&](shard::AllReduceOp) { anyAllReduce = true; });
  // Nothing to do (and no grid needed) without all-reduces or sharded input.
  if (!anyAllReduce && !inputSharded)
    return success();
  if (!func.getBody().hasOneBlock()) {
    remarkOnNestedAllReduces(func, /*wholeFunction=*/true);
    return success();
  }
  remarkOnNestedAllReduces(func, /*wholeFunction=*/false);
  FlatSymbolRefAttr grid;
  int16_t axis = 0;
  int64_t numRanks = 1;
  if (failed(resolveGridAxis(func, gridName, gridAxis, "TP", grid, axis,
                             numRanks)))
    return failure();

  ArgSeqDims argSeqDims = preamble.chooseSeqDims(func);
  ArgSeqDims shardable = keepShardableLengths(
      func, argSeqDims, numRanks, "sequence-parallel",
      std::to_string(numRanks) + " ranks of grid axis " + std::to_string(axis));
  TokenWiseAnalysis analysis(func, shardable.dims, shardable.digits);
  if (failed(analysis.run()))
    return failure();
  // The signature may only change where no call site depends on it.
  bool keepSignature = (inputSharded || outputSharded) &&
                       isSymbolReferenced(func, getOperation());
  if (keepSignature)
    emitRemark(func.getLoc())
        << "sequence-parallel: the function is called, so its signature is "
           "kept (input-sharded and output-sharded are ignored for it)";
  SequenceParallelPlan plan(func, analysis, grid, axis,
                            inputSharded && !keepSignature);
  plan.allowPartialReductions =
      analysis.getSeqLen() < 0 || analysis.getSeqLen() % numRanks == 0;
  plan.build();
  numAllReducesBefore += plan.allRoots.size() + plan.nestedRoots.size();

  if (analysis.getSeqLen() < 0) {
    // Decided for the whole module once every function has been seen.
    if (!plan.allRoots.empty())
      preamble.noteNoSeqDim(func, argSeqDims.whyNone);
    return success();
  }
  preamble.noteSeqDim();
  // Refuse uneven shards before touching the IR, unless asked to pad
  // (docs/semantics.md §3.2); more ranks than tokens are refused even then (the
  // padding would be larger than the sequence).
  int64_t seqLen = analysis.getSeqLen();
  // Blocks of another sequence (an encoder-decoder's, from CP) cannot be
  // padded: padding shards one length.
  for (int64_t other : analysis.getSeqLens().drop_front())
    if (other % numRanks != 0 || seqLen % numRanks != 0)
      return emitError(func.getLoc())
             << "sequence-parallel: sequences of " << seqLen << " and " << other
             << " tokens, not both divisible by the " << numRanks
             << " ranks of grid axis " << axis << " of " << grid
             << "; a padded sequence is sharded alone";
  if ((seqLen % numRanks != 0 || numRanks > seqLen) &&
      !plan.shardedValues.empty()) {
    Value culprit = plan.shardedValues.front().first;
    StridedDim seq = *analysis.getSeqDim(culprit);
    Location at = culprit.getLoc();
    std::string where = describeSeqDim(culprit, seq);
    if (numRanks > seqLen)
      return emitError(at) << "the " << numRanks << " ranks of grid axis "
                           << axis << " of " << grid
                           << " exceed the sequence length " << seqLen << " ("
                           << where << ")";
    if (!padUneven || plan.inputSharded) {
      InFlightDiagnostic diag =
          emitError(at) << "sequence length " << seqLen << " (" << where
                        << ") is not divisible by the " << numRanks
                        << " ranks of grid axis " << axis << " of " << grid;
      if (plan.inputSharded)
        diag << "; an input taken sequence-sharded cannot be padded";
      else
        diag << "; pass pad=true to pad it";
      return failure();
    }
  }
  SequenceShardBuilder builder(func, grid, axis, numRanks, seqLen);
  SequenceParallelCounts counts = applySequenceParallelPlan(
      plan, builder, numRanks, outputSharded, keepSignature);
  numReduceScatters += counts.reduceScatters;
  numAllGathers += counts.allGathers;
  numKeptAllReduces += counts.keptAllReduces;
  bytesBefore += counts.bytesBefore;
  bytesAfter += counts.bytesAfter;
  return success();
}
