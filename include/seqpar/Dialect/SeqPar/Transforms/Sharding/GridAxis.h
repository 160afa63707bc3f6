//===- GridAxis.h - find the grid axis a rewrite shards over ----*- C++ -*-===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_GRIDAXIS_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_GRIDAXIS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::seqpar {

/// Finds the `shard.grid` named `gridName` (or the only grid of `func`'s
/// symbol table when empty) and its axis `gridAxis` (or 0 when negative and
/// the grid has one axis), whose size must be static and positive. `role`
/// names the axis in diagnostics ("TP", "CP"). Errors are emitted at `func`'s
/// location (not the op: an 80-layer module would be printed with them).
LogicalResult resolveGridAxis(func::FuncOp func, StringRef gridName,
                              int64_t gridAxis, StringRef role,
                              FlatSymbolRefAttr &grid, int16_t &axis,
                              int64_t &numRanks);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_GRIDAXIS_H
