//===- GridTest.cpp - grid layout and per-axis communicators --------------===//

#include "Checks.h"

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

// Tests the row-major process layout: rank w of grid [2, W/2] sits at
// (w / (W/2), w % (W/2)), like upstream shard.process_linear_index.
TEST(Grid, ProcessMultiIndexIsRowMajor) {
  int w = worldRank(), n = worldSize();
  std::vector<int64_t> index;
  ASSERT_TRUE(rt().processMultiIndex({n}, &index).ok());
  EXPECT_EQ(index, std::vector<int64_t>({w}));
  if (n % 2)
    return;
  ASSERT_TRUE(rt().processMultiIndex({2, n / 2}, &index).ok());
  EXPECT_EQ(index, std::vector<int64_t>({w / (n / 2), w % (n / 2)}));
}

// Tests that axis ranks and sizes are the coordinates on the axis (not the
// world rank), on a 2x2 grid: axis 0 groups {0,2},{1,3}; axis 1 groups
// {0,1},{2,3}; axes [1,0] order the group column-major.
TEST(Grid, AxisRanksOn2x2) {
  if (worldSize() != 4)
    GTEST_SKIP() << "needs 4 ranks";
  int w = worldRank(), i = w / 2, j = w % 2;
  Communicator *a0 = comm({2, 2}, {0}), *a1 = comm({2, 2}, {1});
  Communicator *both = comm({2, 2}, {0, 1}), *swapped = comm({2, 2}, {1, 0});
  ASSERT_TRUE(a0 && a1 && both && swapped);
  EXPECT_EQ(a0->rank(), i);
  EXPECT_EQ(a1->rank(), j);
  EXPECT_EQ(a0->size(), 2);
  EXPECT_EQ(both->rank(), w);
  EXPECT_EQ(both->size(), 4);
  EXPECT_EQ(swapped->rank(), j * 2 + i);
  EXPECT_EQ(a0->info().worldRank, w);
  EXPECT_EQ(a0->info().label(), "grid=[2,2] axes=[0]");
  // The same (grid, axes) gives the same communicator.
  EXPECT_EQ(comm({2, 2}, {0}), a0);
  EXPECT_EQ(members({2, 2}, {0}), std::vector<int>({j, 2 + j}));
}

// Tests every collective on each axis of a 2x2 grid; a backend that used the
// world rank as the group rank would put data in the wrong block.
TEST(Grid, CollectivesOnEachAxisOf2x2) {
  if (worldSize() != 4)
    GTEST_SKIP() << "needs 4 ranks";
  for (int32_t axis : {0, 1}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    Communicator *c = comm({2, 2}, {axis});
    std::vector<int> m = members({2, 2}, {axis});
    for (DType dt : {DType::F32, DType::BF16}) {
      checkAllGather(c, m, dt, {2, 3, 2}, 1);
      checkReduceScatter(c, m, dt, Reduction::Sum, {3, 4}, 1);
      checkAllReduce(c, m, dt, Reduction::Min, {5});
      checkAllToAll(c, m, dt, {2, 4, 3}, 1, 2);
      checkShift(c, m, dt, {3}, 1);
    }
  }
  // Both axes, in both orders.
  checkAllGather(comm({2, 2}, {0, 1}), members({2, 2}, {0, 1}), DType::F16,
                 {1, 3}, 0);
  checkAllGather(comm({2, 2}, {1, 0}), members({2, 2}, {1, 0}), DType::F16,
                 {1, 3}, 0);
}

// Tests a grid with a unit axis on 2 ranks ([1, 2] axis 1 is the world, axis
// 0 a single rank).
TEST(Grid, UnitAxes) {
  int n = worldSize();
  Communicator *c = comm({1, n}, {1});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rank(), worldRank());
  checkAllGather(c, members({1, n}, {1}), DType::F32, {2, 2}, 1);
  Communicator *unit = comm({1, n}, {0});
  ASSERT_TRUE(unit);
  EXPECT_EQ(unit->size(), 1);
  checkAllReduce(unit, members({1, n}, {0}), DType::F16, Reduction::Sum, {3});
}

} // namespace
