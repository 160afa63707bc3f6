//===- TripCount.cpp - how often an op runs in its loops ------------------===//

#include "seqpar/Analysis/TripCount.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

/// `trips`, upstream's static count of `loop`, as an int64; nullopt when it
/// does not fit or wrapped.
static std::optional<int64_t> toInt64(scf::ForOp loop, const APInt &trips) {
  // Upstream computes ub - lb in the bounds' width: a range wider than that
  // wraps and counts 0 (INT64_MIN to INT64_MAX), though the loop runs.
  APInt lb, ub;
  if (trips.isZero() &&
      matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) &&
      matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) &&
      (loop.getUnsignedCmp() ? lb.ult(ub) : lb.slt(ub)))
    return std::nullopt;
  if (trips.getActiveBits() > 63)
    return std::nullopt;
  return static_cast<int64_t>(trips.getZExtValue());
}

std::optional<int64_t> mlir::seqpar::getStaticTripCount(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  return trips ? toInt64(loop, *trips) : std::nullopt;
}

std::optional<int64_t> mlir::seqpar::getTripCountAround(Operation *op) {
  std::optional<int64_t> count = 1;
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop && count;
       loop = loop->getParentOfType<scf::ForOp>()) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    // A count that is not static counts once.
    if (!trips)
      continue;
    std::optional<int64_t> fits = toInt64(loop, *trips);
    count = fits ? llvm::checkedMul(*count, *fits) : std::nullopt;
  }
  return count;
}
