//===- Contraction.h - plain multiply-accumulate contractions ---*- C++ -*-===//
//
// upstream's isaContractionOpInterface accepts bodies that transform the
// accumulator (yield tanh(out) + a * b): such an op is not a matmul, its
// partial sums over a split reduction do not add up, and BLAS would compute
// something else. seqpar treats as a matmul only out + a * b.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_CONTRACTION_H
#define SEQPAR_ANALYSIS_CONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::seqpar {

/// True when `op` is a contraction (upstream's isaContractionOpInterface)
/// whose body is exactly out + in0 * in1 (either operand order, float or
/// integer), with no other computation.
bool isPlainContraction(linalg::LinalgOp op);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_CONTRACTION_H
