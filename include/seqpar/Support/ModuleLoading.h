//===- ModuleLoading.h - read, parse and verify a tool's input --*- C++ -*-===//
//
// The first step of every seqpar tool that reads a program (seqpar-run,
// seqpar-report, seqpar-plan-auto): open the file, parse and verify the
// module, and find the functions to work on, each failure with a message
// that names the file or points at the offending line.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_SUPPORT_MODULELOADING_H
#define SEQPAR_SUPPORT_MODULELOADING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace mlir::seqpar {

/// A module read from a file, with the source manager holding the file's
/// text: the module's locations point into it (a SourceMgrDiagnosticHandler
/// on it prints the offending line), and buffer 1 is the file.
struct LoadedModule {
  std::unique_ptr<llvm::SourceMgr> sources;
  OwningOpRef<ModuleOp> module;
};

/// Reads `path` ("-": stdin), parses it as a module and verifies it.
/// Parser and verifier errors are printed to `diagnostics` as
/// `file:line:col: error: ...` with the source line (llvm::nulls() silences
/// them). On failure, `error` is "cannot open input file '<path>': <reason>"
/// when the file cannot be read, and empty when the parser or verifier has
/// reported where. An empty file is an empty module.
FailureOr<LoadedModule> loadModule(MLIRContext &context, llvm::StringRef path,
                                   llvm::raw_ostream &diagnostics,
                                   std::string &error);

/// The functions with a body in `module`, in module order: the one named
/// `entry`, or every one when `entry` is empty. When there is none, fails
/// with `error` = "no function with a body" or "no function @<entry> with a
/// body".
FailureOr<llvm::SmallVector<func::FuncOp>>
lookupFunctionsWithBody(ModuleOp module, llvm::StringRef entry,
                        std::string &error);

/// Stops `context`'s diagnostics from printing the op they are attached to
/// after the message (MLIR's print-op-on-diagnostic): a tool's errors point
/// at their source line, and the op, a whole function for a function-level
/// error, would bury it. Called once the input is loaded, so that the
/// verifier's errors keep theirs (one op, in generic form).
void printDiagnosticsWithoutOps(MLIRContext &context);

} // namespace mlir::seqpar

#endif // SEQPAR_SUPPORT_MODULELOADING_H
