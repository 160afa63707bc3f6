//===- CollectiveTest.cpp - every collective, dtype and dim on the world ---===//

#include "Checks.h"

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

class Collective : public ::testing::TestWithParam<DType> {
protected:
  Communicator *c = worldComm();
  std::vector<int> m = members({worldSize()}, {0});
  int64_t t = worldSize();
};

// Tests that all-gather concatenates the ranks' blocks in rank order along a
// leading, a middle and the last dim of a [3,2,4] local tensor.
TEST_P(Collective, AllGatherAlongEachDim) {
  for (int dim = 0; dim < 3; ++dim)
    checkAllGather(c, m, GetParam(), {3, 2, 4}, dim);
}

// Tests that reduce-scatter leaves rank r with block r of the reduced tensor
// along a leading and a middle dim, for sum, max and min.
TEST_P(Collective, ReduceScatterAlongLeadingAndMiddleDim) {
  for (Reduction red : {Reduction::Sum, Reduction::Max, Reduction::Min}) {
    checkReduceScatter(c, m, GetParam(), red, {2 * t, 3, 2}, 0);
    checkReduceScatter(c, m, GetParam(), red, {3, 2 * t, 2}, 1);
  }
}

// Tests that all-reduce (out of place and in place) reduces elementwise.
TEST_P(Collective, AllReduceSumMaxMin) {
  for (Reduction red : {Reduction::Sum, Reduction::Max, Reduction::Min}) {
    checkAllReduce(c, m, GetParam(), red, {3, 5});
    checkAllReduce(c, m, GetParam(), red, {7}, /*inPlace=*/true);
  }
}

// Tests all-to-all with split/concat on leading, middle and last dims,
// including the Ulysses layout change [b, s/c, a, d] -> [b, s, a/c, d]
// (split heads = dim 2, concat sequence = dim 1).
TEST_P(Collective, AllToAllSplitAndConcatDims) {
  checkAllToAll(c, m, GetParam(), {2, 3, 2 * t, 2}, 2, 1); // Ulysses forward
  checkAllToAll(c, m, GetParam(), {2, 3 * t, 2, 2}, 1, 2); // and back
  checkAllToAll(c, m, GetParam(), {t, 2, 3}, 0, 2);
  checkAllToAll(c, m, GetParam(), {3, 2, t}, 2, 0);
  checkAllToAll(c, m, GetParam(), {3, 2 * t}, 1, 1);
}

// Tests ring send/recv in both directions and a longer stride.
TEST_P(Collective, ShiftPlusMinusOne) {
  checkShift(c, m, GetParam(), {3, 4}, +1);
  checkShift(c, m, GetParam(), {3, 4}, -1);
  checkShift(c, m, GetParam(), {5}, 2);
}

// Tests that the asynchronous forms give the same results as blocking ones.
TEST_P(Collective, AsyncFormsMatch) {
  checkAllGather(c, m, GetParam(), {2, 3}, 1, /*async=*/true);
  checkReduceScatter(c, m, GetParam(), Reduction::Sum, {2, t}, 1, true);
  checkAllReduce(c, m, GetParam(), Reduction::Max, {4}, false, true);
  checkAllToAll(c, m, GetParam(), {t, 2}, 0, 1, true);
  checkShift(c, m, GetParam(), {4}, -1, true);
}

INSTANTIATE_TEST_SUITE_P(DTypes, Collective,
                         ::testing::Values(DType::F32, DType::F16, DType::BF16,
                                           DType::I32, DType::I64, DType::I8),
                         [](const ::testing::TestParamInfo<DType> &info) {
                           return std::string(dtypeName(info.param));
                         });

// Tests that i64 moves and reduces exactly, beyond any float's mantissa:
// token ids and labels are gathered across CP ranks for a label shift, and
// counts summed. 2^62 + r sums to t * 2^62 + t(t-1)/2 (wrapping is defined
// by the two's-complement sum) and max picks 2^62 + t - 1.
TEST(CollectiveInteger, I64IsExact) {
  Communicator *c = worldComm();
  const int64_t t = worldSize(), r = worldRank();
  const int64_t big = int64_t(1) << 62;
  Buffer in(DType::I64, 2), gathered(DType::I64, 2 * t), sum(DType::I64, 2),
      max(DType::I64, 2);
  in.setInt(0, big + r);
  in.setInt(1, -big - r);
  Status s = c->run(
      CollectiveOp::allGather(DType::I64, in.data(), gathered.data(), {2}, 0));
  ASSERT_TRUE(s.ok()) << s.message;
  for (int64_t j = 0; j < t; ++j) {
    EXPECT_EQ(gathered.getInt(2 * j), big + j);
    EXPECT_EQ(gathered.getInt(2 * j + 1), -big - j);
  }
  s = c->run(CollectiveOp::allReduce(DType::I64, Reduction::Sum, in.data(),
                                     sum.data(), {2}));
  ASSERT_TRUE(s.ok()) << s.message;
  uint64_t want = static_cast<uint64_t>(t) * static_cast<uint64_t>(big) +
                  static_cast<uint64_t>(t * (t - 1) / 2);
  EXPECT_EQ(static_cast<uint64_t>(sum.getInt(0)), want);
  EXPECT_EQ(static_cast<uint64_t>(sum.getInt(1)), ~want + 1);
  s = c->run(CollectiveOp::allReduce(DType::I64, Reduction::Max, in.data(),
                                     max.data(), {2}));
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(max.getInt(0), big + t - 1);
  EXPECT_EQ(max.getInt(1), -big);
}

// Tests that 16-bit sums accumulate in f32 and round once: 2048 + 1 + 1 + 1
// (f16) and 256 + 1 + 1 + 1 (bf16) are 2051 and 259, which round (ties to
// even) to 2052 and 260; adding in 16-bit arithmetic rank by rank would stay
// at 2048 / 256 because every partial sum ties back down.
TEST(Collective16Bit, SumsAccumulateInF32) {
  if (worldSize() != 4)
    GTEST_SKIP() << "needs 4 ranks";
  Communicator *c = worldComm();
  for (DType dt : {DType::F16, DType::BF16}) {
    float base = dt == DType::F16 ? 2048 : 256;
    Buffer in(dt, 2), out(dt, 2);
    in.set(0, worldRank() == 0 ? base : 1);
    in.set(1, worldRank() == 3 ? base : 1);
    Status s = c->run(CollectiveOp::allReduce(dt, Reduction::Sum, in.data(),
                                              out.data(), {2}));
    ASSERT_TRUE(s.ok()) << s.message;
    EXPECT_EQ(out.get(0), base + 4) << dtypeName(dt);
    EXPECT_EQ(out.get(1), base + 4) << dtypeName(dt);
    // Same through reduce-scatter ([4] -> [1] per rank).
    Buffer full(dt, 4), part(dt, 1);
    for (int i = 0; i < 4; ++i)
      full.set(i, worldRank() == i ? base : 1);
    s = c->run(CollectiveOp::reduceScatter(dt, Reduction::Sum, full.data(),
                                           part.data(), {4}, 0));
    ASSERT_TRUE(s.ok()) << s.message;
    EXPECT_EQ(part.get(0), base + 4) << dtypeName(dt);
  }
}

// Tests zero-sized tensors and a group of one rank (grid [W, 1], axis 1).
TEST(CollectiveEdge, EmptyTensorsAndSingletonGroups) {
  Communicator *c = worldComm();
  Status s = c->run(CollectiveOp::allGather(DType::F32, nullptr, nullptr, {0, 3}, 1));
  EXPECT_TRUE(s.ok()) << s.message;
  Communicator *one = comm({worldSize(), 1}, {1});
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->size(), 1);
  EXPECT_EQ(one->rank(), 0);
  std::vector<int> self{worldRank()};
  checkAllGather(one, self, DType::F16, {2, 3}, 1);
  checkReduceScatter(one, self, DType::F32, Reduction::Sum, {2, 3}, 1);
  checkAllToAll(one, self, DType::BF16, {2, 3}, 0, 1);
  checkShift(one, self, DType::F32, {3}, 1);
}

} // namespace
