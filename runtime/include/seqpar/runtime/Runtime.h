//===- Runtime.h - seqpar collective runtime, C++ API -----------*- C++ -*-===//
//
// The C++ API of the seqpar runtime (docs/semantics.md §8): communicators per
// grid axis split from the MPI world, the five collectives of the
// sequence-parallel programs (all-gather, reduce-scatter, all-reduce,
// all-to-all, ring shift), blocking and asynchronous, on f32/f16/bf16 row-major
// tensors, and counters. Compiled code uses the C ABI in seqpar_runtime.h,
// which is a thin layer over this header. This header does not include <mpi.h>,
// CUDA or NCCL headers.
//
// Conventions used in every docstring below:
// - shapes are in elements, row-major (last dim fastest), int64 extents >= 0;
// - sizes are in bytes, times in seconds (steady clock);
// - errors are returned as Status (code + message); nothing here throws, and
//   bad arguments never crash: they are reported before any communication.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_RUNTIME_H
#define SEQPAR_RUNTIME_RUNTIME_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace seqpar {
namespace rt {

/// Element type of a buffer. Values match SEQPAR_RT_F32/F16/BF16/I32/I64/I8
/// of the C ABI. Integers carry token ids, labels and counts (a label shift
/// across context-parallel ranks, a valid-token count); I8 also boolean
/// masks (MLIR's i1 is stored one byte per element).
enum class DType : int32_t {
  F32 = 0,
  F16 = 1,
  BF16 = 2,
  I32 = 3,
  I64 = 4,
  I8 = 5
};

/// True for the 16-bit floats, which reduce in f32.
inline bool isHalf(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16;
}

/// Reduction of all-reduce and reduce-scatter. Values match the C ABI.
/// f16/bf16 data are converted to f32, reduced in f32 and rounded back once
/// (round to nearest even), so the result does not depend on the reduction
/// order of the backend and is identical on every rank. Integers reduce
/// exactly in their own type (a sum wraps on overflow).
enum class Reduction : int32_t { Sum = 0, Max = 1, Min = 2 };

/// Collective kinds; also the counter categories. Values match the C ABI.
enum class OpKind : int32_t {
  AllGather = 0,
  ReduceScatter = 1,
  AllReduce = 2,
  AllToAll = 3,
  Shift = 4, ///< send/recv on a ring (counted as "send").
};

/// Status codes. Values match SEQPAR_RT_OK... of the C ABI.
enum class StatusCode : int32_t {
  Ok = 0,
  InvalidArgument = 1, ///< a bad shape, dim, pointer, enum or grid.
  NotInitialized = 2,  ///< Runtime::initialize was not called (or failed).
  Backend = 3,         ///< MPI/NCCL/CUDA reported an error.
  Unavailable = 4,     ///< feature not built (e.g. NCCL) or not usable here.
};

/// Result of a runtime call: a code and, on error, a one-line message that
/// names the operation and the offending value.
struct Status {
  StatusCode code = StatusCode::Ok;
  std::string message;
  bool ok() const { return code == StatusCode::Ok; }
  static Status success() { return {}; }
  static Status error(StatusCode code, std::string message) {
    return {code, std::move(message)};
  }
};

/// Bytes of one element of `dtype` (4 for f32, 2 for f16/bf16).
size_t dtypeSize(DType dtype);
/// "f32", "f16", "bf16" (or "invalid").
const char *dtypeName(DType dtype);
/// "sum", "max", "min" (or "invalid").
const char *reductionName(Reduction reduction);
/// "all_gather", "reduce_scatter", "all_reduce", "all_to_all", "send".
const char *opKindName(OpKind kind);

/// Bytes one rank sends for one collective under the ring convention of
/// docs/semantics.md §5 (ring algorithms; Thakur, Rabenseifner and Gropp 2005):
/// with t the group size and `bytes` = N,
///   all-reduce 2N(t-1)/t, all-gather and reduce-scatter N(t-1)/t with N the
///   bytes of the full (gathered / unscattered) tensor, all-to-all N(t-1)/t
///   with N the bytes of the local buffer, shift: N (the local buffer) when
///   the ring moves data, 0 when t == 1 or the offset is a multiple of t.
/// Rounded down to whole bytes when not integral. `bytes` is in the buffer's
/// own dtype (an f16 all-reduce counts 2 bytes per element even though the
/// MPI backend moves f32).
uint64_t ringBytesSent(OpKind kind, uint64_t bytes, int64_t groupSize,
                       int64_t shiftOffset = 1);

/// One collective, fully described. `shape` is the shape of `input`:
/// - AllGather: local shape; output has shape[dim] * t along `dim`.
/// - ReduceScatter: full shape (shape[dim] % t == 0); output is this rank's
///   contiguous block along `dim`, shape[dim] / t.
/// - AllReduce: any shape (dims only give the element count); output same
///   shape; input == output (in place) is allowed.
/// - AllToAll: local shape; `dim` is the split dim (shape[dim] % t == 0),
///   `concatDim` the concat dim: chunk j of the split goes to axis rank j, and
///   the t chunks received are concatenated in axis-rank order along
///   `concatDim` (upstream shard.all_to_all semantics).
/// - Shift: any shape; sends the whole input to axis rank (r + offset) mod t
///   and receives the output from axis rank (r - offset) mod t (cyclic ring;
///   sends and receives are posted together, so it cannot deadlock).
/// Except for in-place AllReduce, input and output must not overlap.
struct CollectiveOp {
  OpKind kind = OpKind::AllReduce;
  DType dtype = DType::F32;
  Reduction reduction = Reduction::Sum;
  const void *input = nullptr;
  void *output = nullptr;
  std::vector<int64_t> shape;
  int32_t dim = 0;
  int32_t concatDim = 0;
  int64_t offset = 1;

  static CollectiveOp allGather(DType dtype, const void *input, void *output,
                                std::vector<int64_t> localShape, int32_t dim);
  static CollectiveOp reduceScatter(DType dtype, Reduction reduction,
                                    const void *input, void *output,
                                    std::vector<int64_t> fullShape,
                                    int32_t dim);
  static CollectiveOp allReduce(DType dtype, Reduction reduction,
                                const void *input, void *output,
                                std::vector<int64_t> shape);
  static CollectiveOp allToAll(DType dtype, const void *input, void *output,
                               std::vector<int64_t> localShape,
                               int32_t splitDim, int32_t concatDim);
  static CollectiveOp shift(DType dtype, const void *input, void *output,
                            std::vector<int64_t> shape, int64_t offset);
};

/// Checks `op` for a group of `groupSize` ranks without communicating, and on
/// success stores the output shape (elements). Every backend calls it first;
/// exposed for tests and for compilers that want to check shapes early.
Status validateCollective(const CollectiveOp &op, int64_t groupSize,
                          std::vector<int64_t> *outputShape = nullptr);

/// Handle of an asynchronous collective. The input must stay unchanged and
/// both buffers alive until wait() returns. Destroying a request that was not
/// waited for waits for it first (buffers are never written after the
/// destructor returns).
class Request {
public:
  virtual ~Request();
  /// Blocks until the collective completed and its output is in place.
  /// A collective that does not complete within the runtime timeout aborts
  /// the job (see Runtime::timeoutSeconds) rather than returning an error.
  /// Errors: Backend (a CUDA error reported while waiting, NCCL only).
  virtual Status wait() = 0;
  /// True once the output is in place (non-blocking).
  virtual bool test() = 0;
  /// Runtime clock (Runtime::now, seconds) when the transfer completed, or a
  /// negative value while it has not completed.
  virtual double completedAt() const = 0;
};

/// Static description of a communicator: the grid it belongs to, the grid
/// axes it spans, and this process's place in it.
struct CommunicatorInfo {
  std::vector<int64_t> gridShape; ///< extents of the device grid
  std::vector<int32_t> axes;      ///< grid axes spanned, in order
  int32_t worldRank = 0;          ///< rank in MPI_COMM_WORLD
  int32_t rank = 0;               ///< rank within this group (axis rank)
  int32_t size = 1;               ///< group size t = prod(gridShape[axes])
  /// "grid=[2,2] axes=[0]".
  std::string label() const;
};

/// A group of ranks that run collectives together; the analogue of MPI_Comm /
/// ncclComm_t (IREE's iree_hal_channel_t). All members must issue the same
/// collectives in the same order: each collective is preceded by an
/// agreement check, and members that call different collectives (kind,
/// dtype, shape, dims, reduction, offset) abort the job with a message that
/// names every member's call. Owned by the Runtime; never delete it.
class Communicator {
public:
  virtual ~Communicator();
  virtual const CommunicatorInfo &info() const = 0;
  /// Rank within the group: the linear index of this process's coordinates
  /// on info().axes (row-major over those axes) - NOT the world rank.
  int32_t rank() const { return info().rank; }
  int32_t size() const { return info().size; }
  /// Validates `op` and starts it; on success `*request` owns the handle.
  /// On error nothing was sent and `*request` is null.
  virtual Status start(const CollectiveOp &op,
                       std::unique_ptr<Request> *request) = 0;
  /// start() then wait(), which a backend may do on the calling thread
  /// (the MPI backend does when nothing else is in flight).
  virtual Status run(const CollectiveOp &op);
};

/// Counter of one (collective kind, communicator). Bytes per ringBytesSent.
struct CollectiveCounter {
  uint64_t calls = 0;
  uint64_t bytesSent = 0;   ///< bytes this rank sent (docs/semantics.md §5)
  double seconds = 0;       ///< start to completion, summed over calls
  double waitSeconds = 0;   ///< time callers were blocked in wait/run
};

/// Counter of one named compute region (regionBegin/regionEnd).
struct RegionCounter {
  uint64_t calls = 0;
  int64_t flops = 0;   ///< FLOPs declared at regionBegin, summed
  double seconds = 0;  ///< begin to end, summed
  /// Time callers were blocked in collectives while the region was open.
  double waitSeconds = 0;
  /// Start-to-completion seconds of the collectives that completed while the
  /// region was open. Of a region around a ring (its transfers started and
  /// waited inside), 1 - waitSeconds / collectiveSeconds is the fraction of
  /// transfer time hidden behind compute.
  double collectiveSeconds = 0;
};

/// Key of a collective counter: kind, grid shape, axes.
using CounterKey = std::tuple<OpKind, std::vector<int64_t>, std::vector<int32_t>>;

/// A copy of this rank's counters.
struct CounterSnapshot {
  int32_t rank = 0;
  std::map<CounterKey, CollectiveCounter> collectives;
  std::map<std::string, RegionCounter> regions;
  int64_t allocCurrentBytes = -1; ///< -1 when seqpar_runtime_alloc is absent
  int64_t allocPeakBytes = -1;
};

/// Default of SEQPAR_COLLECTIVE_TIMEOUT: long enough for any one collective
/// on these machines, short enough that a job whose ranks disagree ends soon.
constexpr double kDefaultTimeoutSeconds = 30;

/// Runtime options; defaults come from the environment.
struct Options {
  /// Seconds a collective may take from start to completion before the job
  /// is aborted. <= 0: read SEQPAR_COLLECTIVE_TIMEOUT (default
  /// kDefaultTimeoutSeconds).
  double timeoutSeconds = 0;
};

/// Process-wide runtime. MPI calls are made by one progress thread that it
/// owns, or by a caller of a blocking collective while nothing else is in
/// flight (see README.md "Progress thread").
class Runtime {
public:
  /// Starts the progress thread and MPI (MPI_Init_thread with
  /// MPI_THREAD_SERIALIZED on that thread, unless the embedder already
  /// initialized MPI with MPI_THREAD_MULTIPLE). Idempotent. Errors:
  /// Backend (MPI init failed), Unavailable (MPI initialized by the embedder
  /// below MPI_THREAD_MULTIPLE).
  static Status initialize(const Options &options = {});
  /// Waits for in-flight collectives, frees communicators, finalizes MPI if
  /// the runtime initialized it. Idempotent. Registered with atexit too.
  /// Every Request must have been waited for (or destroyed) before.
  static Status finalize();
  static bool isInitialized();
  /// The runtime; only valid between initialize() and finalize().
  static Runtime &get();

  int32_t worldRank() const;
  int32_t worldSize() const;
  /// Seconds since initialize() on the steady clock.
  double now() const;

  /// The communicator of the ranks that share this process's coordinates on
  /// every grid axis not in `axes` (row-major rank layout over gridShape, as
  /// upstream shard.process_linear_index). Local: the backend communicator
  /// is made at the first collective on it, which is therefore collective
  /// over the world (every rank makes the first collective of each
  /// (gridShape, axes) pair, in the same order).
  /// Errors (InvalidArgument): prod(gridShape) != world size, an extent < 1,
  /// an axis out of range or repeated, no axes.
  Status communicator(const std::vector<int64_t> &gridShape,
                      const std::vector<int32_t> &axes, Communicator **out);
  /// This process's coordinates in a grid (row-major over world ranks).
  Status processMultiIndex(const std::vector<int64_t> &gridShape,
                           std::vector<int64_t> *index) const;

  /// Barrier over the world (subject to the timeout).
  Status barrier();
  /// Runs `fn` while it owns MPI and waits for it: the way for an embedder
  /// to make its own MPI calls when MPI is not MULTIPLE-threaded. It runs on
  /// the calling thread when nothing else is in flight (without the
  /// timeout then, like any MPI call the embedder makes), else on the
  /// progress thread (subject to the timeout).
  Status runOnMpiThread(const std::function<void()> &fn);

  double timeoutSeconds() const;
  void setTimeoutSeconds(double seconds);
  /// Prints "seqpar runtime: rank R: <message>" to stderr and aborts every
  /// rank (MPI_Abort on MPI_COMM_WORLD with `exitCode`). Does not return.
  [[noreturn]] void abortJob(const std::string &message, int exitCode = 3);

  /// Starts the named compute region, declaring its FLOP count. Regions of
  /// different names may nest; beginning an open name again is an error.
  Status regionBegin(const std::string &name, int64_t flops);
  /// Ends the named region (InvalidArgument if it is not open).
  Status regionEnd(const std::string &name);

  CounterSnapshot counters() const;
  void resetCounters();
  /// Counters of every rank then the aggregate (calls, bytes and FLOPs summed
  /// over ranks; seconds and peak bytes: max over ranks), as text or JSON.
  /// Collective over the world. Rank 0 gets the whole document; other ranks
  /// get their own section only.
  Status countersReport(bool json, std::string *out);

  struct Impl;
  Impl &impl() { return *impl_; }

private:
  Runtime();
  ~Runtime();
  std::unique_ptr<Impl> impl_;
};

} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_RUNTIME_H
