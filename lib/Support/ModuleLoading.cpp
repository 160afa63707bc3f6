//===- ModuleLoading.cpp - read, parse and verify a tool's input ----------===//

#include "seqpar/Support/ModuleLoading.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::seqpar;

FailureOr<LoadedModule> mlir::seqpar::loadModule(MLIRContext &context,
                                                 StringRef path,
                                                 llvm::raw_ostream &diagnostics,
                                                 std::string &error) {
  error.clear();
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file)
    return failure();
  LoadedModule loaded;
  loaded.sources = std::make_unique<llvm::SourceMgr>();
  loaded.sources->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(*loaded.sources, &context, diagnostics);
  ParserConfig config(&context, /*verifyAfterParse=*/true);
  loaded.module = parseSourceFile<ModuleOp>(*loaded.sources, config);
  if (!loaded.module)
    return failure();
  return loaded;
}

FailureOr<SmallVector<func::FuncOp>>
mlir::seqpar::lookupFunctionsWithBody(ModuleOp module, StringRef entry,
                                      std::string &error) {
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && (entry.empty() || func.getSymName() == entry))
      funcs.push_back(func);
  if (!funcs.empty())
    return funcs;
  error = entry.empty() ? "no function with a body"
                        : ("no function @" + entry + " with a body").str();
  return failure();
}

void mlir::seqpar::printDiagnosticsWithoutOps(MLIRContext &context) {
  context.printOpOnDiagnostic(false);
}
