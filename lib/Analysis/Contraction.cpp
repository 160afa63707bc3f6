//===- Contraction.cpp - plain multiply-accumulate contractions -----------===//

#include "seqpar/Analysis/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

/// out + f(in0) * f(in1) (either operand order) and nothing else, f the
/// identity or, with `extensions`, optionally an arith.extf of the input.
static bool isMultiplyAccumulate(linalg::LinalgOp op, bool extensions) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return false;
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield->getNumOperands() != 1)
    return false;
  Operation *add = yield->getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add))
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1),
        out = body->getArgument(2);
  auto isPair = [](Operation *o, Value x, Value y) {
    return (o->getOperand(0) == x && o->getOperand(1) == y) ||
           (o->getOperand(0) == y && o->getOperand(1) == x);
  };
  Value product = add->getOperand(0) == out ? add->getOperand(1)
                                            : add->getOperand(0);
  Operation *mul = product.getDefiningOp();
  if (!isa_and_nonnull<arith::MulFOp, arith::MulIOp>(mul) ||
      !isPair(add, product, out))
    return false;
  int64_t ops = 2;
  auto input = [&](Value v) {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>(); ext && extensions) {
      ++ops;
      return ext.getIn();
    }
    return v;
  };
  Value x = input(mul->getOperand(0)), y = input(mul->getOperand(1));
  return ((x == a && y == b) || (x == b && y == a)) &&
         llvm::hasNItems(body->without_terminator(), ops);
}

bool mlir::seqpar::isPlainContraction(linalg::LinalgOp op) {
  return isMultiplyAccumulate(op, /*extensions=*/false);
}

bool mlir::seqpar::isLinearContraction(linalg::LinalgOp op) {
  return isMultiplyAccumulate(op, /*extensions=*/true);
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
