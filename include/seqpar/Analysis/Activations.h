//===- Activations.h - activations of a per-rank program --------*- C++ -*-===//
//
// The values a report counts as activations (computed from the sequence-
// carrying arguments) and the tensor a view of one stands for.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_ACTIVATIONS_H
#define SEQPAR_ANALYSIS_ACTIVATIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::seqpar {

/// Values of `func` computed from its sequence-carrying arguments
/// (`seqpar.seq_dim`, or the first argument when none has one), through
/// every op and region (loop-carried values included).
llvm::DenseSet<Value> findActivations(func::FuncOp func);

/// The tensor `value` is a view of: through expand/collapse_shape,
/// tensor.cast, linalg.transpose, linalg.broadcast and copy-only generics
/// (a transpose or GQA repeat written as a generic). Slices are not views
/// here: a slice is its own tensor.
Value storageRoot(Value value);

/// The value `op` is a view of (one step of storageRoot), or null.
Value getViewSource(Operation *op);

/// Bytes of a ranked tensor (checkedBytes; 0 for memrefs). Callers have
/// checked with checkFiguresFit (Report.h) that it fits.
int64_t tensorBytes(Type type);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_ACTIVATIONS_H
