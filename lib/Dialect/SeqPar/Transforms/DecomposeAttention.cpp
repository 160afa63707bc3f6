//===- DecomposeAttention.cpp - seqpar.attention -> linalg reference ------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <limits>

namespace mlir::seqpar {
#define GEN_PASS_DEF_DECOMPOSEATTENTION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// A zero-filled tensor of `shape`.
Value zeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type elem) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, elem);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// out[d0..d3] += lhs * rhs over loop d4, with the given operand maps.
Value contract(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init,
               AffineMap lhsMap, AffineMap rhsMap, AffineMap outMap) {
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{lhs, rhs}, ValueRange{init},
             ArrayRef<AffineMap>{lhsMap, rhsMap, outMap}, iterators,
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               Value mul = arith::MulFOp::create(nb, nloc, args[0], args[1]);
               Value add = arith::AddFOp::create(nb, nloc, args[2], mul);
               linalg::YieldOp::create(nb, nloc, add);
             })
      .getResult(0);
}

struct DecomposeAttentionPattern : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto q = cast<RankedTensorType>(op.getQuery().getType());
    auto k = cast<RankedTensorType>(op.getKey().getType());
    Type elem = q.getElementType();
    int64_t b = q.getDimSize(0), a = q.getDimSize(1), s = q.getDimSize(2),
            d = q.getDimSize(3), t = k.getDimSize(2);
    int64_t group = a / k.getDimSize(1); // query heads per KV head
    AffineExpr d0, d1, d2, d3, d4;
    bindDims(ctx, d0, d1, d2, d3, d4);
    AffineExpr kvHead = group == 1 ? d1 : d1.floorDiv(group);

    // scores[b, h, i, j] = sum_e q[b, h, i, e] * k[b, h / r, j, e]
    Value scores = contract(rewriter, loc, op.getQuery(), op.getKey(),
                            zeros(rewriter, loc, {b, a, s, t}, elem),
                            AffineMap::get(5, 0, {d0, d1, d2, d4}, ctx),
                            AffineMap::get(5, 0, {d0, kvHead, d3, d4}, ctx),
                            AffineMap::get(5, 0, {d0, d1, d2, d3}, ctx));

    // logits = scale * scores (+ mask) (causal: -inf where j > i)
    AffineMap identity = AffineMap::getMultiDimIdentityMap(4, ctx);
    SmallVector<Value> inputs{scores};
    SmallVector<AffineMap> maps{identity};
    if (Value mask = op.getMask()) {
      auto maskType = cast<RankedTensorType>(mask.getType());
      // Unit dims broadcast.
      int64_t full[] = {b, a, s, t};
      SmallVector<AffineExpr> exprs;
      for (int64_t dim = 0; dim < 4; ++dim)
        exprs.push_back(maskType.getDimSize(dim) == 1 && full[dim] != 1
                            ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(dim, ctx));
      inputs.push_back(mask);
      maps.push_back(AffineMap::get(4, 0, exprs, ctx));
    }
    maps.push_back(identity);
    Value logitsInit = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{b, a, s, t}, elem);
    float scale = op.getScale().convertToFloat();
    bool causal = op.getCausal();
    Value logits =
        linalg::GenericOp::create(
            rewriter, loc, logitsInit.getType(), inputs, ValueRange{logitsInit},
            maps,
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value scaleValue = arith::ConstantOp::create(
                  nb, nloc, nb.getFloatAttr(elem, scale));
              Value x = arith::MulFOp::create(nb, nloc, args[0], scaleValue);
              if (inputs.size() == 2)
                x = arith::AddFOp::create(nb, nloc, x, args[1]);
              if (causal) {
                Value query = linalg::IndexOp::create(nb, nloc, 2);
                Value key = linalg::IndexOp::create(nb, nloc, 3);
                Value visible = arith::CmpIOp::create(
                    nb, nloc, arith::CmpIPredicate::ule, key, query);
                Value minusInf = arith::ConstantOp::create(
                    nb, nloc,
                    nb.getFloatAttr(elem,
                                    -std::numeric_limits<double>::infinity()));
                x = arith::SelectOp::create(nb, nloc, visible, x, minusInf);
              }
              linalg::YieldOp::create(nb, nloc, x);
            })
            .getResult(0);

    Value probsInit = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{b, a, s, t}, elem);
    Value probs = linalg::SoftmaxOp::create(rewriter, loc, probsInit.getType(),
                                            logits, probsInit, /*dimension=*/3)
                      .getResult()[0];

    // out[b, h, i, e] = sum_j p[b, h, i, j] * v[b, h / r, j, e]
    Value out = contract(rewriter, loc, probs, op.getValue(),
                         zeros(rewriter, loc, {b, a, s, d}, elem),
                         AffineMap::get(5, 0, {d0, d1, d2, d4}, ctx),
                         AffineMap::get(5, 0, {d0, kvHead, d4, d3}, ctx),
                         AffineMap::get(5, 0, {d0, d1, d2, d3}, ctx));
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct DecomposeAttentionPass
    : public mlir::seqpar::impl::DecomposeAttentionBase<
          DecomposeAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAttentionPattern>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
