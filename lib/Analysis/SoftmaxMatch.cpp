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
  if (!op || !type || op->getNumResults() != 1)
    return nullptr;
  // Transposes and fills are elementwise by construction (identity output
  // map, parallel loops only); as named ops they would build their maps
  // and iterator types on each query, and the matchers ask about every op
  // of a large graph.
  if (isa<linalg::TransposeOp, linalg::FillOp>(op.getOperation()))
    return op;
  if (op.getNumLoops() != type.getRank() || op.getNumReductionLoops() != 0 ||
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
    // A generic copying its one input (a scalar, or a tensor read through
    // any map): the broadcast of a constant as stablehlo lowers it.
    if (auto g = dyn_cast<linalg::GenericOp>(def);
        g && g.getNumDpsInputs() == 1 && g.getNumDpsInits() == 1 &&
        g.getBody()->getNumArguments() == 2 &&
        g.getBody()->getTerminator()->getNumOperands() == 1 &&
        g.getBody()->getTerminator()->getOperand(0) ==
            g.getBody()->getArgument(0)) {
      Value in = g.getDpsInputOperand(0)->get();
      if (!isa<ShapedType>(in.getType())) {
        if (!matchPattern(in, m_Constant(&f)))
          return std::nullopt;
        return f.getValueAsDouble();
      }
      tensor = in;
      continue;
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

/// `v` with a collapse_shape that only drops a trailing unit dim
/// ([.., 1] -> [..]) peeled: the keepdim row tensor it collapses.
Value peelTrailingUnitCollapse(Value v) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return v;
  RankedTensorType src = collapse.getSrcType();
  SmallVector<ReassociationIndices> groups =
      collapse.getReassociationIndices();
  if (src.getRank() < 1 || src.getShape().back() != 1 || groups.empty() ||
      groups.size() + 1 != size_t(src.getRank()))
    return v;
  for (auto [i, group] : llvm::enumerate(groups)) {
    bool last = i + 1 == groups.size();
    if (group.size() != (last ? 2u : 1u) || group[0] != int64_t(i))
      return v;
  }
  return collapse.getSrc();
}

/// The row tensor ([..] or keepdim [.., 1]) that `full` materialises over
/// its last dim, or null: a linalg.broadcast adding only the last dim, or
/// an elementwise op (a generic) yielding its one input read by a row map.
/// The row statistics of a softmax read through such a broadcast are the
/// same as read through a row indexing map (docs/context-parallelism.md,
/// "Raising attention from other exporters").
Value broadcastRow(Value full) {
  auto type = dyn_cast<RankedTensorType>(full.getType());
  if (!type || type.getRank() < 2)
    return nullptr;
  unsigned rank = type.getRank();
  if (auto b = full.getDefiningOp<linalg::BroadcastOp>()) {
    ArrayRef<int64_t> dims = b.getDimensions();
    if (dims.size() != 1 || dims[0] != int64_t(rank - 1))
      return nullptr;
    return peelTrailingUnitCollapse(b.getInput());
  }
  linalg::LinalgOp op = elementwiseProducer(full);
  if (!op || op.getNumDpsInputs() != 1 || op.getNumLoops() != rank ||
      !isRowMap(op.getIndexingMapsArray()[0], rank) ||
      op.getBlock()->getNumArguments() < 1 ||
      op.getBlock()->getTerminator()->getNumOperands() != 1 ||
      op.getBlock()->getTerminator()->getOperand(0) !=
          op.getBlock()->getArgument(0))
    return nullptr;
  return peelTrailingUnitCollapse(op.getDpsInputOperand(0)->get());
}

/// The row tensor input `input` of elementwise `op` reads at the row of
/// each element: the operand through a row map, or the row tensor a
/// broadcast materialises when read by identity; null otherwise.
Value rowRead(linalg::LinalgOp op, unsigned input) {
  AffineMap map = op.getIndexingMapsArray()[input];
  unsigned rank = op.getNumLoops();
  Value v = op.getDpsInputOperand(input)->get();
  if (rank >= 2 && isRowMap(map, rank))
    return v;
  if (map.isIdentity())
    return broadcastRow(v);
  return nullptr;
}

/// log2(e) up to f32 rounding (two ulps).
bool isLog2E(double c) {
  const double log2e = 1.4426950408889634;
  return std::abs(c / log2e - 1.0) <= 2.4e-7;
}

/// `t` where body value `v` = t * log2(e) (a constant), or null.
Value timesLog2E(Value v) {
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return nullptr;
  FloatAttr c;
  if (matchPattern(mul.getRhs(), m_Constant(&c)) &&
      isLog2E(c.getValueAsDouble()))
    return mul.getLhs();
  if (matchPattern(mul.getLhs(), m_Constant(&c)) &&
      isLog2E(c.getValueAsDouble()))
    return mul.getRhs();
  return nullptr;
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
  if (rank < 2)
    return std::nullopt;
  for (unsigned x = 0; x < 2; ++x) {
    unsigned row = 1 - x;
    if ((x == 1 && !commutative) || !maps[x].isIdentity())
      continue;
    Value rowValue = rowRead(op, row);
    if (rowValue && combine->getOperand(0) == body->getArgument(x) &&
        combine->getOperand(1) == body->getArgument(row))
      return std::make_pair(op.getDpsInputOperand(x)->get(), rowValue);
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
Value rowMaxInput(Value max, std::string *why) {
  std::optional<double> init;
  Value x = reducedInput<arith::MaximumFOp, arith::MaxNumFOp>(max, init);
  if (!x) {
    if (why)
      *why = "the value subtracted before exp is not a max over the row";
    return nullptr;
  }
  if (!init || !(std::isnan(*init) || *init <= -1e30)) {
    if (why)
      *why = "the row max starts from a value above -1e30 (not -inf, the "
             "lowest float or NaN): it may exceed the row's max";
    return nullptr;
  }
  return x;
}

/// e / sum or e * (1 / sum), the reciprocal in its own op or in the same
/// body: (e, sum).
std::optional<std::pair<Value, Value>> rowQuotient(Value p) {
  if (auto div = rowBinary<arith::DivFOp>(p, false))
    return div;
  if (auto mul = rowBinary<arith::MulFOp>(p, true))
    if (Value sum = reciprocalInput(mul->second))
      return std::make_pair(mul->first, sum);
  linalg::LinalgOp op = elementwiseProducer(p);
  if (!op || op.getNumDpsInputs() != 2 || op.getNumLoops() < 2)
    return std::nullopt;
  auto mul = yielded(op).getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  Block *body = op.getBlock();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // e * r, r = 1 / s in an op of its own over the whole tensor, s a
  // broadcast row sum.
  for (unsigned x = 0; x < 2; ++x) {
    unsigned r = 1 - x;
    if (!maps[x].isIdentity() || !maps[r].isIdentity() ||
        mul.getLhs() != body->getArgument(std::min(x, r)) ||
        mul.getRhs() != body->getArgument(std::max(x, r)))
      continue;
    if (Value recip = reciprocalInput(op.getDpsInputOperand(r)->get()))
      if (Value sum = broadcastRow(recip))
        return std::make_pair(op.getDpsInputOperand(x)->get(), sum);
  }
  // e * (1 / s) in one body.
  for (auto [x, inv] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
    auto div = inv.getDefiningOp<arith::DivFOp>();
    FloatAttr one;
    auto xArg = dyn_cast<BlockArgument>(x);
    auto rowArg = div ? dyn_cast<BlockArgument>(div.getRhs()) : nullptr;
    if (!div || div->getBlock() != body || !xArg || !rowArg ||
        xArg.getOwner() != body || rowArg.getOwner() != body ||
        xArg.getArgNumber() + rowArg.getArgNumber() != 1 ||
        !matchPattern(div.getLhs(), m_Constant(&one)) ||
        one.getValueAsDouble() != 1.0 ||
        !maps[xArg.getArgNumber()].isIdentity())
      continue;
    if (Value row = rowRead(op, rowArg.getArgNumber()))
      return std::make_pair(op.getDpsInputOperand(xArg.getArgNumber())->get(),
                            row);
  }
  return std::nullopt;
}

/// The elementwise op computing `e` = exp(t), t a value in its body:
/// math.exp(t), or math.exp2(t * c) with c = log2(e) up to f32 rounding
/// (the same exp up to rounding; docs/context-parallelism.md). `input` is
/// the tensor t is of when t is the op's one input: also for exp2(y) of a
/// tensor y = t * log2(e) computed in an op of its own.
struct ExpOf {
  linalg::LinalgOp op;
  Value arg;
  Value input;
};

/// y where tensor `v` = y * log2(e) in an elementwise op of its own: a
/// constant in the body, or an operand that is a splat of it.
Value log2EScaled(Value v) {
  linalg::LinalgOp op = elementwiseProducer(v);
  if (!op)
    return nullptr;
  Block *body = op.getBlock();
  if (op.getNumDpsInputs() == 1) {
    if (timesLog2E(yielded(op)) == body->getArgument(0))
      return op.getDpsInputOperand(0)->get();
    return nullptr;
  }
  auto mul = yielded(op).getDefiningOp<arith::MulFOp>();
  if (op.getNumDpsInputs() != 2 || !mul)
    return nullptr;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (unsigned y = 0; y < 2; ++y) {
    unsigned c = 1 - y;
    Value yArg = body->getArgument(y), cArg = body->getArgument(c);
    if (!((mul.getLhs() == yArg && mul.getRhs() == cArg) ||
          (mul.getLhs() == cArg && mul.getRhs() == yArg)) ||
        !maps[y].isIdentity())
      continue;
    std::optional<double> factor = splatValue(op.getDpsInputOperand(c)->get());
    if (factor && isLog2E(*factor))
      return op.getDpsInputOperand(y)->get();
  }
  return nullptr;
}

std::optional<ExpOf> expOf(Value e) {
  linalg::LinalgOp op = elementwiseProducer(e);
  if (!op)
    return std::nullopt;
  Block *body = op.getBlock();
  Value value = yielded(op);
  ExpOf result{op, nullptr, nullptr};
  if (auto exp = value.getDefiningOp<math::ExpOp>()) {
    result.arg = exp.getOperand();
  } else if (auto exp2 = value.getDefiningOp<math::Exp2Op>()) {
    result.arg = timesLog2E(exp2.getOperand());
    if (!result.arg && op.getNumDpsInputs() == 1 &&
        exp2.getOperand() == body->getArgument(0)) {
      Value y = log2EScaled(op.getDpsInputOperand(0)->get());
      if (!y)
        return std::nullopt;
      result.arg = body->getArgument(0);
      result.input = y;
      return result;
    }
    if (!result.arg)
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (op.getNumDpsInputs() == 1 && result.arg == body->getArgument(0))
    result.input = op.getDpsInputOperand(0)->get();
  return result;
}

/// `e` = exp(y - row): (y, row), the subtraction in the exp's op or in its
/// own, the row read through a row map or a broadcast.
std::optional<std::pair<Value, Value>> expOfDifference(Value e) {
  std::optional<ExpOf> exp = expOf(e);
  if (!exp)
    return std::nullopt;
  if (exp->input)
    return rowBinary<arith::SubFOp>(exp->input, false);
  linalg::LinalgOp expOp = exp->op;
  Block *body = expOp.getBlock();
  auto sub = exp->arg.getDefiningOp<arith::SubFOp>();
  if (!sub || expOp.getNumDpsInputs() != 2 || expOp.getNumLoops() < 2 ||
      sub.getLhs() != body->getArgument(0) ||
      sub.getRhs() != body->getArgument(1))
    return std::nullopt;
  SmallVector<AffineMap> maps = expOp.getIndexingMapsArray();
  Value row = rowRead(expOp, 1);
  if (!maps[0].isIdentity() || !row)
    return std::nullopt;
  return std::make_pair(expOp.getDpsInputOperand(0)->get(), row);
}

/// `e` = exp(y) in an op of its own: y.
Value expInput(Value e) {
  std::optional<ExpOf> exp = expOf(e);
  return exp ? exp->input : nullptr;
}

/// `sum` = the row sum of exp(x - rowmax(x)) from 0: x, or null with `why`.
Value sumOfShiftedExp(Value sum, std::string *why) {
  std::optional<double> init;
  Value e = reducedInput<arith::AddFOp>(sum, init);
  if (!e || init != 0.0) {
    if (why)
      *why = e ? "the row sum does not start from 0"
               : "the normaliser is not a sum over the row";
    return nullptr;
  }
  std::optional<std::pair<Value, Value>> centered = expOfDifference(e);
  if (!centered) {
    // exp(shifted) with shifted = x - max computed before.
    if (Value shifted = expInput(e))
      centered = rowBinary<arith::SubFOp>(shifted, false);
  }
  if (!centered) {
    if (why)
      *why = "the summed values are not exp(x - a row value)";
    return nullptr;
  }
  auto [x, max] = *centered;
  Value maxOf = rowMaxInput(max, why);
  if (!maxOf)
    return nullptr;
  if (maxOf != x) {
    if (why)
      *why = "the row max is not taken over the exponentiated logits";
    return nullptr;
  }
  return x;
}

/// An elementwise op over a row tensor combining two row tensors read by
/// identity maps: its two operands and the combining body value's
/// operands as block arguments' input numbers.
linalg::LinalgOp rowOp(Value v, unsigned inputs) {
  linalg::LinalgOp op = elementwiseProducer(v);
  if (!op || op.getNumDpsInputs() != inputs ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return nullptr;
  return op;
}

/// `lse` = max + log(sum) as row tensors (one op, or log in its own op):
/// (max, sum).
std::optional<std::pair<Value, Value>> maxPlusLogSum(Value lse) {
  linalg::LinalgOp op = rowOp(lse, 2);
  if (!op)
    return std::nullopt;
  auto add = yielded(op).getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  Block *body = op.getBlock();
  for (auto [m, l] : {std::pair(add.getLhs(), add.getRhs()),
                      std::pair(add.getRhs(), add.getLhs())}) {
    auto mArg = dyn_cast<BlockArgument>(m);
    if (!mArg || mArg.getOwner() != body || mArg.getArgNumber() > 1)
      continue;
    Value max = op.getDpsInputOperand(mArg.getArgNumber())->get();
    auto other = op.getDpsInputOperand(1 - mArg.getArgNumber())->get();
    if (auto log = l.getDefiningOp<math::LogOp>();
        log && log->getBlock() == body &&
        log.getOperand() == body->getArgument(1 - mArg.getArgNumber()))
      return std::make_pair(max, other);
    if (l == body->getArgument(1 - mArg.getArgNumber()))
      if (linalg::LinalgOp logOp = rowOp(other, 1))
        if (auto log = yielded(logOp).getDefiningOp<math::LogOp>();
            log && log.getOperand() == logOp.getBlock()->getArgument(0))
          return std::make_pair(max, logOp.getDpsInputOperand(0)->get());
  }
  return std::nullopt;
}

/// log(sum) as a row op of its own: sum.
Value logInput(Value v) {
  linalg::LinalgOp op = rowOp(v, 1);
  if (!op)
    return nullptr;
  auto log = yielded(op).getDefiningOp<math::LogOp>();
  return log && log.getOperand() == op.getBlock()->getArgument(0)
             ? op.getDpsInputOperand(0)->get()
             : nullptr;
}

/// Softmax in log-sum-exp form: exp(x - (max + log(sum))) or
/// exp((x - max) - log(sum)) (exp of torch's log_softmax), sum the row sum
/// of exp(x - max). The logits x, or null (`why` set when the form is
/// log-sum-exp-like but a step differs).
Value logSumExpInput(Value p, std::string *why) {
  std::optional<std::pair<Value, Value>> top = expOfDifference(p);
  if (!top)
    return nullptr;
  auto [y, row] = *top;
  // exp(x - (max + log(sum))).
  if (auto lse = maxPlusLogSum(row)) {
    auto [max, sum] = *lse;
    Value x = sumOfShiftedExp(sum, why);
    if (!x)
      return nullptr;
    if (x != y || rowMaxInput(max, why) != x) {
      if (why && why->empty())
        *why = "the log-sum-exp is not of the exponentiated logits";
      return nullptr;
    }
    return x;
  }
  // exp((x - max) - log(sum)).
  Value sum = logInput(row);
  if (!sum)
    return nullptr;
  Value x = sumOfShiftedExp(sum, why);
  if (!x)
    return nullptr;
  std::optional<std::pair<Value, Value>> shifted =
      rowBinary<arith::SubFOp>(y, false);
  if (!shifted || shifted->first != x || rowMaxInput(shifted->second, why) != x) {
    if (why && why->empty())
      *why = "the log-sum-exp is not of the exponentiated logits";
    return nullptr;
  }
  return x;
}

/// The logits of softmax `p`, or null; `why` (if given) says which step
/// failed when `p` is a quotient by a row sum or the exp of a difference
/// with a row log-sum-exp.
Value matchSoftmax(Value p, std::string *why) {
  auto type = dyn_cast<RankedTensorType>(p.getType());
  if (!type || type.getRank() < 2)
    return nullptr;
  if (auto softmax = p.getDefiningOp<linalg::SoftmaxOp>()) {
    if (softmax.getDimension() == uint64_t(type.getRank() - 1))
      return softmax.getInput();
    if (why)
      *why = "linalg.softmax is not over the last dim";
    return nullptr;
  }
  // Each form ends in a divide, a product with a reciprocal or an exp: a
  // test of the body alone, before the steps below read indexing maps (the
  // raising asks it of every linalg op of a large graph).
  auto op = p.getDefiningOp<linalg::LinalgOp>();
  if (!op || op->getNumResults() != 1 ||
      !isa_and_nonnull<arith::DivFOp, arith::MulFOp, math::ExpOp, math::Exp2Op>(
          yielded(op).getDefiningOp()))
    return nullptr;
  std::optional<std::pair<Value, Value>> quotient = rowQuotient(p);
  if (!quotient)
    return logSumExpInput(p, why);
  auto [e, sum] = *quotient;
  // Softmax-like only when the numerator is an exp (a norm divides too).
  if (!expOf(e)) {
    linalg::LinalgOp eOp = elementwiseProducer(e);
    if (why && eOp && yielded(eOp).getDefiningOp<math::Exp2Op>())
      *why = "the numerator is exp2 of a value not multiplied by log2(e) "
             "(exp2(t * log2(e)) is exp(t))";
    return nullptr;
  }
  std::optional<double> init;
  Value summed = reducedInput<arith::AddFOp>(sum, init);
  if (!summed) {
    if (why)
      *why = "the divisor is not a sum over the row";
    return nullptr;
  }
  if (summed != e) {
    if (why)
      *why = "the row sum is not of the divided values";
    return nullptr;
  }
  Value x = sumOfShiftedExp(sum, why);
  if (!x)
    return nullptr;
  return x;
}

} // namespace

Value seqpar::softmaxInput(Value p) { return matchSoftmax(p, nullptr); }

std::string seqpar::whyNotSoftmax(Value p) {
  std::string why;
  if (matchSoftmax(p, &why))
    return "";
  return why;
}
