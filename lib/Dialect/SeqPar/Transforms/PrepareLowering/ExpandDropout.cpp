//===- ExpandDropout.cpp - seqpar.dropout -> Philox arithmetic ------------===//
//
// seqpar.dropout as an elementwise generic drawing its keep bit
// (DropoutKeep.h) from the element's global linear index.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/DropoutKeep.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_EXPANDDROPOUT
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

struct ExpandDropoutPattern : OpRewritePattern<DropoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DropoutOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto elemType = dyn_cast<FloatType>(type.getElementType());
    if (!elemType || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static float tensor");
    int64_t rank = type.getRank();
    SmallVector<int64_t> globalShape(
        op.getGlobalShape().value_or(type.getShape()));
    double rate = op.getRate().convertToDouble();
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         elemType);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    SmallVector<Value> offsets(op.getOffsets());
    Value seed = op.getSeed();
    int64_t site = op.getSite();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{op.getInput()},
        ValueRange{init}, ArrayRef<AffineMap>{id, id}, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          // Row-major linear index of the element in the global tensor.
          auto i64 = [&](int64_t v) -> Value {
            return arith::ConstantIntOp::create(b, nested, b.getI64Type(), v);
          };
          Value linear = i64(0);
          for (int64_t d = 0; d < rank; ++d) {
            Value index = linalg::IndexOp::create(b, nested, d);
            if (!offsets.empty())
              index = arith::AddIOp::create(b, nested, index, offsets[d]);
            Value index64 = arith::IndexCastUIOp::create(
                b, nested, b.getI64Type(), index);
            linear = arith::MulIOp::create(b, nested, linear,
                                           i64(globalShape[d]));
            linear = arith::AddIOp::create(b, nested, linear, index64);
          }
          Value keep = buildDropoutKeep(b, nested, linear, seed, site, rate);
          Value factor = arith::ConstantOp::create(
              b, nested, b.getFloatAttr(elemType, 1.0 / (1.0 - rate)));
          Value zero =
              arith::ConstantOp::create(b, nested, b.getZeroAttr(elemType));
          Value kept = arith::MulFOp::create(b, nested, args[0], factor);
          Value result = arith::SelectOp::create(b, nested, keep, kept, zero);
          linalg::YieldOp::create(b, nested, result);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct ExpandDropoutPass
    : public mlir::seqpar::impl::ExpandDropoutBase<ExpandDropoutPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandDropoutPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::seqpar::populateExpandDropoutPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandDropoutPattern>(patterns.getContext());
}
