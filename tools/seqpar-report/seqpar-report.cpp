//===- seqpar-report.cpp - memory, communication and FLOPs of a program ---===//
//
// Prints, for each function of a per-rank program (or the one --entry
// names), per transformer layer and for one rank: the activation bytes
// training keeps for the backward pass, the collectives' calls and bytes
// sent, and the FLOPs per op kind (docs/report.md). Text, or JSON with
// --json. Nothing is executed. A module with tosa ops is first lowered to
// linalg as seqpar-pipeline does, so both see the same program.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/InitSeqPar.h"
#include "seqpar/Pipelines/Pipelines.h"
#include "seqpar/Report/Report.h"
#include "seqpar/Support/ModuleLoading.h"
#include "seqpar/Support/ToolOptions.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::seqpar;

static llvm::cl::OptionCategory reportCategory("seqpar-report options");

static llvm::cl::opt<std::string>
    inputFile(llvm::cl::Positional, llvm::cl::desc("<per-rank program .mlir>"),
              llvm::cl::Required, llvm::cl::cat(reportCategory));
static llvm::cl::opt<std::string>
    outputFile("o", llvm::cl::desc("Output file (default: stdout)"),
               llvm::cl::init("-"), llvm::cl::cat(reportCategory));
static llvm::cl::opt<std::string>
    entry("entry",
          llvm::cl::desc("Function to report (default: every function with "
                         "a body)"),
          llvm::cl::init(""), llvm::cl::cat(reportCategory));
static llvm::cl::opt<Recompute> recompute(
    "recompute", llvm::cl::desc("Activations kept for the backward pass"),
    llvm::cl::values(clEnumValN(Recompute::None, "none",
                                "every op keeps what its backward reads"),
                     clEnumValN(Recompute::Selective, "selective",
                                "the attention core is recomputed from Q, K, V "
                                "(Korthikanti et al. 2022, section 5)")),
    llvm::cl::init(Recompute::None), llvm::cl::cat(reportCategory));
static llvm::cl::opt<bool>
    peak("peak",
         llvm::cl::desc("Also predict the forward peak of live buffers (lowers "
                        "the program to buffers as seqpar-run does)"),
         llvm::cl::init(true), llvm::cl::cat(reportCategory));
static llvm::cl::opt<bool> json("json",
                                llvm::cl::desc("Print JSON instead of text"),
                                llvm::cl::init(false),
                                llvm::cl::cat(reportCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  hideUnrelatedOptions(reportCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "seqpar-report: saved activations, collectives and FLOPs per layer\n");
  registerAllPasses(); // the lowering parses upstream pipelines by name
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllSeqPar(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  std::string error;
  FailureOr<LoadedModule> loaded =
      loadModule(ctx, inputFile, llvm::errs(), error);
  if (failed(loaded)) {
    if (!error.empty())
      llvm::errs() << "seqpar-report: " << error << "\n";
    return 1; // Otherwise the parser or verifier said where.
  }
  ModuleOp module = *loaded->module;
  SourceMgrDiagnosticHandler handler(*loaded->sources, &ctx);

  bool hasTosa = false;
  module->walk([&](Operation *op) {
    hasTosa |= isa_and_nonnull<tosa::TosaDialect>(op->getDialect());
  });
  if (hasTosa) {
    PassManager pm(&ctx);
    buildFrontendNormalizationPipeline(pm);
    if (failed(pm.run(module)))
      return 1;
  }

  FailureOr<SmallVector<func::FuncOp>> funcs =
      lookupFunctionsWithBody(module, entry, error);
  if (failed(funcs)) {
    llvm::errs() << "seqpar-report: " << inputFile << ": " << error << "\n";
    return 1;
  }
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "seqpar-report: " << error << "\n";
    return 1;
  }
  llvm::json::Array reports;
  for (func::FuncOp func : *funcs)
    if (diagnoseBufferForm(func, "seqpar-report", DiagnosticSeverity::Error) ||
        failed(checkFiguresFit(func)))
      return 1;
  for (func::FuncOp func : *funcs) {
    FunctionReport report = buildReport(func, recompute);
    if (peak) {
      FailureOr<BufferPeak> predicted =
          predictBufferPeak(module, func.getName());
      if (failed(predicted)) {
        llvm::errs() << "seqpar-report: @" << func.getName()
                     << " does not lower to buffers (see above); use "
                        "--peak=false\n";
        return 1;
      }
      report.peak = *predicted;
    }
    if (json)
      reports.push_back(reportToJSON(report));
    else
      printReport(report, output->os());
  }
  if (json)
    output->os() << llvm::formatv("{0:2}",
                                  llvm::json::Value(std::move(reports)))
                 << "\n";
  output->keep();
  return 0;
}
