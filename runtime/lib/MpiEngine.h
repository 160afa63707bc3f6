//===- MpiEngine.h - the thread that owns every MPI call --------*- C++ -*-===//
//
// Design (README.md "Progress thread"): one dedicated thread initializes MPI,
// makes every MPI call of the runtime, and finalizes MPI. Callers enqueue
// operations; the thread posts them in queue order as nonblocking MPI calls
// (so collectives reach MPI in program order on every rank), then keeps
// calling MPI_Test on all of them while the callers compute. That is what
// makes asynchronous transfers progress between runtime calls (OpenMPI makes
// no progress outside MPI calls). The same loop enforces the timeout.
//
// Polling policy: while some caller is blocked in wait(), the thread polls
// without sleeping (latency of blocking collectives equals plain MPI);
// otherwise it polls with a short sleep (SEQPAR_PROGRESS_INTERVAL_US,
// default 50 us) so it does not steal a core from the computation; with
// nothing in flight it sleeps on a condition variable.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_LIB_MPIENGINE_H
#define SEQPAR_RUNTIME_LIB_MPIENGINE_H

#include "seqpar/runtime/Runtime.h"

#include <mpi.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace seqpar {
namespace rt {
namespace detail {

/// Completion state shared by a request and the engine.
struct RequestState {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  double completedAt = -1; ///< monotonicSeconds() at completion
};

/// One operation for the engine. `post` runs on the MPI thread: it may pack
/// or convert data and must start nonblocking MPI calls, appending their
/// requests. `complete` runs on the MPI thread once all requests finished
/// (unpacking, narrowing). `record` then runs (counters), and the state is
/// marked done.
struct MpiOp {
  std::function<void(MpiOp &)> post;
  std::function<void(MpiOp &)> complete;
  std::function<void(MpiOp &, double seconds)> record;
  std::vector<MPI_Request> requests;
  std::unique_ptr<char[]> scratchA, scratchB, scratchC;
  std::string description; ///< for the timeout message
  double startTime = 0;    ///< monotonicSeconds() at submission
  std::shared_ptr<RequestState> state;
};

class MpiEngine {
public:
  MpiEngine();
  ~MpiEngine();
  /// Spawns the thread, which initializes MPI; returns its status.
  Status start(double timeoutSeconds);
  /// Finishes in-flight operations, finalizes MPI if owned, joins.
  void stop();
  /// Queues `op` (startTime and state must be set).
  void submit(std::unique_ptr<MpiOp> op);
  /// Runs `fn` on the MPI thread and waits. If it has not returned after the
  /// timeout, aborts the job with a message naming `what`.
  void runSync(const std::function<void()> &fn, const std::string &what);
  /// Waits until `state` is done; counts as a blocked caller (see polling
  /// policy above).
  void waitFor(RequestState &state);

  int32_t worldRank() const { return worldRank_; }
  int32_t worldSize() const { return worldSize_; }
  double timeout() const { return timeout_.load(); }
  void setTimeout(double seconds) { timeout_.store(seconds); }
  bool onMpiThread() const {
    return std::this_thread::get_id() == thread_.get_id();
  }
  /// Prints to stderr and calls MPI_Abort(MPI_COMM_WORLD, exitCode).
  [[noreturn]] void abortJob(const std::string &message, int exitCode);

private:
  struct Task {
    std::unique_ptr<MpiOp> op;
    std::function<void()> fn;
    bool stop = false;
  };
  void loop();
  bool poll(std::vector<std::unique_ptr<MpiOp>> &active);
  void checkTimeouts(const std::vector<std::unique_ptr<MpiOp>> &active);
  void push(Task task);

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  std::atomic<int> waiters_{0};
  std::atomic<double> timeout_{300};
  int pollIntervalUs_ = 50;
  int32_t worldRank_ = 0, worldSize_ = 1;
  bool ownsMpi_ = false;
  // Start handshake.
  std::mutex startMutex_;
  std::condition_variable startCv_;
  bool started_ = false;
  Status startStatus_;
};

} // namespace detail
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_LIB_MPIENGINE_H
