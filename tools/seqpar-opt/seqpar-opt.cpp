//===- seqpar-opt.cpp - mlir-opt with the seqpar dialect and passes -------===//
//
// Registers every upstream dialect, extension and pass, plus the seqpar
// dialect, passes and pipelines, and runs the standard mlir-opt driver.
//
//===----------------------------------------------------------------------===//

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

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "seqpar optimizer driver\n", registry));
}
