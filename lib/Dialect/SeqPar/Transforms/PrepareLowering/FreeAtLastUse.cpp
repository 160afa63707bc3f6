//===- FreeAtLastUse.cpp - free buffers right after their last use -------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_FREEATLASTUSE
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The views `op` makes of its memref operand `source` (empty if none).
SmallVector<Value> viewsOf(Operation *op, Value source) {
  if (auto view = dyn_cast<ViewLikeOpInterface>(op);
      view && view.getViewSource() == source)
    return SmallVector<Value>(op->getResults());
  if (auto cast = dyn_cast<memref::CastOp>(op))
    return {cast.getResult()};
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(op))
    return {metadata.getBaseBuffer()};
  return {};
}

/// Moves `dealloc` after the last use of its buffer in its block; false
/// when the buffer escapes or is used where the block's order says nothing.
/// Positions of ops in their blocks, taken before any dealloc moves: moving
/// deallocs leaves the order of every other op as it was, and MLIR's own
/// order (isBeforeInBlock) would be recomputed for the whole block after
/// each move, quadratic in the program.
using Positions = llvm::DenseMap<Operation *, int64_t>;

bool moveToLastUse(memref::DeallocOp dealloc, const Positions &position) {
  Block *block = dealloc->getBlock();
  auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block)
    return false;
  llvm::SetVector<Value> aliases;
  aliases.insert(alloc.getResult());
  Operation *last = alloc;
  for (size_t i = 0; i < aliases.size(); ++i) {
    for (OpOperand &use : aliases[i].getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc.getOperation())
        continue;
      if (isa<memref::DeallocOp>(user) ||
          user->hasTrait<OpTrait::IsTerminator>())
        return false; // freed twice, or escapes
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || ancestor == dealloc.getOperation())
        return false;
      if (position.lookup(last) < position.lookup(ancestor))
        last = ancestor;
      SmallVector<Value> views = viewsOf(user, aliases[i]);
      // Any other op returning a memref (a loop carrying the buffer, a
      // call) may return this one: its aliases are not known.
      if (views.empty() &&
          llvm::any_of(user->getResultTypes(), llvm::IsaPred<MemRefType>))
        return false;
      aliases.insert(views.begin(), views.end());
    }
  }
  if (position.lookup(last) >= position.lookup(dealloc))
    return false;
  dealloc->moveAfter(last);
  return true;
}

struct FreeAtLastUsePass
    : public mlir::seqpar::impl::FreeAtLastUseBase<FreeAtLastUsePass> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    Positions position;
    getOperation().walk([&](Block *block) {
      int64_t at = 0;
      for (Operation &op : *block)
        position[&op] = at++;
    });
    getOperation().walk(
        [&](memref::DeallocOp dealloc) { deallocs.push_back(dealloc); });
    for (memref::DeallocOp dealloc : deallocs)
      moveToLastUse(dealloc, position);
  }
};

} // namespace
