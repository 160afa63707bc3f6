//===- DropoutMatch.cpp - dropout of attention probabilities --------------===//

#include "seqpar/Analysis/DropoutMatch.h"

#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/ElementTrace.h"
#include "seqpar/Analysis/SoftmaxMatch.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Elementwise ops between a dropped value and what it scales, at most.
constexpr int kMaxDepth = 8;

/// True when `v`, computed in `body`, reads `arg`.
bool reads(Value v, BlockArgument arg, Block *body) {
  SmallVector<Value> work{v};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == arg)
      return true;
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(x).second)
      continue;
    work.append(def->operand_begin(), def->operand_end());
  }
  return false;
}

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
      bool lhs = reads(mul.getLhs(), dataArg, body);
      bool rhs = reads(mul.getRhs(), dataArg, body);
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
    if (!select || reads(select.getCondition(), dataArg, body))
      return failure();
    auto isZero = [&](Value v) {
      std::optional<double> c = scalarOperand(v, op);
      return c && *c == 0.0;
    };
    bool keepWhenTrue;
    if (isZero(select.getFalseValue()) &&
        reads(select.getTrueValue(), dataArg, body))
      keepWhenTrue = true;
    else if (isZero(select.getTrueValue()) &&
             reads(select.getFalseValue(), dataArg, body))
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
    Value v = builder.bodyValue(term.op, term.value, term.loops);
    if (!v) {
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
