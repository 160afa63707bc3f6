//===- seqpar-opt.cpp - mlir-opt with the seqpar dialect and passes -------===//
//
// Registers every upstream dialect, extension and pass, plus the seqpar
// dialect, passes and pipelines and the seqpar test passes (test/lib), and
// runs the standard mlir-opt driver.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "seqpar/InitSeqPar.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::seqpar::registerAllSeqPar(registry);
  mlir::seqpar::test::registerSeqParTestPasses();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "seqpar optimizer driver\n", registry));
}
