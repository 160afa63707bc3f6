//===- ByteCounts.h - element sizes, bytes sent per collective -*- C++ -*-===//
//
// The one compiler-side home of two figures (docs/semantics.md §5): the bytes
// of an element and of a static tensor, and the bytes one rank sends for one
// collective under the ring convention. Pass remarks and statistics,
// seqpar-report and seqpar-plan-auto count with these; the runtime, which
// builds without MLIR, keeps its own copy (ringBytesSent in
// runtime/include/seqpar/runtime/Runtime.h) and a test pins the two
// together (test/Unit/ByteCountsTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_BYTECOUNTS_H
#define SEQPAR_ANALYSIS_BYTECOUNTS_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace mlir::seqpar {

/// Bytes of one element of `type`: ceil(bits / 8) for integers and floats
/// (an i1 takes a byte, as in memory), 8 for index and anything else (a
/// 64-bit word).
int64_t getElementBytes(Type type);

/// The product of `factors` (element counts, FLOP factors), nullopt when
/// it does not fit in int64.
std::optional<int64_t> checkedProduct(ArrayRef<int64_t> factors);

/// Bytes of a static ranked tensor or memref (elements x getElementBytes),
/// 0 when dynamic, unranked or not shaped, and nullopt when the count does
/// not fit in int64.
std::optional<int64_t> checkedBytes(Type type);

/// The collectives whose bytes are counted (the async forms count as the
/// blocking ones).
enum class CollectiveKind {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Shift
};

/// The name seqpar-report and seqpar-run's counters give `kind`:
/// "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send".
const char *getCollectiveKindName(CollectiveKind kind);

/// Bytes one rank sends for a collective over `groupSize` (t) ranks, with
/// `bytes` = N as the runtime's counters take it: all-reduce 2N(t-1)/t,
/// all-gather and reduce-scatter N(t-1)/t with N the full (gathered /
/// unscattered) tensor, all-to-all N(t-1)/t with N the local buffer, a ring
/// shift N (the local buffer), or 0 when t <= 1 or `shiftOffset` is a
/// multiple of t. Rounded down to whole bytes; nullopt when the figure does
/// not fit in int64.
std::optional<int64_t> getBytesSent(CollectiveKind kind, int64_t bytes,
                                    int64_t groupSize, int64_t shiftOffset = 1);

/// getBytesSent for N = checkedBytes(`type`), saturated at INT64_MAX (the
/// transforms' remarks and statistics, on static tensors).
int64_t getBytesSent(CollectiveKind kind, Type type, int64_t groupSize,
                     int64_t shiftOffset = 1);

/// getBytesSent on real numbers, for estimates whose N is not a whole
/// tensor (seqpar-plan-auto's per-layer model): not rounded; 0 when t <= 1.
/// A ring shift is taken to move data.
double estimateBytesSent(CollectiveKind kind, double bytes, double groupSize);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_BYTECOUNTS_H
