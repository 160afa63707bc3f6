//===- CApiTest.cpp - the C ABI: collectives, errors, counters ------------===//

#include "Checks.h"

#include "seqpar/runtime/seqpar_runtime.h"

#include <string>

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

seqpar_rt_comm_t worldHandle() {
  int64_t grid[1] = {worldSize()};
  int32_t axes[1] = {0};
  seqpar_rt_comm_t c = nullptr;
  EXPECT_EQ(seqpar_rt_comm_get(grid, 1, axes, 1, &c), SEQPAR_RT_OK)
      << seqpar_rt_last_error();
  return c;
}

/// Expects `rc` to be INVALID_ARGUMENT with `needle` in the message.
void expectInvalid(seqpar_rt_status_t rc, const std::string &needle) {
  EXPECT_EQ(rc, SEQPAR_RT_ERROR_INVALID_ARGUMENT) << needle;
  EXPECT_NE(std::string(seqpar_rt_last_error()).find(needle),
            std::string::npos)
      << "message: '" << seqpar_rt_last_error() << "', expected '" << needle
      << "'";
}

// Tests the C ABI's grid queries against the row-major layout.
TEST(CApi, GridQueries) {
  int w = worldRank(), n = worldSize();
  EXPECT_EQ(seqpar_rt_world_rank(), w);
  EXPECT_EQ(seqpar_rt_world_size(), n);
  seqpar_rt_comm_t c = worldHandle();
  EXPECT_EQ(seqpar_rt_comm_rank(c), w);
  EXPECT_EQ(seqpar_rt_comm_size(c), n);
  EXPECT_EQ(seqpar_rt_comm_rank(nullptr), -1);
  if (n % 2 == 0) {
    int64_t grid[2] = {n / 2, 2}, index[2] = {-1, -1};
    ASSERT_EQ(seqpar_rt_process_multi_index(grid, 2, index), SEQPAR_RT_OK);
    EXPECT_EQ(index[0], w / 2);
    EXPECT_EQ(index[1], w % 2);
  }
  EXPECT_EQ(seqpar_rt_barrier(), SEQPAR_RT_OK);
}

// Tests each collective through the C ABI, blocking and asynchronous, with a
// middle dim (f32 data; dtypes are covered by the C++ tests).
TEST(CApi, CollectivesBlockingAndAsync) {
  seqpar_rt_comm_t c = worldHandle();
  int64_t t = worldSize();
  int r = worldRank();
  // all-gather [2,3] along dim 1 -> [2,3t].
  Buffer in(DType::F32, 6), out(DType::F32, 6 * t);
  in.fill(r);
  int64_t local[2] = {2, 3};
  seqpar_rt_request_t req = nullptr;
  ASSERT_EQ(seqpar_rt_all_gather_start(c, SEQPAR_RT_F32, in.data(), out.data(),
                                       local, 2, 1, &req),
            SEQPAR_RT_OK);
  int32_t done = -1;
  EXPECT_EQ(seqpar_rt_test(req, &done), SEQPAR_RT_OK);
  EXPECT_TRUE(done == 0 || done == 1);
  ASSERT_EQ(seqpar_rt_wait(req), SEQPAR_RT_OK);
  expectAll(out, [&](int64_t o) {
    int64_t row = o / (3 * t), col = o % (3 * t);
    return value(row * 3 + col % 3, int(col / 3));
  }, "C all_gather");
  // reduce-scatter [2, 2t] along dim 1 -> [2, 2], sum.
  Buffer full(DType::F32, 4 * t), part(DType::F32, 4);
  full.fill(r);
  int64_t fullShape[2] = {2, 2 * t};
  ASSERT_EQ(seqpar_rt_reduce_scatter(c, SEQPAR_RT_F32, SEQPAR_RT_SUM,
                                     full.data(), part.data(), fullShape, 2, 1),
            SEQPAR_RT_OK);
  expectAll(part, [&](int64_t o) {
    float sum = 0;
    for (int w = 0; w < t; ++w)
      sum += value((o / 2) * 2 * t + r * 2 + o % 2, w);
    return sum;
  }, "C reduce_scatter");
  // all-reduce in place, max.
  Buffer acc(DType::F32, 5);
  acc.fill(r);
  int64_t shape5[1] = {5};
  ASSERT_EQ(seqpar_rt_all_reduce_start(c, SEQPAR_RT_F32, SEQPAR_RT_MAX,
                                       acc.data(), acc.data(), shape5, 1, &req),
            SEQPAR_RT_OK);
  ASSERT_EQ(seqpar_rt_wait(req), SEQPAR_RT_OK);
  expectAll(acc, [&](int64_t i) {
    float mx = value(i, 0);
    for (int w = 1; w < t; ++w)
      mx = std::max(mx, value(i, w));
    return mx;
  }, "C all_reduce");
  // all-to-all [t, 2] split 0 concat 1 -> [1, 2t].
  Buffer a(DType::F32, 2 * t), b(DType::F32, 2 * t);
  a.fill(r);
  int64_t a2a[2] = {t, 2};
  ASSERT_EQ(seqpar_rt_all_to_all(c, SEQPAR_RT_F32, a.data(), b.data(), a2a, 2,
                                 0, 1),
            SEQPAR_RT_OK);
  expectAll(b, [&](int64_t o) { return value(r * 2 + o % 2, int(o / 2)); },
            "C all_to_all");
  // shift -1 (receive from r+1).
  Buffer s(DType::F32, 5), s2(DType::F32, 5);
  s.fill(r);
  ASSERT_EQ(seqpar_rt_shift_start(c, SEQPAR_RT_F32, s.data(), s2.data(), shape5,
                                  1, -1, &req),
            SEQPAR_RT_OK);
  ASSERT_EQ(seqpar_rt_wait(req), SEQPAR_RT_OK);
  expectAll(s2, [&](int64_t i) { return value(i, int((r + 1) % t)); },
            "C shift");
  uint64_t calls = 0, bytes = 0;
  double seconds = -1;
  ASSERT_EQ(seqpar_rt_collective_counter(SEQPAR_RT_SHIFT, c, &calls, &bytes,
                                         &seconds),
            SEQPAR_RT_OK);
  EXPECT_GE(calls, 1u);
  EXPECT_GE(seconds, 0.0);
}

// Tests that bad arguments return INVALID_ARGUMENT with a message naming the
// problem, before any communication, and that the runtime keeps working.
TEST(CApi, BadArgumentsReturnErrors) {
  seqpar_rt_comm_t c = worldHandle();
  int64_t t = worldSize();
  float in[64] = {0}, out[64] = {0};
  int64_t s2[2] = {2, 3};
  expectInvalid(seqpar_rt_all_gather(c, SEQPAR_RT_F32, in, out, s2, 2, 2),
                "dim 2 out of range for shape [2,3] (2 dims)");
  expectInvalid(seqpar_rt_all_gather(c, SEQPAR_RT_F32, in, out, s2, 2, -1),
                "dim -1 out of range");
  if (t > 1) { // every extent is divisible by 1
    int64_t odd[2] = {t + 1, 2};
    expectInvalid(seqpar_rt_reduce_scatter(c, SEQPAR_RT_F32, SEQPAR_RT_SUM, in,
                                           out, odd, 2, 0),
                  "extent " + std::to_string(t + 1) + " of dim 0 in shape [" +
                      std::to_string(t + 1) +
                      ",2] is not divisible by the group size " +
                      std::to_string(t));
    expectInvalid(
        seqpar_rt_all_to_all(c, SEQPAR_RT_F32, in, out, odd, 2, 0, 1),
        "is not divisible by the group size");
  }
  int64_t ok2[2] = {t, 2};
  expectInvalid(seqpar_rt_all_to_all(c, SEQPAR_RT_F32, in, out, ok2, 2, 0, 5),
                "concat dim 5 out of range");
  expectInvalid(seqpar_rt_all_reduce(c, 7, SEQPAR_RT_SUM, in, out, s2, 2),
                "unknown dtype 7");
  expectInvalid(seqpar_rt_all_reduce(c, SEQPAR_RT_F16, 9, in, out, s2, 2),
                "unknown reduction 9");
  expectInvalid(seqpar_rt_all_reduce(c, SEQPAR_RT_F32, SEQPAR_RT_SUM, nullptr,
                                     out, s2, 2),
                "null input buffer");
  int64_t negative[2] = {2, -3};
  expectInvalid(seqpar_rt_shift(c, SEQPAR_RT_F32, in, out, negative, 2, 1),
                "negative extent in shape [2,-3]");
  expectInvalid(seqpar_rt_shift(c, SEQPAR_RT_F32, in, out, nullptr, 2, 1),
                "shape: 2 dims with shape pointer null");
  expectInvalid(seqpar_rt_all_gather(c, SEQPAR_RT_F32, in, in + 1, s2, 2, 0),
                "input and output buffers overlap");
  expectInvalid(seqpar_rt_all_gather(nullptr, SEQPAR_RT_F32, in, out, s2, 2, 0),
                "all_gather: null communicator");
  expectInvalid(seqpar_rt_all_gather_start(c, SEQPAR_RT_F32, in, out, s2, 2, 0,
                                           nullptr),
                "null request pointer");
  expectInvalid(seqpar_rt_wait(nullptr), "wait: null request");
  // Grids.
  seqpar_rt_comm_t bad = nullptr;
  int64_t wrong[1] = {t + 1};
  int32_t axis0[1] = {0}, axis3[1] = {3}, twice[2] = {0, 0};
  expectInvalid(seqpar_rt_comm_get(wrong, 1, axis0, 1, &bad),
                "does not have " + std::to_string(t) + " processes");
  EXPECT_EQ(bad, nullptr);
  int64_t grid[2] = {1, t};
  expectInvalid(seqpar_rt_comm_get(grid, 2, axis3, 1, &bad),
                "axis 3 out of range for grid shape [1," + std::to_string(t) +
                    "]");
  expectInvalid(seqpar_rt_comm_get(grid, 2, twice, 2, &bad), "repeated");
  expectInvalid(seqpar_rt_comm_get(grid, 2, axis0, 0, &bad), "no grid axes");
  expectInvalid(seqpar_rt_set_error_mode(5), "unknown mode 5");
  expectInvalid(seqpar_rt_region_end("nothing-open"), "is not open");
  // The message mentions the communicator.
  expectInvalid(seqpar_rt_all_gather(c, SEQPAR_RT_F32, in, out, s2, 2, 4),
                "(on grid=[" + std::to_string(t) + "] axes=[0])");
  // Still usable afterwards; and a success clears the last error.
  float x = 1, y = 0;
  int64_t one[1] = {1};
  ASSERT_EQ(seqpar_rt_all_reduce(c, SEQPAR_RT_F32, SEQPAR_RT_SUM, &x, &y, one,
                                 1),
            SEQPAR_RT_OK);
  EXPECT_EQ(y, float(t));
  EXPECT_STREQ(seqpar_rt_last_error(), "");
}

// Tests the report through the C ABI: length query, truncation, and JSON.
TEST(CApi, CountersString) {
  size_t length = 0;
  ASSERT_EQ(seqpar_rt_counters_string(SEQPAR_RT_FORMAT_JSON, nullptr, 0,
                                      &length),
            SEQPAR_RT_OK);
  EXPECT_GT(length, 10u);
  char small[8];
  ASSERT_EQ(seqpar_rt_counters_string(SEQPAR_RT_FORMAT_TEXT, small,
                                      sizeof small, &length),
            SEQPAR_RT_OK);
  EXPECT_EQ(std::string(small).size(), 7u);
  expectInvalid(seqpar_rt_counters_string(3, nullptr, 0, nullptr),
                "unknown format 3");
}

} // namespace
