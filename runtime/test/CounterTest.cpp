//===- CounterTest.cpp - byte/call/time counters and reports --------------===//
//
// Expected bytes are written out per docs/semantics.md §5 with the numbers of
// each case (not through ringBytesSent): with t ranks and N the bytes of the
// full tensor, all-reduce 2N(t-1)/t, all-gather and reduce-scatter N(t-1)/t,
// all-to-all N(t-1)/t of the local buffer, send: the bytes sent.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include "seqpar/runtime/seqpar_runtime_alloc.h"

#include <chrono>
#include <thread>

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

CollectiveCounter counterOf(OpKind kind, const Communicator *c) {
  CounterSnapshot s = rt().counters();
  auto it = s.collectives.find(
      CounterKey{kind, c->info().gridShape, c->info().axes});
  return it == s.collectives.end() ? CollectiveCounter{} : it->second;
}

// Tests calls and bytes sent per collective kind against docs/semantics.md §5.
TEST(Counters, BytesFollowSpec5) {
  Communicator *c = worldComm();
  uint64_t t = worldSize();
  std::vector<int> m = members({int64_t(t)}, {0});
  rt().resetCounters();
  // all-gather f16, local [4,6] along dim 1, twice: full N = 4*6t*2 bytes,
  // per call N(t-1)/t = 48(t-1).
  checkAllGather(c, m, DType::F16, {4, 6}, 1);
  checkAllGather(c, m, DType::F16, {4, 6}, 1);
  // reduce-scatter f32, full [2t, 3]: N = 24t, sent 24(t-1).
  checkReduceScatter(c, m, DType::F32, Reduction::Sum, {int64_t(2 * t), 3}, 0);
  // all-reduce bf16 [2, t]: N = 4t, sent 2N(t-1)/t = 8(t-1).
  checkAllReduce(c, m, DType::BF16, Reduction::Max, {2, int64_t(t)});
  // all-to-all f32 local [t, 3]: N = 12t, sent 12(t-1).
  checkAllToAll(c, m, DType::F32, {int64_t(t), 3}, 0, 1);
  // send f16 [7]: 14 bytes.
  checkShift(c, m, DType::F16, {7}, 1);

  CollectiveCounter ag = counterOf(OpKind::AllGather, c);
  EXPECT_EQ(ag.calls, 2u);
  EXPECT_EQ(ag.bytesSent, 2 * 48 * (t - 1));
  EXPECT_GT(ag.seconds, 0.0);
  EXPECT_GT(ag.waitSeconds, 0.0);
  CollectiveCounter rs = counterOf(OpKind::ReduceScatter, c);
  EXPECT_EQ(rs.calls, 1u);
  EXPECT_EQ(rs.bytesSent, 24 * (t - 1));
  CollectiveCounter ar = counterOf(OpKind::AllReduce, c);
  EXPECT_EQ(ar.calls, 1u);
  EXPECT_EQ(ar.bytesSent, 8 * (t - 1));
  CollectiveCounter a2a = counterOf(OpKind::AllToAll, c);
  EXPECT_EQ(a2a.calls, 1u);
  EXPECT_EQ(a2a.bytesSent, 12 * (t - 1));
  CollectiveCounter send = counterOf(OpKind::Shift, c);
  EXPECT_EQ(send.calls, 1u);
  EXPECT_EQ(send.bytesSent, t > 1 ? 14u : 0u); // a ring of one sends nothing

  // The public formula agrees, including rounding down (2N(t-1)/t with
  // N = 2 bytes and t = 3 is 8/3 -> 2) and shifts that move nothing.
  EXPECT_EQ(ringBytesSent(OpKind::AllReduce, 2, 3), 2u);
  EXPECT_EQ(ringBytesSent(OpKind::AllGather, 1024, 4), 768u);
  EXPECT_EQ(ringBytesSent(OpKind::Shift, 10, 4, 4), 0u);
  EXPECT_EQ(ringBytesSent(OpKind::Shift, 10, 4, -1), 10u);
  EXPECT_EQ(ringBytesSent(OpKind::AllReduce, 1000, 1), 0u);
}

// Tests that counters are kept per grid axis (2x2 grid).
TEST(Counters, PerGridAxis) {
  if (worldSize() != 4)
    GTEST_SKIP() << "needs 4 ranks";
  rt().resetCounters();
  Communicator *a0 = comm({2, 2}, {0}), *a1 = comm({2, 2}, {1});
  checkAllReduce(a0, members({2, 2}, {0}), DType::F32, Reduction::Sum, {8});
  checkAllReduce(a1, members({2, 2}, {1}), DType::F32, Reduction::Sum, {8});
  checkAllReduce(a1, members({2, 2}, {1}), DType::F32, Reduction::Sum, {8});
  // N = 32 bytes, t = 2: 2N(t-1)/t = 32 per call.
  EXPECT_EQ(counterOf(OpKind::AllReduce, a0).calls, 1u);
  EXPECT_EQ(counterOf(OpKind::AllReduce, a0).bytesSent, 32u);
  EXPECT_EQ(counterOf(OpKind::AllReduce, a1).calls, 2u);
  EXPECT_EQ(counterOf(OpKind::AllReduce, a1).bytesSent, 64u);
}

// Tests named compute regions: calls, FLOPs and time; and their errors.
TEST(Counters, ComputeRegions) {
  rt().resetCounters();
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(rt().regionBegin("attention", 1000).ok());
    ASSERT_TRUE(rt().regionBegin("matmul", 250).ok()); // nested, other name
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_TRUE(rt().regionEnd("matmul").ok());
    ASSERT_TRUE(rt().regionEnd("attention").ok());
  }
  CounterSnapshot s = rt().counters();
  EXPECT_EQ(s.regions["attention"].calls, 2u);
  EXPECT_EQ(s.regions["attention"].flops, 2000);
  EXPECT_EQ(s.regions["matmul"].flops, 500);
  EXPECT_GE(s.regions["matmul"].seconds, 0.039);
  EXPECT_GE(s.regions["attention"].seconds, s.regions["matmul"].seconds);
  EXPECT_EQ(rt().regionEnd("never-opened").code, StatusCode::InvalidArgument);
  ASSERT_TRUE(rt().regionBegin("twice", 1).ok());
  Status again = rt().regionBegin("twice", 1);
  EXPECT_EQ(again.code, StatusCode::InvalidArgument);
  EXPECT_NE(again.message.find("already open"), std::string::npos);
  EXPECT_TRUE(rt().regionEnd("twice").ok());
  EXPECT_EQ(rt().regionBegin("neg", -5).code, StatusCode::InvalidArgument);
}

// Tests that a region counts the collectives that completed and the time
// callers were blocked while it was open (what the ring regions of
// seqpar-instrument-attention report), and a region without collectives none.
TEST(Counters, RegionsCountCollectivesInside) {
  rt().resetCounters();
  Communicator *c = worldComm();
  std::vector<int> m = members({int64_t(worldSize())}, {0});
  ASSERT_TRUE(rt().regionBegin("quiet", 0).ok());
  ASSERT_TRUE(rt().regionEnd("quiet").ok());
  ASSERT_TRUE(rt().regionBegin("ring", 0).ok());
  checkShift(c, m, DType::F32, {1 << 16}, 1, /*async=*/true);
  checkAllReduce(c, m, DType::F32, Reduction::Sum, {64});
  ASSERT_TRUE(rt().regionEnd("ring").ok());
  checkAllGather(c, m, DType::F32, {4}, 0); // after the region: not counted
  CounterSnapshot s = rt().counters();
  const RegionCounter &ring = s.regions["ring"];
  double inside = s.collectives[CounterKey{OpKind::Shift, c->info().gridShape,
                                           c->info().axes}]
                      .seconds +
                  s.collectives[CounterKey{OpKind::AllReduce,
                                           c->info().gridShape, c->info().axes}]
                      .seconds;
  EXPECT_GT(ring.collectiveSeconds, 0.0);
  EXPECT_NEAR(ring.collectiveSeconds, inside, 1e-9);
  EXPECT_GT(ring.waitSeconds, 0.0);
  EXPECT_EQ(s.regions["quiet"].collectiveSeconds, 0.0);
  EXPECT_EQ(s.regions["quiet"].waitSeconds, 0.0);
  std::string json;
  ASSERT_TRUE(rt().countersReport(true, &json).ok());
  EXPECT_NE(json.find("\"name\": \"ring\", \"calls\": 1, \"flops\": 0, "
                      "\"seconds\": "),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"collective_seconds\": "), std::string::npos) << json;
}

// Tests the report: per-rank sections, then the aggregate (sums of calls and
// bytes over ranks) on rank 0, in JSON and text; allocation counters appear
// because the alloc library is linked.
TEST(Counters, ReportAggregatesOnRankZero) {
  rt().resetCounters();
  Communicator *c = worldComm();
  int64_t t = worldSize();
  void *block = _mlir_memref_to_llvm_alloc(1000);
  checkAllGather(c, members({t}, {0}), DType::F32, {4}, 0); // 16(t-1) bytes
  ASSERT_TRUE(rt().regionBegin("mlp", 77).ok());
  ASSERT_TRUE(rt().regionEnd("mlp").ok());
  std::string json, text;
  ASSERT_TRUE(rt().countersReport(true, &json).ok());
  ASSERT_TRUE(rt().countersReport(false, &text).ok());
  _mlir_memref_to_llvm_free(block);
  std::string perRank = "{\"op\": \"all_gather\", \"grid\": [" +
                        std::to_string(t) + "], \"axes\": [0], \"calls\": 1, " +
                        "\"bytes_sent\": " + std::to_string(16 * (t - 1));
  std::string total = "{\"op\": \"all_gather\", \"grid\": [" +
                      std::to_string(t) + "], \"axes\": [0], \"calls\": " +
                      std::to_string(t) + ", \"bytes_sent\": " +
                      std::to_string(16 * (t - 1) * t);
  EXPECT_NE(json.find(perRank), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\": \"mlp\", \"calls\": 1, \"flops\": 77"),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find("\"peak_bytes\": -1"), std::string::npos) << json;
  if (worldRank() == 0) {
    EXPECT_NE(json.find("\"world_size\": " + std::to_string(t)),
              std::string::npos);
    size_t agg = json.find("\"aggregate\"");
    ASSERT_NE(agg, std::string::npos) << json;
    EXPECT_NE(json.find(total, agg), std::string::npos) << json;
    EXPECT_NE(json.find("\"rank\": " + std::to_string(t - 1)),
              std::string::npos);
    EXPECT_NE(text.find("aggregate over " + std::to_string(t) + " ranks"),
              std::string::npos)
        << text;
    std::printf("%s", text.c_str());
  } else {
    EXPECT_EQ(json.find("\"aggregate\""), std::string::npos);
    EXPECT_NE(json.find("\"rank\": " + std::to_string(worldRank())),
              std::string::npos);
  }
}

} // namespace
