//===- CallingThreadTest.cpp - blocking collectives on the calling thread -===//
//
// README "Progress thread": a blocking collective with nothing else in
// flight runs on its caller's thread (no hand-off to the progress thread,
// which cost ~40 us and whole scheduler time slices on a loaded core); with
// asynchronous operations in flight it goes through the progress thread,
// and the members agree on the blocking or nonblocking MPI call.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include <dirent.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

/// Context switches counted in the Linux /proc status file `path`: the
/// voluntary ones (sleeps, blocking waits) only, or all; -1 if unreadable.
long switchesIn(const std::string &path, bool voluntaryOnly) {
  std::ifstream status(path);
  if (!status)
    return -1;
  long result = 0;
  std::string line;
  const std::string voluntary = "voluntary_ctxt_switches:";
  while (std::getline(status, line))
    if (voluntaryOnly ? line.compare(0, voluntary.size(), voluntary) == 0
                      : line.find("ctxt_switches:") != std::string::npos)
      result += std::stol(line.substr(line.find(':') + 1));
  return result;
}

/// Context switches (voluntary + involuntary) of this process's thread named
/// `name`, or -1 if there is none (Linux /proc).
long contextSwitches(const std::string &name) {
  DIR *dir = opendir("/proc/self/task");
  if (!dir)
    return -1;
  long result = -1;
  while (dirent *entry = readdir(dir)) {
    std::string task = std::string("/proc/self/task/") + entry->d_name;
    std::ifstream comm(task + "/comm");
    std::string threadName;
    if (std::getline(comm, threadName) && threadName == name)
      result = switchesIn(task + "/status", /*voluntaryOnly=*/false);
  }
  closedir(dir);
  return result;
}

/// Voluntary context switches of the calling thread so far, or -1.
long voluntarySwitchesOfThisThread() {
  return switchesIn("/proc/thread-self/status", /*voluntaryOnly=*/true);
}

// Tests that a large blocking all-gather whose members arrive together does
// not put its calling thread to sleep (README "Polling policy"): receiving a
// 32 MiB block is one copy inside one MPI_Testall call (milliseconds), which
// the back-off counted as waiting past its 1 ms spin, so every call slept
// once after it on every rank (on a core shared with another process, a
// sleep costs a whole time slice: 16 MiB took 6 ms where MPI_Allgather took
// 2). A rank whose peer comes late backs off as it should, but only the
// early one waits: the test counts the calls in which every rank slept, 10
// of 10 then, 0 now.
TEST(CallingThread, LargeTransferDoesNotSleep) {
  if (worldSize() != 2)
    GTEST_SKIP() << "needs 2 ranks, one per core";
  Communicator *c = worldComm();
  const int64_t block = 8 << 20; // elements: 32 MiB per rank
  Buffer in(DType::F32, block), out(DType::F32, 2 * block);
  in.fill(worldRank());
  CollectiveOp op =
      CollectiveOp::allGather(DType::F32, in.data(), out.data(), {block}, 0);
  ASSERT_TRUE(c->run(op).ok()); // the communicator exists, pages are mapped
  ASSERT_GE(voluntarySwitchesOfThisThread(), 0);
  const int calls = 10;
  Buffer slept(DType::F32, calls), allSlept(DType::F32, 2 * calls);
  auto *mine = static_cast<float *>(slept.data());
  for (int i = 0; i < calls; ++i) {
    ASSERT_TRUE(rt().barrier().ok());
    long before = voluntarySwitchesOfThisThread();
    ASSERT_TRUE(c->run(op).ok());
    mine[i] = float(voluntarySwitchesOfThisThread() - before);
  }
  expectAll(
      out, [&](int64_t i) { return value(i % block, int(i / block)); },
      "all_gather of 32 MiB blocks");
  ASSERT_TRUE(c->run(CollectiveOp::allGather(DType::F32, slept.data(),
                                             allSlept.data(), {calls}, 0))
                  .ok());
  const auto *both = static_cast<const float *>(allSlept.data());
  int everyRankSlept = 0;
  for (int i = 0; i < calls; ++i)
    everyRankSlept += both[i] > 0 && both[calls + i] > 0;
  std::printf("[calling thread] rank %d: %d all_gathers of 2 x 32 MiB, "
              "%d in which every rank slept\n",
              worldRank(), calls, everyRankSlept);
  EXPECT_LT(everyRankSlept, calls / 2);
}

// Tests that blocking collectives with nothing in flight leave the progress
// thread asleep: 200 all-gathers switch it in and out fewer than 20 times.
// When they were handed to it, each woke it at least once (>= 200).
TEST(CallingThread, BlockingCollectivesDoNotWakeTheProgressThread) {
  Communicator *c = worldComm();
  Buffer in(DType::F32, 64), out(DType::F32, 64 * worldSize());
  in.fill(worldRank());
  CollectiveOp op =
      CollectiveOp::allGather(DType::F32, in.data(), out.data(), {64}, 0);
  ASSERT_TRUE(c->run(op).ok()); // the communicator exists
  ASSERT_TRUE(rt().barrier().ok());
  long before = contextSwitches("seqpar-mpi");
  ASSERT_GE(before, 0) << "no thread named seqpar-mpi in this process";
  const int calls = 200;
  for (int i = 0; i < calls; ++i)
    ASSERT_TRUE(c->run(op).ok());
  long switches = contextSwitches("seqpar-mpi") - before;
  std::printf("[calling thread] rank %d: %d blocking all_gathers, progress "
              "thread switched %ld times\n",
              worldRank(), calls, switches);
  EXPECT_LT(switches, calls / 10);
  expectAll(out, [&](int64_t i) { return value(i % 64, int(i / 64)); },
            "all_gather on the calling thread");
}

// Tests a blocking collective that one rank makes while it has an
// asynchronous one in flight (so it goes through the progress thread, with
// MPI's nonblocking call) and the other ranks make with nothing in flight (on
// their own threads): the members must all use the nonblocking form (the
// blocking and nonblocking collectives of MPI do not match), and every
// result must be right. Also a blocking collective behind an asynchronous
// one on the same communicator.
TEST(CallingThread, MixedWithAsynchronousInFlight) {
  Communicator *a = worldComm();
  Communicator *b = comm({1, worldSize()}, {1}); // the same ranks
  int64_t t = worldSize();
  int r = worldRank();
  Buffer x(DType::F32, 6), xOut(DType::F32, 6 * t);
  Buffer y(DType::F32, 8), yOut(DType::F32, 8);
  Buffer z(DType::BF16, 4 * t), zOut(DType::BF16, 4);
  x.fill(r);
  y.fill(r);
  z.fill(r);
  CollectiveOp gather =
      CollectiveOp::allGather(DType::F32, x.data(), xOut.data(), {2, 3}, 1);
  CollectiveOp reduce = CollectiveOp::allReduce(DType::F32, Reduction::Sum,
                                                y.data(), yOut.data(), {8});
  CollectiveOp scatter = CollectiveOp::reduceScatter(
      DType::BF16, Reduction::Sum, z.data(), zOut.data(), {4 * t}, 0);
  ASSERT_TRUE(a->run(gather).ok()); // both communicators exist
  ASSERT_TRUE(b->run(reduce).ok());
  for (int round = 0; round < 20; ++round) {
    std::unique_ptr<Request> pending;
    if (r == 0) {
      // b's all-reduce in flight while a's all-gather and b's
      // reduce-scatter are made blocking.
      ASSERT_TRUE(b->start(reduce, &pending).ok());
      ASSERT_TRUE(a->run(gather).ok());
      ASSERT_TRUE(b->run(scatter).ok());
      ASSERT_TRUE(pending->wait().ok());
    } else {
      ASSERT_TRUE(a->run(gather).ok());
      ASSERT_TRUE(b->run(reduce).ok());
      ASSERT_TRUE(b->run(scatter).ok());
    }
    expectAll(xOut, [&](int64_t o) {
      int64_t row = o / (3 * t), col = o % (3 * t);
      return value(row * 3 + col % 3, int(col / 3));
    }, "all_gather");
    expectAll(yOut, [&](int64_t i) {
      float sum = 0;
      for (int w = 0; w < t; ++w)
        sum += value(i, w);
      return sum;
    }, "all_reduce");
    expectAll(zOut, [&](int64_t i) {
      float sum = 0;
      for (int w = 0; w < t; ++w)
        sum += value(r * 4 + i, w);
      return sum;
    }, "reduce_scatter");
  }
}

} // namespace
