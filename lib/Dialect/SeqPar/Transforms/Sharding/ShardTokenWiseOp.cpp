//===- ShardTokenWiseOp.cpp - run a token-wise op on a sequence shard -----===//
//
// Shared by sequence parallelism (shards over the TP axis) and context
// parallelism (shards over the CP axis, contiguous or zigzag).
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::seqpar;

void SequenceShardBuilder::localizeOperands(
    Operation *op, const TokenWiseInfo &info, const TokenWiseAnalysis &analysis,
    int64_t inner, const DenseSet<Value> &localValues) {
  OpBuilder b(op);
  for (auto [index, dim] : llvm::enumerate(info.operandDims)) {
    Value operand = op->getOperand(index);
    if (dim < 0 || localValues.contains(operand))
      continue;
    // A reshape's operand has its own (dim, inner): the tokens of
    // [s, b, h] are whole rows, those of its collapsed [s*b, h] b rows each.
    std::optional<StridedDim> seq = analysis.getSeqDim(operand);
    int64_t operandInner = seq && seq->dim == dim ? seq->inner : inner;
    op->setOperand(index,
                   localize(b, op->getLoc(), operand, dim, operandInner));
  }
  // Values the body reads at the token it visits (TokenWiseInfo::
  // capturedDims) are cut like operands.
  for (auto [use, dim] : info.capturedDims) {
    Value captured = use->get();
    if (localValues.contains(captured))
      continue;
    std::optional<StridedDim> seq = analysis.getSeqDim(captured);
    use->set(localize(b, op->getLoc(), captured, dim, seq->inner));
  }
}

void SequenceShardBuilder::offsetPositions(Operation *op,
                                           const TokenWiseInfo &info,
                                           int64_t outer, int64_t inner) {
  if (!info.positionDependent || info.seqLoop < 0)
    return;
  op->walk([&](linalg::IndexOp index) {
    if (static_cast<int64_t>(index.getDim()) != info.seqLoop)
      return;
    // The positions a captured value is read at stay local (its shard).
    DenseSet<OpOperand *> local = info.capturedIndexOperands();
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : index.getResult().getUses())
      if (!local.contains(&use))
        uses.push_back(&use);
    OpBuilder ib(index->getBlock(), std::next(index->getIterator()));
    Value global = globalIndex(ib, index.getLoc(), index, outer, inner);
    for (OpOperand *use : uses)
      use->set(global);
  });
}

void SequenceShardBuilder::reduceOnShards(Operation *op,
                                          const TokenWiseAnalysis &analysis,
                                          shard::ReductionKind kind,
                                          StridedDim seq,
                                          const DenseSet<Value> &localValues) {
  if (SequenceShardBuilder &own = of(seq); &own != this)
    return own.reduceOnShards(op, analysis, kind, seq, localValues);
  const TokenWiseInfo &info = analysis.getInfo(op);
  auto linalgOp = cast<linalg::LinalgOp>(op);
  localizeOperands(op, info, analysis, seq.inner, localValues);
  offsetPositions(op, info, seq.outer, seq.inner);
  // A sum must count its init once; max and min are idempotent.
  OpOperand &init = linalgOp.getDpsInitsMutable()[0];
  Value originalInit = init.get();
  auto type = cast<RankedTensorType>(originalInit.getType());
  bool addInit = false;
  Location loc = op->getLoc();
  OpBuilder b(op);
  if (kind == shard::ReductionKind::Sum) {
    addInit = !isZeroInit(originalInit);
    if (addInit) {
      Value zero = arith::ConstantOp::create(
          b, loc, b.getZeroAttr(type.getElementType()));
      Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType());
      init.set(linalg::FillOp::create(b, loc, zero, empty).getResult(0));
    }
  }
  b.setInsertionPointAfter(op);
  Value partial = op->getResult(0);
  auto combined = shard::AllReduceOp::create(b, loc, partial, grid.getValue(),
                                             gridAxes, kind);
  Value result = combined.getResult();
  if (addInit)
    result = isa<FloatType>(type.getElementType())
                 ? arith::AddFOp::create(b, loc, result, originalInit)
                       .getResult()
                 : arith::AddIOp::create(b, loc, result, originalInit)
                       .getResult();
  partial.replaceAllUsesExcept(result, combined);
}

/// Offsets of a dropout shard: the existing ones (or zeros) with `shift`
/// added along `dim`.
static SmallVector<Value> shiftedOffsets(OpBuilder &b, Location loc,
                                         DropoutOp dropout, int64_t rank,
                                         int64_t dim, Value shift) {
  SmallVector<Value> offsets(dropout.getOffsets());
  if (offsets.empty())
    offsets.assign(rank, arith::ConstantIndexOp::create(b, loc, 0));
  offsets[dim] = arith::AddIOp::create(b, loc, offsets[dim], shift);
  return offsets;
}

void SequenceShardBuilder::shardTokenWiseOp(Operation *op,
                                            const TokenWiseAnalysis &analysis,
                                            DenseSet<Value> &localValues) {
  StridedDim resultSeq = *analysis.getSeqDim(op->getResult(0));
  if (SequenceShardBuilder &own = of(resultSeq); &own != this)
    return own.shardTokenWiseOp(op, analysis, localValues);
  const TokenWiseInfo &info = analysis.getInfo(op);
  OpBuilder b(op);
  Location loc = op->getLoc();
  int64_t loopOuter = resultSeq.outer;
  auto originalType = cast<RankedTensorType>(op->getResult(0).getType());

  localizeOperands(op, info, analysis, resultSeq.inner, localValues);
  for (Value result : op->getResults()) {
    auto type = cast<RankedTensorType>(result.getType());
    result.setType(localType(type, analysis.getSeqDim(result)->dim));
    localValues.insert(result);
  }
  // Ops that spell their result shape in attributes.
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    expand.setStaticOutputShape(expand.getResultType().getShape());
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // The slice spans the whole sequence dim: its size there is the
    // result's local extent (padding included).
    SmallVector<int64_t> sizes(slice.getStaticSizes());
    sizes[info.operandDims[0]] = slice.getType().getDimSize(resultSeq.dim);
    slice.setStaticSizes(sizes);
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    SmallVector<int64_t> sizes(insert.getStaticSizes());
    sizes[resultSeq.dim] = insert.getSourceType().getDimSize(resultSeq.dim);
    insert.setStaticSizes(sizes);
  }
  offsetPositions(op, info, loopOuter, resultSeq.inner);
  auto dropout = dyn_cast<DropoutOp>(op);
  if (!dropout)
    return;
  int64_t rankOfTensor = originalType.getRank();
  // A dropout that is already a shard of a larger tensor keeps its
  // (outermost) global shape; offsets compose by addition.
  if (!dropout.getGlobalShape())
    dropout.setGlobalShape(originalType.getShape());
  if (!zigzag) {
    Value shift = tokenOffset(b, resultSeq.inner);
    dropout.getOffsetsMutable().assign(
        shiftedOffsets(b, loc, dropout, rankOfTensor, resultSeq.dim, shift));
    return;
  }
  // Zigzag: the shard is two boxes of the global tensor, chunks r and
  // 2t-1-r; each half gets its own dropout keyed at its chunk's offset.
  int64_t chunk = localSeqLen / 2 * resultSeq.inner;
  Value r = rank(b);
  Value size = arith::ConstantIndexOp::create(b, loc, chunk);
  Value last = arith::ConstantIndexOp::create(b, loc, 2 * numRanks - 1);
  Value shifts[2] = {arith::MulIOp::create(b, loc, r, size),
                     arith::MulIOp::create(
                         b, loc, arith::SubIOp::create(b, loc, last, r), size)};
  SmallVector<Value> halves;
  for (int half = 0; half < 2; ++half) {
    Value input = sliceAlong(b, loc, dropout.getInput(), resultSeq.dim,
                             b.getIndexAttr(half * chunk), chunk);
    // The offsets are built before the clone, which reads them.
    SmallVector<Value> offsets = shiftedOffsets(b, loc, dropout, rankOfTensor,
                                                resultSeq.dim, shifts[half]);
    auto part = cast<DropoutOp>(b.clone(*dropout));
    part.getInputMutable().assign(input);
    part.getResult().setType(cast<RankedTensorType>(input.getType()));
    part.getOffsetsMutable().assign(offsets);
    halves.push_back(part.getResult());
  }
  Value joined = tensor::ConcatOp::create(b, loc, resultSeq.dim, halves);
  dropout.getResult().replaceAllUsesWith(joined);
  localValues.insert(joined);
  localValues.erase(dropout.getResult());
  dropout.erase();
}
