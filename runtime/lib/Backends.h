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

namespace seqpar {
namespace rt {
namespace detail {

/// Collectives on host buffers over an MPI sub-communicator, executed by the
/// MpiEngine thread (nonblocking MPI, polled).
class MpiCommunicator : public Communicator {
public:
  /// Takes ownership of `comm` (freed on the MPI thread on destruction).
  MpiCommunicator(CommunicatorInfo info, MPI_Comm comm, MpiEngine &engine,
                  Counters &counters);
  ~MpiCommunicator() override;
  const CommunicatorInfo &info() const override { return info_; }
  Status start(const CollectiveOp &op,
               std::unique_ptr<Request> *request) override;
  MPI_Comm comm() const { return comm_; }
  MpiEngine &engine() { return engine_; }

private:
  CommunicatorInfo info_;
  MPI_Comm comm_;
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
