//===- SerialMpi.cpp - the MPI subset of the runtime, for one process -----===//
//
// See serial/mpi.h. Every communicator is the one process; a collective's
// result is its input.
//
//===----------------------------------------------------------------------===//

#include "mpi.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
std::atomic<int> gState{0}; // 0 before init, 1 initialized, 2 finalized

/// out = in (count values of `type` bytes), unless in place.
int copy(const void *in, void *out, int count, MPI_Datatype type) {
  if (in != MPI_IN_PLACE && count > 0 && in != out)
    std::memcpy(out, in, static_cast<size_t>(count) * type);
  return MPI_SUCCESS;
}

int done(MPI_Request *request) {
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

[[noreturn]] void noPeer(const char *call) {
  std::fprintf(stderr,
               "seqpar runtime: %s in a runtime built without MPI (single "
               "process): there is no peer\n",
               call);
  std::abort();
}
} // namespace

int MPI_Init_thread(int *, char ***, int, int *provided) {
  *provided = MPI_THREAD_MULTIPLE;
  gState = 1;
  return MPI_SUCCESS;
}
int MPI_Initialized(int *flag) {
  *flag = gState.load() >= 1;
  return MPI_SUCCESS;
}
int MPI_Finalized(int *flag) {
  *flag = gState.load() == 2;
  return MPI_SUCCESS;
}
int MPI_Finalize() {
  gState = 2;
  return MPI_SUCCESS;
}
int MPI_Query_thread(int *provided) {
  *provided = MPI_THREAD_MULTIPLE;
  return MPI_SUCCESS;
}
int MPI_Abort(MPI_Comm, int code) { std::_Exit(code); }
double MPI_Wtime() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int MPI_Comm_rank(MPI_Comm, int *rank) {
  *rank = 0;
  return MPI_SUCCESS;
}
int MPI_Comm_size(MPI_Comm, int *size) {
  *size = 1;
  return MPI_SUCCESS;
}
int MPI_Comm_dup(MPI_Comm, MPI_Comm *out) {
  *out = MPI_COMM_WORLD + 1;
  return MPI_SUCCESS;
}
int MPI_Comm_split(MPI_Comm, int, int, MPI_Comm *out) {
  *out = MPI_COMM_WORLD + 1;
  return MPI_SUCCESS;
}
int MPI_Comm_free(MPI_Comm *comm) {
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int MPI_Allgather(const void *in, int inCount, MPI_Datatype inType, void *out,
                  int, MPI_Datatype, MPI_Comm) {
  return copy(in, out, inCount, inType);
}
int MPI_Iallgather(const void *in, int inCount, MPI_Datatype inType, void *out,
                   int, MPI_Datatype, MPI_Comm, MPI_Request *request) {
  copy(in, out, inCount, inType);
  return done(request);
}
int MPI_Alltoall(const void *in, int inCount, MPI_Datatype inType, void *out,
                 int, MPI_Datatype, MPI_Comm) {
  return copy(in, out, inCount, inType);
}
int MPI_Ialltoall(const void *in, int inCount, MPI_Datatype inType, void *out,
                  int, MPI_Datatype, MPI_Comm, MPI_Request *request) {
  copy(in, out, inCount, inType);
  return done(request);
}
int MPI_Allreduce(const void *in, void *out, int count, MPI_Datatype type,
                  MPI_Op, MPI_Comm) {
  return copy(in, out, count, type);
}
int MPI_Iallreduce(const void *in, void *out, int count, MPI_Datatype type,
                   MPI_Op, MPI_Comm, MPI_Request *request) {
  copy(in, out, count, type);
  return done(request);
}
int MPI_Reduce_scatter_block(const void *in, void *out, int count,
                             MPI_Datatype type, MPI_Op, MPI_Comm) {
  return copy(in, out, count, type);
}
int MPI_Ireduce_scatter_block(const void *in, void *out, int count,
                              MPI_Datatype type, MPI_Op, MPI_Comm,
                              MPI_Request *request) {
  copy(in, out, count, type);
  return done(request);
}
int MPI_Gather(const void *in, int inCount, MPI_Datatype inType, void *out,
               int, MPI_Datatype, int, MPI_Comm) {
  return copy(in, out, inCount, inType);
}
int MPI_Gatherv(const void *in, int inCount, MPI_Datatype inType, void *out,
                const int *, const int *offsets, MPI_Datatype outType, int,
                MPI_Comm) {
  return copy(in, static_cast<char *>(out) + offsets[0] * outType, inCount,
              inType);
}
int MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm) { return MPI_SUCCESS; }
int MPI_Barrier(MPI_Comm) { return MPI_SUCCESS; }
int MPI_Ibarrier(MPI_Comm, MPI_Request *request) { return done(request); }
int MPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm,
              MPI_Request *) {
  noPeer("MPI_Isend");
}
int MPI_Irecv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) {
  noPeer("MPI_Irecv");
}
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *) {
  *flag = 1;
  return done(request);
}
int MPI_Testall(int count, MPI_Request *requests, int *flag, MPI_Status *) {
  for (int i = 0; i < count; ++i)
    requests[i] = MPI_REQUEST_NULL;
  *flag = 1;
  return MPI_SUCCESS;
}
