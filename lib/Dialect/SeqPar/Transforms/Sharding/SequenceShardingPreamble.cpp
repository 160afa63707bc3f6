//===- SequenceShardingPreamble.cpp - checks before sharding s ------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardingPreamble.h"

#include "seqpar/Analysis/BufferForm.h"

using namespace mlir;
using namespace mlir::seqpar;

/// Why the value of grid-axis option `name` (-1, the default, picks the
/// grid's only axis) names no axis whatever the grid; empty when it may.
static std::string whyInvalidAxisOption(StringRef name, int64_t axis) {
  if (axis >= -1)
    return "";
  return (name + "=" + Twine(axis) +
          " is not a grid axis: expected an axis >= 0, or -1 (the default)")
      .str();
}

LogicalResult SequenceShardingPreamble::checkOptions(
    ArrayRef<std::pair<StringRef, int64_t>> axisOptions) {
  std::string why;
  for (auto [name, axis] : axisOptions)
    if (why.empty())
      why = whyInvalidAxisOption(name, axis);
  if (why.empty())
    why = whyInvalidSeqDimOption(seqDimOption);
  if (why.empty())
    return success();
  return emitError(module.getLoc()) << role << ": " << why;
}

LogicalResult SequenceShardingPreamble::checkAnyFunctionBody() {
  if (llvm::any_of(module.getOps<func::FuncOp>(),
                   [](func::FuncOp func) { return !func.getBody().empty(); }))
    return success();
  return emitError(module.getLoc())
         << role << ": the module has no function with a body";
}

bool SequenceShardingPreamble::isTensorFunction(func::FuncOp func) {
  return !func.getBody().empty() && !diagnoseBufferForm(func, passArgument);
}

LogicalResult SequenceShardingPreamble::reportFunctionsWithoutSeqDim() {
  for (auto [func, why] : functionsWithoutSeqDim) {
    if (anyFunctionWithSeqDim)
      emitRemark(func.getLoc()) << role << ": skipped, no sequence dim for @"
                                << func.getSymName() << ": " << why;
    else
      emitError(func.getLoc()) << role << ": no sequence dim for @"
                               << func.getSymName() << ": " << why;
  }
  return success(anyFunctionWithSeqDim || functionsWithoutSeqDim.empty());
}
