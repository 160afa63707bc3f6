//===- Activations.cpp - activations of a per-rank program ----------------===//

#include "seqpar/Analysis/Activations.h"

#include "seqpar/Analysis/ByteCounts.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

llvm::DenseSet<Value> mlir::seqpar::findActivations(func::FuncOp func) {
  llvm::DenseSet<Value> activations;
  for (BlockArgument arg : func.getArguments())
    if (func.getArgAttr(arg.getArgNumber(), "seqpar.seq_dim"))
      activations.insert(arg);
  if (activations.empty() && func.getNumArguments() > 0)
    activations.insert(func.getArgument(0));
  // Loop-carried values reach their users only on a second visit.
  for (bool changed = true; changed;) {
    changed = false;
    func.walk([&](Operation *op) {
      bool reads = llvm::any_of(
          op->getOperands(), [&](Value v) { return activations.contains(v); });
      // A region op yields activations computed inside it.
      op->walk([&](Operation *nested) {
        if (nested != op && nested->hasTrait<OpTrait::IsTerminator>() &&
            nested->getParentOp() == op)
          reads |= llvm::any_of(nested->getOperands(), [&](Value v) {
            return activations.contains(v);
          });
      });
      if (!reads)
        return;
      for (Value result : op->getResults())
        changed |= activations.insert(result).second;
      if (auto loop = dyn_cast<scf::ForOp>(op))
        for (auto [init, arg] :
             llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
          if (activations.contains(init))
            changed |= activations.insert(arg).second;
    });
  }
  return activations;
}

/// The input a copy-only generic reads (its body yields an input block
/// argument unchanged), or null.
static Value copiedInput(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumResults() != 1)
    return Value();
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  auto arg = dyn_cast<BlockArgument>(yield.getOperand(0));
  if (!arg || arg.getOwner() != generic.getBody() || arg.getArgNumber() != 0)
    return Value();
  return generic.getDpsInputOperand(0)->get();
}

Value mlir::seqpar::getViewSource(Operation *op) {
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return expand.getSrc();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return collapse.getSrc();
  if (auto cast = dyn_cast<tensor::CastOp>(op))
    return cast.getSource();
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return transpose.getInput();
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op))
    return broadcast.getInput();
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return copiedInput(generic);
  return Value();
}

Value mlir::seqpar::storageRoot(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    Value source = getViewSource(op);
    if (!source)
      break;
    value = source;
  }
  return value;
}

int64_t mlir::seqpar::tensorBytes(Type type) {
  if (!isa<RankedTensorType>(type))
    return 0;
  return checkedBytes(type).value_or(std::numeric_limits<int64_t>::max());
}
