//===- ExpandDropout.cpp - seqpar.dropout -> Philox arithmetic ------------===//
//
// Philox-4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel Random Numbers: As
// Easy as 1, 2, 3", SC 2011): ten rounds of two 32x32->64 multiplies with the
// round constants 0xD2511F53 and 0xCD9E8D57, the key bumped by the Weyl
// constants 0x9E3779B9 and 0xBB67AE85 between rounds.
//
//===----------------------------------------------------------------------===//

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

/// Emits arith ops on i32/i64 scalars inside a linalg body.
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;

  Value i32(uint32_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                        static_cast<int64_t>(value));
  }
  Value i64(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  }
  Value low32(Value v) {
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  }
  Value high32(Value v) {
    return low32(arith::ShRUIOp::create(b, loc, v, i64(32)));
  }
  Value xorOf(Value a, Value c) { return arith::XOrIOp::create(b, loc, a, c); }
  Value add(Value a, Value c) { return arith::AddIOp::create(b, loc, a, c); }
};

/// Philox-4x32-10 of `counter` under `key`; returns the first output word.
static Value philox4x32(ScalarBuilder &sb, std::array<Value, 4> counter,
                        std::array<Value, 2> key) {
  Value m0 = sb.i32(0xD2511F53u), m1 = sb.i32(0xCD9E8D57u);
  Value w0 = sb.i32(0x9E3779B9u), w1 = sb.i32(0xBB67AE85u);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] = sb.add(key[0], w0);
      key[1] = sb.add(key[1], w1);
    }
    auto p0 = arith::MulUIExtendedOp::create(sb.b, sb.loc, m0, counter[0]);
    auto p1 = arith::MulUIExtendedOp::create(sb.b, sb.loc, m1, counter[2]);
    counter = {sb.xorOf(sb.xorOf(p1.getHigh(), counter[1]), key[0]),
               p1.getLow(),
               sb.xorOf(sb.xorOf(p0.getHigh(), counter[3]), key[1]),
               p0.getLow()};
  }
  return counter[0];
}

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
          ScalarBuilder sb{b, nested};
          // Row-major linear index of the element in the global tensor.
          Value linear = sb.i64(0);
          for (int64_t d = 0; d < rank; ++d) {
            Value index = linalg::IndexOp::create(b, nested, d);
            if (!offsets.empty())
              index = arith::AddIOp::create(b, nested, index, offsets[d]);
            Value index64 = arith::IndexCastUIOp::create(
                b, nested, b.getI64Type(), index);
            linear = arith::MulIOp::create(b, nested, linear,
                                           sb.i64(globalShape[d]));
            linear = arith::AddIOp::create(b, nested, linear, index64);
          }
          Value word = philox4x32(
              sb,
              {sb.low32(linear), sb.high32(linear),
               sb.i32(static_cast<uint32_t>(site)), sb.i32(0)},
              {sb.low32(seed), sb.high32(seed)});
          // u = top 24 bits / 2^24 in [0, 1), exact in f32.
          Value top = arith::ShRUIOp::create(b, nested, word, sb.i32(8));
          Value u = arith::UIToFPOp::create(b, nested, b.getF32Type(), top);
          Value scaled = arith::MulFOp::create(
              b, nested, u,
              arith::ConstantFloatOp::create(b, nested, b.getF32Type(),
                                             APFloat(0x1p-24f)));
          Value keep = arith::CmpFOp::create(
              b, nested, arith::CmpFPredicate::OGE, scaled,
              arith::ConstantFloatOp::create(
                  b, nested, b.getF32Type(),
                  APFloat(static_cast<float>(rate))));
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
