//===- GridContract.h - the axes of seqpar's TP x CP grid -------*- C++ -*-===//
//
// The one place that says which axis of seqpar-pipeline's `shard.grid`
// carries which parallelism, and that creates that grid
// (docs/semantics.md §4.6): tensor parallelism on axis 0, context
// parallelism (hybrid's ring) on axis 1, hybrid's Ulysses all-to-all on
// axis 2. Ranks are placed row-major over the axes (docs/semantics.md §2).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_GRIDCONTRACT_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_GRIDCONTRACT_H

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::seqpar {

/// The grid of t x c ranks seqpar-pipeline partitions a program over:
/// shape [t] without context parallelism, [t, c] with it, [t, c/u, u] for
/// hybrid context parallelism with a Ulysses size u > 1.
struct GridContract {
  /// The grid's symbol.
  static constexpr llvm::StringLiteral kName = "grid";
  /// Tensor parallelism (Megatron TP, and SP on the same ranks).
  static constexpr int16_t kTensorAxis = 0;
  /// Context parallelism: the only CP axis, or hybrid's ring.
  static constexpr int16_t kRingAxis = 1;
  /// Hybrid context parallelism's Ulysses all-to-all.
  static constexpr int16_t kUlyssesAxis = 2;

  /// TP size t.
  int64_t tp = 1;
  /// CP size c, ring and Ulysses ranks together (1: no CP axis).
  int64_t cp = 1;
  /// Hybrid's Ulysses size u, a divisor of c (1: no Ulysses axis).
  int64_t ulysses = 1;

  bool hasRingAxis() const { return cp > 1; }
  bool hasUlyssesAxis() const { return ulysses > 1; }

  /// Why these sizes make no grid (a size below 1, u not dividing c, t x c
  /// ranks overflowing a 64-bit count), naming them by their option
  /// spellings (tp, cp, cp-ulysses); empty when they make one.
  std::string whyInvalid() const;

  /// The grid's shape. Only for sizes without `whyInvalid`.
  SmallVector<int64_t> getShape() const;

  /// Creates the private `shard.grid @name` of `getShape()` at the start of
  /// `module`. The module must not hold a symbol `name` yet.
  shard::GridOp create(ModuleOp module, StringRef name = kName) const;

  /// The grid `@name` of these sizes in `module`: created as `create` does
  /// when the module has no symbol `name` (`created` set), the module's own
  /// when it is a `shard.grid` of `getShape()`. Any other symbol `name` is
  /// an error at it, and so are sizes with `whyInvalid` (at the module).
  FailureOr<shard::GridOp> lookupOrCreate(ModuleOp module, bool &created,
                                          StringRef name = kName) const;
};

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_GRIDCONTRACT_H
