//===- InlineCalls.cpp - inline calls to defined functions, if any --------===//
//
// MLIR's inliner run only where there is something to inline. The upstream
// pass always reports a change (its simplification pipeline canonicalizes
// every function), so a module with no calls was verified once more for
// nothing; seqpar-pipeline canonicalizes right after this pass instead.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_INLINECALLS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

/// True if some call in `module` targets a callable with a body, or a
/// private function with a body exists (the inliner erases those it leaves
/// unused).
bool hasWorkForInliner(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations()) {
    auto callable = dyn_cast<CallableOpInterface>(&op);
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (callable && symbol && symbol.isPrivate() &&
        callable.getCallableRegion() && !callable.getCallableRegion()->empty())
      return true;
  }
  SymbolTableCollection symbols;
  WalkResult walk = module.walk([&](CallOpInterface call) {
    Operation *callee = call.resolveCallableInTable(&symbols);
    auto callable = dyn_cast_or_null<CallableOpInterface>(callee);
    if (!callable || !callable.getCallableRegion() ||
        callable.getCallableRegion()->empty())
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return walk.wasInterrupted();
}

struct InlineCallsPass
    : public seqpar::impl::InlineCallsBase<InlineCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasWorkForInliner(module))
      return markAllAnalysesPreserved();
    OpPassManager inliner(ModuleOp::getOperationName());
    inliner.addPass(createInlinerPass(llvm::StringMap<OpPassManager>(),
                                      [](OpPassManager &) {}));
    if (failed(runPipeline(inliner, module)))
      signalPassFailure();
  }
};

} // namespace
