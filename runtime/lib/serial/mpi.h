//===- serial/mpi.h - the MPI subset of the runtime, for one process -----===//
//
// Used instead of <mpi.h> when the runtime is configured with
// SEQPAR_RUNTIME_ENABLE_MPI=OFF (README "Build without MPI"): the calls the
// runtime makes, for a world of exactly one process, where every
// communicator has one member. Collectives copy their input to their
// output; point-to-point calls, which a group of one never makes (a ring
// shift of one rank is a copy, the agreement check has no peer), abort.
// Like PETSc's MPIUNI, this keeps one code path for the runtime's logic
// (agreement check, timeout, counters) on machines without MPI. The symbols
// are hidden: a process that also loads a real MPI keeps its own.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_LIB_SERIAL_MPI_H
#define SEQPAR_RUNTIME_LIB_SERIAL_MPI_H

#define SEQPAR_SERIAL_MPI_API __attribute__((visibility("hidden")))

using MPI_Comm = int;
using MPI_Request = int;
/// A datatype is its size in bytes (no reduction ever combines two values).
using MPI_Datatype = int;
using MPI_Op = int;
struct MPI_Status {
  int unused;
};

#define MPI_SUCCESS 0
#define MPI_ERR_OTHER 16
#define MPI_COMM_NULL 0
#define MPI_COMM_WORLD 1
#define MPI_REQUEST_NULL 0
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3
#define MPI_BYTE 1
#define MPI_CHAR 1
#define MPI_INT8_T 1
#define MPI_UINT16_T 2
#define MPI_INT 4
#define MPI_INT32_T 4
#define MPI_FLOAT 4
#define MPI_INT64_T 8
#define MPI_DOUBLE 8
#define MPI_SUM 1
#define MPI_MAX 2
#define MPI_MIN 3
#define MPI_IN_PLACE (reinterpret_cast<void *>(1))
#define MPI_STATUS_IGNORE (static_cast<MPI_Status *>(nullptr))
#define MPI_STATUSES_IGNORE (static_cast<MPI_Status *>(nullptr))

SEQPAR_SERIAL_MPI_API int MPI_Init_thread(int *argc, char ***argv,
                                          int required, int *provided);
SEQPAR_SERIAL_MPI_API int MPI_Initialized(int *flag);
SEQPAR_SERIAL_MPI_API int MPI_Finalized(int *flag);
SEQPAR_SERIAL_MPI_API int MPI_Finalize();
SEQPAR_SERIAL_MPI_API int MPI_Query_thread(int *provided);
[[noreturn]] SEQPAR_SERIAL_MPI_API int MPI_Abort(MPI_Comm comm, int code);
SEQPAR_SERIAL_MPI_API double MPI_Wtime();

SEQPAR_SERIAL_MPI_API int MPI_Comm_rank(MPI_Comm comm, int *rank);
SEQPAR_SERIAL_MPI_API int MPI_Comm_size(MPI_Comm comm, int *size);
SEQPAR_SERIAL_MPI_API int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out);
SEQPAR_SERIAL_MPI_API int MPI_Comm_split(MPI_Comm comm, int color, int key,
                                         MPI_Comm *out);
SEQPAR_SERIAL_MPI_API int MPI_Comm_free(MPI_Comm *comm);

SEQPAR_SERIAL_MPI_API int MPI_Allgather(const void *in, int inCount,
                                        MPI_Datatype inType, void *out,
                                        int outCount, MPI_Datatype outType,
                                        MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int MPI_Iallgather(const void *in, int inCount,
                                         MPI_Datatype inType, void *out,
                                         int outCount, MPI_Datatype outType,
                                         MPI_Comm comm, MPI_Request *request);
SEQPAR_SERIAL_MPI_API int MPI_Alltoall(const void *in, int inCount,
                                       MPI_Datatype inType, void *out,
                                       int outCount, MPI_Datatype outType,
                                       MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int MPI_Ialltoall(const void *in, int inCount,
                                        MPI_Datatype inType, void *out,
                                        int outCount, MPI_Datatype outType,
                                        MPI_Comm comm, MPI_Request *request);
SEQPAR_SERIAL_MPI_API int MPI_Allreduce(const void *in, void *out, int count,
                                        MPI_Datatype type, MPI_Op op,
                                        MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int MPI_Iallreduce(const void *in, void *out, int count,
                                         MPI_Datatype type, MPI_Op op,
                                         MPI_Comm comm, MPI_Request *request);
SEQPAR_SERIAL_MPI_API int MPI_Reduce_scatter_block(const void *in, void *out,
                                                   int count, MPI_Datatype type,
                                                   MPI_Op op, MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int
MPI_Ireduce_scatter_block(const void *in, void *out, int count,
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                          MPI_Request *request);
SEQPAR_SERIAL_MPI_API int MPI_Gather(const void *in, int inCount,
                                     MPI_Datatype inType, void *out,
                                     int outCount, MPI_Datatype outType,
                                     int root, MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int MPI_Gatherv(const void *in, int inCount,
                                      MPI_Datatype inType, void *out,
                                      const int *outCounts, const int *offsets,
                                      MPI_Datatype outType, int root,
                                      MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int MPI_Bcast(void *buffer, int count, MPI_Datatype type,
                                    int root, MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int MPI_Barrier(MPI_Comm comm);
SEQPAR_SERIAL_MPI_API int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
SEQPAR_SERIAL_MPI_API int MPI_Isend(const void *buffer, int count,
                                    MPI_Datatype type, int dest, int tag,
                                    MPI_Comm comm, MPI_Request *request);
SEQPAR_SERIAL_MPI_API int MPI_Irecv(void *buffer, int count, MPI_Datatype type,
                                    int source, int tag, MPI_Comm comm,
                                    MPI_Request *request);
SEQPAR_SERIAL_MPI_API int MPI_Test(MPI_Request *request, int *flag,
                                   MPI_Status *status);
SEQPAR_SERIAL_MPI_API int MPI_Testall(int count, MPI_Request *requests,
                                      int *flag, MPI_Status *statuses);

#endif // SEQPAR_RUNTIME_LIB_SERIAL_MPI_H
