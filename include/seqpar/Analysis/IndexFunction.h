//===- IndexFunction.h - an element as a function of its indices -*- C++ -*-===//
//
// Position-keyed dropout (docs/semantics.md §4.8) is written by exporters as
// tensors: iotas from linalg.index, broadcasts and reshapes, elementwise
// integer and float arithmetic (a splitmix or Philox hash of the element's
// linear index), a comparison. Proving that such a value depends on nothing
// but the element's coordinates, and rewriting it as a scalar function of
// them, is what lets every block of a distributed attention evaluate the
// mask at its own global coordinates. IndexFunctionBuilder does both at
// once: it emits, into a block whose arguments are the coordinates, the
// scalar ops that compute one element, and fails (saying why) on anything
// that is not a function of the coordinates: a function argument, a value
// read from memory or computed from the data (a reduction, a contraction),
// an op with regions or side effects (a random generator).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_INDEXFUNCTION_H
#define SEQPAR_ANALYSIS_INDEXFUNCTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::seqpar {

/// Emits elements of tensors as scalar functions of four coordinates
/// (batch, global head, query, key), the arguments of `body` (index).
///
/// Elements are named by affine expressions of the caller's dims (a
/// matcher's index space); `toRegion` maps each of those dims to an
/// expression of the four region dims (B, Hl, I, J), Hl the *local* head
/// (a TP rank's head h; a null entry: a dim the function must not read).
/// `linalg.index` of a generic becomes the coordinate expression of its
/// loop. A TP rank's position along its split heads is the local index plus
/// the rank's offset (a value computed from shard.process_*_index, the one
/// symbol s0 allowed, valuesOverRanks in AttentionMatch.h): Hl = H - O(s0),
/// H the region's global head argument, and every index the function reads
/// must cancel s0 that way (the head offset O is fixed by the first one).
/// With one local head (Hl's extent 1) Hl is read as 0, and as the head
/// next to s0 where an index reads s0: TP's flattened b * 1 + Hl may scale
/// it by anything, or fold it away.
/// A slice at that offset (TP's slice of a mask computed for all heads) is
/// followed the same way; two offset values equal on every rank are one.
/// `regionSizes` are the extents of (B, Hl, I, J) and of the head dim,
/// which simplify b * a + h floordiv a to b.
class IndexFunctionBuilder {
public:
  IndexFunctionBuilder(Block *body, ArrayRef<AffineExpr> toRegion,
                       ArrayRef<int64_t> dimSizes,
                       ArrayRef<int64_t> regionSizes);

  /// The element of tensor `v` at `coords` (affine expressions of the
  /// caller's dims), emitted at the end of the body; null with why() set.
  Value element(Value v, ArrayRef<AffineExpr> coords);
  /// The scalar `x` of `op`'s body (its block arguments, its ops, values it
  /// captures) with the loops at `loops` (caller's dims); null with why().
  Value bodyValue(linalg::LinalgOp op, Value x, ArrayRef<AffineExpr> loops);

  /// The index `e` (an affine expression of the caller's dims) emitted at
  /// the end of the body; null with why().
  Value position(AffineExpr e);
  /// A constant of `type` emitted into the body.
  Value constant(TypedAttr value);
  OpBuilder &getBuilder() { return builder; }

  /// The rank-dependent value s0 the function's head reads (null: none) and
  /// the head offset O as an expression of symbol s0.
  Value getOffsetSymbol() const { return offsetSymbol; }
  AffineExpr getHeadOffset() const { return headOffset; }
  const std::string &why() const { return reason; }

private:
  /// An index-typed body value as an affine expression of (B, Hl, I, J) and
  /// s0, when it is one.
  std::optional<AffineExpr> indexExpr(linalg::LinalgOp op, Value x,
                                      ArrayRef<AffineExpr> loops, int depth);
  /// `e` (of B, Hl, I, J, s0) computed from the region's arguments.
  Value materialize(AffineExpr e);
  Value emitExpr(AffineExpr e);
  Value fail(const Twine &why);

  Block *body;
  OpBuilder builder;
  SmallVector<AffineExpr> toRegion;
  SmallVector<int64_t> dimSizes, regionSizes;
  Value offsetSymbol;
  AffineExpr headOffset;
  std::string reason;
  /// Set once an index read the local head without the rank's offset.
  bool usedLocalHead = false;
  int64_t emitted = 0;
  /// (value or op, coordinates) -> emitted scalar.
  std::map<std::pair<const void *, std::vector<const void *>>, Value> memo;
  std::map<const void *, Value> constants, exprs;
};

/// A position-keyed function built by IndexFunctionBuilder, with the body
/// it was emitted into (one block of four index arguments; the caller adds
/// the terminator).
struct IndexFunction {
  std::shared_ptr<Region> region;
  Value offsetSymbol;
  AffineExpr headOffset;

  explicit operator bool() const { return static_cast<bool>(region); }
  /// A fresh region with one block of four index arguments.
  static IndexFunction create(MLIRContext *ctx, Location loc);
  Block &body() const { return region->front(); }
  /// The same function, emitted the same way, reading the same head offset.
  bool sameAs(const IndexFunction &other) const;
};

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_INDEXFUNCTION_H
