//===- InsertRuntimeChecks.cpp - bounds only the run time knows ----------===//
//
// docs/runtime-and-run.md, "Run-time checks".
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/RuntimeCheck.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_INSERTRUNTIMECHECKS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

bool hasDynamicShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

/// Whether `op`'s checks could fail in a program the verifier accepted: an
/// index operand (an offset, size or subscript) or a dynamically sized
/// operand or result. With static shapes and static offsets, sizes and
/// strides, the ops' verifiers (linalg operand sizes, subview bounds)
/// already proved what the checks would test.
bool needsRuntimeCheck(Operation *op) {
  for (Value operand : op->getOperands())
    if (operand.getType().isIndex() || hasDynamicShape(operand.getType()))
      return true;
  return llvm::any_of(op->getResultTypes(), hasDynamicShape);
}

struct InsertRuntimeChecksPass
    : public seqpar::impl::InsertRuntimeChecksBase<InsertRuntimeChecksPass> {
  void runOnOperation() override {
    SmallVector<RuntimeVerifiableOpInterface> checked;
    getOperation()->walk([&](RuntimeVerifiableOpInterface op) {
      if (needsRuntimeCheck(op))
        checked.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (RuntimeVerifiableOpInterface op : checked) {
      builder.setInsertionPoint(op);
      op.generateRuntimeVerification(
          builder, op.getLoc(), [](Operation *failing, StringRef what) {
            return formatRuntimeCheckMessage(
                failing->getLoc(),
                (what + " (" + failing->getName().getStringRef() + ")")
                    .str());
          });
    }
    numChecked += checked.size();
  }
};

} // namespace
