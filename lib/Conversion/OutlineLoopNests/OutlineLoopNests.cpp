//===- OutlineLoopNests.cpp - one function per top-level loop nest --------===//
//
// A per-rank program lowers to one function holding every layer's loop
// nests; LLVM's optimiser takes time superlinear in a function's size, so
// the optimising JIT took minutes on 12 layers. Each top-level loop nest in
// its own function (kept out of line) makes the work linear in the program
// (docs/runtime-and-run.md, "Code generation").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_OUTLINELOOPNESTS
#include "seqpar/Conversion/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Moves `loop` into a function of its own, called in its place; the
/// function is private and carries LLVM's noinline, so the optimiser does
/// not merge it back. Returns false (the IR unchanged) where upstream's
/// outlining refuses.
bool outlineLoop(IRRewriter &rewriter, scf::ForOp loop, StringRef name) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto region =
      scf::ExecuteRegionOp::create(rewriter, loc, loop.getResultTypes());
  Block *body = rewriter.createBlock(&region.getRegion());
  rewriter.setInsertionPointToEnd(body);
  scf::YieldOp::create(rewriter, loc, loop.getResults());
  for (auto [from, to] : llvm::zip(loop.getResults(), region.getResults()))
    rewriter.replaceAllUsesExcept(from, to, body->getTerminator());
  loop->moveBefore(body->getTerminator());
  // Constants the loop uses go with it (upstream clones index constants
  // only): passed as arguments they would no longer be constants, which
  // some lowerings need (llvm.intr.powi's exponent must be an i32 there).
  rewriter.setInsertionPoint(loop);
  loop->walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      Operation *def = use.get().getDefiningOp();
      if (!def || loop->isAncestor(def) || def->getNumOperands() ||
          !matchPattern(use.get(), m_Constant()))
        continue;
      Operation *copy = rewriter.clone(*def);
      rewriter.modifyOpInPlace(op, [&] {
        use.set(copy->getResult(cast<OpResult>(use.get()).getResultNumber()));
      });
    }
  });
  func::CallOp call;
  FailureOr<func::FuncOp> fn =
      outlineSingleBlockRegion(rewriter, loc, region.getRegion(), name, &call);
  if (failed(fn)) {
    // Undo: the loop back in place of the region.
    loop->moveBefore(region);
    rewriter.replaceAllUsesWith(region.getResults(), loop.getResults());
    rewriter.eraseOp(region);
    return false;
  }
  fn->setPrivate();
  (*fn)->setAttr("passthrough",
                 rewriter.getArrayAttr({rewriter.getStringAttr("noinline")}));
  // The region now holds the call and its yield: inline it.
  Block *callBlock = &region.getRegion().front();
  Operation *yield = callBlock->getTerminator();
  rewriter.replaceAllUsesWith(region.getResults(), yield->getOperands());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(callBlock, region);
  rewriter.eraseOp(region);
  return true;
}

struct OutlineLoopNestsPass
    : public mlir::seqpar::impl::OutlineLoopNestsBase<OutlineLoopNestsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn.isExternal() || !fn.getBody().hasOneBlock())
        continue;
      SmallVector<scf::ForOp> loops(fn.getBody().front().getOps<scf::ForOp>());
      unsigned k = 0;
      for (scf::ForOp loop : loops) {
        std::string name;
        do
          name = (fn.getName() + "__nest" + Twine(k++)).str();
        while (symbols.lookup(name));
        if (outlineLoop(rewriter, loop, name))
          ++numOutlined;
      }
    }
  }
};

} // namespace
