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
#include "mlir/IR/Matchers.h"

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
};
using SymPtr = std::shared_ptr<Sym>;

SymPtr evalTensor(Value v, ArrayRef<AffineExpr> coords, unsigned numDims,
                  int depth);

/// index, or an integer of at least 32 bits: holds any token position.
bool holdsPositions(Type type) {
  return type.isIndex() ||
         (type.isInteger() && type.getIntOrFloatBitWidth() >= 32);
}

/// Evaluates scalar `v` inside `op`'s body, whose loops are at `loops`.
SymPtr evalScalar(Value v, linalg::LinalgOp op, ArrayRef<AffineExpr> loops,
                  unsigned numDims, int depth) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != op.getBlock() ||
        arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
      return nullptr;
    OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
    if (!isa<RankedTensorType>(input->get().getType()))
      return nullptr;
    SmallVector<AffineExpr> coords;
    for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
      coords.push_back(e.replaceDims(loops));
    return evalTensor(input->get(), coords, numDims, depth + 1);
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
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    return index.getDim() < loops.size()
               ? std::make_shared<Sym>(
                     Sym{Sym::Position, 0, loops[index.getDim()]})
               : nullptr;
  // Casts keep a position only when no bits are lost (i1 or i4 positions
  // wrap: j % 2 <= i % 2 is not causal).
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return holdsPositions(def->getOperand(0).getType()) &&
                   holdsPositions(def->getResult(0).getType())
               ? evalScalar(def->getOperand(0), op, loops, numDims, depth)
               : nullptr;
  if (isa<arith::TruncFOp, arith::ExtFOp>(def))
    return evalScalar(def->getOperand(0), op, loops, numDims, depth);
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    auto s = std::make_shared<Sym>(Sym{Sym::Compare});
    s->predicate = cmp.getPredicate();
    s->a = evalScalar(cmp.getLhs(), op, loops, numDims, depth);
    s->b = evalScalar(cmp.getRhs(), op, loops, numDims, depth);
    return s->a && s->b ? s : nullptr;
  }
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    auto s = std::make_shared<Sym>(Sym{Sym::Select});
    s->a = evalScalar(select.getCondition(), op, loops, numDims, depth);
    s->b = evalScalar(select.getTrueValue(), op, loops, numDims, depth);
    s->c = evalScalar(select.getFalseValue(), op, loops, numDims, depth);
    return s->a && s->b && s->c ? s : nullptr;
  }
  return nullptr;
}

/// Evaluates element `coords` of tensor `v`.
SymPtr evalTensor(Value v, ArrayRef<AffineExpr> coords, unsigned numDims,
                  int depth) {
  if (depth > 32)
    return nullptr;
  TracedElement source = traceElement(v, coords, numDims).back();
  v = source.value;
  Operation *def = v.getDefiningOp();
  if (!def)
    return nullptr; // a function argument: data, not provably causal
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense))) {
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
                    numDims, depth);
}

bool isExpr(const SymPtr &s, AffineExpr want, ArrayRef<int64_t> dimSizes) {
  return s && s->kind == Sym::Position && sameExpr(s->position, want, dimSizes);
}

/// key <= query (true), key > query (false), or neither.
std::optional<bool> visibleWhenTrue(const SymPtr &cmp, AffineExpr query,
                                    AffineExpr key,
                                    ArrayRef<int64_t> dimSizes) {
  if (!cmp || cmp->kind != Sym::Compare)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P p = cmp->predicate;
  bool keyFirst =
      isExpr(cmp->a, key, dimSizes) && isExpr(cmp->b, query, dimSizes);
  bool queryFirst =
      isExpr(cmp->a, query, dimSizes) && isExpr(cmp->b, key, dimSizes);
  if ((keyFirst && (p == P::sle || p == P::ule)) ||
      (queryFirst && (p == P::sge || p == P::uge)))
    return true;
  if ((keyFirst && (p == P::sgt || p == P::ugt)) ||
      (queryFirst && (p == P::slt || p == P::ult)))
    return false;
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
  SymPtr s = evalTensor(mask, coords, dimSizes.size(), 0);
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
  return visibleWhenTrue(evalScalar(cond, op, loops, dimSizes.size(), 0), query,
                         key, dimSizes);
}
