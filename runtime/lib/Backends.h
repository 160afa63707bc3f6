//===- Backends.h - backend communicators (internal) ------------*- C++ -*-===//
//
// The MPI communicator (host buffers) and, when built, the NCCL communicator
// (CUDA device buffers). Runtime.cpp wraps both in one dispatching
// communicator per (grid, axes) that picks the backend per call from the
// buffers' memory type.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_LIB_BACKENDS_H
#define SEQPAR_RUNTIME_LIB_BACKENDS_H

#include "Counters.h"
#include "MpiEngine.h"

#include <array>

namespace seqpar {
namespace rt {
namespace detail {

/// Collectives on host buffers over an MPI sub-communicator, each after the
/// agreement check: asynchronous ones executed by the MpiEngine thread
/// (nonblocking MPI, polled), blocking ones on the calling thread when
/// nothing else is in flight (MpiEngine::runDirect). The MPI communicator is split from the control communicator at the
/// first collective (README "Grids and communicators"), so a rank that skips
/// that collective leaves the others waiting in a call that names it.
class MpiCommunicator : public Communicator {
public:
  /// `color`: the group's index among the groups of (grid, axes).
  MpiCommunicator(CommunicatorInfo info, int color, MpiEngine &engine,
                  Counters &counters);
  ~MpiCommunicator() override;
  const CommunicatorInfo &info() const override { return info_; }
  Status start(const CollectiveOp &op,
               std::unique_ptr<Request> *request) override;
  Status run(const CollectiveOp &op) override;
  /// Creates the MPI communicator if this is the first collective (`op`,
  /// named by the timeout message); collective over the world.
  void ensureCreated(const CollectiveOp &op);
  /// Queues the agreement check of `op` alone, for a collective another
  /// backend executes (NCCL); nobody waits for it, but a mismatch or a
  /// missing peer still aborts the job.
  void checkOnly(const CollectiveOp &op);
  /// Runs `fn` (blocking MPI calls on comm()) once every member has reached
  /// it; `kind` names it in messages.
  void runCollective(ControlKind kind, const std::string &description,
                     std::function<void()> fn);
  MPI_Comm comm() const { return comm_; }
  MpiEngine &engine() { return engine_; }

private:
  /// The operation of `op` (its state is set by whoever waits for it).
  std::unique_ptr<MpiOp> newOp(const CollectiveOp &op);
  /// The counters' key of `kind` on this communicator (built once: a key
  /// per call would allocate its vectors per call).
  const CounterKey &counterKey(OpKind kind) const {
    return counterKeys_[static_cast<size_t>(kind)];
  }
  /// Validates `op`, creates the communicator if needed, and builds the
  /// engine operation that executes it.
  Status prepare(const CollectiveOp &op, std::unique_ptr<MpiOp> *result);

  CommunicatorInfo info_;
  std::string label_; ///< info_.label()
  std::array<CounterKey, 5> counterKeys_; ///< indexed by OpKind
  int color_;
  std::mutex createMutex_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  uint64_t sequence_ = 0; ///< calls checked on comm_ (by the MPI owner)
  MpiEngine &engine_;
  Counters &counters_;
};

#ifdef SEQPAR_RUNTIME_HAVE_NCCL
/// True when CUDA sees at least one device (checked once).
bool cudaAvailable();
/// True when `ptr` is CUDA device or managed memory; `*device` its device.
/// False for host memory and whenever CUDA is unavailable.
bool isDevicePointer(const void *ptr, int *device);
/// Creates the NCCL communicator of `host`'s group on `device`: axis rank 0
/// makes the ncclUniqueId, broadcast over the MPI group; then
/// ncclCommInitRank. Collective over the group.
Status createNcclCommunicator(MpiCommunicator &host, int device,
                              Counters &counters,
                              std::unique_ptr<Communicator> *out);
/// Stream that device collectives order after (cudaStream_t; 0 = legacy).
void setUserStream(void *stream);
#endif

} // namespace detail
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_LIB_BACKENDS_H
