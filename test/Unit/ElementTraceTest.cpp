//===- ElementTraceTest.cpp - coordinates compared over their domain ------===//
//
// The attention and mask matchers compare traced coordinates with
// constantDifference / sameExpr and evaluate them at points with
// evaluateAt. Both evaluate affine expressions on integers directly (and
// refute a difference at two points before simplifying): these tests hold
// them to the affine folder's arithmetic and to the dims' domains.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/ElementTrace.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// What the affine folder makes of `e` at `point`, the reference.
std::optional<int64_t> folded(AffineExpr e, ArrayRef<int64_t> point) {
  SmallVector<AffineExpr> at;
  for (int64_t v : point)
    at.push_back(getAffineConstantExpr(v, e.getContext()));
  auto c =
      dyn_cast<AffineConstantExpr>(simplifyAffineExpr(e.replaceDims(at), 0, 1));
  return c ? std::optional<int64_t>(c.getValue()) : std::nullopt;
}

/// A random expression of 3 dims: sums, products by constants, floordiv and
/// ceildiv by non-zero constants (negative ones too), mod by positive ones,
/// and negative terms, so that numerators go negative. (Mod by a
/// non-positive divisor is undefined: the folder's results on it are not
/// a reference; division by 0 is checked on its own below.)
AffineExpr randomExpr(std::mt19937 &rng, MLIRContext *ctx, int depth) {
  std::uniform_int_distribution<int> pick(0, depth > 3 ? 1 : 6);
  std::uniform_int_distribution<int64_t> small(-9, 9), positive(1, 9);
  auto nonZero = [&] {
    int64_t v = positive(rng);
    return std::bernoulli_distribution(0.5)(rng) ? v : -v;
  };
  switch (pick(rng)) {
  case 0:
    return getAffineDimExpr(std::uniform_int_distribution<unsigned>(0, 2)(rng),
                            ctx);
  case 1:
    return getAffineConstantExpr(small(rng), ctx);
  case 2:
    return randomExpr(rng, ctx, depth + 1) + randomExpr(rng, ctx, depth + 1);
  case 3:
    return randomExpr(rng, ctx, depth + 1) * small(rng);
  case 4:
    return randomExpr(rng, ctx, depth + 1).floorDiv(nonZero());
  case 5:
    return randomExpr(rng, ctx, depth + 1).ceilDiv(nonZero());
  default:
    return randomExpr(rng, ctx, depth + 1) % positive(rng);
  }
}

TEST(ElementTrace, EvaluateAtAgreesWithTheAffineFolder) {
  MLIRContext ctx;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> coordinate(0, 20);
  int evaluated = 0;
  for (int i = 0; i < 2000; ++i) {
    AffineExpr e = randomExpr(rng, &ctx, 0);
    SmallVector<int64_t> point{coordinate(rng), coordinate(rng),
                               coordinate(rng)};
    SmallVector<AffineExpr> at;
    for (int64_t v : point)
      at.push_back(getAffineConstantExpr(v, &ctx));
    std::optional<int64_t> want = folded(e, point);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << e << " at (" << point[0] << ", " << point[1] << ", " << point[2]
       << ")";
    EXPECT_EQ(evaluateAt(e, at), want) << text;
    evaluated += want.has_value();
  }
  // Most draws fold to a constant: the comparison is not vacuous.
  EXPECT_GT(evaluated, 1000);
}

TEST(ElementTrace, EvaluateAtFloorsAndKeepsModNonNegative) {
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx);
  AffineExpr at[] = {getAffineConstantExpr(0, &ctx)};
  EXPECT_EQ(evaluateAt((d0 - 7).floorDiv(4), at), -2);
  EXPECT_EQ(evaluateAt((d0 - 7).ceilDiv(4), at), -1);
  EXPECT_EQ(evaluateAt((d0 - 7) % 4, at), 1);
  // The folder divides by negative divisors, takes mod only by positive
  // ones and leaves division by 0 alone.
  EXPECT_EQ(evaluateAt((d0 + 7).floorDiv(-2), at), -4);
  EXPECT_EQ(evaluateAt((d0 + 7).ceilDiv(-2), at), -3);
  EXPECT_EQ(evaluateAt(d0.floorDiv(0), at), std::nullopt);
  EXPECT_EQ(evaluateAt(d0 % -3, at), std::nullopt);
}

TEST(ElementTrace, ConstantDifferenceOverTheDomain) {
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d1 = getAffineDimExpr(1, &ctx),
             d2 = getAffineDimExpr(2, &ctx);
  SmallVector<int64_t> sizes{64, 8, 128};
  // A head split and merged back (the simplifier cancels it).
  EXPECT_EQ(constantDifference(d0 % 8 + d0.floorDiv(8) * 8, d0, sizes), 0);
  // A rank's slice offset: a constant difference.
  AffineExpr merged = d0 * 128 + d2 - d0.floorDiv(8) * 1024;
  EXPECT_EQ(constantDifference(merged + 1024, merged, sizes), 1024);
  // Different dims and a quotient that varies: refuted.
  EXPECT_EQ(constantDifference(d0, d1, sizes), std::nullopt);
  EXPECT_EQ(constantDifference(d0.floorDiv(8), d1, sizes), std::nullopt);
  EXPECT_FALSE(sameExpr(d0 * 128 + d2, d2, sizes));
  // Equal only inside the domain: d1 ranges over [0, 8), where d1 floordiv
  // 8 is 0 (at d1 = 8, outside, it is 1). Points past the last value
  // would refute this.
  EXPECT_TRUE(sameExpr(d1.floorDiv(8), getAffineConstantExpr(0, &ctx), sizes));
  EXPECT_TRUE(sameExpr(d1 % 8, d1, sizes));
  // A dim without a static size: proven only by simplification.
  SmallVector<int64_t> dynamic{-1, 8, 128};
  EXPECT_EQ(constantDifference(d0 + 3, d0, dynamic), 3);
  EXPECT_EQ(constantDifference(d0 % 8, d0, dynamic), std::nullopt);
  // The unknown symbol equals nothing.
  AffineExpr unknown = getAffineSymbolExpr(0, &ctx);
  EXPECT_EQ(constantDifference(unknown, unknown, sizes), std::nullopt);
}

} // namespace
