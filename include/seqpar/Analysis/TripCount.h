//===- TripCount.h - how often an op runs in its loops ----------*- C++ -*-===//
//
// The one home of the static trip count that per-call figures are multiplied
// by: seqpar-report's bytes and FLOPs (docs/report.md) and the
// sequence-parallel summary's bytes of the all-reduces it keeps in loops
// (docs/sequence-parallel.md) count a collective or a contraction inside an
// scf.for once per iteration, as the runtime's counters do.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_TRIPCOUNT_H
#define SEQPAR_ANALYSIS_TRIPCOUNT_H

#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::seqpar {

/// Iterations of the scf.for loops around `op`: the product of each loop's
/// ceil((ub - lb) / step) where its bounds and step are constants (a loop
/// whose count is not static, or not positive, counts once); 1 outside
/// loops; nullopt when the product does not fit in int64.
std::optional<int64_t> getTripCountAround(Operation *op);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_TRIPCOUNT_H
