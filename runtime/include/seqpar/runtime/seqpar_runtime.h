/*===- seqpar_runtime.h - seqpar collective runtime, C ABI -------*- C -*-===//
 *
 * The C ABI that lowered seqpar programs call (and seqpar-run, and anything
 * that cannot use C++). Plain functions over raw pointers; a thin layer over
 * seqpar/runtime/Runtime.h.
 *
 * Conventions:
 * - shapes: `const int64_t *shape` with `ndims` entries, in elements,
 *   row-major; buffers are dense (no strides; pass the aligned pointer plus
 *   offset of a contiguous memref);
 * - sizes in bytes, times in seconds;
 * - every function that can fail returns a seqpar_rt_status_t (0 = OK); the
 *   message of the last error on the calling thread is seqpar_rt_last_error().
 *   Bad arguments (a dim out of range, an extent not divisible by the group
 *   size, a null buffer, an unknown enum, overlapping buffers, a grid that
 *   does not match the world) are detected before any communication and
 *   returned as SEQPAR_RT_ERROR_INVALID_ARGUMENT; they never crash.
 *   With seqpar_rt_set_error_mode(SEQPAR_RT_ERRORS_ABORT) (or the environment
 *   variable SEQPAR_ABORT_ON_ERROR=1) an error is instead printed with the
 *   rank and aborts every rank: the mode for compiled code that does not
 *   check return codes.
 * - collectives are collective: every rank of the communicator calls the same
 *   ones in the same order with matching shapes. Each collective starts with
 *   an agreement check (a small all-gather of what every member calls):
 *   members that call different collectives (kind, dtype, shape, dims,
 *   reduction, offset) each print every member's call and the job aborts
 *   (exit code 4). A rank that skips a collective ends in the timeout.
 * - timeout: a collective not complete SEQPAR_COLLECTIVE_TIMEOUT seconds
 *   (default 30) after it started prints rank, op, grid, axes and sizes to
 *   stderr and aborts every rank (MPI_Abort, exit code 3).
 *
 *===----------------------------------------------------------------------===*/

#ifndef SEQPAR_RUNTIME_SEQPAR_RUNTIME_H
#define SEQPAR_RUNTIME_SEQPAR_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes (values of seqpar::rt::StatusCode). */
typedef int32_t seqpar_rt_status_t;
#define SEQPAR_RT_OK 0
#define SEQPAR_RT_ERROR_INVALID_ARGUMENT 1
#define SEQPAR_RT_ERROR_NOT_INITIALIZED 2
#define SEQPAR_RT_ERROR_BACKEND 3
#define SEQPAR_RT_ERROR_UNAVAILABLE 4

/* Element types. */
#define SEQPAR_RT_F32 0
#define SEQPAR_RT_F16 1
#define SEQPAR_RT_BF16 2
#define SEQPAR_RT_I32 3
#define SEQPAR_RT_I64 4
/* One byte per element: i8, and MLIR's i1 (stored one byte each), which
   only moves (all-gather, all-to-all, shift). */
#define SEQPAR_RT_I8 5

/* Reductions (f16/bf16 reduce in f32, rounded back once; integers exactly,
   in their own type). */
#define SEQPAR_RT_SUM 0
#define SEQPAR_RT_MAX 1
#define SEQPAR_RT_MIN 2

/* Collective kinds (for seqpar_rt_collective_counter). */
#define SEQPAR_RT_ALL_GATHER 0
#define SEQPAR_RT_REDUCE_SCATTER 1
#define SEQPAR_RT_ALL_REDUCE 2
#define SEQPAR_RT_ALL_TO_ALL 3
#define SEQPAR_RT_SHIFT 4

/* Error modes. */
#define SEQPAR_RT_ERRORS_RETURN 0
#define SEQPAR_RT_ERRORS_ABORT 1

/* Report formats. */
#define SEQPAR_RT_FORMAT_TEXT 0
#define SEQPAR_RT_FORMAT_JSON 1

/* A communicator (owned by the runtime, valid until finalize). */
typedef struct seqpar_rt_comm *seqpar_rt_comm_t;
/* An asynchronous collective; released by seqpar_rt_wait. */
typedef struct seqpar_rt_request *seqpar_rt_request_t;

/*--- Lifetime ---------------------------------------------------------------*/

/* Initializes MPI (if needed) and the progress thread. Idempotent. */
seqpar_rt_status_t seqpar_rt_init(void);
/* Waits for in-flight work, finalizes. Idempotent; also run at exit. Wait
 * for every request first; communicators are invalid afterwards. MPI cannot
 * be initialized again in the same process. */
seqpar_rt_status_t seqpar_rt_finalize(void);
/* Rank / size in MPI_COMM_WORLD, or -1 before init. */
int32_t seqpar_rt_world_rank(void);
int32_t seqpar_rt_world_size(void);
/* Message of the last error on this thread ("" if none). */
const char *seqpar_rt_last_error(void);
/* SEQPAR_RT_ERRORS_RETURN (default) or SEQPAR_RT_ERRORS_ABORT. */
seqpar_rt_status_t seqpar_rt_set_error_mode(int32_t mode);
/* Prints "seqpar runtime: rank R: <message>" to stderr and ends the job on
 * every rank with `exit_code` (MPI_Abort once MPI is up; before init, this
 * process only). For failures no rank can recover from, such as a failed
 * run-time check of a compiled program. Never returns. */
void seqpar_rt_abort_job(const char *message, int32_t exit_code);
/* Collective timeout in seconds (> 0); overrides SEQPAR_COLLECTIVE_TIMEOUT. */
seqpar_rt_status_t seqpar_rt_set_timeout(double seconds);
/* The collective timeout in seconds, or -1 before init. */
double seqpar_rt_get_timeout(void);
/* CUDA stream (cudaStream_t) device-buffer collectives order after; 0 =
 * legacy default stream. UNAVAILABLE when built without NCCL. */
seqpar_rt_status_t seqpar_rt_set_cuda_stream(void *stream);

/*--- Grids and communicators ------------------------------------------------*/

/* Communicator over grid axes `axes[0..num_axes)` of a grid of shape
 * `grid_shape[0..grid_ndims)` (prod == world size; row-major rank layout).
 * Collective over the world on first use of a (grid, axes) pair. */
seqpar_rt_status_t seqpar_rt_comm_get(const int64_t *grid_shape,
                                      int32_t grid_ndims, const int32_t *axes,
                                      int32_t num_axes, seqpar_rt_comm_t *comm);
/* Rank within the group (axis rank, not world rank) / group size; -1 on a
 * null communicator. */
int32_t seqpar_rt_comm_rank(seqpar_rt_comm_t comm);
int32_t seqpar_rt_comm_size(seqpar_rt_comm_t comm);
/* This process's coordinates in the grid: index[0..grid_ndims). */
seqpar_rt_status_t seqpar_rt_process_multi_index(const int64_t *grid_shape,
                                                 int32_t grid_ndims,
                                                 int64_t *index);
/* Barrier over the world. */
seqpar_rt_status_t seqpar_rt_barrier(void);

/*--- Collectives (blocking; *_start: asynchronous) ---------------------------
 * Host buffers go to MPI, CUDA device buffers to NCCL (when built). */

/* output[.., shape[dim]*t, ..] = concat over axis ranks of input (local
 * shape `local_shape`). */
seqpar_rt_status_t seqpar_rt_all_gather(seqpar_rt_comm_t comm, int32_t dtype,
                                        const void *input, void *output,
                                        const int64_t *local_shape,
                                        int32_t ndims, int32_t dim);
seqpar_rt_status_t seqpar_rt_all_gather_start(
    seqpar_rt_comm_t comm, int32_t dtype, const void *input, void *output,
    const int64_t *local_shape, int32_t ndims, int32_t dim,
    seqpar_rt_request_t *request);

/* output = block r (of t, along dim) of reduce(inputs); input has the full
 * shape `full_shape`, full_shape[dim] % t == 0. */
seqpar_rt_status_t seqpar_rt_reduce_scatter(seqpar_rt_comm_t comm,
                                            int32_t dtype, int32_t reduction,
                                            const void *input, void *output,
                                            const int64_t *full_shape,
                                            int32_t ndims, int32_t dim);
seqpar_rt_status_t seqpar_rt_reduce_scatter_start(
    seqpar_rt_comm_t comm, int32_t dtype, int32_t reduction, const void *input,
    void *output, const int64_t *full_shape, int32_t ndims, int32_t dim,
    seqpar_rt_request_t *request);

/* output = reduce(inputs), same shape; input == output allowed. */
seqpar_rt_status_t seqpar_rt_all_reduce(seqpar_rt_comm_t comm, int32_t dtype,
                                        int32_t reduction, const void *input,
                                        void *output, const int64_t *shape,
                                        int32_t ndims);
seqpar_rt_status_t seqpar_rt_all_reduce_start(
    seqpar_rt_comm_t comm, int32_t dtype, int32_t reduction, const void *input,
    void *output, const int64_t *shape, int32_t ndims,
    seqpar_rt_request_t *request);

/* Split input (local shape) into t chunks along split_dim, send chunk j to
 * axis rank j, concatenate received chunks along concat_dim. */
seqpar_rt_status_t seqpar_rt_all_to_all(seqpar_rt_comm_t comm, int32_t dtype,
                                        const void *input, void *output,
                                        const int64_t *local_shape,
                                        int32_t ndims, int32_t split_dim,
                                        int32_t concat_dim);
seqpar_rt_status_t seqpar_rt_all_to_all_start(
    seqpar_rt_comm_t comm, int32_t dtype, const void *input, void *output,
    const int64_t *local_shape, int32_t ndims, int32_t split_dim,
    int32_t concat_dim, seqpar_rt_request_t *request);

/* Ring send/recv: send input to axis rank (r+offset) mod t, receive output
 * from (r-offset) mod t. offset +1 / -1 for the usual ring directions. */
seqpar_rt_status_t seqpar_rt_shift(seqpar_rt_comm_t comm, int32_t dtype,
                                   const void *input, void *output,
                                   const int64_t *shape, int32_t ndims,
                                   int64_t offset);
seqpar_rt_status_t seqpar_rt_shift_start(seqpar_rt_comm_t comm, int32_t dtype,
                                         const void *input, void *output,
                                         const int64_t *shape, int32_t ndims,
                                         int64_t offset,
                                         seqpar_rt_request_t *request);

/* Waits for and releases a request (null: INVALID_ARGUMENT). */
seqpar_rt_status_t seqpar_rt_wait(seqpar_rt_request_t request);
/* *done = 1 when complete (the request stays valid until waited). */
seqpar_rt_status_t seqpar_rt_test(seqpar_rt_request_t request, int32_t *done);

/*--- Counters -----------------------------------------------------------------*/

/* Starts / ends a named compute region of `flops` floating-point ops. */
seqpar_rt_status_t seqpar_rt_region_begin(const char *name, int64_t flops);
seqpar_rt_status_t seqpar_rt_region_end(const char *name);
/* Zeroes this rank's collective and region counters. */
seqpar_rt_status_t seqpar_rt_counters_reset(void);
/* This rank's counter of one collective kind on one communicator: calls,
 * bytes sent (docs/semantics.md §5 ring convention) and seconds; any output may
 * be null. */
seqpar_rt_status_t seqpar_rt_collective_counter(int32_t kind,
                                                seqpar_rt_comm_t comm,
                                                uint64_t *calls,
                                                uint64_t *bytes_sent,
                                                double *seconds);
/* Prints every rank's counters, then the aggregate, on rank 0's stdout
 * (SEQPAR_RT_FORMAT_TEXT or _JSON). Collective over the world. */
seqpar_rt_status_t seqpar_rt_print_counters(int32_t format);
/* Same document into `buffer` (NUL-terminated, truncated to `capacity`);
 * `*length` = full length without NUL. Rank 0 gets all ranks; others get
 * their own section. Collective over the world. */
seqpar_rt_status_t seqpar_rt_counters_string(int32_t format, char *buffer,
                                             size_t capacity, size_t *length);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SEQPAR_RUNTIME_SEQPAR_RUNTIME_H */
