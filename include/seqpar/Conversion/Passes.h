//===- Passes.h - seqpar conversion passes ----------------------*- C++ -*-===//
//
// The conversions of seqpar/Conversion/Passes.td and their patterns.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_CONVERSION_PASSES_H
#define SEQPAR_CONVERSION_PASSES_H

#include "seqpar/Conversion/LinalgToBlas/LinalgToBlas.h"
#include "seqpar/Conversion/SeqParToRuntime/SeqParToRuntime.h"

#include "mlir/Pass/Pass.h"

namespace mlir::seqpar {

#define GEN_PASS_DECL
#include "seqpar/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "seqpar/Conversion/Passes.h.inc"

} // namespace mlir::seqpar

#endif // SEQPAR_CONVERSION_PASSES_H
