//===- CausalMask.cpp - is an additive mask the causal mask? --------------===//
//
// Symbolic evaluation of one mask element at coordinates (d0, d1, d2, d3):
// each scalar becomes a small expression tree whose leaves are constants and
// affine expressions of the coordinates (positions from linalg.index, moved
// through indexing maps and reshapes). The causal mask evaluates to
// select(cmp(d3, d2), 0, -big) (or an equivalent arrangement).
//
//===----------------------------------------------------------------------===//

#include "CausalMask.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <memory>

using namespace mlir;

namespace {

/// A symbolic scalar.
struct Sym {
  enum Kind { Float, Position, Compare, Select } kind;
  double value = 0;                 // Float
  AffineExpr position;              // Position (integer)
  arith::CmpIPredicate predicate{}; // Compare
  std::shared_ptr<Sym> a, b, c;     // Compare (a, b), Select (a ? b : c)
};
using SymPtr = std::shared_ptr<Sym>;

SymPtr evalTensor(Value v, ArrayRef<AffineExpr> coords, int depth);

/// Evaluates scalar `v` inside `generic`'s body, whose loops are at `loops`.
SymPtr evalScalar(Value v, linalg::GenericOp generic,
                  ArrayRef<AffineExpr> loops, int depth) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != generic.getBody() ||
        arg.getArgNumber() >= generic.getNumDpsInputs())
      return nullptr;
    OpOperand *input = generic.getDpsInputOperand(arg.getArgNumber());
    AffineMap map = generic.getMatchingIndexingMap(input);
    SmallVector<AffineExpr> coords;
    for (AffineExpr e : map.getResults())
      coords.push_back(e.replaceDims(loops));
    if (!isa<RankedTensorType>(input->get().getType()))
      return nullptr;
    return evalTensor(input->get(), coords, depth + 1);
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return nullptr;
  FloatAttr f;
  IntegerAttr i;
  if (matchPattern(v, m_Constant(&f)))
    return std::make_shared<Sym>(Sym{Sym::Float, f.getValueAsDouble()});
  if (matchPattern(v, m_Constant(&i)))
    return std::make_shared<Sym>(Sym{
        Sym::Position, 0, getAffineConstantExpr(i.getInt(), v.getContext())});
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return index.getDim() < loops.size()
               ? std::make_shared<Sym>(
                     Sym{Sym::Position, 0, loops[index.getDim()]})
               : nullptr;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncFOp,
          arith::ExtFOp>(op))
    return evalScalar(op->getOperand(0), generic, loops, depth);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    auto s = std::make_shared<Sym>(Sym{Sym::Compare});
    s->predicate = cmp.getPredicate();
    s->a = evalScalar(cmp.getLhs(), generic, loops, depth);
    s->b = evalScalar(cmp.getRhs(), generic, loops, depth);
    return s->a && s->b ? s : nullptr;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    auto s = std::make_shared<Sym>(Sym{Sym::Select});
    s->a = evalScalar(select.getCondition(), generic, loops, depth);
    s->b = evalScalar(select.getTrueValue(), generic, loops, depth);
    s->c = evalScalar(select.getFalseValue(), generic, loops, depth);
    return s->a && s->b && s->c ? s : nullptr;
  }
  return nullptr;
}

/// Evaluates element `coords` of tensor `v`.
SymPtr evalTensor(Value v, ArrayRef<AffineExpr> coords, int depth) {
  if (depth > 32)
    return nullptr;
  MLIRContext *ctx = v.getContext();
  Operation *op = v.getDefiningOp();
  if (!op)
    return nullptr; // a function argument: data, not provably causal
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat()) {
    Attribute splat = dense.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(splat))
      return std::make_shared<Sym>(Sym{Sym::Float, f.getValueAsDouble()});
    return nullptr;
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    // The output map must be a permutation so loops follow from coords.
    AffineMap out = generic.getIndexingMapsArray().back();
    if (generic.getNumResults() != 1 || generic.getNumReductionLoops() != 0 ||
        !out.isPermutation())
      return nullptr;
    SmallVector<AffineExpr> loops(generic.getNumLoops());
    for (auto [pos, expr] : llvm::enumerate(out.getResults()))
      loops[cast<AffineDimExpr>(expr).getPosition()] = coords[pos];
    return evalScalar(generic.getBody()->getTerminator()->getOperand(0),
                      generic, loops, depth);
  }
  auto type = cast<RankedTensorType>(v.getType());
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    // Source dim g = row-major linearisation of its group's coordinates.
    SmallVector<AffineExpr> src;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      AffineExpr e = getAffineConstantExpr(0, ctx);
      for (int64_t d : group)
        e = e * type.getDimSize(d) + coords[d];
      src.push_back(e);
    }
    return evalTensor(expand.getSrc(), src, depth + 1);
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    RankedTensorType srcType = collapse.getSrcType();
    SmallVector<AffineExpr> src(srcType.getRank());
    for (auto [g, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      AffineExpr rest = coords[g];
      for (int64_t k = group.size() - 1; k >= 0; --k) {
        int64_t size = srcType.getDimSize(group[k]);
        src[group[k]] = k == 0 ? rest : rest % size;
        rest = rest.floorDiv(size);
      }
    }
    return evalTensor(collapse.getSrc(), src, depth + 1);
  }
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    SmallVector<AffineExpr> src;
    for (auto [d, e] : llvm::enumerate(coords))
      if (!llvm::is_contained(broadcast.getDimensions(), int64_t(d)))
        src.push_back(e);
    return evalTensor(broadcast.getInput(), src, depth + 1);
  }
  return nullptr;
}

/// `expr` simplified equals dim `dim` of the mask coordinates.
bool isCoord(const SymPtr &s, unsigned dim) {
  return s && s->kind == Sym::Position &&
         simplifyAffineExpr(s->position, 4, 0) ==
             getAffineDimExpr(dim, s->position.getContext());
}

bool isFloat(const SymPtr &s, bool zero) {
  if (!s || s->kind != Sym::Float)
    return false;
  return zero ? s->value == 0.0 : s->value <= -1e30;
}

} // namespace

bool mlir::seqpar::isCausalMask(Value mask) {
  auto type = dyn_cast<RankedTensorType>(mask.getType());
  if (!type || type.getRank() != 4)
    return false;
  MLIRContext *ctx = mask.getContext();
  SmallVector<AffineExpr> coords;
  for (unsigned d = 0; d < 4; ++d)
    coords.push_back(type.getDimSize(d) == 1 ? getAffineConstantExpr(0, ctx)
                                             : getAffineDimExpr(d, ctx));
  SymPtr s = evalTensor(mask, coords, 0);
  if (!s || s->kind != Sym::Select || !s->a || s->a->kind != Sym::Compare)
    return false;
  // visible(i = d2, j = d3): j <= i, written either way round.
  using P = arith::CmpIPredicate;
  const SymPtr &lhs = s->a->a, &rhs = s->a->b;
  P p = s->a->predicate;
  bool jFirst = isCoord(lhs, 3) && isCoord(rhs, 2);
  bool iFirst = isCoord(lhs, 2) && isCoord(rhs, 3);
  bool visibleWhenTrue = (jFirst && (p == P::sle || p == P::ule)) ||
                         (iFirst && (p == P::sge || p == P::uge));
  bool hiddenWhenTrue = (jFirst && (p == P::sgt || p == P::ugt)) ||
                        (iFirst && (p == P::slt || p == P::ult));
  if (visibleWhenTrue)
    return isFloat(s->b, true) && isFloat(s->c, false);
  if (hiddenWhenTrue)
    return isFloat(s->b, false) && isFloat(s->c, true);
  return false;
}
