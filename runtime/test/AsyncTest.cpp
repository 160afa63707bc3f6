//===- AsyncTest.cpp - asynchronous collectives progress during compute ----===//

#include "Checks.h"

#include <chrono>
#include <cstdio>

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

/// Busy arithmetic for `seconds` of wall time without calling the runtime
/// (std::chrono only); returns a value so the work is not optimized away.
double busyCompute(double seconds) {
  auto until = std::chrono::steady_clock::now() +
               std::chrono::duration<double>(seconds);
  volatile double acc = 1.0;
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 1000; ++i)
      acc = acc * 1.0000001 + 1e-9;
  return acc;
}

// Tests that an asynchronous all-gather completes while the rank computes
// and never calls into the runtime: the completion time recorded by the
// progress thread must fall before the end of the compute phase, and wait()
// must then return at once. Without a progress thread, OpenMPI would only
// move the data inside wait(), after the compute.
TEST(Async, AllGatherProgressesDuringCompute) {
  Communicator *c = worldComm();
  const int64_t local = 1 << 19; // 2 MiB of f32 per rank
  const double compute = 0.5;    // seconds
  Buffer in(DType::F32, local), out(DType::F32, local * worldSize());
  in.fill(worldRank());
  ASSERT_TRUE(rt().barrier().ok());
  double t0 = rt().now();
  std::unique_ptr<Request> request;
  Status s = c->start(
      CollectiveOp::allGather(DType::F32, in.data(), out.data(), {local}, 0),
      &request);
  ASSERT_TRUE(s.ok()) << s.message;
  double started = rt().now();
  busyCompute(compute);
  double computeEnd = rt().now();
  double completedAt = request->completedAt();
  bool doneBeforeWait = request->test();
  ASSERT_TRUE(request->wait().ok());
  double waitEnd = rt().now();
  std::printf("[overlap] rank %d: all_gather of %.1f MiB: start() took %.3f "
              "ms, completed %.1f ms after start, compute ran %.1f ms, wait "
              "took %.3f ms\n",
              worldRank(), local * 4.0 * worldSize() / (1 << 20),
              (started - t0) * 1e3, (completedAt - t0) * 1e3,
              (computeEnd - started) * 1e3, (waitEnd - computeEnd) * 1e3);
  EXPECT_TRUE(doneBeforeWait);
  EXPECT_GT(completedAt, t0);
  EXPECT_LT(completedAt, computeEnd);
  EXPECT_LT(waitEnd - computeEnd, 0.1); // nothing left to move
  expectAll(out, [&](int64_t i) { return value(i % local, int(i / local)); },
            "overlapped all_gather");
}

// Tests several asynchronous collectives in flight at once on two
// communicators, waited for in reverse order.
TEST(Async, ManyInFlightWaitedInReverse) {
  Communicator *c = worldComm();
  Communicator *c2 = comm({1, worldSize()}, {1});
  int64_t t = worldSize();
  Buffer a(DType::F32, 6), aOut(DType::F32, 6 * t);
  Buffer b(DType::BF16, 4 * t), bOut(DType::BF16, 4);
  Buffer d(DType::F16, 5), dOut(DType::F16, 5);
  a.fill(worldRank());
  b.fill(worldRank());
  d.fill(worldRank());
  std::unique_ptr<Request> r1, r2, r3;
  ASSERT_TRUE(c->start(CollectiveOp::allGather(DType::F32, a.data(),
                                               aOut.data(), {2, 3}, 1),
                       &r1)
                  .ok());
  ASSERT_TRUE(c2->start(CollectiveOp::reduceScatter(DType::BF16, Reduction::Sum,
                                                    b.data(), bOut.data(),
                                                    {4 * t}, 0),
                        &r2)
                  .ok());
  ASSERT_TRUE(c->start(CollectiveOp::shift(DType::F16, d.data(), dOut.data(),
                                           {5}, 1),
                       &r3)
                  .ok());
  ASSERT_TRUE(r3->wait().ok());
  ASSERT_TRUE(r2->wait().ok());
  ASSERT_TRUE(r1->wait().ok());
  int r = worldRank();
  expectAll(aOut, [&](int64_t o) {
    int64_t row = o / (3 * t), col = o % (3 * t);
    return value(row * 3 + col % 3, int(col / 3));
  }, "async all_gather");
  expectAll(bOut, [&](int64_t i) {
    float sum = 0;
    for (int w = 0; w < t; ++w)
      sum += value(r * 4 + i, w);
    return sum;
  }, "async reduce_scatter");
  expectAll(dOut, [&](int64_t i) { return value(i, int((r - 1 + t) % t)); },
            "async shift");
}

} // namespace
