//===- ElementTrace.h - follow one element back through data movement ---*-===//
//
// Matchers of attention and of causal masks ask "where does element (c0, ..)
// of this tensor come from?". Reshapes, broadcasts, transposes and copy
// generics (tosa.tile after tosa-to-linalg) only move elements: following the
// element's coordinates back through them, as affine expressions of the
// caller's dims, finds the tensor that holds it, whatever layout the exporter
// chose for the values in between.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_ELEMENTTRACE_H
#define SEQPAR_ANALYSIS_ELEMENTTRACE_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::seqpar {

/// One tensor on the way back and the coordinates of the element in it.
struct TracedElement {
  Value value;
  SmallVector<AffineExpr> coords;
};

/// The element of `v` at `coords` (affine expressions of `numDims` dims),
/// followed back through tensor.expand_shape, tensor.collapse_shape (static
/// shapes), tensor.extract_slice (unit strides), linalg.broadcast,
/// linalg.transpose, tensor.concat of copies of one tensor and
/// tensor.insert_slice chains writing copies of one tensor side by side
/// into a tensor.empty (coordinate modulo the copy's size), copy generics
/// (permutation output map, no reductions, the body yields an input, also
/// plus 0 or times 1 from a splat input: x + zeros broadcasts) and gathers
/// (the body yields tensor.extract of a captured tensor at indices computed
/// from linalg.index by integer arithmetic, or read from a constant index
/// list of c, c floordiv q or c mod q). Returns every tensor on the way,
/// `v` first; coordinates are simplified. A slice's dynamic offset becomes
/// symbol s0, "unknown": coordinates holding it equal nothing (sameExpr),
/// though a later broadcast may drop them.
SmallVector<TracedElement> traceElement(Value v, ArrayRef<AffineExpr> coords,
                                        unsigned numDims);

/// The value behind `v` through casts between index and integers of at least
/// 32 bits (index_cast, extsi, extui, trunci): they keep the small values
/// positions, token ids and head numbers are. A narrower integer stops it.
Value skipWideIntegerCasts(Value v);

/// True when `e` holds the unknown symbol.
bool hasUnknown(AffineExpr e);

/// Calls `visit` with the dims' values (constant exprs; dims no expr in
/// `exprs` uses stay 0) at every point of the dims `exprs` use, dim d over
/// [0, dimSizes[d]). False without visiting when there are more than
/// `limit` points or a used dim has no static size; false as soon as
/// `visit` returns false.
bool forEachPoint(ArrayRef<AffineExpr> exprs, ArrayRef<int64_t> dimSizes,
                  int64_t limit,
                  function_ref<bool(ArrayRef<AffineExpr> at)> visit);

/// `e` with its dims replaced by `at`, when that is a constant.
std::optional<int64_t> evaluateAt(AffineExpr e, ArrayRef<AffineExpr> at);

/// a - b as one integer for every value of the dims, dim d ranging over
/// [0, dimSizes[d]), else nullopt (an unknown symbol in either, or a - b
/// that varies): proven by simplifying a - b, else by evaluating it over
/// the dims it still uses when there are at most 2^20 points (floordiv/mod
/// arrangements the simplifier does not cancel).
std::optional<int64_t> constantDifference(AffineExpr a, AffineExpr b,
                                          ArrayRef<int64_t> dimSizes);

/// `a` and `b` are equal for every value of the dims: constantDifference
/// is 0.
bool sameExpr(AffineExpr a, AffineExpr b, ArrayRef<int64_t> dimSizes);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_ELEMENTTRACE_H
