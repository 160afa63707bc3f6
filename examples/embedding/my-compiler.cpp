//===- my-compiler.cpp - a compiler that embeds seqpar's passes ----------===//
//
// A stand-in for someone's own MLIR-based compiler: its own context, its own
// pass manager, seqpar registered through one call, the sequence-parallel
// pipeline built in C++ with an options struct, and seqpar's output lowered
// to upstream dialects for a downstream stack that knows no seqpar ops.
//
// Usage: my-compiler <tp-program.mlir>
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/InitSeqPar.h"
#include "seqpar/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: my-compiler <tp-program.mlir>\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::seqpar::registerAllSeqPar(registry);
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  mlir::seqpar::SequenceParallelPipelineOptions options;
  options.gridAxis = 0;
  mlir::seqpar::buildSequenceParallelPipeline(pm, options);
  pm.addPass(mlir::seqpar::createLowerToUpstream());
  if (mlir::failed(pm.run(*module)))
    return 1;

  int scatters = 0, gathers = 0, reduces = 0;
  module->walk([&](mlir::Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    scatters += name == "shard.reduce_scatter";
    gathers += name == "shard.all_gather";
    reduces += name == "shard.all_reduce";
  });
  llvm::outs() << "my-compiler: " << scatters << " reduce_scatter, " << gathers
               << " all_gather, " << reduces << " all_reduce\n";
  module->print(llvm::outs());
  return 0;
}
