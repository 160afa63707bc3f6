//===- TripCount.h - how often an op runs in its loops ----------*- C++ -*-===//
//
// The one home of the static trip counts that per-call figures are
// multiplied by: seqpar-report's bytes, FLOPs and forward peak
// (docs/report.md) and the sequence-parallel summary's bytes of the
// all-reduces it keeps in loops (docs/sequence-parallel.md) count what runs
// inside an scf.for once per iteration, as the runtime's counters do.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_TRIPCOUNT_H
#define SEQPAR_ANALYSIS_TRIPCOUNT_H

#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
namespace scf {
class ForOp;
} // namespace scf
} // namespace mlir

namespace mlir::seqpar {

/// Iterations of `loop` when its bounds and step are constants (upstream's
/// scf::ForOp::getStaticTripCount, signed or unsigned as the loop compares:
/// 0 when the upper bound is not above the lower one); nullopt when they
/// are not constants or the count does not fit in int64 (nor in the
/// bounds' width).
std::optional<int64_t> getStaticTripCount(scf::ForOp loop);

/// Iterations of the scf.for loops around `op`: the product of their
/// getStaticTripCount (a loop whose count is not static counts once); 1
/// outside loops; nullopt when the product does not fit in int64.
std::optional<int64_t> getTripCountAround(Operation *op);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_TRIPCOUNT_H
