//===- CausalMask.h - is an attention mask the causal mask? -----*- C++ -*-===//

#ifndef SEQPAR_ANALYSIS_CAUSALMASK_H
#define SEQPAR_ANALYSIS_CAUSALMASK_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"

#include <optional>
#include <string>

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

/// A mask that is causality by position with query positions known only at
/// run time (a decode step's: query j at L + j): it hides key k from query
/// row i exactly when k > q(i).
struct RuntimeCausalMask {
  /// The value added to hidden logits; 0 is added to the others.
  double hidden;
  /// q(i) = queryPosition (an expr of the query dim alone) + the sum of
  /// coefficient x value over `runtime`, modulo 2^64. Each value is an index
  /// or i64 scalar, or a 0-d tensor holding one, defined before the mask.
  AffineExpr queryPosition;
  SmallVector<std::pair<Value, int64_t>> runtime;
  /// Whether k and q(i) are compared as signed 64-bit integers (a q(i)
  /// below 0 then hides every key), else unsigned.
  bool isSigned;
};

/// Where `mask` (read as causalMaskValue reads it) is select(compare(key,
/// q), 0, c) with c < 0, the key's position `key` and q an expr of the query
/// dim `query` plus run-time integers (sums in 64 bits, scalars defined
/// outside the ops building the mask, 0-d integer tensors that are not
/// constants): the causal mask at those run-time positions.
/// Otherwise failure and `why`.
FailureOr<RuntimeCausalMask> runtimeCausalMask(Value mask,
                                               ArrayRef<AffineExpr> coords,
                                               AffineExpr query,
                                               AffineExpr key,
                                               ArrayRef<int64_t> dimSizes,
                                               std::string &why);

/// Bounds on every value an additive mask can hold: lo <= x <= hi for each
/// element x, as the program computes it (rounded to its element type,
/// overflowing to +-inf), and never NaN.
struct MaskBounds {
  double lo, hi;
};

/// Bounds on every element of tensor `mask`, found by interval arithmetic
/// through the ops that build it: constants, elementwise linalg bodies
/// (selects, compares, int-to-float casts, add, sub, mul, div), reshapes,
/// broadcasts and slices. An integer argument may hold any value of its
/// type; a float argument, an op not listed or a possible NaN gives
/// nullopt. A causal select followed or preceded by a padding mask is the
/// causal flag plus that mask only for some masks' values
/// (docs/semantics.md §4.5), which is what this is for.
std::optional<MaskBounds> maskBounds(Value mask);

/// Bounds on scalar `value` computed in `op`'s body (its inputs read as
/// maskBounds reads tensors).
std::optional<MaskBounds> maskBounds(Value value, linalg::LinalgOp op);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_CAUSALMASK_H
