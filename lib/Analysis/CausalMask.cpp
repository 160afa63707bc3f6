//===- CausalMask.cpp - is an attention mask the causal mask? -------------===//
//
// Symbolic evaluation of one mask element: each scalar becomes a small
// expression tree whose leaves are constants, affine expressions of the
// caller's dims (positions from linalg.index, moved through indexing maps and
// data movement, see ElementTrace.h) and elements of constant tables. The
// causal mask evaluates to select(key <= query, 0, negative) in some
// equivalent arrangement, or to a table holding that pattern.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/CausalMask.h"

#include "seqpar/Analysis/ElementTrace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// A symbolic scalar.
struct Sym {
  enum Kind { Float, Position, Compare, Select, Table } kind;
  double value = 0;                 // Float
  AffineExpr position;              // Position (integer)
  arith::CmpIPredicate predicate{}; // Compare
  std::shared_ptr<Sym> a, b, c;     // Compare (a, b), Select (a ? b : c)
  DenseElementsAttr table;          // Table: element at `coords`
  SmallVector<AffineExpr> coords;
  /// Position: plus runtime[k] times run-time scalar k (RuntimeScalars),
  /// all of it modulo 2^64.
  SmallVector<int64_t> runtime;
};
using SymPtr = std::shared_ptr<Sym>;

/// The integer scalars known only at run time (a decode step's length L) a
/// position may add, when the caller allows them (null: none, a position
/// is an affine expression of the dims).
struct RuntimeScalars {
  SmallVector<Value> values;
};

/// index or i64: a run-time position's arithmetic wraps as the affine sum
/// does modulo 2^64 (the lowering's index is 64 bits wide).
bool is64(Type type) { return type.isIndex() || type.isInteger(64); }

bool hasRuntime(const SymPtr &s) {
  return s && llvm::any_of(s->runtime, [](int64_t c) { return c != 0; });
}

/// The position that is run-time scalar `v` (an index or i64 scalar, or a
/// 0-d tensor holding one).
SymPtr runtimePosition(Value v, RuntimeScalars &rt) {
  auto *found = llvm::find(rt.values, v);
  size_t k = found - rt.values.begin();
  if (found == rt.values.end())
    rt.values.push_back(v);
  auto s = std::make_shared<Sym>(
      Sym{Sym::Position, 0, getAffineConstantExpr(0, v.getContext())});
  s->runtime.assign(k + 1, 0);
  s->runtime[k] = 1;
  return s;
}

/// a + sign * b of two positions (run-time terms included).
SymPtr addPositions(const SymPtr &a, const SymPtr &b, int64_t sign) {
  if (!a || !b || a->kind != Sym::Position || b->kind != Sym::Position)
    return nullptr;
  auto s = std::make_shared<Sym>(
      Sym{Sym::Position, 0, a->position + b->position * sign});
  s->runtime.assign(std::max(a->runtime.size(), b->runtime.size()), 0);
  for (auto [k, c] : llvm::enumerate(a->runtime))
    s->runtime[k] += c;
  for (auto [k, c] : llvm::enumerate(b->runtime))
    s->runtime[k] += sign * c;
  return s;
}

SymPtr evalTensor(Value v, ArrayRef<AffineExpr> coords, ArrayRef<int64_t> dimSizes,
                  int depth, RuntimeScalars *rt);

/// index, or an integer of at least 32 bits: holds any token position.
bool holdsPositions(Type type) {
  return type.isIndex() ||
         (type.isInteger() && type.getIntOrFloatBitWidth() >= 32);
}

/// The least and greatest values of `e` with dim d over [0, dimSizes[d]),
/// by interval arithmetic (exact for sums of dims times constants), or
/// nullopt for a symbol, a dynamic dim or an overflow of 64 bits.
std::optional<std::pair<int64_t, int64_t>>
exprRange(AffineExpr e, ArrayRef<int64_t> dimSizes) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return std::make_pair(c.getValue(), c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    if (d.getPosition() >= dimSizes.size() ||
        ShapedType::isDynamic(dimSizes[d.getPosition()]) ||
        dimSizes[d.getPosition()] < 1)
      return std::nullopt;
    return std::make_pair(int64_t(0), dimSizes[d.getPosition()] - 1);
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt;
  auto lhs = exprRange(bin.getLHS(), dimSizes);
  auto rhs = exprRange(bin.getRHS(), dimSizes);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (bin.getKind()) {
  case AffineExprKind::Add: {
    auto lo = llvm::checkedAdd(lhs->first, rhs->first);
    auto hi = llvm::checkedAdd(lhs->second, rhs->second);
    if (!lo || !hi)
      return std::nullopt;
    return std::make_pair(*lo, *hi);
  }
  case AffineExprKind::Mul: {
    // One side is a constant in an affine product: the extremes are
    // products of the ends.
    std::optional<int64_t> ends[4] = {
        llvm::checkedMul(lhs->first, rhs->first),
        llvm::checkedMul(lhs->first, rhs->second),
        llvm::checkedMul(lhs->second, rhs->first),
        llvm::checkedMul(lhs->second, rhs->second)};
    if (llvm::any_of(ends, [](auto x) { return !x; }))
      return std::nullopt;
    int64_t lo = *ends[0], hi = *ends[0];
    for (auto x : ends) {
      lo = std::min(lo, *x);
      hi = std::max(hi, *x);
    }
    return std::make_pair(lo, hi);
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    // Monotone in the dividend for a positive constant divisor.
    if (rhs->first != rhs->second || rhs->first <= 0)
      return std::nullopt;
    int64_t q = rhs->first;
    bool ceil = bin.getKind() == AffineExprKind::CeilDiv;
    auto div = [&](int64_t x) {
      return ceil ? llvm::divideCeilSigned(x, q) : llvm::divideFloorSigned(x, q);
    };
    return std::make_pair(div(lhs->first), div(lhs->second));
  }
  case AffineExprKind::Mod:
    if (rhs->first != rhs->second || rhs->first <= 0)
      return std::nullopt;
    return std::make_pair(int64_t(0), rhs->first - 1);
  default:
    return std::nullopt;
  }
}

/// Whether position `s` (no run-time terms) holds, at every point of the
/// dims, a value that integer type `type` (index: 64 bits) represents
/// signed, so arithmetic in `type` computed it without wrapping; with
/// `nonNegative`, also no value below 0 (an unsigned compare then orders
/// it as the integer it is).
bool fitsInteger(const SymPtr &s, Type type, ArrayRef<int64_t> dimSizes,
                 bool nonNegative = false) {
  if (!s || s->kind != Sym::Position || hasRuntime(s) ||
      hasUnknown(s->position))
    return false;
  auto range = exprRange(s->position, dimSizes);
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  if (!range || width < 2)
    return false;
  int64_t max = width >= 64 ? std::numeric_limits<int64_t>::max()
                            : (int64_t(1) << (width - 1)) - 1;
  return range->first >= (nonNegative ? 0 : -max - 1) && range->second <= max;
}

/// A float compare of two exact integers, as the integer compare it is
/// (no NaN can reach it: ordered and unordered forms agree).
std::optional<arith::CmpIPredicate>
integerPredicate(arith::CmpFPredicate p) {
  using F = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  switch (p) {
  case F::OEQ:
  case F::UEQ:
    return I::eq;
  case F::ONE:
  case F::UNE:
    return I::ne;
  case F::OLT:
  case F::ULT:
    return I::slt;
  case F::OLE:
  case F::ULE:
    return I::sle;
  case F::OGT:
  case F::UGT:
    return I::sgt;
  case F::OGE:
  case F::UGE:
    return I::sge;
  default:
    return std::nullopt;
  }
}

/// Evaluates scalar `v` inside `op`'s body, whose loops are at `loops`.
SymPtr evalScalar(Value v, Operation *op, ArrayRef<AffineExpr> loops,
                  ArrayRef<int64_t> dimSizes, int depth, RuntimeScalars *rt) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // An argument of an enclosing block (the function's L): the same at
    // every element.
    if (rt && !op->isAncestor(arg.getOwner()->getParentOp()))
      return is64(v.getType()) ? runtimePosition(v, *rt) : nullptr;
    // tensor.generate's body arguments are the element's indices.
    if (isa<tensor::GenerateOp>(op))
      return arg.getOwner() == &op->getRegion(0).front() &&
                     arg.getArgNumber() < loops.size()
                 ? std::make_shared<Sym>(
                       Sym{Sym::Position, 0, loops[arg.getArgNumber()]})
                 : nullptr;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || arg.getOwner() != linalgOp.getBlock() ||
        arg.getArgNumber() >= unsigned(linalgOp.getNumDpsInputs()))
      return nullptr;
    OpOperand *input = linalgOp.getDpsInputOperand(arg.getArgNumber());
    if (!isa<RankedTensorType>(input->get().getType()))
      return rt && is64(input->get().getType())
                 ? runtimePosition(input->get(), *rt)
                 : nullptr;
    SmallVector<AffineExpr> coords;
    for (AffineExpr e : linalgOp.getMatchingIndexingMap(input).getResults())
      coords.push_back(e.replaceDims(loops));
    return evalTensor(input->get(), coords, dimSizes, depth + 1, rt);
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return nullptr;
  FloatAttr f;
  IntegerAttr i;
  if (matchPattern(v, m_Constant(&f)))
    return std::make_shared<Sym>(Sym{Sym::Float, f.getValueAsDouble()});
  if (matchPattern(v, m_Constant(&i)))
    return std::make_shared<Sym>(Sym{
        Sym::Position, 0, getAffineConstantExpr(i.getInt(), v.getContext())});
  // A scalar computed outside the body is the same at every element: a
  // run-time position, when the caller allows them.
  if (rt && !op->isAncestor(def))
    return is64(v.getType()) ? runtimePosition(v, *rt) : nullptr;
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    return index.getDim() < loops.size()
               ? std::make_shared<Sym>(
                     Sym{Sym::Position, 0, loops[index.getDim()]})
               : nullptr;
  // Casts keep a position only when no bits are lost (i1 or i4 positions
  // wrap: j % 2 <= i % 2 is not causal); a run-time one only between 64-bit
  // types (its value may be any).
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(def)) {
    if (!holdsPositions(def->getOperand(0).getType()) ||
        !holdsPositions(def->getResult(0).getType()))
      return nullptr;
    SymPtr s = evalScalar(def->getOperand(0), op, loops, dimSizes, depth, rt);
    if (hasRuntime(s) && (!is64(def->getOperand(0).getType()) ||
                          !is64(def->getResult(0).getType())))
      return nullptr;
    // A known position must fit the result (a large constant cast to i32
    // wraps), and be non-negative through a zero extension.
    if (s && s->kind == Sym::Position && !hasRuntime(s) &&
        !hasUnknown(s->position) &&
        !fitsInteger(s, def->getResult(0).getType(), dimSizes,
                     isa<arith::ExtUIOp>(def)))
      return nullptr;
    return s;
  }
  // Sums of positions: only with run-time scalars allowed (a decode step's
  // L + j), in 64 bits, where they wrap as the affine sum modulo 2^64.
  if (rt && isa<arith::AddIOp, arith::SubIOp>(def) && is64(v.getType()))
    return addPositions(
        evalScalar(def->getOperand(0), op, loops, dimSizes, depth, rt),
        evalScalar(def->getOperand(1), op, loops, dimSizes, depth, rt),
        isa<arith::AddIOp>(def) ? 1 : -1);
  // Sums of positions known at compile time (j - i, i + 1): the affine
  // sum, where the type holds every value it takes (no wrap).
  if (isa<arith::AddIOp, arith::SubIOp>(def) && holdsPositions(v.getType())) {
    SymPtr sum = addPositions(
        evalScalar(def->getOperand(0), op, loops, dimSizes, depth, rt),
        evalScalar(def->getOperand(1), op, loops, dimSizes, depth, rt),
        isa<arith::AddIOp>(def) ? 1 : -1);
    return fitsInteger(sum, v.getType(), dimSizes) ? sum : nullptr;
  }
  // A position converted to a float it fits exactly (|x| <= 2^digits, 2^24
  // for f32, 2^8 for bf16) stays that integer.
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(def)) {
    Value in = def->getOperand(0);
    SymPtr s = evalScalar(in, op, loops, dimSizes, depth, rt);
    auto floatType = dyn_cast<FloatType>(v.getType());
    if (!floatType || !fitsInteger(s, in.getType(), dimSizes,
                                   isa<arith::UIToFPOp>(def)))
      return nullptr;
    int64_t exact = int64_t(1)
                    << std::min(62u, llvm::APFloat::semanticsPrecision(
                                         floatType.getFloatSemantics()));
    auto range = exprRange(s->position, dimSizes);
    return range->first >= -exact && range->second <= exact ? s : nullptr;
  }
  if (isa<arith::TruncFOp, arith::ExtFOp>(def)) {
    SymPtr s = evalScalar(def->getOperand(0), op, loops, dimSizes, depth, rt);
    // A position truncated to a narrower float may round.
    return s && s->kind == Sym::Position && isa<arith::TruncFOp>(def)
               ? nullptr
               : s;
  }
  if (auto cmp = dyn_cast<arith::CmpFOp>(def)) {
    auto s = std::make_shared<Sym>(Sym{Sym::Compare});
    std::optional<arith::CmpIPredicate> p =
        integerPredicate(cmp.getPredicate());
    s->a = evalScalar(cmp.getLhs(), op, loops, dimSizes, depth, rt);
    s->b = evalScalar(cmp.getRhs(), op, loops, dimSizes, depth, rt);
    // Only positions compare as integers (a float constant need not be one).
    if (!p || !s->a || !s->b || s->a->kind != Sym::Position ||
        s->b->kind != Sym::Position)
      return nullptr;
    s->predicate = *p;
    return s;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    auto s = std::make_shared<Sym>(Sym{Sym::Compare});
    s->predicate = cmp.getPredicate();
    s->a = evalScalar(cmp.getLhs(), op, loops, dimSizes, depth, rt);
    s->b = evalScalar(cmp.getRhs(), op, loops, dimSizes, depth, rt);
    // A run-time position is compared as the 64-bit value it wraps to.
    if ((hasRuntime(s->a) || hasRuntime(s->b)) &&
        !is64(cmp.getLhs().getType()))
      return nullptr;
    return s->a && s->b ? s : nullptr;
  }
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    auto s = std::make_shared<Sym>(Sym{Sym::Select});
    s->a = evalScalar(select.getCondition(), op, loops, dimSizes, depth, rt);
    s->b = evalScalar(select.getTrueValue(), op, loops, dimSizes, depth, rt);
    s->c = evalScalar(select.getFalseValue(), op, loops, dimSizes, depth, rt);
    return s->a && s->b && s->c ? s : nullptr;
  }
  return nullptr;
}

/// Evaluates element `coords` of tensor `v`.
SymPtr evalTensor(Value v, ArrayRef<AffineExpr> coords, ArrayRef<int64_t> dimSizes,
                  int depth, RuntimeScalars *rt) {
  if (depth > 32)
    return nullptr;
  TracedElement source = traceElement(v, coords, dimSizes.size()).back();
  v = source.value;
  Operation *def = v.getDefiningOp();
  // A 0-d integer tensor that is not a constant (a decode step's length
  // argument): one run-time position, when the caller allows them.
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (rt && type && type.getRank() == 0 && is64(type.getElementType()) &&
      !matchPattern(v, m_Constant()))
    return runtimePosition(v, *rt);
  if (!def)
    return nullptr; // a function argument: data, not provably causal
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense))) {
    // An integer splat is a constant position (a length fixed at export).
    if (rt && dense.isSplat() && is64(dense.getElementType()))
      return std::make_shared<Sym>(
          Sym{Sym::Position, 0,
              getAffineConstantExpr(
                  dense.getSplatValue<APInt>().getSExtValue(),
                  v.getContext())});
    if (!isa<FloatType>(dense.getElementType()))
      return nullptr;
    if (dense.isSplat())
      return std::make_shared<Sym>(
          Sym{Sym::Float, dense.getSplatValue<APFloat>().convertToDouble()});
    auto s = std::make_shared<Sym>(Sym{Sym::Table});
    s->table = dense;
    s->coords = source.coords;
    return s;
  }
  // A static tensor.generate: its body at the element's coordinates.
  if (auto generate = dyn_cast<tensor::GenerateOp>(def)) {
    if (!generate.getDynamicExtents().empty() ||
        source.coords.size() != generate.getType().getRank())
      return nullptr;
    return evalScalar(generate.getBody().front().getTerminator()->getOperand(0),
                      generate, source.coords, dimSizes, depth, rt);
  }
  auto op = dyn_cast<linalg::LinalgOp>(def);
  // The output map must be a permutation so loops follow from coords.
  if (!op || op->getNumResults() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getIndexingMapsArray().back().isPermutation())
    return nullptr;
  AffineMap out = op.getIndexingMapsArray().back();
  SmallVector<AffineExpr> loops(op.getNumLoops());
  for (auto [pos, expr] : llvm::enumerate(out.getResults()))
    loops[cast<AffineDimExpr>(expr).getPosition()] = source.coords[pos];
  return evalScalar(op.getBlock()->getTerminator()->getOperand(0), op, loops,
                    dimSizes, depth, rt);
}

bool isExpr(const SymPtr &s, AffineExpr want, ArrayRef<int64_t> dimSizes) {
  return s && s->kind == Sym::Position && !hasRuntime(s) &&
         sameExpr(s->position, want, dimSizes);
}

/// key <= query (true), key > query (false), or neither, for a compare of
/// two positions a P b. a - b must be +-(key - query) + c for a constant c
/// (k <= q, q >= k, k < q + 1, k - q > 0, ...); an ordering predicate of
/// such a linear function of d = key - query is a threshold in d, so it is
/// the causal split exactly when it holds at d = 0 and not at d = 1 (or the
/// reverse). Unsigned predicates need both sides non-negative.
std::optional<bool> visibleWhenTrue(const SymPtr &cmp, AffineExpr query,
                                    AffineExpr key,
                                    ArrayRef<int64_t> dimSizes) {
  if (!cmp || cmp->kind != Sym::Compare)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P p = cmp->predicate;
  const SymPtr &a = cmp->a, &b = cmp->b;
  if (p == P::eq || p == P::ne || !a || !b || a->kind != Sym::Position ||
      b->kind != Sym::Position || hasRuntime(a) || hasRuntime(b))
    return std::nullopt;
  bool isUnsigned = p == P::ult || p == P::ule || p == P::ugt || p == P::uge;
  if (isUnsigned) {
    auto ra = exprRange(a->position, dimSizes);
    auto rb = exprRange(b->position, dimSizes);
    if (!ra || !rb || ra->first < 0 || rb->first < 0)
      return std::nullopt;
  }
  for (int64_t sign : {1, -1}) {
    std::optional<int64_t> c = constantDifference(
        a->position - b->position, (key - query) * sign, dimSizes);
    if (!c || std::abs(*c) > (int64_t(1) << 40))
      continue;
    // a - b = sign * d + c; the predicate of (a - b) against 0.
    auto holds = [&](int64_t d) {
      int64_t x = sign * d + *c;
      switch (p) {
      case P::slt:
      case P::ult:
        return x < 0;
      case P::sle:
      case P::ule:
        return x <= 0;
      case P::sgt:
      case P::ugt:
        return x > 0;
      default:
        return x >= 0;
      }
    };
    if (holds(0) != holds(1))
      return holds(0);
  }
  return std::nullopt;
}

/// A constant table holding 0 at key <= query and negatives elsewhere: its
/// largest negative, read at every point of the dims its coords use.
std::optional<double> causalTable(const Sym &t, AffineExpr query,
                                  AffineExpr key, ArrayRef<int64_t> dimSizes) {
  auto type = cast<ShapedType>(t.table.getType());
  auto values = t.table.getValues<APFloat>();
  SmallVector<AffineExpr> exprs{query, key};
  exprs.append(t.coords.begin(), t.coords.end());
  std::optional<double> masked;
  bool causal = forEachPoint(exprs, dimSizes, int64_t(1) << 22,
                             [&](ArrayRef<AffineExpr> at) {
                               int64_t linear = 0;
                               for (auto [d, e] : llvm::enumerate(t.coords)) {
                                 std::optional<int64_t> x = evaluateAt(e, at);
                                 if (!x || *x < 0 || *x >= type.getDimSize(d))
                                   return false;
                                 linear = linear * type.getDimSize(d) + *x;
                               }
                               std::optional<int64_t> q = evaluateAt(query, at),
                                                      k = evaluateAt(key, at);
                               if (!q || !k)
                                 return false;
                               double v = values[linear].convertToDouble();
                               if (*k <= *q ? v != 0.0 : !(v < 0.0))
                                 return false;
                               if (*k > *q)
                                 masked = masked ? std::max(*masked, v) : v;
                               return true;
                             });
  return causal ? masked : std::nullopt;
}

} // namespace

std::optional<double> seqpar::causalMaskValue(Value mask,
                                              ArrayRef<AffineExpr> coords,
                                              AffineExpr query, AffineExpr key,
                                              ArrayRef<int64_t> dimSizes) {
  SymPtr s = evalTensor(mask, coords, dimSizes, 0, nullptr);
  if (s && s->kind == Sym::Table)
    return causalTable(*s, query, key, dimSizes);
  if (!s || s->kind != Sym::Select)
    return std::nullopt;
  std::optional<bool> visible = visibleWhenTrue(s->a, query, key, dimSizes);
  if (!visible)
    return std::nullopt;
  const SymPtr &shown = *visible ? s->b : s->c;
  const SymPtr &hidden = *visible ? s->c : s->b;
  if (!shown || shown->kind != Sym::Float || shown->value != 0.0 || !hidden ||
      hidden->kind != Sym::Float || !(hidden->value < 0.0))
    return std::nullopt;
  return hidden->value;
}

std::optional<bool> seqpar::causalCondition(Value cond, linalg::LinalgOp op,
                                            ArrayRef<AffineExpr> loops,
                                            AffineExpr query, AffineExpr key,
                                            ArrayRef<int64_t> dimSizes) {
  return visibleWhenTrue(
      evalScalar(cond, op, loops, dimSizes, 0, nullptr), query, key,
      dimSizes);
}

FailureOr<RuntimeCausalMask>
seqpar::runtimeCausalMask(Value mask, ArrayRef<AffineExpr> coords,
                          AffineExpr query, AffineExpr key,
                          ArrayRef<int64_t> dimSizes, std::string &why) {
  RuntimeScalars rt;
  SymPtr s = evalTensor(mask, coords, dimSizes, 0, &rt);
  if (!s || s->kind != Sym::Select || !s->a || s->a->kind != Sym::Compare) {
    why = "the mask is not select(compare(key position, query position), 0, "
          "c) of positions and run-time integers (an argument, data, or "
          "ops it is not followed through)";
    return failure();
  }
  const Sym &cmp = *s->a;
  // The compared position that is not the key: the query's.
  using P = arith::CmpIPredicate;
  P p = cmp.predicate;
  bool keyFirst = isExpr(cmp.a, key, dimSizes);
  bool keySecond = !keyFirst && isExpr(cmp.b, key, dimSizes);
  const SymPtr &other = keyFirst ? cmp.b : cmp.a;
  // Key first: k <= q shows, k > q hides; query first: q >= k shows, q < k
  // hides. Strict forms (k < q + 1) are not recognised.
  std::optional<bool> visible;
  if ((keyFirst && (p == P::sle || p == P::ule)) ||
      (keySecond && (p == P::sge || p == P::uge)))
    visible = true;
  if ((keyFirst && (p == P::sgt || p == P::ugt)) ||
      (keySecond && (p == P::slt || p == P::ult)))
    visible = false;
  if (!visible || !other || other->kind != Sym::Position ||
      hasUnknown(other->position)) {
    why = "the mask's condition is not key <= q or key > q (in either "
          "order) of the key position and a query position q";
    return failure();
  }
  // q may read the query dim and run-time integers, nothing else (a
  // position per batch or head is not one tensor of query positions); a
  // dim of size 1 is 0 (reshapes of unit dims leave them in the coords).
  MLIRContext *ctx = mask.getContext();
  SmallVector<AffineExpr> unitDimsZero;
  for (auto [d, size] : llvm::enumerate(dimSizes))
    unitDimsZero.push_back(size == 1 ? getAffineConstantExpr(0, ctx)
                                     : getAffineDimExpr(d, ctx));
  AffineExpr position = simplifyAffineExpr(
      other->position.replaceDims(unitDimsZero), dimSizes.size(), 0);
  bool onlyQuery = true;
  position.walk([&](AffineExpr e) {
    if (isa<AffineDimExpr>(e))
      onlyQuery &= e == query;
  });
  if (!onlyQuery) {
    why = "the mask's query position reads other dims than the query's";
    return failure();
  }
  const SymPtr &shown = *visible ? s->b : s->c;
  const SymPtr &hidden = *visible ? s->c : s->b;
  if (!shown || shown->kind != Sym::Float || shown->value != 0.0 || !hidden ||
      hidden->kind != Sym::Float || !(hidden->value < 0.0)) {
    why = "the mask does not add 0 to the visible keys and a negative "
          "constant to the others";
    return failure();
  }
  RuntimeCausalMask result;
  result.hidden = hidden->value;
  result.queryPosition = position;
  for (auto [k, c] : llvm::enumerate(other->runtime))
    if (c != 0)
      result.runtime.push_back({rt.values[k], c});
  result.isSigned = p == P::sle || p == P::sgt || p == P::sge || p == P::slt;
  return result;
}

//===----------------------------------------------------------------------===//
// Bounds on a mask's values
//===----------------------------------------------------------------------===//

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::optional<MaskBounds> tensorBounds(Value v, int depth);

/// `x` as the program holds it in `type`: rounded to a float type (beyond
/// its largest value, +-inf), or clamped to an integer type's signed range.
double roundTo(double x, Type type) {
  if (std::isinf(x))
    return x;
  if (auto ft = dyn_cast<FloatType>(type)) {
    APFloat f(x);
    bool lost;
    f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return f.convertToDouble();
  }
  return x;
}

/// Every value of integer type `type`, read as signed (i1: -1 and 0).
MaskBounds integerRange(Type type) {
  if (type.isIndex())
    return {-kInf, kInf};
  unsigned w = type.getIntOrFloatBitWidth();
  return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1) - 1};
}

/// The bounds of `a op b` for each corner, or nullopt when one is NaN.
std::optional<MaskBounds> corners(MaskBounds a, MaskBounds b,
                                  double (*f)(double, double)) {
  double c[] = {f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)};
  if (llvm::any_of(c, [](double x) { return std::isnan(x); }))
    return std::nullopt;
  return MaskBounds{*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
}

/// Bounds on scalar `v`, computed in `op`'s body (or outside any body when
/// `op` is null: a constant).
std::optional<MaskBounds> scalarBounds(Value v, linalg::LinalgOp op,
                                       int depth) {
  if (depth > 32)
    return std::nullopt;
  Type type = v.getType();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (!op || arg.getOwner() != op.getBlock() ||
        arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
      return std::nullopt; // the op's output: an accumulator, not a mask
    Value input = op.getDpsInputOperand(arg.getArgNumber())->get();
    if (isa<RankedTensorType>(input.getType()))
      return tensorBounds(input, depth + 1);
    return scalarBounds(input, nullptr, depth + 1);
  }
  FloatAttr f;
  IntegerAttr i;
  if (matchPattern(v, m_Constant(&f))) {
    double x = f.getValueAsDouble();
    if (std::isnan(x))
      return std::nullopt;
    return MaskBounds{x, x};
  }
  if (matchPattern(v, m_Constant(&i))) {
    double x = type.isInteger(1) && i.getValue().isOne()
                   ? -1.0
                   : double(i.getValue().getSExtValue());
    return MaskBounds{x, x};
  }
  Operation *def = v.getDefiningOp();
  if (!def || !op || def->getBlock() != op.getBlock()) {
    // Integers computed anywhere hold at most their type's values.
    if (type.isIntOrIndex())
      return integerRange(type);
    return std::nullopt;
  }
  auto operand = [&](unsigned k) {
    return scalarBounds(def->getOperand(k), op, depth);
  };
  if (isa<linalg::IndexOp>(def))
    return MaskBounds{0, kInf};
  if (isa<arith::CmpIOp, arith::CmpFOp>(def))
    return MaskBounds{-1, 0}; // i1 read as signed
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    std::optional<MaskBounds> a = operand(1), b = operand(2);
    if (!a || !b)
      return std::nullopt;
    return MaskBounds{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
  }
  if (isa<arith::SIToFPOp, arith::UIToFPOp, arith::ExtFOp, arith::TruncFOp,
          arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(def)) {
    std::optional<MaskBounds> a = operand(0);
    if (!a)
      return std::nullopt;
    Type from = def->getOperand(0).getType();
    if (isa<arith::UIToFPOp, arith::ExtUIOp>(def) && a->lo < 0)
      // Unsigned: a negative signed value reads as up to 2^w - 1.
      a = MaskBounds{0, std::ldexp(1.0, from.getIntOrFloatBitWidth()) - 1};
    return MaskBounds{roundTo(a->lo, type), roundTo(a->hi, type)};
  }
  if (isa<arith::NegFOp>(def)) {
    std::optional<MaskBounds> a = operand(0);
    if (!a)
      return std::nullopt;
    return MaskBounds{-a->hi, -a->lo};
  }
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::MaximumFOp, arith::MinimumFOp>(def)) {
    std::optional<MaskBounds> a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    std::optional<MaskBounds> r;
    if (isa<arith::AddFOp>(def))
      r = corners(*a, *b, [](double x, double y) { return x + y; });
    else if (isa<arith::SubFOp>(def))
      r = corners(*a, *b, [](double x, double y) { return x - y; });
    else if (isa<arith::MulFOp>(def))
      r = corners(*a, *b, [](double x, double y) { return x * y; });
    else if (isa<arith::DivFOp>(def)) {
      if (b->lo <= 0 && b->hi >= 0)
        return std::nullopt; // a divisor that may be 0
      r = corners(*a, *b, [](double x, double y) { return x / y; });
    } else if (isa<arith::MaximumFOp>(def))
      r = MaskBounds{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    else
      r = MaskBounds{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    if (!r)
      return std::nullopt;
    return MaskBounds{roundTo(r->lo, type), roundTo(r->hi, type)};
  }
  if (type.isIntOrIndex())
    return integerRange(type);
  return std::nullopt;
}

std::optional<MaskBounds> tensorBounds(Value v, int depth) {
  if (depth > 32)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return std::nullopt;
  Type elem = type.getElementType();
  Operation *def = v.getDefiningOp();
  if (!def)
    // A function argument: any integer of its type, an unknown float.
    return elem.isIntOrIndex() ? std::optional(integerRange(elem))
                               : std::nullopt;
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense))) {
    MaskBounds b{kInf, -kInf};
    if (isa<FloatType>(elem)) {
      for (APFloat x : dense.getValues<APFloat>()) {
        double d = x.convertToDouble();
        if (std::isnan(d))
          return std::nullopt;
        b = {std::min(b.lo, d), std::max(b.hi, d)};
      }
    } else if (elem.isInteger()) {
      for (APInt x : dense.getValues<APInt>()) {
        double d = elem.isInteger(1) && x.isOne() ? -1.0
                                                  : double(x.getSExtValue());
        b = {std::min(b.lo, d), std::max(b.hi, d)};
      }
    } else {
      return std::nullopt;
    }
    return b;
  }
  // Data movement: the values of its source.
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
          tensor::ExtractSliceOp, tensor::CastOp>(def))
    return tensorBounds(def->getOperand(0), depth + 1);
  if (isa<tensor::InsertSliceOp, tensor::ConcatOp>(def)) {
    MaskBounds b{kInf, -kInf};
    for (Value in : def->getOperands()) {
      if (!isa<RankedTensorType>(in.getType()))
        continue;
      std::optional<MaskBounds> x = tensorBounds(in, depth + 1);
      if (!x)
        return std::nullopt;
      b = {std::min(b.lo, x->lo), std::max(b.hi, x->hi)};
    }
    return b;
  }
  auto op = dyn_cast<linalg::LinalgOp>(def);
  if (!op || op->getNumResults() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getBlock())
    return std::nullopt;
  return scalarBounds(op.getBlock()->getTerminator()->getOperand(0), op,
                      depth + 1);
}

} // namespace

std::optional<MaskBounds> seqpar::maskBounds(Value mask) {
  return tensorBounds(mask, 0);
}

std::optional<MaskBounds> seqpar::maskBounds(Value value,
                                             linalg::LinalgOp op) {
  return scalarBounds(value, op, 0);
}
