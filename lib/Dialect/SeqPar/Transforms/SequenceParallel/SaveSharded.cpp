//===- SaveSharded.cpp - save all-gathered inputs sharded, re-gather ------===//
//
// Megatron-SP's save-sharded default (Korthikanti et al. 2022, section
// 4.2.2; docs/semantics.md section 10): the backward re-gathers what the
// forward all-gathered, so only the s/t-token shard is saved.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Activations.h"
#include "seqpar/Analysis/SavedForBackward.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_SAVESHARDED
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Rebuilds, for the backward, a saved all-gather's result and the forward
/// views of it the backward reads.
class Regatherer {
public:
  Regatherer(shard::AllGatherOp gather) : gather(gather) {}

  /// `value` (the gather's result or a forward view of it) rebuilt before
  /// `user`, the first backward op to read it; once per value.
  Value rebuild(Value value, Operation *user) {
    if (Value done = rebuilt.lookup(value))
      return done;
    OpBuilder b(user);
    Value result;
    if (value == gather.getResult()) {
      auto type = cast<RankedTensorType>(gather.getResult().getType());
      auto start = AllGatherStartOp::create(
          b, gather.getLoc(), RequestType::get(b.getContext(), type),
          gather.getGridAttr(), gather.getGridAxesAttr(), gather.getInput(),
          b.getI64IntegerAttr(gather.getGatherAxis().getSExtValue()));
      result = WaitOp::create(b, gather.getLoc(), type, start).getResult();
      bytesSent += regatherBytes();
    } else {
      Operation *view = value.getDefiningOp();
      Value source = getViewSource(view);
      IRMapping mapping;
      mapping.map(source, rebuild(source, user));
      b.setInsertionPoint(user);
      Operation *copy = b.clone(*view, mapping);
      result = copy->getResult(cast<OpResult>(value).getResultNumber());
    }
    rebuilt[value] = result;
    return result;
  }

  /// Bytes each rank sends for one re-gather: its shard to the t - 1 others.
  int64_t regatherBytes() {
    auto input = cast<RankedTensorType>(gather.getInput().getType());
    auto output = cast<RankedTensorType>(gather.getResult().getType());
    return tensorBytes(output) - tensorBytes(input);
  }

  int64_t bytesSent = 0;

private:
  shard::AllGatherOp gather;
  llvm::DenseMap<Value, Value> rebuilt;
};

struct SaveShardedPass
    : public seqpar::impl::SaveShardedBase<SaveShardedPass> {
  void runOnOperation() override;
};

} // namespace

void SaveShardedPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Unchanged IR: the pass manager need not verify the function again.
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return markAllAnalysesPreserved();
  std::string why;
  FailureOr<SavedForBackward> saved = analyzeSavedForBackward(func, why);
  if (failed(saved)) // Not a training graph: nothing is saved for a backward.
    return markAllAnalysesPreserved();
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> position;
  for (Operation &op : body)
    position[&op] = position.size();
  int64_t startAt = position.lookup(saved->backwardStart);
  auto inBackward = [&](Operation *op) {
    Operation *top = body.findAncestorOpInBlock(*op);
    return top && position.lookup(top) >= startAt;
  };

  int64_t count = 0, bytesSaved = 0, bytesSent = 0;
  for (const SavedForBackwardTensor &tensor : saved->tensors) {
    auto gather = tensor.value.getDefiningOp<shard::AllGatherOp>();
    if (!gather || !isa<RankedTensorType>(gather.getInput().getType()))
      continue;
    // The gathered value and its forward views, in program order: the
    // backward may read any of them.
    SmallVector<Value> forwardValues{gather.getResult()};
    for (unsigned i = 0; i < forwardValues.size(); ++i)
      for (Operation *user : forwardValues[i].getUsers())
        if (user->getBlock() == &body && !inBackward(user) &&
            getViewSource(user) == forwardValues[i])
          llvm::append_range(forwardValues, user->getResults());
    // A read inside a nested region would keep the gathered tensor live.
    bool nested = llvm::any_of(forwardValues, [&](Value v) {
      return llvm::any_of(v.getUsers(), [&](Operation *user) {
        return user->getBlock() != &body && inBackward(user);
      });
    });
    if (nested)
      continue;
    Regatherer regather(gather);
    bool any = false;
    for (Operation &op : llvm::make_early_inc_range(body)) {
      if (!inBackward(&op))
        continue;
      for (OpOperand &operand : op.getOpOperands())
        if (llvm::is_contained(forwardValues, operand.get())) {
          operand.set(regather.rebuild(operand.get(), &op));
          any = true;
        }
    }
    if (!any)
      continue;
    ++count;
    bytesSaved += tensor.bytes - tensor.shardedBytes;
    bytesSent += regather.bytesSent;
  }
  numRegathered += count;
  if (!count)
    return markAllAnalysesPreserved();
  emitRemark(func.getLoc())
      << "saved sharded: " << count
      << " all-gathered tensors are re-gathered in backward instead of "
         "saved gathered: "
      << bytesSaved << " bytes less saved per rank, " << bytesSent
      << " more bytes sent per rank (docs/semantics.md section 10)";
}
