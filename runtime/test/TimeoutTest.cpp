//===- TimeoutTest.cpp - the default timeout; waiting without spinning ----===//

#include "Checks.h"
#include "seqpar/runtime/seqpar_runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

double processCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Tests that, without SEQPAR_COLLECTIVE_TIMEOUT, a collective that never
// completes is reported within a minute (ctest runtime-default-timeout-np1
// runs this with the variable unset; the other runs skip it).
TEST(Timeout, DefaultIsUnderAMinute) {
  if (std::getenv("SEQPAR_COLLECTIVE_TIMEOUT"))
    GTEST_SKIP() << "SEQPAR_COLLECTIVE_TIMEOUT is set";
  EXPECT_GT(rt().timeoutSeconds(), 0);
  EXPECT_LT(rt().timeoutSeconds(), 60);
}

// Tests that seqpar_rt_set_timeout changes what seqpar_rt_get_timeout reads
// and refuses values that are not positive.
TEST(Timeout, SetAndGetThroughTheCAbi) {
  double before = seqpar_rt_get_timeout();
  EXPECT_GT(before, 0);
  EXPECT_EQ(seqpar_rt_set_timeout(7.5), SEQPAR_RT_OK);
  EXPECT_EQ(seqpar_rt_get_timeout(), 7.5);
  EXPECT_EQ(seqpar_rt_set_timeout(-1), SEQPAR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(seqpar_rt_get_timeout(), 7.5);
  EXPECT_EQ(seqpar_rt_set_timeout(before), SEQPAR_RT_OK);
}

// Tests that a rank blocked in a collective whose peers arrive 1 s late backs
// off instead of spinning: its process uses less than a fifth of a core
// meanwhile (polling without sleeps uses a whole one).
TEST(Timeout, WaitingRankDoesNotSpin) {
  if (worldSize() < 2)
    GTEST_SKIP() << "needs 2 ranks";
  Communicator *c = worldComm();
  Buffer in(DType::F32, 8), out(DType::F32, 8 * worldSize());
  in.fill(worldRank());
  CollectiveOp op =
      CollectiveOp::allGather(DType::F32, in.data(), out.data(), {8}, 0);
  ASSERT_TRUE(c->run(op).ok()); // the communicator exists before the wait
  if (worldRank() != 0)
    std::this_thread::sleep_for(std::chrono::seconds(1));
  double wall0 = rt().now(), cpu0 = processCpuSeconds();
  Status s = c->run(op);
  double wall = rt().now() - wall0, cpu = processCpuSeconds() - cpu0;
  ASSERT_TRUE(s.ok()) << s.message;
  if (worldRank() != 0)
    return;
  std::printf("[backoff] rank 0: waited %.3f s in all_gather, process CPU "
              "%.3f s\n",
              wall, cpu);
  EXPECT_GT(wall, 0.8);
  EXPECT_LT(cpu, 0.2 * wall);
}

} // namespace
