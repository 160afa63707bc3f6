//===- MpiEngine.h - the runtime's MPI calls and their progress -*- C++ -*-===//
//
// Design (README.md "Progress thread"): a collective that its caller waits
// for at once (a blocking collective, a barrier, a control operation) runs
// on the calling thread when nothing else is queued or in flight: its
// agreement check, its MPI call and its completion are made there, with no
// hand-off to another thread (MPI_THREAD_SERIALIZED: one thread at a time
// owns MPI). Everything else goes through one dedicated thread, which
// initializes MPI, posts queued operations in queue order as nonblocking MPI
// calls (so collectives reach MPI in program order on every rank), keeps
// calling MPI_Test on them while the callers compute (OpenMPI makes no
// progress outside MPI calls), and finalizes MPI. The same loops enforce the
// timeout.
//
// Agreement check (README "Agreement check"): an operation may name a
// communicator on which every member first all-gathers a fixed-size
// signature of its call; the operation proper is posted only when all agree,
// so ranks that call different collectives get a message instead of MPI's
// undefined behaviour (or, for point-to-point operations that cannot go
// wrong before the check is read, posted with it: MpiOp::postWithCheck). On one communicator, the next check is posted only
// after the previous operation's own MPI calls: every rank initiates calls
// on it in the same order.
//
// Polling policy: a waiting thread polls with an exponential back-off
// (Backoff in Layout.h: polls without pausing for 1 ms, then sleeps up to
// 1 ms). The progress thread, while no caller waits, polls with a short
// sleep (SEQPAR_PROGRESS_INTERVAL_US, default 50 us) so it does not steal a
// core from the computation; with nothing in flight it sleeps on a
// condition variable.
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

/// One operation for the engine. `post` runs on the thread that owns MPI
/// (the MPI thread, or the caller in MpiEngine::runDirect): it may pack or
/// convert data and must start nonblocking MPI calls, appending their
/// requests, or, when `blocking` is set, may make the blocking MPI call
/// instead. `complete` runs on that thread once all requests finished
/// (unpacking, narrowing). `record` then runs (counters), and the state is
/// marked done.
struct MpiOp {
  std::function<void(MpiOp &)> post;
  std::function<void(MpiOp &)> complete;
  std::function<void(MpiOp &, double seconds)> record;
  std::vector<MPI_Request> requests;
  std::unique_ptr<char[]> scratchA, scratchB, scratchC;
  /// Names the operation in the timeout message (built only then: a
  /// description per call would cost microseconds of formatting).
  std::function<std::string()> describe;
  double startTime = 0;    ///< monotonicSeconds() at submission
  std::shared_ptr<RequestState> state;

  /// Agreement check before `post` (none when checkComm is null): every
  /// member of checkComm contributes `signature`, numbered from *sequence
  /// (the communicator's call counter, touched by the thread that owns
  /// MPI only).
  MPI_Comm checkComm = MPI_COMM_NULL;
  uint64_t *sequence = nullptr;
  OpSignature signature;
  /// "grid=[2] axes=[0]", for the mismatch message; owned by the
  /// communicator (or the caller of runCollective, which waits), which
  /// outlives the operation.
  const std::string *groupLabel = nullptr;
  std::vector<OpSignature> gathered;
  bool checking = false;
  /// Every member runs this operation on its calling thread (each signature
  /// says so): `post` uses the blocking MPI call, which matches only
  /// blocking calls on the other members.
  bool blocking = false;
  /// `post` starts point-to-point calls only, on a tag of their own, whose
  /// receives cannot overrun their buffers once the signatures agree: it
  /// runs together with the agreement check instead of after it (no round
  /// trip before the transfer); the operation still completes only after
  /// the check agreed (README "Agreement check").
  bool postWithCheck = false;
  /// How many of `requests`, at the front, are the agreement check's.
  size_t checkRequests = 0;
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
  /// Runs `op` (its agreement check, post, completion and record; not its
  /// state) on the calling thread if no other operation is queued or in
  /// flight and MPI allows it (MPI_THREAD_SERIALIZED or above); the engine
  /// makes no MPI call meanwhile. Returns false, having done nothing,
  /// otherwise: the caller then submits it. Subject to the timeout.
  bool runDirect(MpiOp &op);
  /// Runs `fn` while it owns MPI: on the calling thread when nothing is
  /// queued or in flight, else on the MPI thread, waiting for it; there, if
  /// it has not returned after the timeout, aborts the job with a message
  /// naming `what`. For local MPI calls; collective ones go through
  /// runCollective.
  void runSync(const std::function<void()> &fn, const std::string &what);
  /// Runs `fn` (blocking MPI calls on `comm`, may be empty) once every member
  /// of `comm` has passed the agreement check on `signature`, on the calling
  /// thread (runDirect) or else on the MPI thread, and waits for it. The wait
  /// is subject to the timeout, whose message names `description`. Not from
  /// the MPI thread.
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
    std::function<void()> fn;        ///< runSync: run, then mark `done`
    std::shared_ptr<RequestState> done;
    bool stop = false;
  };
  using OpList = std::vector<std::unique_ptr<MpiOp>>;
  void loop();
  /// Posts `op` (its check first), or holds it while an earlier operation on
  /// the same communicator is still being checked.
  void begin(std::unique_ptr<MpiOp> op);
  /// Posts the agreement check of `op` (and `op` itself when
  /// postWithCheck).
  void postCheck(MpiOp &op);
  /// Once the check's requests completed: drops them and verifies.
  void endCheck(MpiOp &op);
  /// Aborts the job with a message naming every member's call if the
  /// gathered signatures differ.
  void verifyAgreement(const MpiOp &op);
  /// Prints `message`, waits (briefly) until every member of `comm` has
  /// printed its own, then aborts the job.
  [[noreturn]] void abortWithGroup(MPI_Comm comm, const std::string &message,
                                   int exitCode);
  bool poll();
  void checkTimeouts();
  /// Aborts the job with the timeout message if `op` is overdue.
  void checkTimeout(const MpiOp &op, double now);
  /// Polls the first `count` of `op`'s requests with the back-off until
  /// they complete.
  void awaitRequests(MpiOp &op, size_t count);
  /// Takes MPI for the calling thread (runDirect) if nothing is pending.
  bool claimDirect();
  void releaseDirect();
  /// Ends a task: no longer pending (before its waiter wakes, so that the
  /// waiter's next collective may run on its own thread), then `state` done.
  void finish(RequestState &state, double now);
  /// "seqpar runtime: rank R: <message>" on stderr.
  void report(const std::string &message) const;
  /// MPI_Abort(MPI_COMM_WORLD, exitCode) (exit if MPI is gone).
  [[noreturn]] static void endJob(int exitCode);
  void push(Task task);

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  /// Tasks pushed and not yet finished (the stop task never finishes), and
  /// whether a caller owns MPI (runDirect); both under mutex_.
  int pending_ = 0;
  bool direct_ = false;
  /// MPI provides MPI_THREAD_SERIALIZED or above (set before start returns).
  bool directAllowed_ = false;
  std::atomic<int> waiters_{0};
  std::atomic<unsigned> waitCalls_{0}; ///< restarts the back-off
  std::atomic<double> timeout_{kDefaultTimeoutSeconds};
  // Thread that owns MPI only.
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
