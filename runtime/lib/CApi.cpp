//===- CApi.cpp - the C ABI over the C++ runtime --------------------------===//

#include "seqpar/runtime/seqpar_runtime.h"

#include "Backends.h"
#include "seqpar/runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace seqpar::rt;

struct seqpar_rt_request {
  std::unique_ptr<Request> request;
};

namespace {
thread_local std::string lastError;

int32_t errorModeFromEnv() {
  const char *env = std::getenv("SEQPAR_ABORT_ON_ERROR");
  return env && std::strcmp(env, "1") == 0 ? SEQPAR_RT_ERRORS_ABORT
                                           : SEQPAR_RT_ERRORS_RETURN;
}
std::atomic<int32_t> errorMode{errorModeFromEnv()};

/// Records `status` as this thread's last error; aborts the job instead in
/// SEQPAR_RT_ERRORS_ABORT mode.
seqpar_rt_status_t finish(const Status &status) {
  if (status.ok()) {
    lastError.clear();
    return SEQPAR_RT_OK;
  }
  lastError = status.message;
  if (errorMode.load() == SEQPAR_RT_ERRORS_ABORT) {
    std::string message = "error: " + status.message;
    if (Runtime::isInitialized())
      Runtime::get().abortJob(message, 3);
    std::fprintf(stderr, "seqpar runtime: %s\n", message.c_str());
    std::fflush(stderr);
    std::_Exit(3);
  }
  return static_cast<seqpar_rt_status_t>(status.code);
}

Status notInitialized() {
  return Status::error(StatusCode::NotInitialized,
                       "the runtime is not initialized (call seqpar_rt_init)");
}

Status invalid(const std::string &message) {
  return Status::error(StatusCode::InvalidArgument, message);
}

/// Shape from a C array; null is only fine for 0 dims.
bool readShape(const int64_t *shape, int32_t ndims, std::vector<int64_t> *out,
               Status *status) {
  if (ndims < 0 || ndims > 64 || (ndims > 0 && !shape)) {
    *status = invalid("shape: " + std::to_string(ndims) +
                      " dims with shape pointer " + (shape ? "set" : "null"));
    return false;
  }
  out->assign(shape, shape + ndims);
  return true;
}

seqpar_rt_status_t launch(seqpar_rt_comm_t comm, CollectiveOp op,
                          seqpar_rt_request_t *request) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (!comm)
    return finish(invalid(std::string(opKindName(op.kind)) +
                          ": null communicator"));
  auto *communicator = reinterpret_cast<Communicator *>(comm);
  if (!request)
    return finish(communicator->run(op));
  std::unique_ptr<Request> handle;
  Status status = communicator->start(op, &handle);
  if (!status.ok())
    return finish(status);
  *request = new seqpar_rt_request{std::move(handle)};
  return finish(Status::success());
}

seqpar_rt_status_t collective(seqpar_rt_comm_t comm, OpKind kind, int32_t dtype,
                              int32_t reduction, const void *input,
                              void *output, const int64_t *shape, int32_t ndims,
                              int32_t dim, int32_t concatDim, int64_t offset,
                              bool async, seqpar_rt_request_t *request) {
  if (async && !request)
    return finish(invalid(std::string(opKindName(kind)) +
                          "_start: null request pointer"));
  if (async)
    *request = nullptr;
  CollectiveOp op;
  Status status;
  if (!readShape(shape, ndims, &op.shape, &status))
    return finish(status);
  op.kind = kind;
  op.dtype = static_cast<DType>(dtype);
  op.reduction = static_cast<Reduction>(reduction);
  op.input = input;
  op.output = output;
  op.dim = dim;
  op.concatDim = concatDim;
  op.offset = offset;
  return launch(comm, op, async ? request : nullptr);
}
} // namespace

extern "C" {

seqpar_rt_status_t seqpar_rt_init(void) { return finish(Runtime::initialize()); }

seqpar_rt_status_t seqpar_rt_finalize(void) {
  return finish(Runtime::finalize());
}

int32_t seqpar_rt_world_rank(void) {
  return Runtime::isInitialized() ? Runtime::get().worldRank() : -1;
}

int32_t seqpar_rt_world_size(void) {
  return Runtime::isInitialized() ? Runtime::get().worldSize() : -1;
}

const char *seqpar_rt_last_error(void) { return lastError.c_str(); }

void seqpar_rt_abort_job(const char *message, int32_t exit_code) {
  std::string text = message ? message : "";
  if (Runtime::isInitialized())
    Runtime::get().abortJob(text, exit_code);
  std::fprintf(stderr, "seqpar runtime: %s\n", text.c_str());
  std::fflush(stderr);
  std::_Exit(exit_code);
}

seqpar_rt_status_t seqpar_rt_set_error_mode(int32_t mode) {
  if (mode != SEQPAR_RT_ERRORS_RETURN && mode != SEQPAR_RT_ERRORS_ABORT)
    return finish(invalid("set_error_mode: unknown mode " +
                          std::to_string(mode)));
  errorMode.store(mode);
  return finish(Status::success());
}

seqpar_rt_status_t seqpar_rt_set_timeout(double seconds) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (!(seconds > 0))
    return finish(invalid("set_timeout: timeout must be > 0 seconds"));
  Runtime::get().setTimeoutSeconds(seconds);
  return finish(Status::success());
}

double seqpar_rt_get_timeout(void) {
  return Runtime::isInitialized() ? Runtime::get().timeoutSeconds() : -1;
}

seqpar_rt_status_t seqpar_rt_set_cuda_stream(void *stream) {
#ifdef SEQPAR_RUNTIME_HAVE_NCCL
  detail::setUserStream(stream);
  return finish(Status::success());
#else
  (void)stream;
  return finish(Status::error(StatusCode::Unavailable,
                              "set_cuda_stream: built without NCCL"));
#endif
}

seqpar_rt_status_t seqpar_rt_comm_get(const int64_t *grid_shape,
                                      int32_t grid_ndims, const int32_t *axes,
                                      int32_t num_axes, seqpar_rt_comm_t *comm) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (!comm)
    return finish(invalid("comm_get: null output pointer"));
  *comm = nullptr;
  std::vector<int64_t> grid;
  Status status;
  if (!readShape(grid_shape, grid_ndims, &grid, &status))
    return finish(status);
  if (num_axes < 0 || num_axes > 64 || (num_axes > 0 && !axes))
    return finish(invalid("comm_get: bad axes array"));
  Communicator *communicator = nullptr;
  status = Runtime::get().communicator(
      grid, std::vector<int32_t>(axes, axes + num_axes), &communicator);
  if (status.ok())
    *comm = reinterpret_cast<seqpar_rt_comm_t>(communicator);
  return finish(status);
}

int32_t seqpar_rt_comm_rank(seqpar_rt_comm_t comm) {
  return comm ? reinterpret_cast<Communicator *>(comm)->rank() : -1;
}

int32_t seqpar_rt_comm_size(seqpar_rt_comm_t comm) {
  return comm ? reinterpret_cast<Communicator *>(comm)->size() : -1;
}

seqpar_rt_status_t seqpar_rt_process_multi_index(const int64_t *grid_shape,
                                                 int32_t grid_ndims,
                                                 int64_t *index) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  std::vector<int64_t> grid, coords;
  Status status;
  if (!readShape(grid_shape, grid_ndims, &grid, &status))
    return finish(status);
  if (!index)
    return finish(invalid("process_multi_index: null output pointer"));
  status = Runtime::get().processMultiIndex(grid, &coords);
  if (status.ok())
    std::copy(coords.begin(), coords.end(), index);
  return finish(status);
}

seqpar_rt_status_t seqpar_rt_barrier(void) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  return finish(Runtime::get().barrier());
}

seqpar_rt_status_t seqpar_rt_all_gather(seqpar_rt_comm_t comm, int32_t dtype,
                                        const void *input, void *output,
                                        const int64_t *local_shape,
                                        int32_t ndims, int32_t dim) {
  return collective(comm, OpKind::AllGather, dtype, 0, input, output,
                    local_shape, ndims, dim, 0, 0, false, nullptr);
}

seqpar_rt_status_t seqpar_rt_all_gather_start(
    seqpar_rt_comm_t comm, int32_t dtype, const void *input, void *output,
    const int64_t *local_shape, int32_t ndims, int32_t dim,
    seqpar_rt_request_t *request) {
  return collective(comm, OpKind::AllGather, dtype, 0, input, output,
                    local_shape, ndims, dim, 0, 0, true, request);
}

seqpar_rt_status_t seqpar_rt_reduce_scatter(seqpar_rt_comm_t comm,
                                            int32_t dtype, int32_t reduction,
                                            const void *input, void *output,
                                            const int64_t *full_shape,
                                            int32_t ndims, int32_t dim) {
  return collective(comm, OpKind::ReduceScatter, dtype, reduction, input,
                    output, full_shape, ndims, dim, 0, 0, false, nullptr);
}

seqpar_rt_status_t seqpar_rt_reduce_scatter_start(
    seqpar_rt_comm_t comm, int32_t dtype, int32_t reduction, const void *input,
    void *output, const int64_t *full_shape, int32_t ndims, int32_t dim,
    seqpar_rt_request_t *request) {
  return collective(comm, OpKind::ReduceScatter, dtype, reduction, input,
                    output, full_shape, ndims, dim, 0, 0, true, request);
}

seqpar_rt_status_t seqpar_rt_all_reduce(seqpar_rt_comm_t comm, int32_t dtype,
                                        int32_t reduction, const void *input,
                                        void *output, const int64_t *shape,
                                        int32_t ndims) {
  return collective(comm, OpKind::AllReduce, dtype, reduction, input, output,
                    shape, ndims, 0, 0, 0, false, nullptr);
}

seqpar_rt_status_t seqpar_rt_all_reduce_start(
    seqpar_rt_comm_t comm, int32_t dtype, int32_t reduction, const void *input,
    void *output, const int64_t *shape, int32_t ndims,
    seqpar_rt_request_t *request) {
  return collective(comm, OpKind::AllReduce, dtype, reduction, input, output,
                    shape, ndims, 0, 0, 0, true, request);
}

seqpar_rt_status_t seqpar_rt_all_to_all(seqpar_rt_comm_t comm, int32_t dtype,
                                        const void *input, void *output,
                                        const int64_t *local_shape,
                                        int32_t ndims, int32_t split_dim,
                                        int32_t concat_dim) {
  return collective(comm, OpKind::AllToAll, dtype, 0, input, output,
                    local_shape, ndims, split_dim, concat_dim, 0, false,
                    nullptr);
}

seqpar_rt_status_t seqpar_rt_all_to_all_start(
    seqpar_rt_comm_t comm, int32_t dtype, const void *input, void *output,
    const int64_t *local_shape, int32_t ndims, int32_t split_dim,
    int32_t concat_dim, seqpar_rt_request_t *request) {
  return collective(comm, OpKind::AllToAll, dtype, 0, input, output,
                    local_shape, ndims, split_dim, concat_dim, 0, true,
                    request);
}

seqpar_rt_status_t seqpar_rt_shift(seqpar_rt_comm_t comm, int32_t dtype,
                                   const void *input, void *output,
                                   const int64_t *shape, int32_t ndims,
                                   int64_t offset) {
  return collective(comm, OpKind::Shift, dtype, 0, input, output, shape, ndims,
                    0, 0, offset, false, nullptr);
}

seqpar_rt_status_t seqpar_rt_shift_start(seqpar_rt_comm_t comm, int32_t dtype,
                                         const void *input, void *output,
                                         const int64_t *shape, int32_t ndims,
                                         int64_t offset,
                                         seqpar_rt_request_t *request) {
  return collective(comm, OpKind::Shift, dtype, 0, input, output, shape, ndims,
                    0, 0, offset, true, request);
}

seqpar_rt_status_t seqpar_rt_wait(seqpar_rt_request_t request) {
  if (!request)
    return finish(invalid("wait: null request"));
  Status status = request->request->wait();
  delete request;
  return finish(status);
}

seqpar_rt_status_t seqpar_rt_test(seqpar_rt_request_t request, int32_t *done) {
  if (!request || !done)
    return finish(invalid("test: null request or output pointer"));
  *done = request->request->test() ? 1 : 0;
  return finish(Status::success());
}

seqpar_rt_status_t seqpar_rt_region_begin(const char *name, int64_t flops) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (!name)
    return finish(invalid("region_begin: null name"));
  return finish(Runtime::get().regionBegin(name, flops));
}

seqpar_rt_status_t seqpar_rt_region_end(const char *name) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (!name)
    return finish(invalid("region_end: null name"));
  return finish(Runtime::get().regionEnd(name));
}

seqpar_rt_status_t seqpar_rt_counters_reset(void) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  Runtime::get().resetCounters();
  return finish(Status::success());
}

seqpar_rt_status_t seqpar_rt_collective_counter(int32_t kind,
                                                seqpar_rt_comm_t comm,
                                                uint64_t *calls,
                                                uint64_t *bytes_sent,
                                                double *seconds) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (kind < 0 || kind > 4 || !comm)
    return finish(invalid("collective_counter: unknown kind " +
                          std::to_string(kind) + " or null communicator"));
  const CommunicatorInfo &info = reinterpret_cast<Communicator *>(comm)->info();
  CounterSnapshot snapshot = Runtime::get().counters();
  CollectiveCounter counter;
  auto it = snapshot.collectives.find(
      CounterKey{static_cast<OpKind>(kind), info.gridShape, info.axes});
  if (it != snapshot.collectives.end())
    counter = it->second;
  if (calls)
    *calls = counter.calls;
  if (bytes_sent)
    *bytes_sent = counter.bytesSent;
  if (seconds)
    *seconds = counter.seconds;
  return finish(Status::success());
}

seqpar_rt_status_t seqpar_rt_counters_string(int32_t format, char *buffer,
                                             size_t capacity, size_t *length) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (format != SEQPAR_RT_FORMAT_TEXT && format != SEQPAR_RT_FORMAT_JSON)
    return finish(invalid("counters_string: unknown format " +
                          std::to_string(format)));
  std::string text;
  Status status =
      Runtime::get().countersReport(format == SEQPAR_RT_FORMAT_JSON, &text);
  if (!status.ok())
    return finish(status);
  if (length)
    *length = text.size();
  if (buffer && capacity) {
    size_t n = std::min(capacity - 1, text.size());
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return finish(Status::success());
}

seqpar_rt_status_t seqpar_rt_print_counters(int32_t format) {
  if (!Runtime::isInitialized())
    return finish(notInitialized());
  if (format != SEQPAR_RT_FORMAT_TEXT && format != SEQPAR_RT_FORMAT_JSON)
    return finish(invalid("print_counters: unknown format " +
                          std::to_string(format)));
  std::string text;
  Status status =
      Runtime::get().countersReport(format == SEQPAR_RT_FORMAT_JSON, &text);
  if (status.ok() && Runtime::get().worldRank() == 0) {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  }
  return finish(status);
}

} // extern "C"
