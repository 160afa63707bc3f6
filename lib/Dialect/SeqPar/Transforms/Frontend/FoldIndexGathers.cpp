//===- FoldIndexGathers.cpp - gathers at arange/constant indices to slices ===//
//
// torch-mlir writes advanced indexing as a linalg.generic yielding a
// tensor.extract at indices read from index tensors. Where every index is a
// loop index or a constant, the op is a slice: rewritten to
// tensor.extract_slice so that the analyses see the dims it keeps
// (docs/import.md, "Gathers that are slices"). A gather that reads one dim
// at loop floordiv r or loop mod n and the others whole (a GQA repeat of
// K/V heads written as index_select or computed indices) is a repeat:
// rewritten to linalg.broadcast + tensor.collapse_shape, the form TP
// planning splits heads through.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "seqpar/Analysis/ElementTrace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace mlir::seqpar {
#define GEN_PASS_DEF_FOLDINDEXGATHERS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// A position along a dim, or a constant: an index of the gather (the
/// position along a loop) or every element of an index tensor (an arange
/// along one of its dims).
struct DimOrConstant {
  std::optional<unsigned> dim;
  int64_t constant = 0;
};

/// The dim whose position a body computes as its yielded value, when the
/// body is `yield cast(linalg.index d)`.
std::optional<unsigned> getYieldedIndexDim(linalg::GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  auto index = skipWideIntegerCasts(yield.getOperand(0))
                   .getDefiningOp<linalg::IndexOp>();
  if (!index)
    return std::nullopt;
  return index.getDim();
}

/// The dim of `result` that holds `group`'s one dim of extent > 1 (or its
/// only dim), the rest of the group being unit dims.
std::optional<unsigned> getNonUnitDimOfGroup(RankedTensorType type,
                                             ReassociationIndicesRef group) {
  std::optional<unsigned> found;
  for (int64_t dim : group) {
    if (type.getDimSize(dim) == 1)
      continue;
    if (found)
      return std::nullopt;
    found = dim;
  }
  if (!found && group.size() == 1)
    found = group.front();
  return found;
}

/// An arange along `dim` of `tensor`; the constant 0 when that dim has
/// extent 1 (a batch of one), so that no dim of it need be found later.
DimOrConstant getArange(Value tensor, unsigned dim) {
  if (cast<RankedTensorType>(tensor.getType()).getDimSize(dim) == 1)
    return DimOrConstant{std::nullopt, 0};
  return DimOrConstant{dim, 0};
}

/// What each element of `tensor` is, or nothing when unknown.
std::optional<DimOrConstant> traceIndexTensor(Value tensor) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  APInt splat;
  if (matchPattern(tensor, m_ConstantInt(&splat)))
    return DimOrConstant{std::nullopt, splat.getSExtValue()};
  Operation *def = tensor.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto generic = dyn_cast<linalg::GenericOp>(def)) {
    if (generic.getNumResults() != 1 ||
        !generic.getIndexingMapsArray().back().isIdentity())
      return std::nullopt;
    // A body yielding a constant: every element is it. torch-mlir writes
    // arange(1) (a batch of one) so, linalg.index of the unit dim folded.
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    APInt yielded;
    if (yield.getNumOperands() == 1 &&
        matchPattern(skipWideIntegerCasts(yield.getOperand(0)),
                     m_ConstantInt(&yielded)))
      return DimOrConstant{std::nullopt, yielded.getSExtValue()};
    std::optional<unsigned> dim = getYieldedIndexDim(generic);
    if (!dim)
      return std::nullopt;
    return getArange(tensor, *dim);
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
    std::optional<DimOrConstant> src = traceIndexTensor(expand.getSrc());
    if (!src || !src->dim)
      return src;
    ReassociationIndices group = expand.getReassociationIndices()[*src->dim];
    std::optional<unsigned> dim =
        getNonUnitDimOfGroup(expand.getResultType(), group);
    if (!dim)
      return std::nullopt;
    return getArange(tensor, *dim);
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
    std::optional<DimOrConstant> src = traceIndexTensor(collapse.getSrc());
    if (!src || !src->dim)
      return src;
    for (auto [result, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      if (!llvm::is_contained(group, *src->dim))
        continue;
      std::optional<unsigned> dim =
          getNonUnitDimOfGroup(collapse.getSrcType(), group);
      if (dim != *src->dim)
        return std::nullopt;
      return getArange(tensor, result);
    }
  }
  return std::nullopt;
}

/// Proves `v` (an integer or index in `op`'s body) a loop index or a
/// constant; `extent` is the size of the dim it indexes, for the wrap of
/// negative indices.
std::optional<DimOrConstant> evaluateIndex(linalg::GenericOp op, Value v,
                                           int64_t extent) {
  v = skipWideIntegerCasts(v);
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return DimOrConstant{std::nullopt, value.getSExtValue()};
  if (auto index = v.getDefiningOp<linalg::IndexOp>())
    return DimOrConstant{index.getDim(), 0};
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != op.getBody() ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return std::nullopt;
    OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
    std::optional<DimOrConstant> tensor = traceIndexTensor(input->get());
    if (!tensor)
      return std::nullopt;
    if (!tensor->dim)
      return DimOrConstant{std::nullopt, tensor->constant};
    AffineMap map = op.getMatchingIndexingMap(input);
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(*tensor->dim));
    if (!dim)
      return std::nullopt;
    return DimOrConstant{dim.getPosition(), 0};
  }
  // Negative indices wrapped: select(i < 0, i + extent, i).
  if (auto select = v.getDefiningOp<arith::SelectOp>()) {
    auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
    auto add = select.getTrueValue().getDefiningOp<arith::AddIOp>();
    Value raw = select.getFalseValue();
    APInt n;
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt ||
        cmp.getLhs() != raw || !matchPattern(cmp.getRhs(), m_Zero()) || !add)
      return std::nullopt;
    Value other = add.getLhs() == raw ? add.getRhs() : add.getLhs();
    if ((add.getLhs() != raw && add.getRhs() != raw) ||
        !matchPattern(other, m_ConstantInt(&n)) || n.getSExtValue() != extent)
      return std::nullopt;
    std::optional<DimOrConstant> inner = evaluateIndex(op, raw, extent);
    if (inner && !inner->dim && inner->constant < 0)
      inner->constant += extent; // a loop index is never negative
    return inner;
  }
  return std::nullopt;
}

/// The tensor.extract `op` yields when `op` is an element gather: one
/// result written at its own loop position (identity init map, the init
/// not read, no reduction), each element extracted in the body from a
/// tensor defined outside `op`; null otherwise.
tensor::ExtractOp getGatherExtract(linalg::GenericOp op) {
  if (op.getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 ||
      !op.getIndexingMapsArray().back().isIdentity() ||
      !op.getBody()->getArgument(op.getNumDpsInputs()).use_empty())
    return {};
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  auto extract = yield.getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getBlock() != op.getBody() ||
      extract.getTensor().getParentBlock() == op.getBody())
    return {};
  return extract;
}

/// The slice `op` computes, built before it; null when it is not one.
Value buildSlice(OpBuilder &b, linalg::GenericOp op) {
  tensor::ExtractOp extract = getGatherExtract(op);
  if (!extract)
    return Value();
  // The source, from outside the op, is a static tensor of the result's
  // element type.
  Value source = extract.getTensor();
  // A table the function takes (GPT-2's position embeddings read at
  // arange(s)) stays a lookup: as a slice its rows would count as a second
  // source of tokens for the sequence-dim inference.
  if (isa<BlockArgument>(source))
    return Value();
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!sourceType || !resultType || !sourceType.hasStaticShape() ||
      !resultType.hasStaticShape() ||
      sourceType.getElementType() != resultType.getElementType())
    return Value();
  SmallVector<int64_t> offsets, sizes;
  SmallVector<bool> loopRead(resultType.getRank(), false);
  int64_t lastLoop = -1;
  for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
    int64_t extent = sourceType.getDimSize(dim);
    std::optional<DimOrConstant> value = evaluateIndex(op, index, extent);
    if (!value)
      return Value();
    if (!value->dim) {
      if (value->constant < 0 || value->constant >= extent)
        return Value(); // out of bounds: the gather's own business
      offsets.push_back(value->constant);
      sizes.push_back(1);
      continue;
    }
    // Loops in order, each read once, within the source dim.
    int64_t loop = *value->dim;
    if (loop <= lastLoop || resultType.getDimSize(loop) > extent)
      return Value();
    lastLoop = loop;
    loopRead[loop] = true;
    offsets.push_back(0);
    sizes.push_back(resultType.getDimSize(loop));
  }
  // A loop no index reads would repeat the slice along it.
  for (auto [loop, read] : llvm::enumerate(loopRead))
    if (!read && resultType.getDimSize(loop) != 1)
      return Value();
  auto sliceType = RankedTensorType::get(sizes, sourceType.getElementType());
  // The slice and the result differ in unit dims only: through the shape of
  // their dims of extent > 1.
  SmallVector<int64_t> squeezedShape;
  for (int64_t size : sizes)
    if (size != 1)
      squeezedShape.push_back(size);
  auto squeezedType =
      RankedTensorType::get(squeezedShape, sourceType.getElementType());
  std::optional<SmallVector<ReassociationIndices>> collapse, expand;
  if (sliceType == resultType)
    squeezedType = resultType; // nothing to reshape
  else if (sliceType != squeezedType &&
           !(collapse =
                 getReassociationIndicesForReshape(sliceType, squeezedType)))
    return Value();
  if (squeezedType != resultType &&
      !(expand = getReassociationIndicesForReshape(squeezedType, resultType)))
    return Value();
  Location loc = op.getLoc();
  SmallVector<OpFoldResult> offsetAttrs, sizeAttrs,
      strideAttrs(sizes.size(), b.getIndexAttr(1));
  for (auto [offset, size] : llvm::zip(offsets, sizes)) {
    offsetAttrs.push_back(b.getIndexAttr(offset));
    sizeAttrs.push_back(b.getIndexAttr(size));
  }
  Value slice = tensor::ExtractSliceOp::create(
      b, loc, sliceType, source, offsetAttrs, sizeAttrs, strideAttrs);
  if (collapse)
    slice =
        tensor::CollapseShapeOp::create(b, loc, squeezedType, slice, *collapse);
  if (expand)
    slice = tensor::ExpandShapeOp::create(b, loc, resultType, slice, *expand);
  return slice;
}

/// One index of a repeat along a dim: loop `dim` floordiv `divisor` (each
/// source element `divisor` times in a row, torch's repeat_interleave: a GQA
/// repeat of K/V heads) or loop `dim` mod `modulus` (the source tiled).
struct RepeatIndex {
  unsigned dim;
  int64_t divisor = 0, modulus = 0;
};

/// Proves `v` (an index in `op`'s body reading a source dim of `extent`
/// into a result dim of `repeated`) a repeat index: computed (divui, divsi,
/// floordivsi, remui, remsi of a linalg.index by a constant) or read from a
/// constant 1-D index table at one loop whose entries are h floordiv r or
/// h mod extent.
std::optional<RepeatIndex> evaluateRepeatIndex(linalg::GenericOp op, Value v,
                                               int64_t extent,
                                               int64_t repeated) {
  if (extent <= 0 || repeated % extent != 0)
    return std::nullopt;
  int64_t r = repeated / extent;
  v = skipWideIntegerCasts(v);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != op.getBody() ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return std::nullopt;
    OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
    AffineMap map = op.getMatchingIndexingMap(input);
    DenseIntElementsAttr table;
    if (map.getNumResults() != 1 || !isa<AffineDimExpr>(map.getResult(0)) ||
        !matchPattern(input->get(), m_Constant(&table)) ||
        table.getType().getRank() != 1 ||
        table.getType().getDimSize(0) != repeated)
      return std::nullopt;
    unsigned dim = cast<AffineDimExpr>(map.getResult(0)).getPosition();
    SmallVector<int64_t> values;
    for (const APInt &x : table.getValues<APInt>())
      values.push_back(x.getSExtValue());
    auto all = [&](auto f) {
      for (auto [h, x] : llvm::enumerate(values))
        if (x != f(int64_t(h)))
          return false;
      return true;
    };
    if (all([&](int64_t h) { return h / r; }))
      return RepeatIndex{dim, r, 0};
    if (all([&](int64_t h) { return h % extent; }))
      return RepeatIndex{dim, 0, extent};
    return std::nullopt;
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  auto index = skipWideIntegerCasts(def->getOperand(0))
                   .getDefiningOp<linalg::IndexOp>();
  APInt c;
  if (!index || !matchPattern(def->getOperand(1), m_ConstantInt(&c)))
    return std::nullopt;
  // A loop index is never negative: signed and unsigned agree.
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(def) &&
      c.getSExtValue() == r)
    return RepeatIndex{unsigned(index.getDim()), r, 0};
  if (isa<arith::RemUIOp, arith::RemSIOp>(def) && c.getSExtValue() == extent)
    return RepeatIndex{unsigned(index.getDim()), 0, extent};
  return std::nullopt;
}

/// The repeat `op` computes (a gather reading every dim of its source at
/// the same loop, one of them at a repeat index), built before it as
/// linalg.broadcast + tensor.collapse_shape, the form TP planning follows
/// (the heads' split moves through it) and attention raising reads; null
/// when it is not one.
Value buildRepeat(OpBuilder &b, linalg::GenericOp op) {
  tensor::ExtractOp extract = getGatherExtract(op);
  if (!extract)
    return Value();
  Value source = extract.getTensor();
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!sourceType || !resultType || !sourceType.hasStaticShape() ||
      !resultType.hasStaticShape() ||
      sourceType.getElementType() != resultType.getElementType() ||
      sourceType.getRank() != resultType.getRank())
    return Value();
  std::optional<RepeatIndex> repeat;
  int64_t repeatDim = -1;
  for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
    int64_t extent = sourceType.getDimSize(dim);
    std::optional<DimOrConstant> value = evaluateIndex(op, index, extent);
    // Read whole at its own loop; a unit dim's index canonicalizes to the
    // constant 0 (a batch of one).
    bool whole = value && (value->dim == dim || (extent == 1 && !value->dim &&
                                                 value->constant == 0));
    if (whole && resultType.getDimSize(dim) == extent)
      continue;
    std::optional<RepeatIndex> r = evaluateRepeatIndex(
        op, index, extent, resultType.getDimSize(dim));
    if (repeat || !r || r->dim != dim || resultType.getDimSize(dim) == extent)
      return Value();
    repeat = r;
    repeatDim = dim;
  }
  if (!repeat)
    return Value();
  // repeat_interleave: [.., n, ..] -> [.., n, r, ..]; a tile: [.., r, n, ..].
  int64_t n = sourceType.getDimSize(repeatDim);
  int64_t r = resultType.getDimSize(repeatDim) / n;
  SmallVector<int64_t> shape(sourceType.getShape());
  int64_t newDim = repeat->divisor ? repeatDim + 1 : repeatDim;
  shape.insert(shape.begin() + newDim, r);
  Location loc = op.getLoc();
  Value init =
      tensor::EmptyOp::create(b, loc, shape, sourceType.getElementType());
  Value broadcast =
      linalg::BroadcastOp::create(b, loc, source, init,
                                  ArrayRef<int64_t>(newDim))->getResult(0);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < sourceType.getRank(); ++d) {
    if (d < repeatDim)
      groups.push_back({d});
    else if (d == repeatDim)
      groups.push_back({d, d + 1});
    else
      groups.push_back({d + 1});
  }
  return tensor::CollapseShapeOp::create(b, loc, resultType, broadcast,
                                         groups);
}

struct FoldIndexGathersPass
    : public mlir::seqpar::impl::FoldIndexGathersBase<FoldIndexGathersPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> gathers;
    getOperation().walk([&](linalg::GenericOp op) { gathers.push_back(op); });
    OpBuilder b(&getContext());
    bool changed = false;
    for (linalg::GenericOp op : gathers) {
      b.setInsertionPoint(op);
      Value folded = buildSlice(b, op);
      if (!folded)
        folded = buildRepeat(b, op);
      if (folded) {
        op->getResult(0).replaceAllUsesWith(folded);
        op->erase();
        changed = true;
      }
    }
    // Nothing changed: the pass manager need not verify the function again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
