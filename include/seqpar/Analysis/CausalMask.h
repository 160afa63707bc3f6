//===- CausalMask.h - is an attention mask the causal mask? -----*- C++ -*-===//

#ifndef SEQPAR_ANALYSIS_CAUSALMASK_H
#define SEQPAR_ANALYSIS_CAUSALMASK_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"

#include <optional>

namespace mlir::seqpar {

/// Where an additive mask is the causal mask, the value it adds to hidden
/// logits (the largest of them when they differ; -inf for -inf).
///
/// `coords` are the mask element read for logit (query, key), as affine
/// expressions of dims with sizes `dimSizes`; `query` and `key` are the
/// position exprs. The element is evaluated symbolically through the ops
/// that build it (linalg.index iotas, comparisons, selects, constants,
/// reshapes and broadcasts; exporters' constant tables are read element by
/// element, up to 2^22 of them). It must be 0 where key <= query and a
/// negative number elsewhere; anything else (an argument, data-dependent
/// values) gives nullopt. Whether that negative number hides the logit as
/// -inf does is the caller's decision.
std::optional<double> causalMaskValue(Value mask, ArrayRef<AffineExpr> coords,
                                      AffineExpr query, AffineExpr key,
                                      ArrayRef<int64_t> dimSizes);

/// For a condition `cond` computed in `op`'s body whose loops are at `loops`
/// (exprs of the dims of `dimSizes`): true when it is key <= query (written
/// either way round, signed or not), false when it is key > query, nullopt
/// when it is neither.
std::optional<bool> causalCondition(Value cond, linalg::LinalgOp op,
                                    ArrayRef<AffineExpr> loops,
                                    AffineExpr query, AffineExpr key,
                                    ArrayRef<int64_t> dimSizes);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_CAUSALMASK_H
