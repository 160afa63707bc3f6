//===- DropoutMatch.cpp - dropout of attention probabilities --------------===//

#include "seqpar/Analysis/DropoutMatch.h"

#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/ElementTrace.h"
#include "seqpar/Analysis/SoftmaxMatch.h"
#include "seqpar/Dialect/SeqPar/IR/DropoutKeep.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Elementwise ops between a dropped value and what it scales, at most.
constexpr int kMaxDepth = 8;

/// The factors `op`'s body applies to its input `dataArg` on the way to its
/// yield (loops at `loops`), added to `peeled` (nearest the data first).
LogicalResult peelBody(linalg::LinalgOp op, BlockArgument dataArg,
                       ArrayRef<AffineExpr> loops, PeeledDropout &peeled) {
  Block *body = op.getBlock();
  Value x = body->getTerminator()->getOperand(0);
  SmallVector<PeeledDropout::Term> outer;
  double scale = 1.0;
  while (x != dataArg) {
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != body)
      return failure();
    if (auto mul = dyn_cast<arith::MulFOp>(def)) {
      bool lhs = readsArgument(mul.getLhs(), dataArg, body);
      bool rhs = readsArgument(mul.getRhs(), dataArg, body);
      if (lhs == rhs)
        return failure();
      Value other = lhs ? mul.getRhs() : mul.getLhs();
      if (std::optional<double> c = scalarOperand(other, op))
        scale *= *c;
      else
        outer.push_back({op, other, SmallVector<AffineExpr>(loops)});
      x = lhs ? mul.getLhs() : mul.getRhs();
      continue;
    }
    auto select = dyn_cast<arith::SelectOp>(def);
    if (!select || readsArgument(select.getCondition(), dataArg, body))
      return failure();
    auto isZero = [&](Value v) {
      std::optional<double> c = scalarOperand(v, op);
      return c && *c == 0.0;
    };
    bool keepWhenTrue;
    if (isZero(select.getFalseValue()) &&
        readsArgument(select.getTrueValue(), dataArg, body))
      keepWhenTrue = true;
    else if (isZero(select.getTrueValue()) &&
             readsArgument(select.getFalseValue(), dataArg, body))
      keepWhenTrue = false;
    else
      return failure();
    outer.push_back({op, select.getCondition(),
                     SmallVector<AffineExpr>(loops), true, keepWhenTrue});
    x = keepWhenTrue ? select.getTrueValue() : select.getFalseValue();
  }
  peeled.terms.append(outer.rbegin(), outer.rend());
  peeled.scale *= scale;
  return success();
}

FailureOr<PeeledDropout>
peelAt(Value v, ArrayRef<AffineExpr> coords, ArrayRef<int64_t> sizes,
       function_ref<bool(Value, ArrayRef<AffineExpr>)> isBase, int depth) {
  SmallVector<TracedElement> chain = traceElement(v, coords, sizes.size());
  for (const TracedElement &te : chain)
    if (isBase(te.value, te.coords))
      return PeeledDropout{te.value, te.coords, {}, {}, 1.0};
  if (depth == 0)
    return failure();
  for (const TracedElement &te : chain) {
    // seqpar.dropout: its keep bit at this element, times 1/(1-rate).
    if (auto dropout = te.value.getDefiningOp<DropoutOp>()) {
      FailureOr<PeeledDropout> inner =
          peelAt(dropout.getInput(), te.coords, sizes, isBase, depth - 1);
      if (failed(inner))
        continue;
      PeeledDropout::Term term;
      term.dropout = dropout;
      term.loops.assign(te.coords.begin(), te.coords.end());
      term.isCondition = true;
      inner->terms.push_back(term);
      inner->scale *= 1.0 / (1.0 - dropout.getRate().convertToDouble());
      inner->ops.push_back(dropout);
      return inner;
    }
    linalg::LinalgOp op = elementwiseProducer(te.value);
    if (!op || !op.getBlock() || op->getNumResults() != 1)
      continue;
    Type elem = getElementTypeOrSelf(te.value.getType());
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!op.getMatchingIndexingMap(input).isIdentity() ||
          getElementTypeOrSelf(input->get().getType()) != elem)
        continue;
      // The input that leads to the base is the data; the body scales it.
      FailureOr<PeeledDropout> inner =
          peelAt(input->get(), te.coords, sizes, isBase, depth - 1);
      if (succeeded(inner) &&
          succeeded(peelBody(op, op.getMatchingBlockArgument(input),
                             te.coords, *inner))) {
        inner->ops.push_back(op);
        return inner;
      }
    }
  }
  return failure();
}

/// seqpar.dropout `op`'s keep bit at its element `coords` (the caller's
/// dims): its draw (DropoutKeep.h) at the element's linear index in the
/// tensor, which must be the whole one (no offsets) under a constant seed.
Value dropoutKeep(IndexFunctionBuilder &builder, DropoutOp op,
                  ArrayRef<AffineExpr> coords, std::string &why) {
  auto type = cast<RankedTensorType>(op.getType());
  if (!op.getOffsets().empty() ||
      (op.getGlobalShape() && *op.getGlobalShape() != type.getShape())) {
    why = "seqpar.dropout of a shard (offsets) keys elements of another "
          "tensor";
    return {};
  }
  IntegerAttr seed;
  if (!matchPattern(op.getSeed(), m_Constant(&seed))) {
    why = "the seed of seqpar.dropout is not a constant (the dropout region "
          "reads the coordinates only)";
    return {};
  }
  AffineExpr linear = getAffineConstantExpr(0, op.getContext());
  for (auto [e, size] : llvm::zip(coords, type.getShape()))
    linear = linear * size + e;
  Value index = builder.position(linear);
  if (!index) {
    why = builder.why();
    return {};
  }
  OpBuilder &b = builder.getBuilder();
  Location unknown = b.getUnknownLoc();
  Value index64 =
      arith::IndexCastUIOp::create(b, unknown, b.getI64Type(), index);
  return buildDropoutKeep(b, unknown, index64, builder.constant(seed),
                          op.getSite(), op.getRate().convertToDouble());
}

} // namespace

FailureOr<PeeledDropout>
seqpar::peelDropout(Value v, ArrayRef<AffineExpr> coords,
                    ArrayRef<int64_t> sizes,
                    function_ref<bool(Value, ArrayRef<AffineExpr>)> isBase) {
  return peelAt(v, coords, sizes, isBase, kMaxDepth);
}

IndexFunction seqpar::buildDropoutFunction(const PeeledDropout &peeled,
                                           Type elementType,
                                           ArrayRef<AffineExpr> toRegion,
                                           ArrayRef<int64_t> sizes,
                                           ArrayRef<int64_t> regionSizes,
                                           Location loc, std::string &why) {
  MLIRContext *ctx = loc.getContext();
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType) {
    why = "the probabilities are not floating-point";
    return {};
  }
  IndexFunction f = IndexFunction::create(ctx, loc);
  IndexFunctionBuilder builder(&f.body(), toRegion, sizes, regionSizes);
  OpBuilder &b = builder.getBuilder();
  Location unknown = b.getUnknownLoc();
  Value m = builder.constant(FloatAttr::get(floatType, peeled.scale));
  Value keep;
  for (const PeeledDropout::Term &term : peeled.terms) {
    Value v = term.dropout ? dropoutKeep(builder, cast<DropoutOp>(term.dropout),
                                         term.loops, why)
                           : builder.bodyValue(term.op, term.value, term.loops);
    if (!v) {
      if (why.empty())
        why = builder.why();
      return {};
    }
    if (term.isCondition) {
      if (!term.keepWhenTrue)
        v = arith::XOrIOp::create(
            b, unknown, v, builder.constant(b.getBoolAttr(true)));
      keep = keep ? arith::AndIOp::create(b, unknown, keep, v).getResult() : v;
      continue;
    }
    if (v.getType() != elementType) {
      why = "a factor is not of the probabilities' element type";
      return {};
    }
    m = arith::MulFOp::create(b, unknown, m, v);
  }
  if (keep)
    m = arith::SelectOp::create(b, unknown, keep, m,
                                builder.constant(FloatAttr::get(floatType, 0.0)));
  YieldOp::create(b, unknown, m);
  f.offsetSymbol = builder.getOffsetSymbol();
  f.headOffset = builder.getHeadOffset();
  return f;
}

bool seqpar::readsReduction(const PeeledDropout &peeled) {
  SmallVector<Value> work;
  for (const PeeledDropout::Term &term : peeled.terms)
    if (term.op)
      work.push_back(term.value);
  llvm::DenseSet<Value> seen;
  // A mask is a few ops from linalg.index; a bounded walk suffices.
  while (!work.empty() && seen.size() < 512) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      // A body's input: the tensor it reads.
      auto op = dyn_cast<linalg::LinalgOp>(arg.getOwner()->getParentOp());
      if (op && arg.getArgNumber() < unsigned(op.getNumDpsInputs()))
        work.push_back(op.getDpsInputOperand(arg.getArgNumber())->get());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(def)) {
      if (linalgOp.getNumReductionLoops() != 0)
        return true;
      for (OpOperand *input : linalgOp.getDpsInputOperands())
        work.push_back(input->get());
      if (Block *body = linalgOp.getBlock())
        work.push_back(body->getTerminator()->getOperand(
            cast<OpResult>(v).getResultNumber()));
      continue;
    }
    if (def)
      work.append(def->operand_begin(), def->operand_end());
  }
  return false;
}
