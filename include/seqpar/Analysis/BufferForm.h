//===- BufferForm.h - refuse buffer-form (memref) IR ------------*- C++ -*-===//
//
// seqpar's analyses and rewrites read the tensor (value-semantics) form of a
// program, where every op defines its results and a value is never written
// in place: splitting a value means changing its type. Once bufferized
// (linalg on memrefs, no results, writes into its init buffer), none of
// that holds, so the tensor passes and tools leave buffer-form functions
// alone and say so (docs/sequence-parallel.md, "Input contract").
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_BUFFERFORM_H
#define SEQPAR_ANALYSIS_BUFFERFORM_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::seqpar {

/// The first op in `func` (nested ones included) with a memref operand or
/// result, or null. An argument of memref type counts as its function.
Operation *findBufferFormOp(func::FuncOp func);

/// When `func` is in buffer form, emits at the first buffer-form op a
/// diagnostic of `severity` saying that `pass` works on tensors and leaves
/// @func as it is (or, for an error, cannot run on it), and returns true.
bool diagnoseBufferForm(
    func::FuncOp func, StringRef pass,
    DiagnosticSeverity severity = DiagnosticSeverity::Remark);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_BUFFERFORM_H
