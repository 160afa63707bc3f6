//===- ElementTrace.cpp - follow one element back through data movement ---===//

#include "seqpar/Analysis/ElementTrace.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace {

/// Coordinates of the same element in the operand of `op`, or nothing when
/// `op` does more than move elements.
std::optional<SmallVector<AffineExpr>>
stepBack(Operation *op, ArrayRef<AffineExpr> coords, Value &source) {
  MLIRContext *ctx = op->getContext();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    // Source dim of a group = row-major linearisation of its coordinates.
    RankedTensorType type = expand.getResultType();
    if (!type.hasStaticShape())
      return std::nullopt;
    SmallVector<AffineExpr> src;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      AffineExpr e = getAffineConstantExpr(0, ctx);
      for (int64_t d : group)
        e = e * type.getDimSize(d) + coords[d];
      src.push_back(e);
    }
    source = expand.getSrc();
    return src;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    RankedTensorType srcType = collapse.getSrcType();
    if (!srcType.hasStaticShape())
      return std::nullopt;
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
    source = collapse.getSrc();
    return src;
  }
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    SmallVector<AffineExpr> src;
    for (auto [d, e] : llvm::enumerate(coords))
      if (!llvm::is_contained(broadcast.getDimensions(), int64_t(d)))
        src.push_back(e);
    source = broadcast.getInput();
    return src;
  }
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    // result[d] = input[perm[d]].
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<AffineExpr> src(perm.size());
    for (auto [d, p] : llvm::enumerate(perm))
      src[p] = coords[d];
    source = transpose.getInput();
    return src;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // source[d] = offset[d] + result coordinate (unit strides); a dynamic
    // offset is the unknown symbol, so nothing built on it compares equal.
    if (!llvm::all_of(slice.getMixedStrides(), isOneInteger))
      return std::nullopt;
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<AffineExpr> src;
    unsigned next = 0;
    for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets())) {
      std::optional<int64_t> known = getConstantIntValue(offset);
      AffineExpr o = known ? getAffineConstantExpr(*known, ctx)
                           : getAffineSymbolExpr(0, ctx);
      src.push_back(dropped.test(d) ? o : o + coords[next++]);
    }
    source = slice.getSource();
    return src;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumResults() != 1 || generic.getNumReductionLoops() != 0)
    return std::nullopt;
  Block *body = generic.getBody();
  AffineMap out = generic.getIndexingMapsArray().back();
  if (body->getTerminator()->getOperand(0) != body->getArgument(0) ||
      !out.isPermutation() ||
      !isa<RankedTensorType>(generic.getDpsInputOperand(0)->get().getType()))
    return std::nullopt;
  SmallVector<AffineExpr> loops(generic.getNumLoops());
  for (auto [pos, expr] : llvm::enumerate(out.getResults()))
    loops[cast<AffineDimExpr>(expr).getPosition()] = coords[pos];
  SmallVector<AffineExpr> src;
  for (AffineExpr e : generic.getIndexingMapsArray()[0].getResults())
    src.push_back(e.replaceDims(loops));
  source = generic.getDpsInputOperand(0)->get();
  return src;
}

} // namespace

bool seqpar::hasUnknown(AffineExpr e) {
  bool found = false;
  e.walk([&](AffineExpr x) { found |= isa<AffineSymbolExpr>(x); });
  return found;
}

SmallVector<seqpar::TracedElement>
seqpar::traceElement(Value v, ArrayRef<AffineExpr> coords, unsigned numDims) {
  SmallVector<TracedElement> chain;
  SmallVector<AffineExpr> current;
  for (AffineExpr e : coords)
    current.push_back(simplifyAffineExpr(e, numDims, 1));
  chain.push_back({v, current});
  while (Operation *def = v.getDefiningOp()) {
    Value source;
    std::optional<SmallVector<AffineExpr>> back =
        stepBack(def, chain.back().coords, source);
    if (!back || chain.size() > 64)
      break;
    for (AffineExpr &e : *back)
      e = simplifyAffineExpr(e, numDims, 1);
    chain.push_back({source, std::move(*back)});
    v = source;
  }
  return chain;
}

bool seqpar::forEachPoint(ArrayRef<AffineExpr> exprs,
                          ArrayRef<int64_t> dimSizes, int64_t limit,
                          function_ref<bool(ArrayRef<AffineExpr> at)> visit) {
  if (exprs.empty())
    return visit({});
  MLIRContext *ctx = exprs.front().getContext();
  SmallVector<unsigned> used;
  int64_t points = 1;
  for (unsigned d = 0; d < dimSizes.size(); ++d) {
    if (llvm::none_of(exprs,
                      [&](AffineExpr e) { return e.isFunctionOfDim(d); }))
      continue;
    used.push_back(d);
    if (dimSizes[d] <= 0 || (points *= dimSizes[d]) > limit)
      return false;
  }
  SmallVector<AffineExpr> at(dimSizes.size(), getAffineConstantExpr(0, ctx));
  for (int64_t p = 0; p < points; ++p) {
    int64_t rest = p;
    for (unsigned d : used) {
      at[d] = getAffineConstantExpr(rest % dimSizes[d], ctx);
      rest /= dimSizes[d];
    }
    if (!visit(at))
      return false;
  }
  return true;
}

std::optional<int64_t> seqpar::evaluateAt(AffineExpr e,
                                          ArrayRef<AffineExpr> at) {
  auto c =
      dyn_cast<AffineConstantExpr>(simplifyAffineExpr(e.replaceDims(at), 0, 1));
  return c ? std::optional<int64_t>(c.getValue()) : std::nullopt;
}

bool seqpar::sameExpr(AffineExpr a, AffineExpr b, ArrayRef<int64_t> dimSizes) {
  if (hasUnknown(a) || hasUnknown(b))
    return false;
  AffineExpr diff = simplifyAffineExpr(a - b, dimSizes.size(), 0);
  if (auto c = dyn_cast<AffineConstantExpr>(diff))
    return c.getValue() == 0;
  return forEachPoint(
      diff, dimSizes, int64_t(1) << 20,
      [&](ArrayRef<AffineExpr> at) { return evaluateAt(diff, at) == 0; });
}
