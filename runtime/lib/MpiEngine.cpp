//===- MpiEngine.cpp - the thread that owns every MPI call ----------------===//

#include "MpiEngine.h"

#include "Layout.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace seqpar {
namespace rt {
namespace detail {

MpiEngine::MpiEngine() {
  if (const char *env = std::getenv("SEQPAR_PROGRESS_INTERVAL_US")) {
    int v = std::atoi(env);
    if (v >= 0)
      pollIntervalUs_ = v;
  }
}

MpiEngine::~MpiEngine() {
  if (thread_.joinable())
    stop();
}

Status MpiEngine::start(double timeoutSeconds) {
  timeout_.store(timeoutSeconds);
  thread_ = std::thread([this] { loop(); });
  std::unique_lock<std::mutex> lock(startMutex_);
  startCv_.wait(lock, [&] { return started_; });
  if (!startStatus_.ok()) {
    lock.unlock();
    thread_.join();
  }
  return startStatus_;
}

void MpiEngine::stop() {
  if (!thread_.joinable())
    return;
  push(Task{nullptr, nullptr, true});
  thread_.join();
}

void MpiEngine::push(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void MpiEngine::submit(std::unique_ptr<MpiOp> op) {
  push(Task{std::move(op), nullptr, false});
}

void MpiEngine::runSync(const std::function<void()> &fn,
                        const std::string &what) {
  if (onMpiThread()) {
    fn();
    return;
  }
  auto state = std::make_shared<RequestState>();
  std::function<void()> copy = fn;
  push(Task{nullptr,
            [copy, state] {
              copy();
              {
                std::lock_guard<std::mutex> lock(state->mutex);
                state->done = true;
              }
              state->cv.notify_all();
            },
            false});
  std::unique_lock<std::mutex> lock(state->mutex);
  double limit = timeout();
  if (!state->cv.wait_for(lock, std::chrono::duration<double>(limit),
                          [&] { return state->done; })) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", limit);
    abortJob("timeout: " + what + " did not complete within " + buf +
                 " s (SEQPAR_COLLECTIVE_TIMEOUT); aborting all ranks",
             3);
  }
}

void MpiEngine::waitFor(RequestState &state) {
  waiters_.fetch_add(1);
  cv_.notify_one(); // wake the thread from its polling sleep
  {
    std::unique_lock<std::mutex> lock(state.mutex);
    state.cv.wait(lock, [&] { return state.done; });
  }
  waiters_.fetch_sub(1);
}

void MpiEngine::abortJob(const std::string &message, int exitCode) {
  std::fprintf(stderr, "seqpar runtime: rank %d: %s\n", worldRank_,
               message.c_str());
  std::fflush(stderr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Abort(MPI_COMM_WORLD, exitCode);
  std::_Exit(exitCode);
}

void MpiEngine::loop() {
  {
    Status status;
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (finalized) {
      status = Status::error(StatusCode::Unavailable,
                             "init: MPI was already finalized in this process");
    } else if (initialized) {
      int provided = 0;
      MPI_Query_thread(&provided);
      if (provided < MPI_THREAD_MULTIPLE)
        status = Status::error(
            StatusCode::Unavailable,
            "init: MPI was initialized by the embedder below "
            "MPI_THREAD_MULTIPLE (level " +
                std::to_string(provided) +
                "); the runtime's progress thread needs MULTIPLE then, or let "
                "the runtime initialize MPI");
    } else {
      int provided = 0;
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) !=
          MPI_SUCCESS)
        status = Status::error(StatusCode::Backend,
                               "init: MPI_Init_thread failed");
      else
        ownsMpi_ = true;
    }
    if (status.ok()) {
      MPI_Comm_rank(MPI_COMM_WORLD, &worldRank_);
      MPI_Comm_size(MPI_COMM_WORLD, &worldSize_);
    }
    std::lock_guard<std::mutex> lock(startMutex_);
    startStatus_ = status;
    started_ = true;
    startCv_.notify_all();
    if (!status.ok())
      return;
  }

  std::vector<std::unique_ptr<MpiOp>> active;
  bool stopping = false;
  for (;;) {
    std::deque<Task> tasks;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (queue_.empty()) {
        if (active.empty()) {
          if (stopping)
            break;
          cv_.wait(lock, [&] { return !queue_.empty(); });
        } else if (waiters_.load() == 0) {
          cv_.wait_for(lock, std::chrono::microseconds(pollIntervalUs_), [&] {
            return !queue_.empty() || waiters_.load() > 0;
          });
        }
      }
      tasks.swap(queue_);
    }
    for (Task &task : tasks) {
      if (task.stop) {
        stopping = true;
      } else if (task.fn) {
        task.fn();
      } else {
        task.op->post(*task.op);
        active.push_back(std::move(task.op));
      }
    }
    if (active.empty())
      continue;
    if (!poll(active) && waiters_.load() > 0)
      std::this_thread::yield();
    checkTimeouts(active);
  }
  if (ownsMpi_)
    MPI_Finalize();
}

bool MpiEngine::poll(std::vector<std::unique_ptr<MpiOp>> &active) {
  bool progressed = false;
  for (size_t i = 0; i < active.size();) {
    MpiOp &op = *active[i];
    int flag = 1;
    if (!op.requests.empty())
      MPI_Testall(static_cast<int>(op.requests.size()), op.requests.data(),
                  &flag, MPI_STATUSES_IGNORE);
    if (!flag) {
      ++i;
      continue;
    }
    if (op.complete)
      op.complete(op);
    double now = monotonicSeconds();
    if (op.record)
      op.record(op, now - op.startTime);
    std::shared_ptr<RequestState> state = op.state;
    active.erase(active.begin() + static_cast<std::ptrdiff_t>(i));
    {
      std::lock_guard<std::mutex> lock(state->mutex);
      state->done = true;
      state->completedAt = now;
    }
    state->cv.notify_all();
    progressed = true;
  }
  return progressed;
}

void MpiEngine::checkTimeouts(
    const std::vector<std::unique_ptr<MpiOp>> &active) {
  double now = monotonicSeconds();
  double limit = timeout();
  for (const auto &op : active) {
    if (now - op->startTime <= limit)
      continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", limit);
    abortJob("timeout: collective did not complete within " +
                 std::string(buf) + " s (SEQPAR_COLLECTIVE_TIMEOUT): " +
                 op->description + "; aborting all ranks",
             3);
  }
}

} // namespace detail
} // namespace rt
} // namespace seqpar
