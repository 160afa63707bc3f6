//===- AttentionPartial.cpp - attention over part of the keys -------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Attention/AttentionPartial.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"

#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

AttentionPartial
mlir::seqpar::buildEmptyAttentionPartial(OpBuilder &b, Location loc,
                                         RankedTensorType outType) {
  Type f32 = b.getF32Type();
  auto fill = [&](ArrayRef<int64_t> shape, double value) -> Value {
    Value init = tensor::EmptyOp::create(b, loc, shape, f32);
    Value scalar =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, value));
    return linalg::FillOp::create(b, loc, scalar, init).getResult(0);
  };
  ArrayRef<int64_t> rows = outType.getShape().drop_back();
  return {fill(outType.getShape(), 0.0),
          fill(rows, -std::numeric_limits<double>::infinity()),
          fill(rows, 0.0)};
}

AttentionPartial mlir::seqpar::buildAttentionMerge(OpBuilder &b, Location loc,
                                                   AttentionPartial x,
                                                   AttentionPartial y) {
  auto merged = AttentionMergeOp::create(
      b, loc, x.out.getType(), x.rowMax.getType(), x.rowMax.getType(), x.out,
      x.rowMax, x.rowSum, y.out, y.rowMax, y.rowSum);
  return AttentionPartial::of(merged.getResults());
}

Value mlir::seqpar::buildAttentionResult(OpBuilder &b, Location loc,
                                         AttentionPartial partial, Type elem) {
  auto outType = cast<RankedTensorType>(partial.out.getType());
  MLIRContext *ctx = b.getContext();
  AffineMap id4 = AffineMap::getMultiDimIdentityMap(4, ctx);
  AffineExpr d0, d1, d2;
  bindDims(ctx, d0, d1, d2);
  AffineMap row4 = AffineMap::get(4, 0, {d0, d1, d2}, ctx);
  Value init = tensor::EmptyOp::create(b, loc, outType.getShape(), elem);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{partial.out, partial.rowSum},
             ValueRange{init}, ArrayRef<AffineMap>{id4, row4, id4},
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Type f32 = nb.getF32Type();
               Value none = arith::CmpFOp::create(
                   nb, nl, arith::CmpFPredicate::OEQ, args[1],
                   arith::ConstantOp::create(nb, nl,
                                             nb.getFloatAttr(f32, 0.0)));
               Value nan = arith::ConstantOp::create(
                   nb, nl,
                   nb.getFloatAttr(f32,
                                   std::numeric_limits<double>::quiet_NaN()));
               Value out = arith::SelectOp::create(nb, nl, none, nan, args[0]);
               if (elem != f32)
                 out = arith::TruncFOp::create(nb, nl, elem, out);
               linalg::YieldOp::create(nb, nl, out);
             })
      .getResult(0);
}

/// Positions 0, 1, ..., n - 1 (tensor<n x index>).
static Value iota(OpBuilder &b, Location loc, int64_t n) {
  return SequenceShardBuilder::positionTensor(
      b, loc, n, [](OpBuilder &, Location, Value i) { return i; });
}

AttentionBlockOp mlir::seqpar::buildAttentionAsBlock(AttentionOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto q = cast<RankedTensorType>(op.getQuery().getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  auto rowType =
      RankedTensorType::get(q.getShape().drop_back(), b.getF32Type());
  Value qPositions = iota(b, loc, q.getDimSize(2));
  Value kvPositions = iota(b, loc, k.getDimSize(2));
  auto block = AttentionBlockOp::create(
      b, loc, q.clone(b.getF32Type()), rowType, rowType, op.getQuery(),
      op.getKey(), op.getValue(), qPositions, kvPositions, op.getMask(),
      op.getHeadOffset(), op.getScaleAttr(), op.getCausalAttr());
  cloneAttentionDropout(op.getDropout(), block.getDropout());
  Value out = buildAttentionResult(b, loc, AttentionPartial::of(block),
                                   q.getElementType());
  op.getResult().replaceAllUsesWith(out);
  op.erase();
  return block;
}

AttentionBlockBackwardOp
mlir::seqpar::buildAttentionBackwardAsBlocks(AttentionBackwardOp op,
                                             AttentionBlockOp forward) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto q = cast<RankedTensorType>(op.getQuery().getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  Type f32 = b.getF32Type();
  auto rowType = RankedTensorType::get(q.getShape().drop_back(), f32);
  Value qPositions = iota(b, loc, q.getDimSize(2));
  Value kvPositions = k.getDimSize(2) == q.getDimSize(2)
                          ? qPositions
                          : iota(b, loc, k.getDimSize(2));
  // The statistics are P's with dropout too: only the backward block
  // regenerates the mask.
  AttentionBlockOp stats =
      forward ? forward
              : AttentionBlockOp::create(b, loc, q.clone(f32), rowType, rowType,
                                         op.getQuery(), op.getKey(),
                                         op.getValue(), qPositions, kvPositions,
                                         op.getMask(), /*head_offset=*/Value(),
                                         op.getScaleAttr(), op.getCausalAttr());
  auto grads = AttentionBlockBackwardOp::create(
      b, loc, q.clone(f32), k.clone(f32), k.clone(f32), op.getQuery(),
      op.getKey(), op.getValue(), op.getOutGrad(), op.getOut(),
      stats.getRowMax(), stats.getRowSum(), qPositions, kvPositions,
      op.getMask(), op.getHeadOffset(), op.getScaleAttr(), op.getCausalAttr());
  cloneAttentionDropout(op.getDropout(), grads.getDropout());
  for (auto [result, grad] : llvm::zip(op.getResults(), grads.getResults()))
    result.replaceAllUsesWith(
        grad.getType() == result.getType()
            ? grad
            : arith::TruncFOp::create(b, loc, result.getType(), grad)
                  .getResult());
  op.erase();
  return grads;
}

AttentionBlocks
mlir::seqpar::buildAttentionsAsBlocks(ArrayRef<AttentionOp> forwards,
                                      ArrayRef<AttentionBackwardOp> backwards) {
  // Pairs are found while every op is still in place; a block replaces its
  // attention, which dominates the backward that reads its result.
  SmallVector<AttentionOp> forwardOf =
      llvm::map_to_vector(backwards, [](AttentionBackwardOp op) {
        return op.getForwardAttention();
      });
  llvm::MapVector<Operation *, AttentionBlockOp> blocks;
  for (AttentionOp op : forwards)
    blocks[op.getOperation()] = {};
  for (AttentionOp op : forwardOf)
    if (op)
      blocks[op.getOperation()] = {};
  for (auto &[op, block] : blocks)
    block = buildAttentionAsBlock(cast<AttentionOp>(op));
  AttentionBlocks result;
  for (AttentionOp op : forwards)
    result.forwards.push_back(blocks.lookup(op.getOperation()));
  for (auto [op, forward] : llvm::zip(backwards, forwardOf))
    result.backwards.push_back(buildAttentionBackwardAsBlocks(
        op,
        forward ? blocks.lookup(forward.getOperation()) : AttentionBlockOp()));
  return result;
}
