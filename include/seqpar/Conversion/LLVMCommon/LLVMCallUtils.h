//===- LLVMCallUtils.h - building calls of C functions on buffers -*- C++ -*-===//
//
// Helpers shared by the lowerings that call C functions (the seqpar runtime,
// CBLAS) with raw pointers into memrefs: external declarations, constant
// arrays as private globals, and buffer addresses.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_CONVERSION_LLVMCOMMON_LLVMCALLUTILS_H
#define SEQPAR_CONVERSION_LLVMCOMMON_LLVMCALLUTILS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::seqpar {

/// Returns the `llvm.func` `name` of `module`, declaring it (external) with
/// `type` at the end of the module if absent.
LLVM::LLVMFuncOp getOrDeclareFunc(OpBuilder &b, ModuleOp module,
                                  StringRef name, LLVM::LLVMFunctionType type);

/// Address of a private constant global holding `values` (i64 or i32
/// elements), one global per distinct array (named after its values).
Value getConstantArray(OpBuilder &b, Location loc, ModuleOp module,
                       ArrayRef<int64_t> values, unsigned bitWidth);

/// Address of the first element of `memref` (aligned pointer + offset, in
/// bytes) as an `!llvm.ptr`. The memref must have a static element size.
Value getBufferAddress(OpBuilder &b, Location loc, Value memref);

/// True when `type` is a contiguous row-major block (identity layout, or
/// strides of a contiguous block with any offset) of static shape.
bool isContiguousRowMajor(MemRefType type);

/// `llvm.mlir.constant` of an integer type.
Value constantInt(OpBuilder &b, Location loc, Type type, int64_t value);

} // namespace mlir::seqpar

#endif // SEQPAR_CONVERSION_LLVMCOMMON_LLVMCALLUTILS_H
