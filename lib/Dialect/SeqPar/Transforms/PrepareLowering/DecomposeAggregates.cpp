//===- DecomposeAggregates.cpp - linalg.softmax & co. into generics -------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATES
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {
struct DecomposeAggregatesPass
    : public mlir::seqpar::impl::DecomposeAggregatesBase<
          DecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      // Upstream decompositions build tensor ops: on buffers they would
      // produce ops of mixed semantics.
      if (llvm::any_of(op->getOperandTypes(),
                       [](Type t) { return isa<BaseMemRefType>(t); })) {
        op->emitOpError() << "is on buffers: seqpar-decompose-aggregates "
                             "decomposes the tensor form (run it before "
                             "bufferization)";
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitError() << "could not be decomposed";
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
