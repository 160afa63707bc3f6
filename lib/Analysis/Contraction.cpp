//===- Contraction.cpp - plain multiply-accumulate contractions -----------===//

#include "seqpar/Analysis/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

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

bool mlir::seqpar::isLinearContraction(linalg::LinalgOp op) {
  if (isPlainContraction(op))
    return true;
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return false;
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield->getNumOperands() != 1)
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1),
        out = body->getArgument(2);
  auto add = yield->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if (product == out || (add.getLhs() != out && add.getRhs() != out))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  // Each factor is an input, extended to the accumulator's type or not.
  auto input = [](Value v) {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return v;
  };
  Value x = input(mul.getLhs()), y = input(mul.getRhs());
  // Exactly ext, mul, add and the yield: nothing else computed.
  int64_t exts = (x != mul.getLhs()) + (y != mul.getRhs());
  return ((x == a && y == b) || (x == b && y == a)) &&
         llvm::hasNItems(body->without_terminator(), 2 + exts);
}

std::optional<shard::ReductionKind>
mlir::seqpar::getReductionCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op->getNumRegions() != 1)
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  BlockArgument out = body->getArgument(op.getNumDpsInputs());
  if (!yield || yield->getNumOperands() != 1 || !out.hasOneUse())
    return std::nullopt;
  Operation *combine = yield->getOperand(0).getDefiningOp();
  if (!combine || combine->getBlock() != body ||
      combine->getNumOperands() != 2 ||
      (combine->getOperand(0) == out) == (combine->getOperand(1) == out))
    return std::nullopt;
  if (isa<arith::AddFOp, arith::AddIOp>(combine))
    return shard::ReductionKind::Sum;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(combine))
    return shard::ReductionKind::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(combine))
    return shard::ReductionKind::Min;
  return std::nullopt;
}

bool mlir::seqpar::isZeroInit(Value init) {
  auto isZero = [](Value v) {
    return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
  };
  while (auto cast = init.getDefiningOp<tensor::CastOp>())
    init = cast.getSource();
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return isZero(fill.getInputs()[0]);
  // m_Zero / m_AnyZeroFloat match splat tensor constants too.
  return isZero(init);
}
