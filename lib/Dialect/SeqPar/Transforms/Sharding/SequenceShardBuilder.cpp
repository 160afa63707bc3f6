//===- SequenceShardBuilder.cpp - IR for values sharded along s -----------===//

#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/UnusedInits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

SequenceShardBuilder::SequenceShardBuilder(func::FuncOp func,
                                           FlatSymbolRefAttr grid,
                                           int16_t gridAxis, int64_t numRanks,
                                           int64_t seqLen, bool zigzag)
    : SequenceShardBuilder(func, grid, ArrayRef<int16_t>{gridAxis},
                           ArrayRef<int64_t>{numRanks}, seqLen, zigzag) {}

SequenceShardBuilder::SequenceShardBuilder(func::FuncOp func,
                                           FlatSymbolRefAttr grid,
                                           ArrayRef<int16_t> gridAxes,
                                           ArrayRef<int64_t> axisSizes,
                                           int64_t seqLen, bool zigzag)
    : func(func), grid(grid), gridAxes(gridAxes), axisSizes(axisSizes),
      numRanks(1), seqLen(seqLen), zigzag(zigzag) {
  for (int64_t size : axisSizes)
    numRanks *= size;
  // Zigzag chunks are s'/(2t) tokens: a rank holds an even number.
  int64_t pieces = zigzag ? 2 * numRanks : numRanks;
  localSeqLen = (seqLen + pieces - 1) / pieces * (pieces / numRanks);
  paddedSeqLen = localSeqLen * numRanks;
}

SequenceShardBuilder &SequenceShardBuilder::forLength(int64_t tokens) {
  if (tokens == seqLen)
    return *this;
  std::unique_ptr<SequenceShardBuilder> &other = otherLengths[tokens];
  if (!other) {
    other = std::make_unique<SequenceShardBuilder>(func, grid, gridAxes,
                                                   axisSizes, tokens, zigzag);
    // One set of rank queries at the function start serves every length.
    OpBuilder b(func.getContext());
    rank(b);
    other->rankValue = rankValue;
    other->axisRanks = axisRanks;
  }
  return *other;
}

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

/// The point after the constants that open `block`. The canonicalizer
/// moves every constant it meets before the first op that is not one; the
/// rank's ops and constants are created around that point so that the
/// clean-up after the rewrite moves nothing (and the pass manager need not
/// verify the module again, docs/benchmarks.md §1).
static Block::iterator afterLeadingConstants(Block &block) {
  return llvm::find_if(block, [](Operation &op) {
    return !op.hasTrait<OpTrait::ConstantLike>();
  });
}

void SequenceShardBuilder::createRanks(OpBuilder &b) {
  OpBuilder::InsertionGuard guard(b);
  Block &entry = func.getBody().front();
  b.setInsertionPoint(&entry, afterLeadingConstants(entry));
  Location loc = func.getLoc();
  SmallVector<Value> sizes;
  for (unsigned i = 1; i < gridAxes.size(); ++i)
    sizes.push_back(arith::ConstantIndexOp::create(b, loc, axisSizes[i]));
  SmallVector<Type> types(gridAxes.size(), b.getIndexType());
  auto coords = shard::ProcessMultiIndexOp::create(b, loc, types,
                                                   grid.getValue(), gridAxes);
  axisRanks.assign(coords.getResults().begin(), coords.getResults().end());
  // Row-major over the axes, as the runtime numbers a group.
  rankValue = axisRanks.front();
  for (unsigned i = 1; i < axisRanks.size(); ++i)
    rankValue = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, rankValue, sizes[i - 1]),
        axisRanks[i]);
}

Value SequenceShardBuilder::rank(OpBuilder &b) {
  if (!rankValue)
    createRanks(b);
  return rankValue;
}

Value SequenceShardBuilder::axisRank(OpBuilder &b, unsigned i) {
  if (!rankValue)
    createRanks(b);
  return axisRanks[i];
}

Value SequenceShardBuilder::tokenOffset(OpBuilder &b, int64_t inner) {
  Value &offset = offsets[inner];
  if (!offset) {
    Value r = rank(b);
    // rank * 1 is the rank (as the clean-up would fold it).
    if (localSeqLen * inner == 1)
      return offset = r;
    OpBuilder::InsertionGuard guard(b);
    Block &entry = func.getBody().front();
    b.setInsertionPoint(&entry, afterLeadingConstants(entry));
    Value stride =
        arith::ConstantIndexOp::create(b, func.getLoc(), localSeqLen * inner);
    b.setInsertionPointAfterValue(r);
    offset = arith::MulIOp::create(b, func.getLoc(), r, stride);
  }
  return offset;
}

Value SequenceShardBuilder::globalToken(OpBuilder &b, Location loc, Value rank,
                                        Value localToken) {
  Value tokens = arith::ConstantIndexOp::create(b, loc, localSeqLen);
  if (!zigzag)
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, rank, tokens), localToken);
  // half = s/(2t); second = localToken / half (0 or 1);
  // chunk = rank + second * (2t-1 - 2*rank).
  Value half = arith::ConstantIndexOp::create(b, loc, localSeqLen / 2);
  Value second = arith::DivUIOp::create(b, loc, localToken, half);
  Value within = arith::RemUIOp::create(b, loc, localToken, half);
  Value last = arith::ConstantIndexOp::create(b, loc, 2 * numRanks - 1);
  Value twice = arith::AddIOp::create(b, loc, rank, rank);
  Value mirror = arith::SubIOp::create(b, loc, last, twice);
  Value chunk = arith::AddIOp::create(
      b, loc, rank, arith::MulIOp::create(b, loc, second, mirror));
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, chunk, half), within);
}

Value SequenceShardBuilder::positionTensor(
    OpBuilder &b, Location loc, int64_t n,
    function_ref<Value(OpBuilder &, Location, Value)> position) {
  Value init = tensor::EmptyOp::create(b, loc, {n}, b.getIndexType());
  AffineMap identity = b.getMultiDimIdentityMap(1);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{identity},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
             [&](OpBuilder &nb, Location nloc, ValueRange) {
               Value i = linalg::IndexOp::create(nb, nloc, 0);
               linalg::YieldOp::create(nb, nloc, position(nb, nloc, i));
             })
      .getResult(0);
}

Value SequenceShardBuilder::globalIndex(OpBuilder &b, Location loc, Value local,
                                        int64_t outer, int64_t inner) {
  if (zigzag) {
    // Row of the flattened dim, token digit, and the part below it.
    Value row, within = local;
    if (outer > 1) {
      Value rowLen =
          arith::ConstantIndexOp::create(b, loc, localSeqLen * inner);
      row = arith::DivUIOp::create(b, loc, local, rowLen);
      within = arith::RemUIOp::create(b, loc, local, rowLen);
    }
    Value token = within, rest;
    if (inner > 1) {
      Value stride = arith::ConstantIndexOp::create(b, loc, inner);
      token = arith::DivUIOp::create(b, loc, within, stride);
      rest = arith::RemUIOp::create(b, loc, within, stride);
    }
    Value global = globalToken(b, loc, rank(b), token);
    if (inner > 1) {
      Value stride = arith::ConstantIndexOp::create(b, loc, inner);
      global = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, global, stride), rest);
    }
    if (outer > 1) {
      Value globalRow = arith::ConstantIndexOp::create(b, loc, seqLen * inner);
      global = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, row, globalRow), global);
    }
    return global;
  }
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

Value SequenceShardBuilder::padSequence(OpBuilder &b, Location loc, Value value,
                                        int64_t axis, int64_t inner) {
  if (!isPadded())
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] += (paddedSeqLen - seqLen) * inner;
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::createPadHighOp(type.clone(shape), value, zero,
                                 /*nofold=*/false, loc, b)
      .getResult();
}

Value SequenceShardBuilder::sliceAlong(OpBuilder &b, Location loc, Value value,
                                       int64_t axis, OpFoldResult offset,
                                       int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t extent : type.getShape())
    sizes.push_back(b.getIndexAttr(extent));
  offsets[axis] = offset;
  sizes[axis] = b.getIndexAttr(size);
  return tensor::ExtractSliceOp::create(b, loc, value, offsets, sizes, strides);
}

Value SequenceShardBuilder::localize(OpBuilder &b, Location loc, Value global,
                                     int64_t dim, int64_t inner) {
  std::pair<Value, int64_t> key{global, dim};
  if (auto it = localized.find(key); it != localized.end())
    return it->second.first;
  Value local = buildLocal(b, loc, global, dim, inner);
  localized[key] = {local, inner};
  return local;
}

void SequenceShardBuilder::eraseUnusedShapeOnlyGlobals() {
  llvm::SetVector<Operation *> globals;
  for (auto &[key, local] : localized)
    if (Operation *def = key.first.getDefiningOp();
        isa_and_nonnull<tensor::EmptyOp, linalg::FillOp>(def))
      globals.insert(def);
  localized.clear();
  eraseUnusedInits(globals.getArrayRef());
  for (auto &[length, other] : otherLengths)
    other->eraseUnusedShapeOnlyGlobals();
}

void SequenceShardBuilder::markSequenceBlocks(const DenseSet<Value> &globals) {
  for (auto &[key, local] : localized)
    if (globals.contains(key.first))
      markSequenceBlock(local.first,
                        StridedDim{key.second, local.second, 1, seqLen});
  for (auto &[length, other] : otherLengths)
    other->markSequenceBlocks(globals);
}

void SequenceShardBuilder::markSequenceBlock(Value local, StridedDim seq) {
  if (SequenceShardBuilder &own = of(seq); &own != this)
    return own.markSequenceBlock(local, seq);
  Operation *def = local.getDefiningOp();
  if (!def || def->getNumResults() != 1)
    return;
  def->setAttr(SeqParDialect::kSequenceBlockAttrName,
               DenseI64ArrayAttr::get(def->getContext(),
                                      {seq.dim, localSeqLen, seq.inner}));
}

Value SequenceShardBuilder::buildLocal(OpBuilder &b, Location loc, Value global,
                                       int64_t dim, int64_t inner) {
  auto type = cast<RankedTensorType>(global.getType());
  RankedTensorType local = localType(type, dim);
  // Shape-only producers are rebuilt at the local shape.
  if (auto empty = global.getDefiningOp<tensor::EmptyOp>();
      empty && type.hasStaticShape())
    return tensor::EmptyOp::create(b, loc, local.getShape(),
                                            local.getElementType());
  if (auto fill = global.getDefiningOp<linalg::FillOp>()) {
    auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
    if (empty && type.hasStaticShape()) {
      // The init through the cache: the ops that write the same tensor.empty
      // share one local one.
      Value init = localize(b, loc, empty, dim, inner);
      return linalg::FillOp::create(b, loc, fill.getInputs()[0], init)
                          .getResult(0);
    }
  }
  int64_t outer = outerOf(type, dim, inner);
  Value source = outer > 1 ? splitOuter(b, loc, global, dim, outer) : global;
  int64_t seqAxis = outer > 1 ? dim + 1 : dim;
  source = padSequence(b, loc, source, seqAxis, inner);
  auto sourceType = cast<RankedTensorType>(source.getType());
  Value slice;
  if (zigzag) {
    // Chunks r and 2t-1-r of s/(2t) tokens.
    int64_t chunk = localSeqLen / 2 * inner;
    Value r = rank(b);
    Value size = arith::ConstantIndexOp::create(b, loc, chunk);
    Value last = arith::ConstantIndexOp::create(b, loc, 2 * numRanks - 1);
    Value first = arith::MulIOp::create(b, loc, r, size);
    Value second = arith::MulIOp::create(
        b, loc, arith::SubIOp::create(b, loc, last, r), size);
    slice = gatherChunks(b, loc, source, seqAxis, {first, second}, chunk);
  } else {
    slice = sliceAlong(b, loc, source, seqAxis, tokenOffset(b, inner),
                       sourceType.getDimSize(seqAxis) / numRanks);
  }
  return outer > 1 ? mergeOuter(b, loc, slice, dim) : slice;
}

Value SequenceShardBuilder::reduceScatter(OpBuilder &b, Location loc,
                                          Value partial, StridedDim seq) {
  if (SequenceShardBuilder &own = of(seq); &own != this)
    return own.reduceScatter(b, loc, partial, seq);
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
      b, loc, sourceType.clone(shape), grid, b.getDenseI16ArrayAttr(gridAxes),
      source,
      shard::ReductionKindAttr::get(b.getContext(), shard::ReductionKind::Sum),
      b.getIndexAttr(axis));
  return outer > 1 ? mergeOuter(b, loc, scattered, seq.dim) : scattered;
}

Value SequenceShardBuilder::allGather(OpBuilder &b, Location loc, Value local,
                                      StridedDim seq) {
  if (SequenceShardBuilder &own = of(seq); &own != this)
    return own.allGather(b, loc, local, seq);
  auto type = cast<RankedTensorType>(local.getType());
  // Locally the sequence digit has ceil(s/t) elements.
  int64_t outer = type.getDimSize(seq.dim) / (localSeqLen * seq.inner);
  Value source = outer > 1 ? splitOuter(b, loc, local, seq.dim, outer) : local;
  int64_t axis = outer > 1 ? seq.dim + 1 : seq.dim;
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape(sourceType.getShape());
  shape[axis] *= numRanks;
  Value gathered = shard::AllGatherOp::create(
      b, loc, sourceType.clone(shape), grid, b.getDenseI16ArrayAttr(gridAxes),
      source, b.getIndexAttr(axis));
  if (zigzag) {
    // Rank k's shard holds chunks k and 2t-1-k: chunk j < t is the first half
    // of shard j, chunk j >= t the second half of shard 2t-1-j.
    int64_t chunk = localSeqLen / 2 * seq.inner;
    SmallVector<OpFoldResult> offsets;
    for (int64_t j = 0; j < 2 * numRanks; ++j) {
      int64_t half = j < numRanks ? 2 * j : 2 * (2 * numRanks - 1 - j) + 1;
      offsets.push_back(b.getIndexAttr(half * chunk));
    }
    gathered = gatherChunks(b, loc, gathered, axis, offsets, chunk);
  }
  if (isPadded()) {
    // Drop the padding tokens at the end of the sequence digit.
    gathered = sliceAlong(b, loc, gathered, axis, b.getIndexAttr(0),
                          seqLen * seq.inner);
  }
  return outer > 1 ? mergeOuter(b, loc, gathered, seq.dim) : gathered;
}

Value SequenceShardBuilder::gatherChunks(OpBuilder &b, Location loc,
                                         Value value, int64_t axis,
                                         ArrayRef<OpFoldResult> offsets,
                                         int64_t size) {
  SmallVector<Value> chunks;
  for (OpFoldResult offset : offsets)
    chunks.push_back(sliceAlong(b, loc, value, axis, offset, size));
  return tensor::ConcatOp::create(b, loc, axis, chunks);
}

int64_t SequenceShardBuilder::allReduceBytes(RankedTensorType global) const {
  return getBytesSent(CollectiveKind::AllReduce, global, numRanks);
}

int64_t
SequenceShardBuilder::gatherOrScatterBytes(RankedTensorType global) const {
  // Both move the padded tensor (s' tokens instead of s), N for both.
  std::optional<int64_t> padded = checkedBytes(global);
  if (padded)
    padded = llvm::checkedMul(*padded / seqLen, paddedSeqLen);
  std::optional<int64_t> sent =
      padded ? getBytesSent(CollectiveKind::AllGather, *padded, numRanks)
             : std::nullopt;
  return sent.value_or(std::numeric_limits<int64_t>::max());
}
