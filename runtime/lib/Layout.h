//===- Layout.h - validation, packing and byte counts -----------*- C++ -*-===//
//
// Backend-independent part of every collective: argument checks, the
// [outer, extent, inner] view of a row-major tensor around one dim, packing of
// a non-leading dim into contiguous per-rank chunks and back, and the SPEC 5
// byte count.
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

/// "[4,8]".
std::string shapeString(const std::vector<int64_t> &shape);
/// One line naming the op, dtype, shapes, dims and bytes (timeout messages).
std::string describe(const CollectiveOp &op, const CommunicatorInfo &info);

/// Steady-clock seconds since the first call in this process.
double monotonicSeconds();

} // namespace detail
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_LIB_LAYOUT_H
