//===- IndexFunction.cpp - an element as a function of its indices --------===//

#include "seqpar/Analysis/IndexFunction.h"

#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/ElementTrace.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Ops emitted for one function at most: a splitmix or Philox hash is a few
/// dozen; past this the value is not a mask of positions.
constexpr int64_t kMaxOps = 4096;

/// The region's dims: batch, head (local Hl until materialised, then the
/// global H), query, key, and the head dim the function must not read.
enum RegionDim : unsigned { kBatch, kHead, kQuery, kKey, kHeadDim, kNumDims };

bool usesDim(AffineExpr e, unsigned d) { return e.isFunctionOfDim(d); }

/// `e` with the head dim replaced by `head`, simplified.
AffineExpr withHead(AffineExpr e, AffineExpr head) {
  return simplifyAffineExpr(
      e.replace(getAffineDimExpr(kHead, e.getContext()), head), kNumDims, 1);
}

bool usesSymbol(AffineExpr e) {
  bool found = false;
  e.walk([&](AffineExpr x) { found |= isa<AffineSymbolExpr>(x); });
  return found;
}

std::vector<const void *> keyOf(ArrayRef<AffineExpr> exprs) {
  std::vector<const void *> key;
  for (AffineExpr e : exprs)
    key.push_back(e.getAsOpaquePointer());
  return key;
}

/// True when the rank-dependent indices `a` and `b` are equal on every rank
/// (the same offset computed twice: TP's slices of separate tensors).
bool sameOverRanks(Value a, Value b) {
  if (a == b)
    return true;
  SmallVector<int64_t> x = valuesOverRanks(a);
  return !x.empty() && x == valuesOverRanks(b);
}

std::string describe(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return "argument #" + std::to_string(arg.getArgNumber()) + " of its block";
  return "'" + v.getDefiningOp()->getName().getStringRef().str() + "'";
}

/// A linear expression: coefficient per dim (and the symbol, at index
/// kNumDims) and a constant.
struct Linear {
  SmallVector<int64_t, 6> coefficients = SmallVector<int64_t, 6>(kNumDims + 1);
  int64_t constant = 0;
};

std::optional<Linear> linear(AffineExpr e) {
  Linear l;
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    l.constant = c.getValue();
    return l;
  }
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    if (d.getPosition() >= kNumDims)
      return std::nullopt;
    l.coefficients[d.getPosition()] = 1;
    return l;
  }
  if (isa<AffineSymbolExpr>(e)) {
    l.coefficients[kNumDims] = 1;
    return l;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  std::optional<Linear> a = linear(bin.getLHS()), b = linear(bin.getRHS());
  if (!a || !b)
    return std::nullopt;
  if (e.getKind() == AffineExprKind::Add) {
    for (unsigned k = 0; k <= kNumDims; ++k)
      a->coefficients[k] += b->coefficients[k];
    a->constant += b->constant;
    return a;
  }
  if (e.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  // An affine product has a constant side.
  if (llvm::any_of(b->coefficients, [](int64_t c) { return c != 0; }))
    std::swap(a, b);
  if (llvm::any_of(b->coefficients, [](int64_t c) { return c != 0; }))
    return std::nullopt;
  for (int64_t &c : a->coefficients)
    c *= b->constant;
  a->constant *= b->constant;
  return a;
}

/// `e` with floordiv and mod by a constant c > 0 of x = c * q + r resolved
/// where the dims' extents `sizes` put r in [0, c): x floordiv c = q,
/// x mod c = r (b * a + h with h < a). The symbol may be in q only.
AffineExpr simplifyWithRanges(AffineExpr e, ArrayRef<int64_t> sizes) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  MLIRContext *ctx = e.getContext();
  AffineExpr l = simplifyWithRanges(bin.getLHS(), sizes);
  AffineExpr r = simplifyWithRanges(bin.getRHS(), sizes);
  auto c = dyn_cast<AffineConstantExpr>(r);
  bool divides = e.getKind() == AffineExprKind::FloorDiv ||
                 e.getKind() == AffineExprKind::Mod;
  std::optional<Linear> x = linear(l);
  if (divides && c && c.getValue() > 0 && x) {
    int64_t n = c.getValue();
    AffineExpr quotient = getAffineConstantExpr(0, ctx);
    AffineExpr rest = getAffineConstantExpr(x->constant, ctx);
    int64_t low = x->constant, high = x->constant;
    bool bounded = true;
    for (unsigned k = 0; k <= kNumDims; ++k) {
      int64_t coefficient = x->coefficients[k];
      if (coefficient == 0)
        continue;
      AffineExpr term = k == kNumDims ? getAffineSymbolExpr(0, ctx)
                                      : getAffineDimExpr(k, ctx);
      if (coefficient % n == 0) {
        quotient = quotient + term * (coefficient / n);
        continue;
      }
      if (k == kNumDims || sizes[k] < 1) {
        bounded = false;
        break;
      }
      rest = rest + term * coefficient;
      int64_t extreme = coefficient * (sizes[k] - 1);
      (extreme < 0 ? low : high) += extreme;
    }
    if (bounded && low >= 0 && high < n)
      return simplifyAffineExpr(
          e.getKind() == AffineExprKind::FloorDiv ? quotient : rest,
          kNumDims, 1);
  }
  return simplifyAffineExpr(getAffineBinaryOpExpr(e.getKind(), l, r),
                            kNumDims, 1);
}

} // namespace

IndexFunctionBuilder::IndexFunctionBuilder(Block *body,
                                           ArrayRef<AffineExpr> toRegion,
                                           ArrayRef<int64_t> dimSizes,
                                           ArrayRef<int64_t> regionSizes)
    // The body's region may have no parent op yet: the context from a type.
    : body(body), builder(body->getArgument(0).getContext()),
      toRegion(toRegion.begin(), toRegion.end()),
      dimSizes(dimSizes.begin(), dimSizes.end()),
      regionSizes(regionSizes.begin(), regionSizes.end()) {
  builder.setInsertionPointToEnd(body);
}

Value IndexFunctionBuilder::fail(const Twine &why) {
  if (reason.empty())
    reason = why.str();
  return Value();
}

Value IndexFunctionBuilder::position(AffineExpr e) {
  if (!reason.empty())
    return Value();
  return materialize(simplifyWithRanges(
      simplifyAffineExpr(e.replaceDims(toRegion), kNumDims, 1), regionSizes));
}

Value IndexFunctionBuilder::constant(TypedAttr value) {
  Value &c = constants[value.getAsOpaquePointer()];
  if (!c) {
    c = arith::ConstantOp::create(builder, builder.getUnknownLoc(), value);
    ++emitted;
  }
  return c;
}

Value IndexFunctionBuilder::element(Value v, ArrayRef<AffineExpr> coords) {
  if (!reason.empty())
    return Value();
  if (emitted > kMaxOps)
    return fail("it needs more than " + Twine(kMaxOps) + " ops");
  auto key = std::make_pair(v.getAsOpaquePointer(), keyOf(coords));
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  // Data movement moves elements: the tensor that computes this one.
  SmallVector<TracedElement> chain = traceElement(v, coords, dimSizes.size());
  TracedElement source = chain.back();
  if (llvm::any_of(source.coords, hasUnknown)) {
    // The trace's unknown s0 is a slice's dynamic offset: allowed when every
    // such offset is the rank's offset (TP slicing a mask's heads), which is
    // then this function's s0 too.
    for (const TracedElement &te : chain) {
      auto slice = te.value.getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice)
        continue;
      for (Value offset : slice.getOffsets()) {
        if (offsetSymbol ? !sameOverRanks(offset, offsetSymbol)
                         : valuesOverRanks(offset).empty())
          return fail("it reads a slice at an offset computed at run time");
        if (!offsetSymbol)
          offsetSymbol = offset;
      }
    }
  }
  Value result;
  DenseElementsAttr table;
  auto op = source.value.getDefiningOp<linalg::LinalgOp>();
  if (matchPattern(source.value, m_Constant(&table))) {
    if (!table.isSplat())
      return fail("it reads an element of a constant table (not a splat)");
    result = constant(cast<TypedAttr>(table.getSplatValue<Attribute>()));
  } else if (op && op.getNumReductionLoops() != 0) {
    return fail("it reads " + describe(source.value) +
                ", a reduction (computed from other elements)");
  } else if (op && op.getBlock()) {
    // Each loop of the op at the coordinate its result dim holds.
    unsigned r = cast<OpResult>(source.value).getResultNumber();
    AffineMap out = op.getIndexingMapMatchingResult(cast<OpResult>(source.value));
    SmallVector<AffineExpr> loops(op.getNumLoops());
    for (auto [k, e] : llvm::enumerate(out.getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(e))
        loops[d.getPosition()] = source.coords[k];
    if (llvm::any_of(loops, [](AffineExpr e) { return !e; }))
      return fail("it reads " + describe(source.value) +
                  " through a loop its result does not index");
    result = bodyValue(op, op.getBlock()->getTerminator()->getOperand(r),
                       loops);
  } else if (isa<BlockArgument>(source.value)) {
    return fail("it reads " + describe(source.value) +
                " (a function argument: data, not a position)");
  } else {
    return fail("it reads " + describe(source.value) +
                ", which is not arithmetic on positions");
  }
  if (result)
    memo[key] = result;
  return result;
}

std::optional<AffineExpr>
IndexFunctionBuilder::indexExpr(linalg::LinalgOp op, Value x,
                                ArrayRef<AffineExpr> loops, int depth) {
  if (!x.getType().isIndex() || depth > 16)
    return std::nullopt;
  MLIRContext *ctx = x.getContext();
  IntegerAttr c;
  if (matchPattern(x, m_Constant(&c)))
    return getAffineConstantExpr(c.getInt(), ctx);
  Operation *def = x.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (def->getBlock() != op.getBlock()) {
    // A rank-dependent value captured by the op: TP's offset of a split
    // loop (or the rank it is computed from).
    if (valuesOverRanks(x).empty() ||
        (offsetSymbol && !sameOverRanks(offsetSymbol, x)))
      return std::nullopt;
    if (!offsetSymbol)
      offsetSymbol = x;
    return getAffineSymbolExpr(0, ctx);
  }
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    if (index.getDim() >= loops.size())
      return std::nullopt;
    return simplifyWithRanges(loops[index.getDim()].replaceDims(toRegion),
                              regionSizes);
  }
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return std::nullopt;
  std::optional<AffineExpr> l = indexExpr(op, def->getOperand(0), loops,
                                          depth + 1);
  std::optional<AffineExpr> r =
      l ? indexExpr(op, def->getOperand(1), loops, depth + 1) : std::nullopt;
  if (!r)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return simplifyWithRanges(*l + *r, regionSizes);
  if (isa<arith::SubIOp>(def))
    return simplifyWithRanges(*l - *r, regionSizes);
  // Affine products need a constant side.
  if (!isa<AffineConstantExpr>(*l) && !isa<AffineConstantExpr>(*r))
    return std::nullopt;
  return simplifyWithRanges(*l * *r, regionSizes);
}

Value IndexFunctionBuilder::materialize(AffineExpr e) {
  MLIRContext *ctx = e.getContext();
  if (regionSizes[kHead] == 1) {
    // One local head: Hl is 0 wherever the function is evaluated, and the
    // IR may hold it with any coefficient (TP's flattened b * 1 + Hl scaled
    // by the global head count) or not at all. Read it as 0, and next to
    // the rank's offset as the one head: e(Hl = 0) + Hl has the same value
    // and cancels s0 below exactly when the index is the global head plus a
    // part free of s0.
    e = withHead(e, getAffineConstantExpr(0, ctx));
    if (usesSymbol(e))
      e = e + getAffineDimExpr(kHead, ctx);
  }
  if (usesSymbol(e) && !headOffset) {
    if (usedLocalHead)
      return fail("it reads the rank's local head position as well as the "
                  "rank's offset");
    // The first index with the rank's offset fixes the head offset: the
    // part of it that moves with the rank.
    headOffset = simplifyAffineExpr(
        e - e.replaceSymbols({getAffineConstantExpr(0, ctx)}), kNumDims, 1);
    for (unsigned d = 0; d < kNumDims; ++d)
      if (usesDim(headOffset, d))
        return fail("it reads the rank's offset other than as an offset of "
                    "the head position");
  }
  if (headOffset) {
    e = withHead(e, getAffineDimExpr(kHead, ctx) - headOffset);
    // The global head's extent is unknown: no range simplification now.
    if (usesSymbol(e))
      return fail("it reads the rank's offset other than as an offset of "
                  "the head position");
  } else if (usesDim(e, kHead)) {
    usedLocalHead = true;
  }
  if (usesDim(e, kHeadDim))
    return fail("it reads the head-dim position");
  return emitExpr(e);
}

Value IndexFunctionBuilder::emitExpr(AffineExpr e) {
  Value &known = exprs[e.getAsOpaquePointer()];
  if (known)
    return known;
  Location loc = builder.getUnknownLoc();
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return known = constant(builder.getIndexAttr(c.getValue()));
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return known = body->getArgument(d.getPosition());
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return fail("it reads an index the function cannot compute");
  Value l = emitExpr(bin.getLHS());
  Value r = l ? emitExpr(bin.getRHS()) : Value();
  if (!r)
    return Value();
  ++emitted;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return known = arith::AddIOp::create(builder, loc, l, r);
  case AffineExprKind::Mul:
    return known = arith::MulIOp::create(builder, loc, l, r);
  case AffineExprKind::FloorDiv:
    return known = arith::FloorDivSIOp::create(builder, loc, l, r);
  case AffineExprKind::CeilDiv:
    return known = arith::CeilDivSIOp::create(builder, loc, l, r);
  case AffineExprKind::Mod: {
    // Affine mod (r > 0) is never negative: remsi, plus r where it is.
    Value rem = arith::RemSIOp::create(builder, loc, l, r);
    Value zero = constant(builder.getIndexAttr(0));
    Value negative = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, rem, zero);
    Value up = arith::AddIOp::create(builder, loc, rem, r);
    return known = arith::SelectOp::create(builder, loc, negative, up, rem);
  }
  default:
    return fail("it reads an index the function cannot compute");
  }
}

Value IndexFunctionBuilder::bodyValue(linalg::LinalgOp op, Value x,
                                      ArrayRef<AffineExpr> loops) {
  if (!reason.empty())
    return Value();
  auto key = std::make_pair(x.getAsOpaquePointer(), keyOf(loops));
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  Block *opBody = op.getBlock();
  Value result;
  if (auto arg = dyn_cast<BlockArgument>(x); arg && arg.getOwner() == opBody) {
    if (arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
      return fail("it reads the output of " + describe(op->getResult(0)) +
                  " (an accumulation)");
    OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
    if (isa<RankedTensorType>(input->get().getType())) {
      SmallVector<AffineExpr> coords;
      for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
        coords.push_back(
            simplifyAffineExpr(e.replaceDims(loops), dimSizes.size(), 1));
      result = element(input->get(), coords);
    } else {
      // A scalar input (linalg.fill's value): computed outside.
      result = bodyValue(op, input->get(), loops);
    }
  } else if (std::optional<AffineExpr> e = indexExpr(op, x, loops, 0)) {
    result = materialize(*e);
  } else {
    Operation *def = x.getDefiningOp();
    TypedAttr c;
    if (!def)
      return fail("it reads " + describe(x) +
                  " (a function argument: data, not a position)");
    if (matchPattern(x, m_Constant(&c))) {
      result = constant(c);
    } else if (def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
               !isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                   def->getDialect())) {
      return fail("it reads " + describe(x) +
                  ", which is not side-effect-free arithmetic (arith, "
                  "math) on positions");
    } else {
      // Computed in the body, or outside it from constants: its operands
      // first (a captured value is read at the same loops, which it does
      // not use).
      IRMapping mapping;
      for (Value operand : def->getOperands()) {
        Value v = bodyValue(op, operand, loops);
        if (!v)
          return Value();
        mapping.map(operand, v);
      }
      Operation *clone = builder.clone(*def, mapping);
      clone->setLoc(builder.getUnknownLoc());
      ++emitted;
      for (auto [old, now] : llvm::zip(def->getResults(), clone->getResults()))
        memo[std::make_pair(old.getAsOpaquePointer(), keyOf(loops))] = now;
      result = clone->getResult(cast<OpResult>(x).getResultNumber());
    }
  }
  if (result)
    memo[key] = result;
  return result;
}

IndexFunction IndexFunction::create(MLIRContext *ctx, Location loc) {
  IndexFunction f;
  f.region = std::make_shared<Region>();
  Block *block = new Block();
  f.region->push_back(block);
  Type index = IndexType::get(ctx);
  for (int k = 0; k < 4; ++k)
    block->addArgument(index, loc);
  return f;
}

bool IndexFunction::sameAs(const IndexFunction &other) const {
  bool sameOffset = offsetSymbol && other.offsetSymbol
                        ? sameOverRanks(offsetSymbol, other.offsetSymbol)
                        : offsetSymbol == other.offsetSymbol;
  return region && other.region && sameOffset &&
         headOffset == other.headOffset &&
         sameAttentionDropout(*region, *other.region);
}
