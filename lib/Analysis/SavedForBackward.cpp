//===- SavedForBackward.cpp - what a training graph keeps for backward ----===//
//
// Forward = the top-level ops the loss depends on. The backward starts at
// the first top-level op, in program order, that is not forward, reads
// (directly or through other such ops) an activation a forward op produced,
// and that every gradient computed from the forward depends on. Saved = the
// forward's values live there. docs/training-graphs.md, "What is saved for
// backward".
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/SavedForBackward.h"

#include "seqpar/Analysis/Activations.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::seqpar;

/// Calls `fn` on every value `top` or an op nested in it reads that is
/// defined outside `top`.
static void forEachExternalOperand(Operation *top,
                                   llvm::function_ref<void(Value)> fn) {
  top->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Operation *owner =
          isa<BlockArgument>(operand)
              ? cast<BlockArgument>(operand).getOwner()->getParentOp()
              : operand.getDefiningOp();
      if (owner != top && !top->isProperAncestor(owner))
        fn(operand);
    }
  });
}

/// The top-level ops of `body` the values `roots` depend on.
static llvm::DenseSet<Operation *> dependencies(Block &body,
                                                ArrayRef<Value> roots) {
  llvm::DenseSet<Operation *> seen;
  SmallVector<Value> work(roots);
  while (!work.empty()) {
    Value value = work.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def)
      continue; // a function argument
    Operation *top = body.findAncestorOpInBlock(*def);
    if (!top || !seen.insert(top).second)
      continue;
    forEachExternalOperand(top, [&](Value v) { work.push_back(v); });
  }
  return seen;
}

/// Constant-like producers: their tensors carry no computed data (a
/// compiler rematerializes them), so they are never saved.
static bool isConstantLike(Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>() ||
      isa<tensor::EmptyOp, tensor::SplatOp>(op))
    return true;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    Operation *def = fill.getInputs()[0].getDefiningOp();
    return def && def->hasTrait<OpTrait::ConstantLike>();
  }
  return false;
}

/// The top-level ops of `body` that read what `op` produces, transitively,
/// and `op` itself.
static llvm::DenseSet<Operation *> downstream(Block &body, Operation *op) {
  llvm::DenseSet<Operation *> seen{op};
  SmallVector<Operation *> work{op};
  while (!work.empty()) {
    Operation *at = work.pop_back_val();
    for (Value result : at->getResults())
      for (Operation *user : result.getUsers())
        if (Operation *top = body.findAncestorOpInBlock(*user);
            top && seen.insert(top).second)
          work.push_back(top);
  }
  return seen;
}

/// The first op, in program order, of `candidates` (the non-forward ops
/// that read the forward) that every op of `gradients` depends on: where the
/// loss's gradient enters the backward. Ops that prepare a forward value for
/// one gradient (a transpose of a linear's input hoisted next to it) are
/// skipped. Null when no op is common to every gradient.
static Operation *
findBackwardStart(Block &body, const llvm::DenseSet<Operation *> &candidates,
                  const llvm::DenseSet<Operation *> &gradients) {
  llvm::DenseMap<Operation *, int64_t> position;
  for (Operation &op : body)
    position[&op] = position.size();
  // The common op is among the dependencies of any one gradient.
  Operation *first =
      *llvm::min_element(gradients, [&](Operation *a, Operation *b) {
        return position.lookup(a) < position.lookup(b);
      });
  SmallVector<Value> results(first->getResults());
  llvm::DenseSet<Operation *> slice = dependencies(body, results);
  slice.insert(first);
  SmallVector<Operation *> ordered;
  for (Operation *op : slice)
    if (candidates.contains(op))
      ordered.push_back(op);
  llvm::sort(ordered, [&](Operation *a, Operation *b) {
    return position.lookup(a) < position.lookup(b);
  });
  for (Operation *candidate : ordered) {
    llvm::DenseSet<Operation *> reached = downstream(body, candidate);
    if (llvm::all_of(gradients,
                     [&](Operation *op) { return reached.contains(op); }))
      return candidate;
  }
  return nullptr;
}

static bool isOneElementFloat(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 1 &&
         isa<FloatType>(tensor.getElementType());
}

FailureOr<SavedForBackward>
mlir::seqpar::analyzeSavedForBackward(func::FuncOp func, std::string &why) {
  if (func.getBody().empty()) {
    why = "the function has no body";
    return failure();
  }
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret || ret.getNumOperands() < 2) {
    why = "it does not return a loss and at least one gradient";
    return failure();
  }
  Value loss = ret.getOperand(0);
  if (!isOneElementFloat(loss.getType())) {
    why = "result #0 (the loss) is not a one-element float";
    return failure();
  }

  llvm::DenseMap<Operation *, int64_t> position;
  for (Operation &op : body)
    position[&op] = position.size();
  llvm::DenseSet<Operation *> forward = dependencies(body, {loss});
  llvm::DenseSet<Value> activations = findActivations(func);

  // In program order: which non-forward ops read a forward activation
  // (through other such ops), and which ops read any argument at all.
  llvm::DenseSet<Operation *> readsForward, readsArgument;
  for (Operation &op : body) {
    bool fromForward = false, fromArgument = false;
    forEachExternalOperand(&op, [&](Value v) {
      Operation *def = v.getDefiningOp();
      Operation *top = def ? body.findAncestorOpInBlock(*def) : nullptr;
      if (!top) {
        fromArgument |=
            isa<BlockArgument>(v) && cast<BlockArgument>(v).getOwner() == &body;
        return;
      }
      fromArgument |= readsArgument.contains(top);
      fromForward |= (forward.contains(top) && activations.contains(v)) ||
                     readsForward.contains(top);
    });
    if (fromArgument)
      readsArgument.insert(&op);
    if (!forward.contains(&op) && fromForward)
      readsForward.insert(&op);
  }
  // The gradients computed from the forward (not constants, not from
  // parameters alone).
  llvm::DenseSet<Operation *> gradientOps;
  for (Value gradient : ret.getOperands().drop_front())
    if (Operation *def = gradient.getDefiningOp())
      if (Operation *top = body.findAncestorOpInBlock(*def);
          readsForward.contains(top))
        gradientOps.insert(top);
  if (gradientOps.empty()) {
    why = "no gradient result is computed from a forward activation outside "
          "the loss's computation";
    return failure();
  }
  Operation *start = findBackwardStart(body, readsForward, gradientOps);
  if (!start) {
    why = "no op outside the loss's computation is one that every gradient "
          "depends on";
    return failure();
  }

  SavedForBackward saved;
  saved.backwardStart = start;
  saved.forward = forward;
  int64_t startAt = position.lookup(start);
  for (Operation *op : forward)
    saved.forwardOpsAfterStart += position.lookup(op) > startAt;

  auto usedFromStart = [&](Value value) {
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      Operation *top = body.findAncestorOpInBlock(*user);
      return top && position.lookup(top) >= startAt;
    });
  };
  auto countable = [&](Value root) {
    auto type = dyn_cast<RankedTensorType>(root.getType());
    if (!type || !type.hasStaticShape())
      return false;
    if (activations.contains(root))
      return true;
    Operation *def = root.getDefiningOp();
    return def && def->getBlock() == &body && !isConstantLike(def) &&
           !readsArgument.contains(def);
  };
  llvm::DenseSet<Value> counted;
  auto consider = [&](Value value) {
    if (!usedFromStart(value))
      return;
    Value root = storageRoot(value);
    if (!countable(root) || !counted.insert(root).second)
      return;
    auto type = cast<RankedTensorType>(root.getType());
    Operation *def = root.getDefiningOp();
    SavedForBackwardTensor tensor;
    tensor.value = root;
    tensor.producer = def ? body.findAncestorOpInBlock(*def) : nullptr;
    tensor.elementType = type.getElementType();
    tensor.bytes = tensorBytes(type);
    auto gather = root.getDefiningOp<shard::AllGatherOp>();
    tensor.shardedBytes =
        gather ? tensorBytes(gather.getInput().getType()) : tensor.bytes;
    saved.totalBytes += tensor.bytes;
    saved.totalShardedBytes += tensor.shardedBytes;
    saved.tensors.push_back(tensor);
  };
  for (BlockArgument arg : func.getArguments())
    consider(arg);
  for (Operation &op : body) {
    if (&op == start)
      break;
    for (Value result : op.getResults())
      consider(result);
  }
  // Views defined in forward can name a root defined later than another
  // root; keep program order.
  llvm::stable_sort(saved.tensors, [&](const SavedForBackwardTensor &a,
                                       const SavedForBackwardTensor &b) {
    int64_t at = a.producer ? position.lookup(a.producer) : -1;
    int64_t bt = b.producer ? position.lookup(b.producer) : -1;
    return at < bt;
  });
  return saved;
}
