//===- Contraction.h - plain multiply-accumulate contractions ---*- C++ -*-===//
//
// upstream's isaContractionOpInterface accepts bodies that transform the
// accumulator (yield tanh(out) + a * b): such an op is not a matmul, its
// partial sums over a split reduction do not add up, and BLAS would compute
// something else. seqpar treats as a matmul only out + a * b. A reduction
// computed in parts (over a split or sharded loop) combines its partial
// results by its combiner: getReductionCombiner says which one.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_CONTRACTION_H
#define SEQPAR_ANALYSIS_CONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"

#include <optional>

namespace mlir::seqpar {

/// True when `op` is a contraction (upstream's isaContractionOpInterface)
/// whose body is exactly out + in0 * in1 (either operand order, float or
/// integer), with no other computation.
bool isPlainContraction(linalg::LinalgOp op);

/// isPlainContraction, or the mixed-precision form out + extf(in0) *
/// extf(in1) (either extension may be absent): a bf16 or f16 linear that
/// accumulates in f32. Partial sums of it over a split reduction add up as
/// a plain one's do; it is not a BLAS sgemm (its inputs are not f32).
bool isLinearContraction(linalg::LinalgOp op);

/// The cross-rank combiner of a single-result linalg reduction whose body
/// yields `combine(out, f(ins))` with `out` used only there: sum for
/// addf/addi, max for maximumf/maxnumf/maxsi, min for minimumf/minnumf/minsi.
/// Partial results of such an op over parts of a reduction loop combine to
/// the whole one by that collective (a sum counts its init once per part).
/// std::nullopt for any other body.
std::optional<shard::ReductionKind> getReductionCombiner(linalg::LinalgOp op);

/// True when `init` is all zeros: a linalg.fill of a zero constant (float
/// or integer) or a zero splat constant, possibly through tensor.cast. A sum computed in parts from such
/// an init counts it once.
bool isZeroInit(Value init);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_CONTRACTION_H
