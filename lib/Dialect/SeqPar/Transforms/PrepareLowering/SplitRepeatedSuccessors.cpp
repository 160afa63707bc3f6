//===- SplitRepeatedSuccessors.cpp - one edge per successor slot ----------===//
//
// One-shot bufferization types a block argument from the values its
// predecessors forward, finding a predecessor's forwarded operands through
// the first successor slot that names the block (MLIR 22's
// getCallerOpOperands). A branch naming one block twice, `cf.cond_br %c,
// ^bb(%a), ^bb(%b)`, has %b ignored: when %a and %b bufferize to different
// layouts (a subview and a new buffer) the bufferized branch fails to
// verify ("type mismatch for bb argument"). Each repeated slot is routed
// through a block of its own that only branches on, which bufferization
// types like any other predecessor (docs/runtime-and-run.md, "Control
// flow").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_SPLITREPEATEDSUCCESSORS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

/// Successor slots of `branch` that name a block an earlier slot names, and
/// forward tensors (the only values bufferization retypes) without operands
/// the op produces itself (a forwarding block could not pass those on).
SmallVector<unsigned> getRepeatedTensorSlots(BranchOpInterface branch) {
  Operation *op = branch;
  SmallVector<unsigned> slots;
  SmallPtrSet<Block *, 4> seen;
  for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
    if (seen.insert(op->getSuccessor(i)).second)
      continue;
    SuccessorOperands operands = branch.getSuccessorOperands(i);
    if (operands.getProducedOperandCount() == 0 &&
        llvm::any_of(operands.getForwardedOperands().getTypes(),
                     llvm::IsaPred<TensorType>))
      slots.push_back(i);
  }
  return slots;
}

struct SplitRepeatedSuccessorsPass
    : public mlir::seqpar::impl::SplitRepeatedSuccessorsBase<
          SplitRepeatedSuccessorsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<BranchOpInterface, SmallVector<unsigned>>> work;
    getOperation()->walk([&](BranchOpInterface branch) {
      SmallVector<unsigned> slots = getRepeatedTensorSlots(branch);
      if (!slots.empty())
        work.push_back({branch, std::move(slots)});
    });
    if (work.empty())
      return markAllAnalysesPreserved();
    for (auto &[branch, slots] : work) {
      Operation *op = branch;
      for (unsigned slot : slots) {
        Block *target = op->getSuccessor(slot);
        SuccessorOperands operands = branch.getSuccessorOperands(slot);
        SmallVector<Value> forwarded(operands.getForwardedOperands());
        auto *edge = new Block();
        target->getParent()->getBlocks().insert(target->getIterator(), edge);
        OpBuilder builder = OpBuilder::atBlockEnd(edge);
        cf::BranchOp::create(builder, op->getLoc(), target, forwarded);
        operands.erase(0, forwarded.size());
        op->setSuccessor(edge, slot);
      }
    }
  }
};

} // namespace
