//===- ToolOptions.h - a tool's --help shows its own options ----*- C++ -*-===//
//
// seqpar's tools link LLVM and MLIR, which register hundreds of
// command-line options (code generation, every target): --help lists only
// the tool's own.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_SUPPORT_TOOLOPTIONS_H
#define SEQPAR_SUPPORT_TOOLOPTIONS_H

#include "llvm/Support/CommandLine.h"

namespace mlir::seqpar {

/// Hides from --help every registered option outside `category` except
/// --help and --version. They are hidden, not removed: they still parse, and
/// --help-hidden lists them (llvm::cl::HideUnrelatedOptions makes them
/// ReallyHidden, which --help-hidden omits too). Call before
/// llvm::cl::ParseCommandLineOptions.
void hideUnrelatedOptions(llvm::cl::OptionCategory &category);

} // namespace mlir::seqpar

#endif // SEQPAR_SUPPORT_TOOLOPTIONS_H
