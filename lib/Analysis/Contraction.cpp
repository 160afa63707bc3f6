//===- Contraction.cpp - plain multiply-accumulate contractions -----------===//

#include "seqpar/Analysis/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

bool mlir::seqpar::isPlainContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return false;
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3 ||
      !llvm::hasNItems(body->without_terminator(), 2))
    return false;
  Operation &mul = body->front();
  Operation *add = mul.getNextNode();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!isa<arith::MulFOp, arith::MulIOp>(mul) ||
      !isa<arith::AddFOp, arith::AddIOp>(add) || !yield ||
      yield->getNumOperands() != 1 || yield->getOperand(0) != add->getResult(0))
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1),
        out = body->getArgument(2);
  auto isPair = [](Operation *o, Value x, Value y) {
    return (o->getOperand(0) == x && o->getOperand(1) == y) ||
           (o->getOperand(0) == y && o->getOperand(1) == x);
  };
  return isPair(&mul, a, b) && isPair(add, mul.getResult(0), out);
}
