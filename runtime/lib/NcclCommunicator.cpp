//===- NcclCommunicator.cpp - collectives on CUDA device buffers ----------===//
//
// One ncclComm_t and one non-blocking CUDA stream per (grid, axes) group,
// created on first use with a device buffer: axis rank 0 makes an
// ncclUniqueId, broadcast over the group's MPI communicator (no parent NCCL
// communicator is needed, unlike ncclCommSplit). A collective is enqueued on
// the group's stream after the user stream (seqpar_rt_set_cuda_stream,
// default: legacy stream 0) reaches that point; "asynchronous" = an event is
// recorded after it; wait() polls the event (host side, with the MPI
// engine's back-off, subject to the timeout) and then makes the user stream
// wait for it. A blocking collective (run) with no request of the group in
// flight is enqueued on the user stream itself: nothing can overlap it, and
// the two cross-stream event waits cost a third of a 1 MiB transfer
// (runtime/README.md "GPU check"). Events are pooled per group. The
// agreement check of each collective runs on the group's MPI communicator
// without blocking the caller. Non-leading dims are
// packed/unpacked with cudaMemcpy2DAsync; f16/bf16 reductions run in f32
// (NcclKernels.cu); all-to-all is grouped ncclSend/ncclRecv.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"
#include "Layout.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <atomic>
#include <cstdio>
#include <vector>

namespace seqpar {
namespace rt {
namespace detail {

cudaError_t cudaWidenToF32(int dtype, const void *src, float *dst, int64_t n,
                           cudaStream_t stream);
cudaError_t cudaNarrowFromF32(int dtype, const float *src, void *dst,
                              int64_t n, cudaStream_t stream);

namespace {
std::atomic<cudaStream_t> gUserStream{nullptr};

/// A CUDA call's result as a Status naming the call.
Status cudaStatus(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return Status::success();
  return Status::error(StatusCode::Backend, std::string("CUDA error in ") +
                                                what + ": " +
                                                cudaGetErrorString(e));
}

#define SEQPAR_CUDA(expr)                                                      \
  do {                                                                         \
    Status s_ = cudaStatus((expr), #expr);                                     \
    if (!s_.ok())                                                              \
      return s_;                                                               \
  } while (0)

#define SEQPAR_NCCL(expr)                                                      \
  do {                                                                         \
    ncclResult_t r_ = (expr);                                                  \
    if (r_ != ncclSuccess)                                                     \
      return Status::error(StatusCode::Backend,                                \
                           std::string("NCCL error in " #expr ": ") +          \
                               ncclGetErrorString(r_));                        \
  } while (0)

ncclDataType_t ncclType(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return ncclFloat16;
  case DType::BF16:
    return ncclBfloat16;
  case DType::I32:
    return ncclInt32;
  case DType::I64:
    return ncclInt64;
  case DType::I8:
    return ncclInt8;
  case DType::F32:
    break;
  }
  return ncclFloat32;
}

ncclRedOp_t ncclOp(Reduction reduction) {
  switch (reduction) {
  case Reduction::Max:
    return ncclMax;
  case Reduction::Min:
    return ncclMin;
  case Reduction::Sum:
    break;
  }
  return ncclSum;
}

/// Restores the caller's current device on scope exit.
struct DeviceGuard {
  int previous = 0;
  explicit DeviceGuard(int device) {
    cudaGetDevice(&previous);
    cudaSetDevice(device);
  }
  ~DeviceGuard() { cudaSetDevice(previous); }
};

/// Copies t chunks: dst + j*dstStep (pitch dpitch) <- src + j*srcStep (pitch
/// spitch), each `rows` rows of `width` bytes. Used for pack and unpack.
Status copyChunks(char *dst, size_t dstStep, size_t dpitch, const char *src,
                  size_t srcStep, size_t spitch, size_t width, size_t rows,
                  int64_t t, cudaStream_t stream) {
  if (!width || !rows)
    return Status::success();
  for (int64_t j = 0; j < t; ++j)
    SEQPAR_CUDA(cudaMemcpy2DAsync(dst + j * dstStep, dpitch, src + j * srcStep,
                                  spitch, width, rows, cudaMemcpyDeviceToDevice,
                                  stream));
  return Status::success();
}

class NcclCommunicator;

class NcclRequest : public Request {
public:
  /// `onUserStream`: the collective was enqueued on the user stream, which
  /// then needs no wait for it.
  NcclRequest(NcclCommunicator &owner, cudaEvent_t start, cudaEvent_t done,
              CounterKey key, uint64_t bytes, std::string description,
              double startTime, bool onUserStream)
      : owner_(owner), start_(start), done_(done), key_(std::move(key)),
        bytes_(bytes), description_(std::move(description)),
        startTime_(startTime), onUserStream_(onUserStream) {}
  ~NcclRequest() override;
  Status wait() override;
  bool test() override {
    if (completedAt_ < 0 && cudaEventQuery(done_) == cudaSuccess)
      completedAt_ = monotonicSeconds();
    return completedAt_ >= 0;
  }
  /// Host time when completion was first observed (test or wait).
  double completedAt() const override { return completedAt_; }

private:
  NcclCommunicator &owner_;
  cudaEvent_t start_, done_;
  CounterKey key_;
  uint64_t bytes_;
  std::string description_;
  double startTime_;
  bool onUserStream_;
  double completedAt_ = -1;
  bool waited_ = false;
};

class NcclCommunicator : public Communicator {
public:
  NcclCommunicator(CommunicatorInfo info, ncclComm_t comm, cudaStream_t stream,
                   int device, Counters &counters)
      : info_(std::move(info)), comm_(comm), stream_(stream), device_(device),
        counters_(counters) {}
  ~NcclCommunicator() override {
    DeviceGuard guard(device_);
    cudaStreamSynchronize(stream_);
    for (cudaEvent_t e : freeEvents_)
      cudaEventDestroy(e);
    if (ready_)
      cudaEventDestroy(ready_);
    ncclCommDestroy(comm_);
    cudaStreamDestroy(stream_);
  }
  const CommunicatorInfo &info() const override { return info_; }
  Counters &counters() { return counters_; }
  ncclComm_t comm() { return comm_; }
  int device() const { return device_; }

  Status start(const CollectiveOp &op,
               std::unique_ptr<Request> *request) override {
    return launch(op, stream_, request);
  }

  Status run(const CollectiveOp &op) override {
    std::unique_ptr<Request> request;
    // Requests in flight run on the group's stream; NCCL needs one order
    // of a communicator's collectives, so this one follows them there.
    Status status = launch(op, inFlight_ ? stream_ : gUserStream.load(),
                           &request);
    return status.ok() ? request->wait() : status;
  }

  /// A timing event from the pool (requests return theirs on destruction).
  Status takeEvent(cudaEvent_t *event) {
    if (!freeEvents_.empty()) {
      *event = freeEvents_.back();
      freeEvents_.pop_back();
      return Status::success();
    }
    SEQPAR_CUDA(cudaEventCreate(event));
    return Status::success();
  }
  void returnEvent(cudaEvent_t event) { freeEvents_.push_back(event); }
  void requestDone() { --inFlight_; }

private:
  /// Enqueues `op` on `stream` (the group's stream after the user stream's
  /// pending work, or the user stream itself) between two timing events.
  Status launch(const CollectiveOp &op, cudaStream_t stream,
                std::unique_ptr<Request> *request) {
    *request = nullptr;
    Geometry g;
    Status status = validate(op, info_.size, &g);
    if (!status.ok())
      return status;
    DeviceGuard guard(device_);
    cudaEvent_t start, done;
    if (!(status = takeEvent(&start)).ok())
      return status;
    if (!(status = takeEvent(&done)).ok()) {
      returnEvent(start);
      return status;
    }
    double startTime = monotonicSeconds();
    const bool onUserStream = stream != stream_;
    // Every step's failure takes the one exit below, which returns the
    // events to the pool.
    if (!onUserStream) {
      if (!ready_)
        status = cudaStatus(
            cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming),
            "cudaEventCreateWithFlags");
      if (status.ok())
        status = cudaStatus(cudaEventRecord(ready_, gUserStream.load()),
                            "cudaEventRecord");
      if (status.ok())
        status = cudaStatus(cudaStreamWaitEvent(stream_, ready_, 0),
                            "cudaStreamWaitEvent");
    }
    if (status.ok())
      status = cudaStatus(cudaEventRecord(start, stream), "cudaEventRecord");
    active_ = stream;
    if (status.ok())
      status = enqueue(op, g);
    if (status.ok())
      status = cudaStatus(cudaEventRecord(done, stream), "cudaEventRecord");
    if (!status.ok()) {
      returnEvent(start);
      returnEvent(done);
      return status;
    }
    ++inFlight_;
    *request = std::make_unique<NcclRequest>(
        *this, start, done, CounterKey{op.kind, info_.gridShape, info_.axes},
        g.bytesSent, describe(op, info_), startTime, onUserStream);
    return Status::success();
  }

  template <typename T> Status scratch(T **ptr, size_t bytes) {
    SEQPAR_CUDA(cudaMallocAsync(reinterpret_cast<void **>(ptr),
                                bytes ? bytes : 1, active_));
    return Status::success();
  }

  Status enqueue(const CollectiveOp &op, const Geometry &g) {
    const size_t es = dtypeSize(op.dtype);
    const int64_t t = info_.size, r = info_.rank;
    const ncclDataType_t type = ncclType(op.dtype);
    const char *in = static_cast<const char *>(op.input);
    char *out = static_cast<char *>(op.output);
    const int dt = static_cast<int>(op.dtype);
    Status s;
    switch (op.kind) {
    case OpKind::AllGather: {
      if (g.outer == 1) {
        SEQPAR_NCCL(ncclAllGather(in, out, g.inputElems, type, comm_, active_));
        return s;
      }
      char *tmp;
      if (!(s = scratch(&tmp, g.outputElems * es)).ok())
        return s;
      SEQPAR_NCCL(ncclAllGather(in, tmp, g.inputElems, type, comm_, active_));
      size_t row = g.extent * g.inner * es; // one rank's rows
      s = copyChunks(out, row, t * row, tmp, g.inputElems * es, row, row,
                     g.outer, t, active_);
      SEQPAR_CUDA(cudaFreeAsync(tmp, active_));
      return s;
    }
    case OpKind::ReduceScatter:
    case OpKind::AllToAll: {
      const char *src = in;
      char *packed = nullptr;
      if (g.outer != 1) { // make each rank's chunk of the split dim contiguous
        if (!(s = scratch(&packed, g.inputElems * es)).ok())
          return s;
        size_t row = (g.extent / t) * g.inner * es;
        s = copyChunks(packed, g.outer * row, row, in, row, g.extent * g.inner * es,
                       row, g.outer, t, active_);
        if (!s.ok())
          return s;
        src = packed;
      }
      s = op.kind == OpKind::ReduceScatter ? reduceScatter(op, g, src, out)
                                           : allToAll(op, g, src, out);
      if (packed)
        SEQPAR_CUDA(cudaFreeAsync(packed, active_));
      return s;
    }
    case OpKind::AllReduce: {
      if (!isHalf(op.dtype)) {
        SEQPAR_NCCL(ncclAllReduce(in, out, g.inputElems, type,
                                  ncclOp(op.reduction), comm_, active_));
        return s;
      }
      float *wide;
      if (!(s = scratch(&wide, g.inputElems * 4)).ok())
        return s;
      SEQPAR_CUDA(cudaWidenToF32(dt, in, wide, g.inputElems, active_));
      SEQPAR_NCCL(ncclAllReduce(wide, wide, g.inputElems, ncclFloat32,
                                ncclOp(op.reduction), comm_, active_));
      SEQPAR_CUDA(cudaNarrowFromF32(dt, wide, out, g.inputElems, active_));
      SEQPAR_CUDA(cudaFreeAsync(wide, active_));
      return s;
    }
    case OpKind::Shift: {
      if (g.shift == 0) {
        SEQPAR_CUDA(cudaMemcpyAsync(out, in, g.inputElems * es,
                                    cudaMemcpyDeviceToDevice, active_));
        return s;
      }
      SEQPAR_NCCL(ncclGroupStart());
      SEQPAR_NCCL(ncclSend(in, g.inputElems, type, int((r + g.shift) % t),
                           comm_, active_));
      SEQPAR_NCCL(ncclRecv(out, g.inputElems, type,
                           int((r - g.shift + t) % t), comm_, active_));
      SEQPAR_NCCL(ncclGroupEnd());
      return s;
    }
    }
    return s;
  }

  Status reduceScatter(const CollectiveOp &op, const Geometry &g,
                       const char *src, char *out) {
    Status s;
    if (!isHalf(op.dtype)) {
      SEQPAR_NCCL(ncclReduceScatter(src, out, g.chunkElems, ncclType(op.dtype),
                                    ncclOp(op.reduction), comm_, active_));
      return s;
    }
    float *wide, *part;
    if (!(s = scratch(&wide, g.inputElems * 4)).ok() ||
        !(s = scratch(&part, g.chunkElems * 4)).ok())
      return s;
    const int dt = static_cast<int>(op.dtype);
    SEQPAR_CUDA(cudaWidenToF32(dt, src, wide, g.inputElems, active_));
    SEQPAR_NCCL(ncclReduceScatter(wide, part, g.chunkElems, ncclFloat32,
                                  ncclOp(op.reduction), comm_, active_));
    SEQPAR_CUDA(cudaNarrowFromF32(dt, part, out, g.chunkElems, active_));
    SEQPAR_CUDA(cudaFreeAsync(wide, active_));
    SEQPAR_CUDA(cudaFreeAsync(part, active_));
    return s;
  }

  Status allToAll(const CollectiveOp &op, const Geometry &g, const char *src,
                  char *out) {
    const size_t es = dtypeSize(op.dtype);
    const int64_t t = info_.size;
    const size_t chunk = g.chunkElems * es;
    Status s;
    char *dst = out;
    bool unpack = g.chunkOuter != 1;
    if (unpack && !(s = scratch(&dst, g.outputElems * es)).ok())
      return s;
    SEQPAR_NCCL(ncclGroupStart());
    for (int64_t p = 0; p < t; ++p) {
      SEQPAR_NCCL(ncclSend(src + p * chunk, g.chunkElems, ncclType(op.dtype),
                           int(p), comm_, active_));
      SEQPAR_NCCL(ncclRecv(dst + p * chunk, g.chunkElems, ncclType(op.dtype),
                           int(p), comm_, active_));
    }
    SEQPAR_NCCL(ncclGroupEnd());
    if (unpack) {
      size_t row = g.chunkExtent * g.chunkInner * es;
      s = copyChunks(out, row, t * row, dst, chunk, row, row, g.chunkOuter, t,
                     active_);
      SEQPAR_CUDA(cudaFreeAsync(dst, active_));
    }
    return s;
  }

  CommunicatorInfo info_;
  ncclComm_t comm_;
  cudaStream_t stream_;
  int device_;
  Counters &counters_;
  /// The stream enqueue() and its helpers write to (launch sets it).
  cudaStream_t active_ = nullptr;
  /// Orders the group's stream after the user stream; re-recorded per launch.
  cudaEvent_t ready_ = nullptr;
  std::vector<cudaEvent_t> freeEvents_;
  /// Requests launched and not yet waited.
  int64_t inFlight_ = 0;
};

NcclRequest::~NcclRequest() {
  if (!waited_)
    wait();
  owner_.returnEvent(start_);
  owner_.returnEvent(done_);
}

Status NcclRequest::wait() {
  if (waited_)
    return Status::success();
  waited_ = true;
  owner_.requestDone();
  double t0 = monotonicSeconds();
  Runtime &runtime = Runtime::get();
  Backoff backoff; // polls back off like the MPI engine's (Layout.h)
  for (;; backoff.pause()) {
    cudaError_t e = cudaEventQuery(done_);
    if (e == cudaSuccess)
      break;
    if (e != cudaErrorNotReady)
      return Status::error(StatusCode::Backend,
                           std::string("CUDA error while waiting for ") +
                               description_ + ": " + cudaGetErrorString(e));
    double limit = runtime.timeoutSeconds();
    if (monotonicSeconds() - startTime_ > limit) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", limit);
      ncclCommAbort(owner_.comm());
      runtime.abortJob("timeout: collective did not complete within " +
                           std::string(buf) +
                           " s (SEQPAR_COLLECTIVE_TIMEOUT): " + description_ +
                           " (NCCL); aborting all ranks",
                       3);
    }
  }
  double now = monotonicSeconds();
  if (completedAt_ < 0)
    completedAt_ = now;
  float ms = 0;
  cudaEventElapsedTime(&ms, start_, done_);
  owner_.counters().addCollective(key_, bytes_, ms / 1e3);
  owner_.counters().addWait(key_, now - t0);
  if (!onUserStream_) {
    DeviceGuard guard(owner_.device());
    cudaStreamWaitEvent(gUserStream.load(), done_, 0);
  }
  return Status::success();
}
} // namespace

bool cudaAvailable() {
  static const bool available = [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      cudaGetLastError(); // clear "no device / no driver"
      return false;
    }
    return count > 0;
  }();
  return available;
}

bool isDevicePointer(const void *ptr, int *device) {
  if (!cudaAvailable())
    return false;
  cudaPointerAttributes attributes;
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (attributes.type != cudaMemoryTypeDevice &&
      attributes.type != cudaMemoryTypeManaged)
    return false;
  *device = attributes.device;
  return true;
}

void setUserStream(void *stream) {
  gUserStream.store(static_cast<cudaStream_t>(stream));
}

Status createNcclCommunicator(MpiCommunicator &host, int device,
                              Counters &counters,
                              std::unique_ptr<Communicator> *out) {
  const CommunicatorInfo &info = host.info();
  DeviceGuard guard(device);
  ncclUniqueId id;
  if (info.rank == 0)
    SEQPAR_NCCL(ncclGetUniqueId(&id));
  MPI_Comm comm = host.comm();
  host.runCollective(ControlKind::NcclInit,
                     "ncclUniqueId broadcast for " + info.label(),
                     [&] { MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm); });
  ncclComm_t nccl;
  SEQPAR_NCCL(ncclCommInitRank(&nccl, info.size, id, info.rank));
  cudaStream_t stream;
  SEQPAR_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  *out = std::make_unique<NcclCommunicator>(info, nccl, stream, device,
                                            counters);
  return Status::success();
}

} // namespace detail
} // namespace rt
} // namespace seqpar
