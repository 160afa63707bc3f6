//===- DropoutMatch.h - dropout of attention probabilities ------*- C++ -*-===//
//
// Attention-probability dropout as exporters write it: P' = P * m with m
// 0 or 1/(1-p) per element, applied by elementwise ops between the softmax
// and P.V (select(keep, P * 1/(1-p), 0), P * mask * scale, ...), and in the
// backward to dO . V^T before the softmax backward. peelDropout finds the
// factors between a value and the softmax (or dP) it scales;
// buildDropoutFunction proves them functions of the element's (batch, head,
// query, key) only and writes them as a seqpar.attention dropout region
// (IndexFunction.h; docs/semantics.md §4.8).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_DROPOUTMATCH_H
#define SEQPAR_ANALYSIS_DROPOUTMATCH_H

#include "seqpar/Analysis/IndexFunction.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::seqpar {

/// v = base * scale * prod(factors), zero where a condition drops the
/// element: what peelDropout finds at one element of v.
struct PeeledDropout {
  /// One factor: `value` in the body of `op` (an elementwise generic) with
  /// its loops at `loops`; a float factor, or an i1 condition keeping the
  /// element where it is true (`keepWhenTrue`) or false. Or a seqpar.dropout
  /// `dropout`'s keep bit at its element `loops` (its 1/(1-rate) is in
  /// `scale`).
  struct Term {
    linalg::LinalgOp op;
    Value value;
    SmallVector<AffineExpr> loops;
    bool isCondition = false;
    bool keepWhenTrue = true;
    Operation *dropout = nullptr;
  };
  Value base;
  SmallVector<AffineExpr> baseCoords;
  /// True when the value is the base itself (no op between them).
  bool isIdentity() const { return ops.empty(); }
  /// Nearest the base first.
  SmallVector<Term> terms;
  /// The elementwise ops from the base to the value, nearest the base
  /// first.
  SmallVector<Operation *> ops;
  /// The product of the constant factors.
  double scale = 1.0;
};

/// The element `coords` of `v` (affine expressions of `numDims` dims of
/// extents `sizes`) as a chain of elementwise ops ending at an element for
/// which `isBase(value, coords)` holds (itself when it does, with no
/// terms): each op's body multiplies its one input that leads to the base by
/// constants and by values of its other inputs or positions, or selects it
/// against a constant 0, or the op is a seqpar.dropout; data movement in
/// between is followed. Fails
/// otherwise (not even the form; whether the factors are positions only is
/// buildDropoutFunction's question).
FailureOr<PeeledDropout>
peelDropout(Value v, ArrayRef<AffineExpr> coords, ArrayRef<int64_t> sizes,
            function_ref<bool(Value, ArrayRef<AffineExpr>)> isBase);

/// The multiplier m of `peeled` (elements of `elementType`) as the body of
/// an attention dropout region: select(conditions, scale * factors, 0),
/// each factor emitted by IndexFunctionBuilder (`toRegion`, `sizes` and
/// `regionSizes` are its). Empty with `why` set when a factor is not a
/// function of the coordinates.
IndexFunction buildDropoutFunction(const PeeledDropout &peeled,
                                   Type elementType,
                                   ArrayRef<AffineExpr> toRegion,
                                   ArrayRef<int64_t> sizes,
                                   ArrayRef<int64_t> regionSizes, Location loc,
                                   std::string &why);

/// True when a factor of `peeled` is computed, through any ops, from a
/// reduction or contraction: P times data (the backward's dS), not a mask.
bool readsReduction(const PeeledDropout &peeled);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_DROPOUTMATCH_H
