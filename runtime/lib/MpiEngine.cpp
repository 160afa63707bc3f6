//===- MpiEngine.cpp - the runtime's MPI calls and their progress ---------===//

#include "MpiEngine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace seqpar {
namespace rt {
namespace detail {

namespace {
/// Tag of the agreement check's messages (the ring shift uses its own).
constexpr int kCheckTag = 0x5ec;
} // namespace

#ifndef SEQPAR_RUNTIME_HAVE_MPI
/// "OMPI_COMM_WORLD_SIZE=2" when a launcher started more than one process
/// (Open MPI's mpirun, or a PMI launcher: MPICH, Slurm), else "".
std::string launchedProcesses() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char *value = std::getenv(name))
      if (std::atol(value) > 1)
        return std::string(name) + "=" + value;
  return "";
}
#endif

MpiEngine::MpiEngine() {
  const char *env = std::getenv("SEQPAR_PROGRESS_INTERVAL_US");
  if (!env || !*env)
    return;
  char *end = nullptr;
  long v = std::strtol(env, &end, 10);
  if (end == env || *end || v < 0 || v > 10000000) {
    std::fprintf(stderr,
                 "seqpar runtime: ignoring SEQPAR_PROGRESS_INTERVAL_US='%s' "
                 "(not a whole number of microseconds from 0 to 10000000); "
                 "using %d\n",
                 env, pollIntervalUs_);
    return;
  }
  pollIntervalUs_ = static_cast<int>(v);
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
  push(Task{nullptr, nullptr, nullptr, true});
  thread_.join();
}

void MpiEngine::push(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
    ++pending_;
  }
  cv_.notify_one();
}

bool MpiEngine::claimDirect() {
  if (!directAllowed_ || onMpiThread())
    return false;
  std::lock_guard<std::mutex> lock(mutex_);
  if (direct_ || pending_ > 0)
    return false;
  direct_ = true;
  return true;
}

void MpiEngine::finish(RequestState &state, double now) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --pending_;
  }
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.done = true;
    state.completedAt = now;
  }
  state.cv.notify_all();
}

void MpiEngine::releaseDirect() {
  bool queued;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    direct_ = false;
    queued = !queue_.empty();
  }
  if (queued) // tasks pushed meanwhile; otherwise let the thread sleep
    cv_.notify_one();
}

void MpiEngine::awaitRequests(MpiOp &op, size_t count) {
  Backoff backoff;
  for (;;) {
    int flag = 1;
    double start = monotonicSeconds();
    if (count > 0)
      MPI_Testall(static_cast<int>(count), op.requests.data(), &flag,
                  MPI_STATUSES_IGNORE);
    if (flag)
      return;
    double now = monotonicSeconds();
    // A poll that copied a large message spent about a millisecond inside
    // MPI: progress, not idle waiting (README "Polling policy").
    backoff.exclude(now - start);
    checkTimeout(op, now);
    backoff.pause();
  }
}

bool MpiEngine::runDirect(MpiOp &op) {
  if (!claimDirect())
    return false;
  bool checked = op.checkComm != MPI_COMM_NULL;
  if (checked) {
    op.signature.setOnCallingThread(true);
    postCheck(op);
    awaitRequests(op, op.checkRequests);
    endCheck(op);
    op.blocking = std::all_of(
        op.gathered.begin(), op.gathered.end(),
        [](const OpSignature &s) { return s.onCallingThread(); });
  }
  if (!checked || !op.postWithCheck)
    op.post(op);
  awaitRequests(op, op.requests.size());
  if (op.complete)
    op.complete(op);
  if (op.record)
    op.record(op, monotonicSeconds() - op.startTime);
  releaseDirect();
  return true;
}

void MpiEngine::submit(std::unique_ptr<MpiOp> op) {
  push(Task{std::move(op), nullptr, nullptr, false});
}

void MpiEngine::runSync(const std::function<void()> &fn,
                        const std::string &what) {
  if (onMpiThread()) {
    fn();
    return;
  }
  if (claimDirect()) {
    fn();
    releaseDirect();
    return;
  }
  auto state = std::make_shared<RequestState>();
  push(Task{nullptr, fn, state, false});
  std::unique_lock<std::mutex> lock(state->mutex);
  double limit = timeout();
  if (!state->cv.wait_for(lock, std::chrono::duration<double>(limit),
                          [&] { return state->done; })) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", limit);
    abortOnTimeout("timeout: " + what + " did not complete within " + buf +
                   " s (SEQPAR_COLLECTIVE_TIMEOUT); aborting all ranks");
  }
}

void MpiEngine::runCollective(MPI_Comm comm, uint64_t *sequence,
                              const OpSignature &signature,
                              const std::string &groupLabel,
                              const std::string &description,
                              std::function<void()> fn) {
  auto op = std::make_unique<MpiOp>();
  op->checkComm = comm;
  op->sequence = sequence;
  op->signature = signature;
  op->groupLabel = &groupLabel;
  op->describe = [description] { return description; };
  op->post = [fn = std::move(fn)](MpiOp &) {
    if (fn)
      fn();
  };
  op->startTime = monotonicSeconds();
  if (runDirect(*op))
    return;
  auto state = std::make_shared<RequestState>();
  op->state = state;
  submit(std::move(op));
  waitFor(*state);
}

void MpiEngine::runControl(const OpSignature &signature,
                           const std::string &description,
                           std::function<void()> fn) {
  static const std::string kWorld = "the world";
  runCollective(controlComm_, &controlSequence_, signature, kWorld, description,
                std::move(fn));
}

void MpiEngine::waitFor(RequestState &state) {
  waiters_.fetch_add(1);
  waitCalls_.fetch_add(1);
  cv_.notify_one(); // wake the thread from its polling sleep
  {
    std::unique_lock<std::mutex> lock(state.mutex);
    state.cv.wait(lock, [&] { return state.done; });
  }
  waiters_.fetch_sub(1);
}

void MpiEngine::report(const std::string &message) const {
  std::fprintf(stderr, "seqpar runtime: rank %d: %s\n", worldRank_,
               message.c_str());
  std::fflush(stderr);
}

void MpiEngine::endJob(int exitCode) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Abort(MPI_COMM_WORLD, exitCode);
  std::_Exit(exitCode);
}

void MpiEngine::abortJob(const std::string &message, int exitCode) {
  report(message);
  endJob(exitCode);
}

void MpiEngine::abortOnTimeout(const std::string &message) {
  report(message);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  endJob(3);
}

void MpiEngine::abortWithGroup(MPI_Comm comm, const std::string &message,
                               int exitCode) {
  report(message);
  // Every member found the same disagreement: let each print before the
  // first MPI_Abort ends the job (bounded, in case one cannot).
  MPI_Request barrier = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm, &barrier);
  Backoff backoff;
  int done = 0;
  for (double until = monotonicSeconds() + 2;
       !done && monotonicSeconds() < until; backoff.pause())
    MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
  endJob(exitCode);
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
#ifndef SEQPAR_RUNTIME_HAVE_MPI
    } else if (std::string launch = launchedProcesses(); !launch.empty()) {
      status = Status::error(
          StatusCode::Unavailable,
          "init: this runtime was built without MPI "
          "(SEQPAR_RUNTIME_ENABLE_MPI=OFF) and runs a single process, but " +
              launch + "; rebuild it with MPI");
#endif
    } else if (initialized) {
      int provided = 0;
      MPI_Query_thread(&provided);
      directAllowed_ = provided >= MPI_THREAD_MULTIPLE;
      if (provided < MPI_THREAD_MULTIPLE)
        status = Status::error(
            StatusCode::Unavailable,
            "init: MPI was initialized by the embedder below "
            "MPI_THREAD_MULTIPLE (level " +
                std::to_string(provided) +
                "); the runtime's progress thread needs MULTIPLE then, or let "
                "the runtime initialize MPI");
    } else {
      // SERIALIZED lets a caller make MPI calls while this thread makes
      // none (runDirect); an MPI that offers only FUNNELED keeps every call
      // on this thread.
      int provided = 0;
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED,
                          &provided) != MPI_SUCCESS)
        status = Status::error(StatusCode::Backend,
                               "init: MPI_Init_thread failed");
      else
        ownsMpi_ = true;
      directAllowed_ = provided >= MPI_THREAD_SERIALIZED;
    }
    if (status.ok()) {
      MPI_Comm_rank(MPI_COMM_WORLD, &worldRank_);
      MPI_Comm_size(MPI_COMM_WORLD, &worldSize_);
      MPI_Comm_dup(MPI_COMM_WORLD, &controlComm_);
    }
#ifdef __linux__
    // Back-off sleeps of a few microseconds stay that short (the default
    // timer slack would stretch each to ~50 us). This thread only. Its name
    // shows in top/perf, and tests find it by it; named after MPI_Init so
    // that the threads MPI starts there keep theirs.
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    prctl(PR_SET_NAME, "seqpar-mpi", 0UL, 0UL, 0UL);
#endif
    std::lock_guard<std::mutex> lock(startMutex_);
    startStatus_ = status;
    started_ = true;
    startCv_.notify_all();
    if (!status.ok())
      return;
  }

  Backoff backoff;
  unsigned seenWaitCalls = waitCalls_.load();
  bool stopping = false;
  for (;;) {
    std::deque<Task> tasks;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // While a caller owns MPI (runDirect), nothing is in flight here
      // (claimDirect needs pending_ == 0): tasks queued meanwhile wait.
      if (queue_.empty() || direct_) {
        if (active_.empty()) {
          if (stopping && queue_.empty())
            break;
          cv_.wait(lock, [&] { return !queue_.empty() && !direct_; });
        } else if (waiters_.load() == 0) {
          cv_.wait_for(lock, std::chrono::microseconds(pollIntervalUs_), [&] {
            return !queue_.empty() || waiters_.load() > 0;
          });
        } else if (double pause = backoff.next(); pause > 0) {
          cv_.wait_for(lock, std::chrono::duration<double>(pause),
                       [&] { return !queue_.empty(); });
        } else {
          lock.unlock();
          std::this_thread::yield();
          lock.lock();
        }
      }
      tasks.swap(queue_);
    }
    unsigned waitCalls = waitCalls_.load();
    if (!tasks.empty() || waitCalls != seenWaitCalls)
      backoff.reset();
    seenWaitCalls = waitCalls;
    for (Task &task : tasks) {
      if (task.stop) {
        stopping = true;
      } else if (task.fn) {
        task.fn();
        finish(*task.done, monotonicSeconds());
      } else {
        begin(std::move(task.op));
      }
    }
    if (active_.empty())
      continue;
    double start = monotonicSeconds();
    if (poll())
      backoff.reset();
    else // as in awaitRequests: time working inside MPI is not waiting
      backoff.exclude(monotonicSeconds() - start);
    checkTimeouts();
  }
  if (controlComm_ != MPI_COMM_NULL)
    MPI_Comm_free(&controlComm_);
  if (ownsMpi_)
    MPI_Finalize();
}

void MpiEngine::begin(std::unique_ptr<MpiOp> op) {
  if (op->checkComm == MPI_COMM_NULL) {
    op->post(*op);
    active_.push_back(std::move(op));
    return;
  }
  auto sameComm = [&](const std::unique_ptr<MpiOp> &other) {
    return other->checkComm == op->checkComm;
  };
  bool busy = std::any_of(held_.begin(), held_.end(), sameComm) ||
              std::any_of(active_.begin(), active_.end(),
                          [&](const std::unique_ptr<MpiOp> &other) {
                            return other->checking && sameComm(other);
                          });
  if (busy) {
    held_.push_back(std::move(op));
    return;
  }
  postCheck(*op);
  active_.push_back(std::move(op));
}

void MpiEngine::postCheck(MpiOp &op) {
  op.signature.setSequence(static_cast<int64_t>((*op.sequence)++));
  int size = 1, rank = 0;
  MPI_Comm_size(op.checkComm, &size);
  MPI_Comm_rank(op.checkComm, &rank);
  op.gathered.assign(static_cast<size_t>(size), OpSignature());
  op.gathered[static_cast<size_t>(rank)] = op.signature;
  op.checking = true;
  // Point-to-point rather than MPI_Iallgather: no schedule of a
  // nonblocking collective to build per call, one message each way in a
  // group of two. Messages of one sender are matched in order (MPI's
  // non-overtaking rule), so check k always meets check k.
  // Room for a point-to-point operation posted with it, too.
  op.requests.reserve(op.requests.size() + 4 * static_cast<size_t>(size - 1));
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank)
      continue;
    op.requests.push_back(MPI_REQUEST_NULL);
    MPI_Irecv(op.gathered[static_cast<size_t>(peer)].words, OpSignature::kWords,
              MPI_INT64_T, peer, kCheckTag, op.checkComm, &op.requests.back());
  }
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank)
      continue;
    op.requests.push_back(MPI_REQUEST_NULL);
    MPI_Isend(op.signature.words, OpSignature::kWords, MPI_INT64_T, peer,
              kCheckTag, op.checkComm, &op.requests.back());
  }
  op.checkRequests = op.requests.size();
  if (op.postWithCheck)
    op.post(op);
}

void MpiEngine::endCheck(MpiOp &op) {
  op.checking = false;
  op.requests.erase(op.requests.begin(),
                    op.requests.begin() +
                        static_cast<std::ptrdiff_t>(op.checkRequests));
  op.checkRequests = 0;
  verifyAgreement(op);
}

void MpiEngine::verifyAgreement(const MpiOp &op) {
  const std::vector<OpSignature> &all = op.gathered;
  if (std::all_of(all.begin(), all.end(), [&](const OpSignature &s) {
        return s.agreesWith(all.front());
      }))
    return;
  std::string message = "collective mismatch on " + *op.groupLabel +
                        " (call #" + std::to_string(op.signature.sequence()) +
                        " there), the ranks call different collectives:";
  for (size_t j = 0; j < all.size(); ++j)
    message += (j ? "; " : " ") + std::string("axis rank ") +
               std::to_string(j) + " (world rank " +
               std::to_string(all[j].senderWorldRank()) +
               "): " + describeSignature(all[j]);
  abortWithGroup(op.checkComm, message + "; aborting all ranks", 4);
}

bool MpiEngine::poll() {
  bool progressed = false;
  for (size_t i = 0; i < active_.size();) {
    MpiOp &op = *active_[i];
    int flag = 1;
    // While checking, the check's requests alone: an operation posted with
    // its check is tested only once the signatures agreed.
    size_t testing = op.checking ? op.checkRequests : op.requests.size();
    if (testing > 0)
      MPI_Testall(static_cast<int>(testing), op.requests.data(), &flag,
                  MPI_STATUSES_IGNORE);
    if (!flag) {
      ++i;
      continue;
    }
    progressed = true;
    if (op.checking) {
      endCheck(op);
      if (!op.postWithCheck)
        op.post(op);
      // The next operation held for this communicator may now be checked.
      auto next = std::find_if(held_.begin(), held_.end(),
                               [&](const std::unique_ptr<MpiOp> &other) {
                                 return other->checkComm == op.checkComm;
                               });
      if (next != held_.end()) {
        std::unique_ptr<MpiOp> released = std::move(*next);
        held_.erase(next);
        postCheck(*released);
        active_.push_back(std::move(released));
      }
      continue; // test it again: its post may have started nothing
    }
    if (op.complete)
      op.complete(op);
    double now = monotonicSeconds();
    if (op.record)
      op.record(op, now - op.startTime);
    std::shared_ptr<RequestState> state = op.state;
    active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
    finish(*state, now);
  }
  return progressed;
}

void MpiEngine::checkTimeouts() {
  double now = monotonicSeconds();
  for (const OpList *list : {&active_, &held_})
    for (const auto &op : *list)
      checkTimeout(*op, now);
}

void MpiEngine::checkTimeout(const MpiOp &op, double now) {
  double limit = timeout();
  if (now - op.startTime <= limit)
    return;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", limit);
  std::string waiting =
      op.checking ? "; not every member of " + *op.groupLabel +
                        " has reached this call (one skipped it or waits in "
                        "another)"
                  : "";
  abortOnTimeout("timeout: collective did not complete within " +
                 std::string(buf) + " s (SEQPAR_COLLECTIVE_TIMEOUT): " +
                 op.describe() + waiting + "; aborting all ranks");
}

} // namespace detail
} // namespace rt
} // namespace seqpar
