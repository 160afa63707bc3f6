//===- CausalMask.h - is an additive mask the causal mask? ------*- C++ -*-===//

#ifndef SEQPAR_LIB_TRANSFORMS_CAUSALMASK_H
#define SEQPAR_LIB_TRANSFORMS_CAUSALMASK_H

#include "mlir/IR/Value.h"

namespace mlir::seqpar {

/// True when the rank-4 additive attention mask `mask` ([b|1, a|1, s, t]) is
/// provably the causal mask: element [.., i, j] is 0 when j <= i and a large
/// negative number (<= -1e30, or -inf) otherwise. Proven by evaluating the
/// ops that build it symbolically in the mask's coordinates (exporters build
/// it from linalg.index iotas, comparisons, broadcasts, reshapes and a
/// select); anything else (an argument, data-dependent values) is not.
bool isCausalMask(Value mask);

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_CAUSALMASK_H
