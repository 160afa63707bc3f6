//===- Layout.h - validation, packing and byte counts -----------*- C++ -*-===//
//
// Backend-independent part of every collective: argument checks, the
// [outer, extent, inner] view of a row-major tensor around one dim, packing of
// a non-leading dim into contiguous per-rank chunks and back, and the
// docs/semantics.md §5 byte count.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_LIB_LAYOUT_H
#define SEQPAR_RUNTIME_LIB_LAYOUT_H

#include "seqpar/runtime/Runtime.h"

namespace seqpar {
namespace rt {
namespace detail {

/// A validated collective. A row-major tensor viewed around dim d is
/// [outer = prod(shape[:d]), extent = shape[d], inner = prod(shape[d+1:])].
struct Geometry {
  std::vector<int64_t> outputShape;
  int64_t inputElems = 0;
  int64_t outputElems = 0;
  /// View of the input around `dim` (AllGather: local, ReduceScatter: full,
  /// AllToAll: split dim).
  int64_t outer = 1, extent = 1, inner = 1;
  /// AllToAll: view of one received chunk around `concatDim`.
  int64_t chunkOuter = 1, chunkExtent = 1, chunkInner = 1;
  /// Elements of one per-rank chunk (AllGather: the local input,
  /// ReduceScatter: the output, AllToAll: one split chunk).
  int64_t chunkElems = 0;
  /// Shift: offset reduced to [0, t).
  int64_t shift = 0;
  uint64_t bytesSent = 0;
};

/// Full validation (see validateCollective in Runtime.h) plus the geometry.
Status validate(const CollectiveOp &op, int64_t groupSize, Geometry *geo);

/// dst[j][o][k][i] = src[o][j*m + k][i] for j < t, m = extent / t: the t
/// chunks of `src` along the middle dim, each made contiguous.
void splitPack(const void *src, void *dst, int64_t outer, int64_t extent,
               int64_t inner, int64_t t, size_t elemSize);

/// dst[o][j*m + k][i] = src[j][o][k][i]: t contiguous chunks of shape
/// [outer, m, inner] concatenated along the middle dim.
void concatUnpack(const void *src, void *dst, int64_t outer, int64_t m,
                  int64_t inner, int64_t t, size_t elemSize);

/// Widens n elements of `dtype` to f32 / narrows f32 to `dtype` (RNE).
void toF32(DType dtype, const void *src, float *dst, int64_t n);
void fromF32(DType dtype, const float *src, void *dst, int64_t n);

/// out[i] = c_0[i] op c_1[i] op ... op c_{t-1}[i] for i < n: the t
/// contiguous chunks `chunks` of n elements of `dtype` (not f16/bf16, which
/// reduce widened to f32) reduced in chunk (rank) order, so every rank
/// reduces its block in the same order. Max and min of floats propagate NaN
/// (arith.maximumf / minimumf); integer sums wrap. `out` may be the first
/// chunk.
void reduceChunks(DType dtype, Reduction reduction, const void *chunks,
                  int64_t t, int64_t n, void *out);

/// "[4,8]".
std::string shapeString(const std::vector<int64_t> &shape);
/// One line naming the op, dtype, shapes, dims and bytes (timeout messages).
std::string describe(const CollectiveOp &op, const CommunicatorInfo &info);

/// Steady-clock seconds since the first call in this process.
double monotonicSeconds();

/// Pause between polls of something that has not completed (README "Polling
/// policy"): after reset(), poll without pausing for the first
/// kSpinSeconds (what MPI's own blocking calls do; a yield there would hand
/// a loaded core to another process for a whole time slice), then sleep 1/16
/// of the time since reset, at most 1 ms. The sleep grows exponentially, a
/// rank that waits for long polls about once per millisecond, and an
/// operation that completes while the thread sleeps is seen at most ~1/16
/// later. Time a poll spends working inside MPI (a large message copied in
/// one MPI_Test call) is not waiting: exclude() it.
class Backoff {
public:
  static constexpr double kSpinSeconds = 1e-3;
  void reset() { since_ = monotonicSeconds(); }
  /// Counts `seconds` (spent inside a poll) as not waited.
  void exclude(double seconds) { since_ += seconds; }
  /// Seconds to sleep before the next poll; 0: poll again at once.
  double next() const;
  /// Sleeps for next() (returns at once while spinning).
  void pause() const;

private:
  double since_ = monotonicSeconds();
};

/// Internal kinds of the agreement check (not collectives of the C ABI).
enum class ControlKind : int64_t {
  Barrier = 100,
  CounterGather = 101,
  CreateCommunicator = 102,
  NcclInit = 103,
};

/// What every member of a communicator contributes to the agreement check
/// that precedes each of its collectives (README "Agreement check"): the call
/// number, the kind and every argument that must agree across the group.
/// Fixed size, so the check itself always matches whatever the ranks call.
struct OpSignature {
  static constexpr int kWords = 17;
  /// Words 14-16 (sender's world rank, a note for messages, the sender's
  /// execution mode) are not compared.
  static constexpr int kComparedWords = 14;
  static constexpr int kModeWord = 16;
  int64_t words[kWords] = {};
  int64_t sequence() const { return words[0]; }
  int64_t senderWorldRank() const { return words[kComparedWords]; }
  void setSequence(int64_t s) { words[0] = s; }
  /// Set by a sender that runs the collective on its calling thread with
  /// nothing else in flight; when every member is, they all use the
  /// blocking MPI call (blocking and nonblocking collectives do not match
  /// in MPI, so the choice must be the group's, README "Progress thread").
  bool onCallingThread() const { return words[kModeWord] != 0; }
  void setOnCallingThread(bool on) { words[kModeWord] = on; }
  bool agreesWith(const OpSignature &other) const;
};

/// Signature of a collective (sequence 0; the engine numbers calls).
OpSignature signatureOf(const CollectiveOp &op, int32_t worldRank);
/// Signature of an internal operation; CreateCommunicator names the grid,
/// the axes and the kind of the collective that needs the communicator.
OpSignature controlSignature(ControlKind kind, int32_t worldRank,
                             const std::vector<int64_t> &grid = {},
                             const std::vector<int32_t> &axes = {},
                             OpKind forOp = OpKind::AllGather);
/// "all_gather f32 [4,8] dim 1", "barrier", "creating the communicator of
/// grid=[2] axes=[0] (for all_gather)".
std::string describeSignature(const OpSignature &signature);

} // namespace detail
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_LIB_LAYOUT_H
