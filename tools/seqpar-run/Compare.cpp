//===- Compare.cpp - outputs against the reference and replicas -----------===//

#include "Compare.h"
#include "Job.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <cstdio>

namespace seqpar::run {

void Comparison::add(int64_t index, double got, double want) {
  if (std::isfinite(got) && std::isfinite(want)) {
    double diff = std::fabs(got - want);
    if (diff > maxDiff_) {
      maxDiff_ = diff;
      worst_ = {index, got, want};
    }
    maxWant_ = std::max(maxWant_, std::fabs(want));
    return;
  }
  if ((std::isnan(got) && std::isnan(want)) || got == want) {
    ++equalNonFinite_;
    return;
  }
  if (mismatches_++ == 0)
    firstMismatch_ = {index, got, want};
  if (std::isfinite(want))
    maxWant_ = std::max(maxWant_, std::fabs(want));
}

double Comparison::err() const {
  return mismatches_ ? INFINITY : maxDiff_ / std::max(1.0, maxWant_);
}

/// "[i,j,k]": the row-major index of element `linear` of `shape`.
static std::string indexString(int64_t linear, llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return shapeString(index);
}

std::string Comparison::differences(llvm::ArrayRef<int64_t> shape,
                                    llvm::StringRef other) const {
  std::string out;
  auto at = [&](const Sample &x) {
    return " at " + indexString(x.index, shape) + ": " + valueString(x.got) +
           " where " + other.str() + " has " + valueString(x.want);
  };
  if (mismatches_)
    out = std::to_string(mismatches_) + " NaN/Inf element" +
          (mismatches_ == 1 ? "" : "s") + " not equal to " + other.str() +
          "'s, first" + at(firstMismatch_);
  if (maxDiff_ > 0)
    out += (out.empty() ? "" : "; ") + std::string("largest difference") +
           at(worst_);
  return out;
}

std::string Comparison::equalNonFinite(llvm::StringRef other) const {
  if (!equalNonFinite_)
    return "";
  return std::to_string(equalNonFinite_) + " NaN/Inf element" +
         (equalNonFinite_ == 1 ? "" : "s") + " equal to " + other.str() + "'s";
}

double defaultTolerance(npy::DType dtype) {
  return dtype == npy::DType::F32                                 ? 1e-5
         : (dtype == npy::DType::I32 || dtype == npy::DType::I64) ? 0
                                                                  : 2e-2;
}

bool compareOutputs(const std::vector<npy::Array> &outputs,
                    const std::vector<npy::Array> &reference,
                    std::optional<double> tolerance) {
  bool ok = true;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const npy::Array &out = outputs[k], &want = reference[k];
    bool widened = want.dtype == npy::DType::F32 && npy::isHalf(out.dtype);
    if (out.shape != want.shape || (out.dtype != want.dtype && !widened))
      fail("output " + std::to_string(k) + ": the program gives " +
           npy::dtypeName(out.dtype) + " " + shapeString(out.shape) +
           ", the reference " + npy::dtypeName(want.dtype) + " " +
           shapeString(want.shape));
    Comparison comparison;
    for (int64_t i = 0, e = out.numElements(); i < e; ++i)
      comparison.add(i, npy::getElement(out, i), npy::getElement(want, i));
    double err = comparison.err();
    double tol = tolerance ? *tolerance : defaultTolerance(out.dtype);
    bool pass = err <= tol;
    ok &= pass;
    std::string detail;
    if (!pass)
      detail = ": " + comparison.differences(out.shape, "the reference");
    else if (std::string equal = comparison.equalNonFinite("the reference");
             !equal.empty())
      detail = " (" + equal + ")";
    std::printf("output %zu: %s %s err = %.3g (tol %.0e): %s%s\n", k,
                npy::dtypeName(out.dtype), shapeString(out.shape).c_str(), err,
                tol, pass ? "ok" : "FAIL", detail.c_str());
  }
  std::fflush(stdout);
  return ok;
}

std::string describeReplicaMismatch(const Comparison &comparison, int rank,
                                    int representative,
                                    llvm::ArrayRef<int64_t> globalShape) {
  if (comparison.exact())
    return "";
  char err[32];
  std::snprintf(err, sizeof err, "%.3g", comparison.err());
  std::string other = "rank " + std::to_string(representative);
  return "rank " + std::to_string(rank) + " and " + other +
         " hold replicas of it but differ (err = " + err +
         "): " + comparison.differences(globalShape, other);
}

} // namespace seqpar::run
