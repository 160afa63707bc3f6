//===- Runtime.cpp - runtime lifetime, grids, dispatch, reports -----------===//

#include "Backends.h"
#include "Layout.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

// Present when seqpar_runtime_alloc is linked (weak: the runtime works
// without it and reports -1).
extern "C" {
__attribute__((weak)) int64_t seqpar_rt_alloc_current_bytes(void);
__attribute__((weak)) int64_t seqpar_rt_alloc_peak_bytes(void);
}

namespace seqpar {
namespace rt {

Request::~Request() = default;
Communicator::~Communicator() = default;

Status Communicator::run(const CollectiveOp &op) {
  std::unique_ptr<Request> request;
  Status status = start(op, &request);
  if (!status.ok())
    return status;
  return request->wait();
}

namespace detail {
namespace {

/// The communicator handed out per (grid, axes): validates, then sends host
/// buffers to MPI and CUDA device buffers to NCCL (created on first use).
class AxisCommunicator : public Communicator {
public:
  AxisCommunicator(std::unique_ptr<MpiCommunicator> host, Counters &counters)
      : host_(std::move(host)), counters_(counters) {}
  ~AxisCommunicator() override {
    device_.reset(); // NCCL before the MPI communicator it was built from
    host_.reset();
  }
  const CommunicatorInfo &info() const override { return host_->info(); }

  Status start(const CollectiveOp &op,
               std::unique_ptr<Request> *request) override {
    *request = nullptr;
    Communicator *backend = nullptr;
    Status status = route(op, &backend);
    return status.ok() ? backend->start(op, request) : status;
  }

  Status run(const CollectiveOp &op) override {
    Communicator *backend = nullptr;
    Status status = route(op, &backend);
    return status.ok() ? backend->run(op) : status;
  }

private:
  /// Picks the backend of `op`'s buffers. The MPI backend validates `op`
  /// itself; a device one is validated here, before its agreement check is
  /// queued.
  Status route(const CollectiveOp &op, Communicator **backend) {
#ifdef SEQPAR_RUNTIME_HAVE_NCCL
    int inDevice = -1, outDevice = -1;
    bool inOnDevice = op.input && isDevicePointer(op.input, &inDevice);
    bool outOnDevice = op.output && isDevicePointer(op.output, &outDevice);
    if (inOnDevice || outOnDevice) {
      Geometry geo;
      Status status = validate(op, info().size, &geo);
      if (!status.ok())
        return Status::error(status.code,
                             status.message + " (on " + info().label() + ")");
      if ((op.input && !inOnDevice) || (op.output && !outOnDevice))
        return Status::error(StatusCode::InvalidArgument,
                             std::string(opKindName(op.kind)) +
                                 ": input and output must both be host or "
                                 "both CUDA device memory");
      // NCCL gets the same agreement check and timeout, through MPI.
      host_->checkOnly(op);
      if (!device_) {
        status = createNcclCommunicator(
            *host_, inOnDevice ? inDevice : outDevice, counters_, &device_);
        if (!status.ok())
          return status;
      }
      *backend = device_.get();
      return Status::success();
    }
#endif
    *backend = host_.get();
    return Status::success();
  }

  std::unique_ptr<MpiCommunicator> host_;
  std::unique_ptr<Communicator> device_;
  Counters &counters_;
};

double timeoutFromEnv() {
  const char *env = std::getenv("SEQPAR_COLLECTIVE_TIMEOUT");
  if (!env || !*env)
    return kDefaultTimeoutSeconds;
  char *end = nullptr;
  double v = std::strtod(env, &end);
  if (end == env || *end || !(v > 0) || !std::isfinite(v)) {
    std::fprintf(stderr,
                 "seqpar runtime: ignoring SEQPAR_COLLECTIVE_TIMEOUT='%s' "
                 "(not a positive number of seconds); using %g\n",
                 env, kDefaultTimeoutSeconds);
    return kDefaultTimeoutSeconds;
  }
  return v;
}

Status checkGrid(const std::vector<int64_t> &grid, int32_t worldSize) {
  if (grid.empty())
    return Status::error(StatusCode::InvalidArgument,
                         "grid: the grid shape has no dims");
  int64_t product = 1;
  for (int64_t e : grid) {
    if (e < 1)
      return Status::error(StatusCode::InvalidArgument,
                           "grid: extent " + std::to_string(e) +
                               " < 1 in grid shape " + shapeString(grid));
    product *= e;
    if (product > worldSize)
      break;
  }
  if (product != worldSize)
    return Status::error(StatusCode::InvalidArgument,
                         "grid: grid shape " + shapeString(grid) +
                             " does not have " + std::to_string(worldSize) +
                             " processes (the world size)");
  return Status::success();
}

std::vector<int64_t> coordinates(const std::vector<int64_t> &grid,
                                 int64_t linear) {
  std::vector<int64_t> index(grid.size());
  for (size_t i = grid.size(); i-- > 0;) {
    index[i] = linear % grid[i];
    linear /= grid[i];
  }
  return index;
}

Runtime *gRuntime = nullptr;
std::mutex gMutex;
bool gAtexitRegistered = false;

} // namespace
} // namespace detail

struct Runtime::Impl {
  detail::MpiEngine engine;
  detail::Counters counters;
  std::mutex commMutex;
  std::map<std::pair<std::vector<int64_t>, std::vector<int32_t>>,
           std::unique_ptr<Communicator>>
      comms;
};

namespace detail {
namespace {
/// atexit: finalize if the embedder did not (skipped when exit() is reached
/// from the MPI thread, e.g. inside MPI_Abort).
void finalizeAtExit() {
  if (gRuntime && !gRuntime->impl().engine.onMpiThread())
    Runtime::finalize();
}
} // namespace
} // namespace detail

Runtime::Runtime() : impl_(std::make_unique<Impl>()) {}
Runtime::~Runtime() = default;

Status Runtime::initialize(const Options &options) {
  std::lock_guard<std::mutex> lock(detail::gMutex);
  if (detail::gRuntime)
    return Status::success();
  double timeout = options.timeoutSeconds > 0 ? options.timeoutSeconds
                                              : detail::timeoutFromEnv();
  auto *runtime = new Runtime();
  Status status = runtime->impl_->engine.start(timeout);
  if (!status.ok()) {
    delete runtime;
    return status;
  }
  detail::gRuntime = runtime;
  if (!detail::gAtexitRegistered) {
    std::atexit(detail::finalizeAtExit);
    detail::gAtexitRegistered = true;
  }
  return Status::success();
}

Status Runtime::finalize() {
  std::lock_guard<std::mutex> lock(detail::gMutex);
  if (!detail::gRuntime)
    return Status::success();
  Impl &impl = *detail::gRuntime->impl_;
  impl.comms.clear();
  impl.engine.stop();
  delete detail::gRuntime;
  detail::gRuntime = nullptr;
  return Status::success();
}

bool Runtime::isInitialized() { return detail::gRuntime != nullptr; }
Runtime &Runtime::get() { return *detail::gRuntime; }
int32_t Runtime::worldRank() const { return impl_->engine.worldRank(); }
int32_t Runtime::worldSize() const { return impl_->engine.worldSize(); }
double Runtime::now() const { return detail::monotonicSeconds(); }
double Runtime::timeoutSeconds() const { return impl_->engine.timeout(); }
void Runtime::setTimeoutSeconds(double seconds) {
  if (seconds > 0)
    impl_->engine.setTimeout(seconds);
}
void Runtime::abortJob(const std::string &message, int exitCode) {
  impl_->engine.abortJob(message, exitCode);
}

Status Runtime::processMultiIndex(const std::vector<int64_t> &gridShape,
                                  std::vector<int64_t> *index) const {
  Status status = detail::checkGrid(gridShape, worldSize());
  if (status.ok())
    *index = detail::coordinates(gridShape, worldRank());
  return status;
}

Status Runtime::communicator(const std::vector<int64_t> &gridShape,
                             const std::vector<int32_t> &axes,
                             Communicator **out) {
  *out = nullptr;
  Status status = detail::checkGrid(gridShape, worldSize());
  if (!status.ok())
    return status;
  if (axes.empty())
    return Status::error(StatusCode::InvalidArgument,
                         "grid: no grid axes given for grid shape " +
                             detail::shapeString(gridShape));
  std::vector<bool> selected(gridShape.size(), false);
  for (int32_t axis : axes) {
    if (axis < 0 || axis >= static_cast<int32_t>(gridShape.size()))
      return Status::error(StatusCode::InvalidArgument,
                           "grid: axis " + std::to_string(axis) +
                               " out of range for grid shape " +
                               detail::shapeString(gridShape));
    if (selected[axis])
      return Status::error(StatusCode::InvalidArgument,
                           "grid: axis " + std::to_string(axis) + " repeated");
    selected[axis] = true;
  }

  std::lock_guard<std::mutex> lock(impl_->commMutex);
  auto key = std::make_pair(gridShape, axes);
  auto it = impl_->comms.find(key);
  if (it != impl_->comms.end()) {
    *out = it->second.get();
    return Status::success();
  }
  // Group = ranks equal on every unselected axis; rank in group = row-major
  // linear index of the coordinates on `axes`, in the order given.
  std::vector<int64_t> index = detail::coordinates(gridShape, worldRank());
  int64_t color = 0, groupRank = 0, groupSize = 1;
  for (size_t i = 0; i < gridShape.size(); ++i)
    if (!selected[i])
      color = color * gridShape[i] + index[i];
  for (int32_t axis : axes) {
    groupRank = groupRank * gridShape[axis] + index[axis];
    groupSize *= gridShape[axis];
  }
  CommunicatorInfo info;
  info.gridShape = gridShape;
  info.axes = axes;
  info.worldRank = worldRank();
  info.rank = static_cast<int32_t>(groupRank);
  info.size = static_cast<int32_t>(groupSize);
  auto host = std::make_unique<detail::MpiCommunicator>(
      info, static_cast<int>(color), impl_->engine, impl_->counters);
  auto axis = std::make_unique<detail::AxisCommunicator>(std::move(host),
                                                         impl_->counters);
  *out = axis.get();
  impl_->comms.emplace(key, std::move(axis));
  return Status::success();
}

Status Runtime::barrier() {
  // The agreement check is itself the barrier.
  impl_->engine.runControl(
      detail::controlSignature(detail::ControlKind::Barrier, worldRank()),
      "barrier over the world", nullptr);
  return Status::success();
}

Status Runtime::runOnMpiThread(const std::function<void()> &fn) {
  impl_->engine.runSync(fn, "runOnMpiThread callback");
  return Status::success();
}

Status Runtime::regionBegin(const std::string &name, int64_t flops) {
  return impl_->counters.regionBegin(name, flops, now());
}

Status Runtime::regionEnd(const std::string &name) {
  return impl_->counters.regionEnd(name, now());
}

CounterSnapshot Runtime::counters() const {
  CounterSnapshot s = impl_->counters.snapshot(worldRank());
  using Query = int64_t (*)(void);
  Query current = &seqpar_rt_alloc_current_bytes;
  Query peak = &seqpar_rt_alloc_peak_bytes;
  if (!current || !peak) { // e.g. the alloc library was dlopen'ed later
    current = reinterpret_cast<Query>(
        dlsym(RTLD_DEFAULT, "seqpar_rt_alloc_current_bytes"));
    peak = reinterpret_cast<Query>(
        dlsym(RTLD_DEFAULT, "seqpar_rt_alloc_peak_bytes"));
  }
  if (current && peak) {
    s.allocCurrentBytes = current();
    s.allocPeakBytes = peak();
  }
  return s;
}

void Runtime::resetCounters() { impl_->counters.reset(); }

Status Runtime::countersReport(bool json, std::string *out) {
  CounterSnapshot mine = counters();
  std::string text = detail::serialize(mine);
  int size = worldSize(), rank = worldRank();
  std::vector<int> lengths(rank == 0 ? size : 0), offsets;
  std::string all;
  MPI_Comm comm = impl_->engine.controlComm();
  impl_->engine.runControl(
      detail::controlSignature(detail::ControlKind::CounterGather, worldRank()),
      "gathering counters on rank 0", [&] {
        int length = static_cast<int>(text.size());
        MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
        if (rank == 0) {
          int total = 0;
          for (int l : lengths) {
            offsets.push_back(total);
            total += l;
          }
          all.resize(static_cast<size_t>(total));
        }
        MPI_Gatherv(text.data(), length, MPI_CHAR, &all[0], lengths.data(),
                    offsets.data(), MPI_CHAR, 0, comm);
      });
  std::vector<CounterSnapshot> ranks;
  if (rank != 0) {
    ranks.push_back(mine);
  } else {
    for (int r = 0; r < size; ++r) {
      CounterSnapshot s;
      if (!detail::deserialize(all.substr(offsets[r], lengths[r]), &s))
        return Status::error(StatusCode::Backend,
                             "counters: could not parse the counters of rank " +
                                 std::to_string(r));
      ranks.push_back(std::move(s));
    }
  }
  *out = json ? detail::formatJson(ranks, rank == 0)
              : detail::formatText(ranks, rank == 0);
  return Status::success();
}

} // namespace rt
} // namespace seqpar
