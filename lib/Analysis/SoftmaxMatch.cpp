//===- SoftmaxMatch.cpp - softmax as exporters write it -------------------===//

#include "seqpar/Analysis/SoftmaxMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::seqpar;

linalg::LinalgOp seqpar::elementwiseProducer(Value v) {
  auto op = v.getDefiningOp<linalg::LinalgOp>();
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!op || !type || op->getNumResults() != 1 ||
      op.getNumLoops() != type.getRank() || op.getNumReductionLoops() != 0 ||
      !op.getIndexingMapsArray().back().isIdentity())
    return nullptr;
  return op;
}

std::optional<double> seqpar::splatValue(Value tensor) {
  for (int steps = 0; steps < 16; ++steps) {
    Operation *def = tensor.getDefiningOp();
    if (!def)
      return std::nullopt;
    FloatAttr f;
    if (auto fill = dyn_cast<linalg::FillOp>(def)) {
      if (!matchPattern(fill.getInputs()[0], m_Constant(&f)))
        return std::nullopt;
      return f.getValueAsDouble();
    }
    DenseElementsAttr dense;
    if (matchPattern(tensor, m_Constant(&dense))) {
      if (!dense.isSplat() || !isa<FloatType>(dense.getElementType()))
        return std::nullopt;
      return dense.getSplatValue<APFloat>().convertToDouble();
    }
    if (auto b = dyn_cast<linalg::BroadcastOp>(def))
      tensor = b.getInput();
    else if (auto t = dyn_cast<linalg::TransposeOp>(def))
      tensor = t.getInput();
    else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      tensor = def->getOperand(0);
    else
      return std::nullopt;
  }
  return std::nullopt;
}

namespace {

/// The yielded value of a one-result op's body.
Value yielded(linalg::LinalgOp op) {
  return op.getBlock()->getTerminator()->getOperand(0);
}

/// `map` reads a [.., 1] (keepdim) or [..] (reduced) row tensor from the
/// loops of a rank-`rank` elementwise op: identity on the leading dims.
bool isRowMap(AffineMap map, unsigned rank) {
  if (map.getNumResults() != rank && map.getNumResults() != rank - 1)
    return false;
  for (unsigned d = 0; d + 1 < rank; ++d) {
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(d));
    if (!dim || dim.getPosition() != d)
      return false;
  }
  if (map.getNumResults() == rank - 1)
    return true;
  auto zero = dyn_cast<AffineConstantExpr>(map.getResults().back());
  return zero && zero.getValue() == 0;
}

/// `v` = x OP row, OP one of `Ops`, x read by identity and row by a row map;
/// for a commutative OP the operands may come either way. Returns (x, row).
template <typename... Ops>
std::optional<std::pair<Value, Value>> rowBinary(Value v, bool commutative) {
  linalg::LinalgOp op = elementwiseProducer(v);
  if (!op || op.getNumDpsInputs() != 2)
    return std::nullopt;
  Operation *combine = yielded(op).getDefiningOp();
  if (!combine || !isa<Ops...>(combine))
    return std::nullopt;
  Block *body = op.getBlock();
  unsigned rank = op.getNumLoops();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (unsigned x = 0; x < 2; ++x) {
    unsigned row = 1 - x;
    if ((x == 1 && !commutative) || !maps[x].isIdentity() ||
        !isRowMap(maps[row], rank))
      continue;
    if (combine->getOperand(0) == body->getArgument(x) &&
        combine->getOperand(1) == body->getArgument(row))
      return std::make_pair(op.getDpsInputOperand(x)->get(),
                            op.getDpsInputOperand(row)->get());
  }
  return std::nullopt;
}

/// The tensor a reduction over its last dim (linalg.reduce or a generic,
/// combining with one of `Combiners`) reduces, keepdim (an expand_shape of
/// the result, or a [.., 1] output) or not; `init` receives the initial
/// value when it is a splat.
template <typename... Combiners>
Value reducedInput(Value reduced, std::optional<double> &init) {
  if (auto expand = reduced.getDefiningOp<tensor::ExpandShapeOp>()) {
    RankedTensorType type = expand.getResultType();
    if (type.getRank() != expand.getSrcType().getRank() + 1 ||
        type.getShape().back() != 1)
      return nullptr;
    reduced = expand.getSrc();
  }
  auto op = reduced.getDefiningOp<linalg::LinalgOp>();
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return nullptr;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned rank = op.getNumLoops();
  if (!maps[0].isIdentity() || !isRowMap(maps[1], rank))
    return nullptr;
  Operation *combine = yielded(op).getDefiningOp();
  Block *body = op.getBlock();
  if (!combine || !isa<Combiners...>(combine))
    return nullptr;
  Value a = combine->getOperand(0), b = combine->getOperand(1);
  Value in = body->getArgument(0), acc = body->getArgument(1);
  if (!((a == in && b == acc) || (a == acc && b == in)))
    return nullptr;
  init = splatValue(op.getDpsInitOperand(0)->get());
  return op.getDpsInputOperand(0)->get();
}

/// 1 / sum written as its own op (tosa.reciprocal after tosa-to-linalg).
Value reciprocalInput(Value v) {
  linalg::LinalgOp op = elementwiseProducer(v);
  if (!op || op.getNumDpsInputs() != 1)
    return nullptr;
  auto div = yielded(op).getDefiningOp<arith::DivFOp>();
  FloatAttr one;
  if (!div || div.getRhs() != op.getBlock()->getArgument(0) ||
      !matchPattern(div.getLhs(), m_Constant(&one)) ||
      one.getValueAsDouble() != 1.0)
    return nullptr;
  return op.getDpsInputOperand(0)->get();
}

/// x where `max` is the row max of x from an initial value at or below it.
Value rowMaxInput(Value max) {
  std::optional<double> init;
  Value x = reducedInput<arith::MaximumFOp, arith::MaxNumFOp>(max, init);
  if (!x || !init || !(std::isnan(*init) || *init <= -1e30))
    return nullptr;
  return x;
}

} // namespace

Value seqpar::softmaxInput(Value p) {
  auto type = dyn_cast<RankedTensorType>(p.getType());
  if (!type || type.getRank() < 2)
    return nullptr;
  if (auto softmax = p.getDefiningOp<linalg::SoftmaxOp>())
    return softmax.getDimension() == uint64_t(type.getRank() - 1)
               ? softmax.getInput()
               : nullptr;
  // e / sum, or e * (1 / sum).
  Value e, sum;
  if (auto div = rowBinary<arith::DivFOp>(p, false)) {
    std::tie(e, sum) = *div;
  } else if (auto mul = rowBinary<arith::MulFOp>(p, true)) {
    e = mul->first;
    sum = reciprocalInput(mul->second);
  }
  std::optional<double> sumInit;
  if (!e || !sum || reducedInput<arith::AddFOp>(sum, sumInit) != e ||
      sumInit != 0.0)
    return nullptr;
  // e = exp(x - max): in one op or as a sub then an exp.
  linalg::LinalgOp expOp = elementwiseProducer(e);
  if (!expOp)
    return nullptr;
  auto exp = yielded(expOp).getDefiningOp<math::ExpOp>();
  if (!exp)
    return nullptr;
  Block *body = expOp.getBlock();
  std::optional<std::pair<Value, Value>> centered;
  if (expOp.getNumDpsInputs() == 1 &&
      exp.getOperand() == body->getArgument(0)) {
    centered =
        rowBinary<arith::SubFOp>(expOp.getDpsInputOperand(0)->get(), false);
  } else if (auto sub = exp.getOperand().getDefiningOp<arith::SubFOp>();
             sub && expOp.getNumDpsInputs() == 2 &&
             sub.getLhs() == body->getArgument(0) &&
             sub.getRhs() == body->getArgument(1)) {
    SmallVector<AffineMap> maps = expOp.getIndexingMapsArray();
    if (maps[0].isIdentity() && isRowMap(maps[1], expOp.getNumLoops()))
      centered = std::make_pair(expOp.getDpsInputOperand(0)->get(),
                                expOp.getDpsInputOperand(1)->get());
  }
  if (!centered)
    return nullptr;
  auto [x, max] = *centered;
  return rowMaxInput(max) == x ? x : nullptr;
}
