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
// Agreement check (README "Agreement check"): an operation may name a
// communicator on which every member first all-gathers a fixed-size
// signature of its call; the operation proper is posted only when all agree,
// so ranks that call different collectives get a message instead of MPI's
// undefined behaviour. On one communicator, the next check is posted only
// after the previous operation's own MPI calls: every rank initiates calls
// on it in the same order.
//
// Polling policy: while some caller is blocked in wait(), the thread polls
// with an exponential back-off (Backoff in Layout.h: yields for 1 ms, then
// sleeps up to 1 ms); otherwise it polls with a short sleep
// (SEQPAR_PROGRESS_INTERVAL_US, default 50 us) so it does not steal a core
// from the computation; with nothing in flight it sleeps on a condition
// variable.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_LIB_MPIENGINE_H
#define SEQPAR_RUNTIME_LIB_MPIENGINE_H

#include "Layout.h"
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

  /// Agreement check before `post` (none when checkComm is null): every
  /// member of checkComm contributes `signature`, numbered from *sequence
  /// (the communicator's call counter, touched on the MPI thread only).
  MPI_Comm checkComm = MPI_COMM_NULL;
  uint64_t *sequence = nullptr;
  OpSignature signature;
  std::string groupLabel; ///< "grid=[2] axes=[0]", for the mismatch message
  std::vector<OpSignature> gathered;
  bool checking = false;
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
  /// timeout, aborts the job with a message naming `what`. For local MPI
  /// calls; collective ones go through runCollective.
  void runSync(const std::function<void()> &fn, const std::string &what);
  /// Runs `fn` (blocking MPI calls on `comm`, may be empty) on the MPI thread
  /// once every member of `comm` has passed the agreement check on
  /// `signature`, and waits for it. The wait is subject to the timeout, whose
  /// message names `description`. Not from the MPI thread.
  void runCollective(MPI_Comm comm, uint64_t *sequence,
                     const OpSignature &signature,
                     const std::string &groupLabel,
                     const std::string &description, std::function<void()> fn);
  /// runCollective on the runtime's control communicator (a duplicate of
  /// MPI_COMM_WORLD; the runtime never communicates on the world itself).
  void runControl(const OpSignature &signature, const std::string &description,
                  std::function<void()> fn);
  MPI_Comm controlComm() const { return controlComm_; }
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
  /// abortJob for a timeout (exit code 3), half a second after printing:
  /// other ranks that wait as well time out about then and report what
  /// they wait for before the abort ends them.
  [[noreturn]] void abortOnTimeout(const std::string &message);

private:
  struct Task {
    std::unique_ptr<MpiOp> op;
    std::function<void()> fn;
    bool stop = false;
  };
  using OpList = std::vector<std::unique_ptr<MpiOp>>;
  void loop();
  /// Posts `op` (its check first), or holds it while an earlier operation on
  /// the same communicator is still being checked.
  void begin(std::unique_ptr<MpiOp> op);
  void postCheck(MpiOp &op);
  /// Aborts the job with a message naming every member's call if the
  /// gathered signatures differ.
  void verifyAgreement(const MpiOp &op);
  /// Prints `message`, waits (briefly) until every member of `comm` has
  /// printed its own, then aborts the job.
  [[noreturn]] void abortWithGroup(MPI_Comm comm, const std::string &message,
                                   int exitCode);
  bool poll();
  void checkTimeouts();
  /// "seqpar runtime: rank R: <message>" on stderr.
  void report(const std::string &message) const;
  /// MPI_Abort(MPI_COMM_WORLD, exitCode) (exit if MPI is gone).
  [[noreturn]] static void endJob(int exitCode);
  void push(Task task);

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  std::atomic<int> waiters_{0};
  std::atomic<unsigned> waitCalls_{0}; ///< restarts the back-off
  std::atomic<double> timeout_{kDefaultTimeoutSeconds};
  // MPI thread only.
  OpList active_; ///< posted (checking or transferring)
  OpList held_;   ///< waiting for an earlier check on their communicator
  MPI_Comm controlComm_ = MPI_COMM_NULL;
  uint64_t controlSequence_ = 0;
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
