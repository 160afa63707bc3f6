//===- NcclTest.cpp - the NCCL backend on device buffers ------------------===//
//
// The same checks as the MPI tests, with every buffer staged through CUDA
// device memory, so the runtime picks NCCL. Runs at world size 1 (one GPU; a
// group of one still runs NCCL, the packing and the f16/bf16 kernels) and on
// more ranks under mpirun when each rank has its own GPU. Skips itself where
// no GPU is visible (developer and CI machines).
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include "seqpar/runtime/seqpar_runtime.h"

#include <cuda_runtime.h>

using namespace seqpar::rt;
using namespace seqpar::rt::test;

namespace {

bool haveGpu() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (count > 0)
    cudaSetDevice(worldRank() % count);
  return count > 0;
}

/// Copies the op's host buffers to the device, runs it there, copies back.
Status deviceRun(Communicator *c, const CollectiveOp &hostOp, bool async) {
  std::vector<int64_t> outShape;
  Status s = validateCollective(hostOp, c->size(), &outShape);
  if (!s.ok())
    return s;
  size_t es = dtypeSize(hostOp.dtype);
  size_t inBytes = numElements(hostOp.shape) * es;
  size_t outBytes = numElements(outShape) * es;
  void *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, inBytes + 1) != cudaSuccess)
    return Status::error(StatusCode::Backend, "cudaMalloc failed");
  cudaMemcpy(in, hostOp.input, inBytes, cudaMemcpyHostToDevice);
  bool inPlace = hostOp.input == hostOp.output;
  if (inPlace)
    out = in;
  else if (cudaMalloc(&out, outBytes + 1) != cudaSuccess)
    return Status::error(StatusCode::Backend, "cudaMalloc failed");
  CollectiveOp op = hostOp;
  op.input = in;
  op.output = out;
  // Blocking calls take the user-stream path, asynchronous ones the
  // group's stream.
  if (async) {
    std::unique_ptr<Request> request;
    s = c->start(op, &request);
    if (s.ok())
      s = request->wait();
  } else {
    s = c->run(op);
  }
  cudaMemcpy(hostOp.output, out, outBytes, cudaMemcpyDeviceToHost);
  cudaFree(in);
  if (!inPlace)
    cudaFree(out);
  return s;
}

class Nccl : public ::testing::TestWithParam<DType> {
protected:
  void SetUp() override {
    if (!haveGpu())
      GTEST_SKIP() << "no CUDA device visible";
    runner() = deviceRun;
  }
  void TearDown() override { runner() = nullptr; }
  Communicator *c = worldComm();
  std::vector<int> m = members({worldSize()}, {0});
  int64_t t = worldSize();
};

// Tests every collective on device buffers: leading and middle dims, every
// reduction, all-to-all split/concat combinations, ring shifts.
TEST_P(Nccl, EveryCollective) {
  DType dt = GetParam();
  for (int dim = 0; dim < 3; ++dim)
    checkAllGather(c, m, dt, {3, 2, 4}, dim);
  for (Reduction red : {Reduction::Sum, Reduction::Max, Reduction::Min}) {
    checkReduceScatter(c, m, dt, red, {2 * t, 3, 2}, 0);
    checkReduceScatter(c, m, dt, red, {3, 2 * t, 2}, 1);
    checkAllReduce(c, m, dt, red, {3, 5});
    checkAllReduce(c, m, dt, red, {7}, /*inPlace=*/true);
  }
  checkAllToAll(c, m, dt, {2, 3, 2 * t, 2}, 2, 1);
  checkAllToAll(c, m, dt, {3, 2, t}, 2, 0);
  checkShift(c, m, dt, {3, 4}, +1);
  checkShift(c, m, dt, {3, 4}, -1);
}

// Tests that device collectives are counted like host ones
// (docs/semantics.md §5).
TEST_P(Nccl, CountsBytes) {
  rt().resetCounters();
  checkAllGather(c, m, GetParam(), {4, 6}, 1);
  CounterSnapshot s = rt().counters();
  CollectiveCounter ag = s.collectives[CounterKey{
      OpKind::AllGather, c->info().gridShape, c->info().axes}];
  EXPECT_EQ(ag.calls, 1u);
  EXPECT_EQ(ag.bytesSent, uint64_t(24 * dtypeSize(GetParam()) * (t - 1)));
}

// Tests the same collectives through start + wait (the group's stream).
TEST_P(Nccl, EveryCollectiveAsync) {
  DType dt = GetParam();
  checkAllGather(c, m, dt, {3, 2, 4}, 1, /*async=*/true);
  checkReduceScatter(c, m, dt, Reduction::Sum, {3, 2 * t, 2}, 1, true);
  checkAllReduce(c, m, dt, Reduction::Max, {3, 5}, false, true);
  checkAllToAll(c, m, dt, {2, 3, 2 * t, 2}, 2, 1, true);
  checkShift(c, m, dt, {3, 4}, +1, true);
}

INSTANTIATE_TEST_SUITE_P(DTypes, Nccl,
                         ::testing::Values(DType::F32, DType::F16, DType::BF16,
                                           DType::I32, DType::I64, DType::I8),
                         [](const ::testing::TestParamInfo<DType> &info) {
                           return std::string(dtypeName(info.param));
                         });

} // namespace

namespace {
/// Fills `n` floats of device memory with `value` on `stream` (a pinned host
/// staging buffer, so the copy really runs on that stream).
void fillOnStream(float *dst, int64_t n, float value, cudaStream_t stream) {
  float *host = nullptr;
  cudaMallocHost(&host, n * sizeof(float));
  for (int64_t i = 0; i < n; ++i)
    host[i] = value;
  cudaMemcpyAsync(dst, host, n * sizeof(float), cudaMemcpyHostToDevice,
                  stream);
  cudaStreamSynchronize(stream);
  cudaFreeHost(host);
}

// Tests the ordering rules of the NCCL backend (NcclCommunicator.cpp): a
// blocking all-reduce on a user stream reads what that stream wrote just
// before it, and a blocking collective issued while an asynchronous one is
// in flight completes after it (both in the group's one order), each with
// the right sums.
TEST(NcclOrder, UserStreamAndInFlightRequests) {
  if (!haveGpu())
    GTEST_SKIP() << "no CUDA device visible";
  Communicator *c = worldComm();
  const int64_t t = worldSize(), n = 1 << 20;
  cudaStream_t user;
  ASSERT_EQ(cudaStreamCreateWithFlags(&user, cudaStreamNonBlocking),
            cudaSuccess);
  ASSERT_EQ(seqpar_rt_set_cuda_stream(user), 0);
  float *a = nullptr, *b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, n * sizeof(float)), cudaSuccess);
  fillOnStream(a, n, 1.0f, user);
  fillOnStream(b, n, 2.0f, user);
  // A kernel-free write on the user stream right before the collective.
  cudaMemsetAsync(a, 0, n * sizeof(float), user);
  std::unique_ptr<Request> first;
  ASSERT_TRUE(c->start(CollectiveOp::allReduce(DType::F32, Reduction::Sum, b,
                                               b, {n}),
                       &first)
                  .ok());
  ASSERT_TRUE(
      c->run(CollectiveOp::allReduce(DType::F32, Reduction::Sum, a, a, {n}))
          .ok());
  ASSERT_TRUE(first->wait().ok());
  cudaStreamSynchronize(user);
  std::vector<float> ha(n), hb(n);
  cudaMemcpy(ha.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hb.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int64_t i = 0; i < n; i += 4099) {
    EXPECT_EQ(ha[i], 0.0f) << i;
    EXPECT_EQ(hb[i], 2.0f * t) << i;
  }
  // Blocking calls back to back on the user stream, no request in flight.
  for (int k = 0; k < 3; ++k)
    ASSERT_TRUE(
        c->run(CollectiveOp::allReduce(DType::F32, Reduction::Sum, b, b, {n}))
            .ok());
  cudaMemcpy(hb.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost);
  EXPECT_EQ(hb[n - 1], 2.0f * t * t * t * t);
  seqpar_rt_set_cuda_stream(nullptr);
  cudaFree(a);
  cudaFree(b);
  cudaStreamDestroy(user);
}
} // namespace
