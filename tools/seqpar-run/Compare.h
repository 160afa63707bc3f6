//===- Compare.h - outputs against the reference and replicas ---*- C++ -*-===//
//
// How seqpar-run judges values (docs/semantics.md, section 1; docs/
// runtime-and-run.md, section 5): err = max|got - want| / max(1, max|want|)
// over the finite pairs, NaN and Inf compared by position, each output
// against the single-device reference's, and every replica exactly against
// its representative.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TOOLS_SEQPAR_RUN_COMPARE_H
#define SEQPAR_TOOLS_SEQPAR_RUN_COMPARE_H

#include "Npy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace seqpar::run {

/// Element-wise comparison with an expected value: err = max|got - want| /
/// max(1, max|want|) over the finite pairs. A NaN equals a NaN, an Inf the
/// Inf of the same sign; any other pair with a NaN or an Inf is a mismatch,
/// and makes err infinite.
class Comparison {
public:
  /// Element `index` (row-major in the global shape) is `got`, expected
  /// `want`.
  void add(int64_t index, double got, double want);
  double err() const;
  /// Every element equal (NaN = NaN).
  bool exact() const { return mismatches_ == 0 && maxDiff_ == 0; }
  /// Where the values differ: the first NaN/Inf mismatch and the largest
  /// difference, each with both values ("" when nothing differs). `shape`
  /// is the shape the indices are row-major in.
  std::string differences(llvm::ArrayRef<int64_t> shape,
                          llvm::StringRef other) const;
  /// "N NaN/Inf elements equal to <other>'s" ("" when none).
  std::string equalNonFinite(llvm::StringRef other) const;

private:
  struct Sample {
    int64_t index = -1;
    double got = 0, want = 0;
  };
  double maxDiff_ = 0, maxWant_ = 0;
  Sample worst_, firstMismatch_;
  int64_t mismatches_ = 0, equalNonFinite_ = 0;
};

/// The error bound of an output of element type `dtype` when --tol is not
/// given: 1e-5 for f32, 2e-2 for f16/bf16, 0 for integers.
double defaultTolerance(npy::DType dtype);

/// Compares each output with the reference's and prints one line per output
/// (`output k: f32 [2,16] err = 2.2e-08 (tol 1e-05): ok`, a failing one
/// saying where the values differ); `tolerance` replaces the per-type
/// default. An f32 reference may stand for f16/bf16 outputs. Fails the job
/// when an output's shape or element type differs from the reference's.
/// Returns true when every output passes.
bool compareOutputs(const std::vector<npy::Array> &outputs,
                    const std::vector<npy::Array> &reference,
                    std::optional<double> tolerance);

/// The replica check: "" when `comparison` (rank `rank`'s piece of an output
/// against its representative `representative`'s) is exact, else what
/// differs, with indices in `globalShape`.
std::string describeReplicaMismatch(const Comparison &comparison, int rank,
                                    int representative,
                                    llvm::ArrayRef<int64_t> globalShape);

} // namespace seqpar::run

#endif // SEQPAR_TOOLS_SEQPAR_RUN_COMPARE_H
