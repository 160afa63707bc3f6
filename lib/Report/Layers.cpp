//===- Layers.cpp - transformer layers of a flat program ------------------===//
//
// A layer's input is the only activation alive between two layers (the
// residual stream), so layers are cut where one activation tensor is live.
// Each layer holds one attention (a seqpar.attention, its ring blocks, or a
// softmax); consecutive attentions with the same preceding cut are one.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Activations.h"

#include "seqpar/Analysis/SoftmaxMatch.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Report/Report.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::seqpar;

/// True for the op that marks an attention: seqpar.attention or
/// attention_block, linalg.softmax, or the last op of a written-out softmax.
static bool isAttentionMark(Operation *op) {
  if (isa<AttentionOp, AttentionBlockOp, linalg::SoftmaxOp>(op))
    return true;
  return isa<linalg::LinalgOp>(op) && op->getNumResults() == 1 &&
         softmaxInput(op->getResult(0));
}

LayerPartition mlir::seqpar::partitionLayers(func::FuncOp func,
                                             Operation *backwardStart) {
  LayerPartition partition;
  if (func.getBody().empty())
    return partition;
  llvm::DenseSet<Value> activations = findActivations(func);
  Block &body = func.getBody().front();
  SmallVector<Operation *> ops, outside;
  for (Operation &op : body) {
    if (&op == backwardStart || !outside.empty())
      outside.push_back(&op);
    else
      ops.push_back(&op);
  }
  // Last top-level user of each activation root (views extend it).
  llvm::DenseMap<Value, int> lastUse, defined;
  auto touch = [&](Value v, int at) {
    Value root = storageRoot(v);
    int &last = lastUse[root];
    last = std::max(last, at);
  };
  for (BlockArgument arg : func.getArguments())
    if (activations.contains(arg))
      defined[arg] = -1;
  // A value only returned (a prefill's K/V, a decode step's updated cache),
  // directly or through data movement (a gather, a relayout, an unpadding
  // slice), is not read by a later layer: it does not keep a cut away.
  llvm::DenseSet<Operation *> returnOnly;
  for (Operation *op : llvm::reverse(ops)) {
    bool movesData =
        op->hasTrait<OpTrait::IsTerminator>() ||
        (op->getNumResults() > 0 &&
         (isa<linalg::TransposeOp, linalg::CopyOp>(op) ||
          isa_and_present<tensor::TensorDialect, shard::ShardDialect>(
              op->getDialect())));
    if (movesData && llvm::all_of(op->getUsers(), [&](Operation *user) {
          return returnOnly.contains(body.findAncestorOpInBlock(*user));
        }))
      returnOnly.insert(op);
  }
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (returnOnly.contains(op))
      continue;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (activations.contains(operand))
          touch(operand, index);
    });
    for (Value result : op->getResults())
      if (activations.contains(result) && storageRoot(result) == result)
        defined[result] = index;
  }
  // Cuts: after op i exactly one activation root is live.
  SmallVector<int> live(ops.size() + 1, 0);
  for (auto [root, def] : defined) {
    int last = lastUse.lookup(root);
    for (int i = std::max(def, 0); i < last; ++i)
      ++live[i];
  }
  // Only where the live tensor is new (ops between that allocate or build
  // constants do not cut again).
  SmallVector<bool> isCut(ops.size(), false);
  for (size_t i = 0; i < ops.size(); ++i)
    isCut[i] =
        live[i] == 1 && llvm::any_of(ops[i]->getResults(), [&](Value result) {
          return activations.contains(result);
        });
  // Layer starts: the last cut before each attention.
  SmallVector<int> starts;
  for (auto [index, op] : llvm::enumerate(ops)) {
    bool mark = false;
    op->walk([&](Operation *nested) { mark |= isAttentionMark(nested); });
    if (!mark)
      continue;
    int cut = -1;
    for (int i = index - 1; i >= 0 && cut < 0; --i)
      if (isCut[i])
        cut = i;
    if (starts.empty() || starts.back() != cut)
      starts.push_back(cut);
  }
  partition.numLayers = starts.size();
  for (Operation *op : outside)
    partition.layerOf[op] = starts.empty() ? -1 : partition.numLayers;
  if (starts.empty()) {
    for (Operation *op : ops)
      partition.layerOf[op] = -1;
    return partition;
  }
  // The last layer ends after as many cuts as the one before it spans.
  int end = ops.size() - 1;
  if (starts.size() >= 2) {
    int cutsInLayer = 0;
    for (int i = starts[starts.size() - 2] + 1; i <= starts.back(); ++i)
      cutsInLayer += isCut[i];
    int seen = 0;
    for (int i = starts.back() + 1; i < static_cast<int>(ops.size()); ++i)
      if (isCut[i] && ++seen == cutsInLayer) {
        end = i;
        break;
      }
  }
  for (auto [index, op] : llvm::enumerate(ops)) {
    int at = static_cast<int>(index);
    int layer = -1;
    for (auto [k, start] : llvm::enumerate(starts))
      if (at > start)
        layer = k;
    if (at > end)
      layer = partition.numLayers;
    partition.layerOf[op] = layer;
  }
  return partition;
}
