//===- RuntimeCheck.h - checks the run time makes --------------*- C++ -*-===//
//
// seqpar's run-time checks and the one format of the messages they print
// when they fail (docs/runtime-and-run.md, "Run-time checks"). A cf.assert
// prints only its string, so the source position goes into it.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_RUNTIMECHECK_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_RUNTIMECHECK_H

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::seqpar {

/// "error: run-time check failed at FILE:LINE:COL: <what>", with the first
/// file position in `loc` (otherwise the location as MLIR prints it).
inline std::string formatRuntimeCheckMessage(Location loc,
                                             llvm::StringRef what) {
  std::string where;
  llvm::raw_string_ostream os(where);
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return llvm::formatv("error: run-time check failed at {0}: {1}", where,
                       what)
      .str();
}

/// A `cf.assert` of `holds` at `loc` whose failure prints
/// formatRuntimeCheckMessage(loc, what) and aborts.
inline void createRuntimeCheck(OpBuilder &b, Location loc, Value holds,
                               llvm::StringRef what) {
  cf::AssertOp::create(b, loc, holds, formatRuntimeCheckMessage(loc, what));
}

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_RUNTIMECHECK_H
