//===- TestPasses.h - seqpar test passes ------------------------*- C++ -*-===//
//
// The passes of test/lib/TestPasses.td, for seqpar-opt only.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TEST_LIB_TESTPASSES_H
#define SEQPAR_TEST_LIB_TESTPASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::seqpar::test {

#define GEN_PASS_DECL
#include "TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "TestPasses.h.inc"

} // namespace mlir::seqpar::test

#endif // SEQPAR_TEST_LIB_TESTPASSES_H
