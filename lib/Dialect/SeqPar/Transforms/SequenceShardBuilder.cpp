//===- SequenceShardBuilder.cpp - IR for values sharded along s -----------===//

#include "SequenceShardBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"

using namespace mlir;
using namespace mlir::seqpar;

SequenceShardBuilder::SequenceShardBuilder(func::FuncOp func,
                                           FlatSymbolRefAttr grid,
                                           int16_t gridAxis, int64_t numRanks,
                                           int64_t seqLen)
    : func(func), grid(grid), gridAxis(gridAxis), numRanks(numRanks),
      seqLen(seqLen), localSeqLen((seqLen + numRanks - 1) / numRanks),
      paddedSeqLen(localSeqLen * numRanks) {}

RankedTensorType SequenceShardBuilder::localType(RankedTensorType global,
                                                 int64_t dim) const {
  SmallVector<int64_t> shape(global.getShape());
  // The dim holds outer * s * inner elements.
  shape[dim] = shape[dim] / seqLen * localSeqLen;
  return global.clone(shape);
}

int64_t SequenceShardBuilder::outerOf(RankedTensorType type, int64_t dim,
                                      int64_t inner) const {
  return type.getDimSize(dim) / (seqLen * inner);
}

Value SequenceShardBuilder::rank(OpBuilder &b) {
  if (!rankValue) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&func.getBody().front());
    rankValue = shard::ProcessMultiIndexOp::create(
                    b, func.getLoc(), TypeRange{b.getIndexType()},
                    grid.getValue(), ArrayRef<int16_t>{gridAxis})
                    .getResult()[0];
  }
  return rankValue;
}

Value SequenceShardBuilder::tokenOffset(OpBuilder &b, int64_t inner) {
  Value &offset = offsets[inner];
  if (!offset) {
    Value r = rank(b);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(r);
    Value stride =
        arith::ConstantIndexOp::create(b, func.getLoc(), localSeqLen * inner);
    offset = arith::MulIOp::create(b, func.getLoc(), r, stride);
  }
  return offset;
}

Value SequenceShardBuilder::globalIndex(OpBuilder &b, Location loc,
                                        Value local, int64_t outer,
                                        int64_t inner) {
  Value offset = tokenOffset(b, inner);
  if (outer == 1)
    return arith::AddIOp::create(b, loc, local, offset);
  int64_t localBlock = localSeqLen * inner;
  Value block = arith::ConstantIndexOp::create(b, loc, localBlock);
  Value globalBlock = arith::ConstantIndexOp::create(b, loc, seqLen * inner);
  Value outerIndex = arith::DivUIOp::create(b, loc, local, block);
  Value withinBlock = arith::RemUIOp::create(b, loc, local, block);
  Value base = arith::MulIOp::create(b, loc, outerIndex, globalBlock);
  Value shifted = arith::AddIOp::create(b, loc, withinBlock, offset);
  return arith::AddIOp::create(b, loc, base, shifted);
}

Value SequenceShardBuilder::splitOuter(OpBuilder &b, Location loc, Value value,
                                       int64_t dim, int64_t outer) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == dim) {
      groups.push_back({(int64_t)shape.size(), (int64_t)shape.size() + 1});
      shape.push_back(outer);
      shape.push_back(type.getDimSize(d) / outer);
    } else {
      groups.push_back({(int64_t)shape.size()});
      shape.push_back(type.getDimSize(d));
    }
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), value,
                                       groups);
}

Value SequenceShardBuilder::mergeOuter(OpBuilder &b, Location loc, Value value,
                                       int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == dim) {
      groups.push_back({d, d + 1});
      ++d;
    } else {
      groups.push_back({d});
    }
  }
  return tensor::CollapseShapeOp::create(b, loc, value, groups);
}

Value SequenceShardBuilder::padSequence(OpBuilder &b, Location loc,
                                       Value value, int64_t axis,
                                       int64_t inner) {
  if (!isPadded())
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] += (paddedSeqLen - seqLen) * inner;
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::createPadHighOp(type.clone(shape), value, zero,
                                 /*nofold=*/false, loc, b)
      .getResult();
}

Value SequenceShardBuilder::sliceAlong(OpBuilder &b, Location loc,
                                      Value value, int64_t axis,
                                      OpFoldResult offset, int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t extent : type.getShape())
    sizes.push_back(b.getIndexAttr(extent));
  offsets[axis] = offset;
  sizes[axis] = b.getIndexAttr(size);
  return tensor::ExtractSliceOp::create(b, loc, value, offsets, sizes,
                                        strides);
}

Value SequenceShardBuilder::localize(OpBuilder &b, Location loc, Value global,
                                     int64_t dim, int64_t inner) {
  Value &cached = localized[{global, dim}];
  if (cached)
    return cached;
  auto type = cast<RankedTensorType>(global.getType());
  RankedTensorType local = localType(type, dim);
  // Shape-only producers are rebuilt at the local shape.
  if (auto empty = global.getDefiningOp<tensor::EmptyOp>();
      empty && type.hasStaticShape())
    return cached = tensor::EmptyOp::create(b, loc, local.getShape(),
                                            local.getElementType());
  if (auto fill = global.getDefiningOp<linalg::FillOp>()) {
    auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
    if (empty && type.hasStaticShape()) {
      Value init = tensor::EmptyOp::create(b, loc, local.getShape(),
                                           local.getElementType());
      return cached = linalg::FillOp::create(b, loc, fill.getInputs()[0], init)
                          .getResult(0);
    }
  }
  int64_t outer = outerOf(type, dim, inner);
  Value source = outer > 1 ? splitOuter(b, loc, global, dim, outer) : global;
  int64_t seqAxis = outer > 1 ? dim + 1 : dim;
  source = padSequence(b, loc, source, seqAxis, inner);
  auto sourceType = cast<RankedTensorType>(source.getType());
  Value slice = sliceAlong(b, loc, source, seqAxis, tokenOffset(b, inner),
                           sourceType.getDimSize(seqAxis) / numRanks);
  return cached = outer > 1 ? mergeOuter(b, loc, slice, dim) : slice;
}

Value SequenceShardBuilder::reduceScatter(OpBuilder &b, Location loc,
                                          Value partial, SeqDim seq) {
  auto type = cast<RankedTensorType>(partial.getType());
  int64_t outer = outerOf(type, seq.dim, seq.inner);
  Value source =
      outer > 1 ? splitOuter(b, loc, partial, seq.dim, outer) : partial;
  int64_t axis = outer > 1 ? seq.dim + 1 : seq.dim;
  source = padSequence(b, loc, source, axis, seq.inner);
  auto sourceType = cast<RankedTensorType>(source.getType());
  // The view axis holds s' * inner elements (padded).
  SmallVector<int64_t> shape(sourceType.getShape());
  shape[axis] = shape[axis] / paddedSeqLen * localSeqLen;
  Value scattered = shard::ReduceScatterOp::create(
      b, loc, sourceType.clone(shape), grid,
      b.getDenseI16ArrayAttr({gridAxis}), source,
      shard::ReductionKindAttr::get(b.getContext(), shard::ReductionKind::Sum),
      b.getIndexAttr(axis));
  return outer > 1 ? mergeOuter(b, loc, scattered, seq.dim) : scattered;
}

Value SequenceShardBuilder::allGather(OpBuilder &b, Location loc, Value local,
                                      SeqDim seq) {
  auto type = cast<RankedTensorType>(local.getType());
  // Locally the sequence digit has ceil(s/t) elements.
  int64_t outer = type.getDimSize(seq.dim) / (localSeqLen * seq.inner);
  Value source = outer > 1 ? splitOuter(b, loc, local, seq.dim, outer) : local;
  int64_t axis = outer > 1 ? seq.dim + 1 : seq.dim;
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape(sourceType.getShape());
  shape[axis] *= numRanks;
  Value gathered = shard::AllGatherOp::create(
      b, loc, sourceType.clone(shape), grid, b.getDenseI16ArrayAttr({gridAxis}),
      source, b.getIndexAttr(axis));
  if (isPadded()) {
    // Drop the padding tokens at the end of the sequence digit.
    gathered = sliceAlong(b, loc, gathered, axis, b.getIndexAttr(0),
                          seqLen * seq.inner);
  }
  return outer > 1 ? mergeOuter(b, loc, gathered, seq.dim) : gathered;
}

static int64_t tensorBytes(RankedTensorType type) {
  return type.getNumElements() *
         ((type.getElementTypeBitWidth() + 7) / 8);
}

int64_t SequenceShardBuilder::allReduceBytes(RankedTensorType global) const {
  return 2 * tensorBytes(global) * (numRanks - 1) / numRanks;
}

int64_t
SequenceShardBuilder::gatherOrScatterBytes(RankedTensorType global) const {
  // The collective moves the padded tensor (s' tokens instead of s).
  return tensorBytes(global) / seqLen * paddedSeqLen * (numRanks - 1) /
         numRanks;
}
