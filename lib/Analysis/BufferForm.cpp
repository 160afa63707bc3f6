//===- BufferForm.cpp - refuse buffer-form (memref) IR --------------------===//

#include "seqpar/Analysis/BufferForm.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

static bool isMemRef(Type type) { return isa<BaseMemRefType>(type); }

Operation *mlir::seqpar::findBufferFormOp(func::FuncOp func) {
  if (llvm::any_of(func.getArgumentTypes(), isMemRef) ||
      llvm::any_of(func.getResultTypes(), isMemRef))
    return func;
  Operation *found = nullptr;
  func.walk([&](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), isMemRef) ||
        llvm::any_of(op->getResultTypes(), isMemRef)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

bool mlir::seqpar::diagnoseBufferForm(func::FuncOp func, StringRef pass,
                                      DiagnosticSeverity severity) {
  Operation *op = findBufferFormOp(func);
  if (!op)
    return false;
  InFlightDiagnostic diag =
      op->getContext()->getDiagEngine().emit(op->getLoc(), severity);
  bool refused = severity == DiagnosticSeverity::Error;
  diag << pass << ": @" << func.getSymName()
       << (refused ? " is" : " left unchanged: it is") << " in buffer form (";
  if (op == func.getOperation()) {
    ArrayRef<Type> args = func.getArgumentTypes();
    auto arg = llvm::find_if(args, isMemRef);
    if (arg != args.end())
      diag << "argument #" << (arg - args.begin()) << " is a " << *arg;
    else
      diag << "it returns a memref";
  } else {
    diag << "'" << op->getName() << "' reads or writes a memref";
  }
  diag << "); " << pass
       << " reads the tensor form (run it before bufferization)";
  return true;
}
