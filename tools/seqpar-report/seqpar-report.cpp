//===- seqpar-report.cpp - memory, communication and FLOPs of a program ---===//
//
// Prints, for each function of a per-rank program (or the one --entry
// names), per transformer layer and for one rank: the activation bytes
// training keeps for the backward pass, the collectives' calls and bytes
// sent, and the FLOPs per op kind (docs/report.md). Text, or JSON with
// --json. Nothing is executed. A module with tosa ops is first lowered to
// linalg as seqpar-pipeline does, so both see the same program. A training
// graph also gets what its forward part saves for the backward part, read
// from the joint program (docs/training-graphs.md), per layer and element
// type.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Analysis/SavedForBackward.h"
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
#include "mlir/Support/DebugStringHelper.h"
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
static llvm::cl::opt<bool>
    listSaved("list-saved",
              llvm::cl::desc("Training graphs: also list each tensor saved for "
                             "backward (layer, type, bytes, producer)"),
              llvm::cl::init(false), llvm::cl::cat(reportCategory));
static llvm::cl::opt<bool> json("json",
                                llvm::cl::desc("Print JSON instead of text"),
                                llvm::cl::init(false),
                                llvm::cl::cat(reportCategory));

namespace {
/// Saved-for-backward bytes of one layer (or the head or tail), by element
/// type.
struct SavedPart {
  int64_t bytes = 0;
  /// With the all-gathered tensors saved as their shards instead.
  int64_t shardedBytes = 0;
  std::map<std::string, int64_t> byElementType;
  /// One line per tensor (--list-saved).
  std::vector<std::string> tensors;
  void add(const std::string &elementType, int64_t n, int64_t sharded) {
    bytes += n;
    shardedBytes += sharded;
    byElementType[elementType] += n;
  }
};
/// A training graph's saved-for-backward set grouped by layer.
struct SavedReport {
  std::string backwardStart; // the first backward op and its location
  int64_t forwardOpsAfterStart = 0;
  std::vector<SavedPart> layers;
  SavedPart head, tail, total;
};
} // namespace

/// Looks like a training graph: a one-element float result #0 (the loss)
/// and more results (the gradients). Other functions get no remark when the
/// split fails.
static bool looksLikeTrainingGraph(func::FuncOp func) {
  ArrayRef<Type> results = func.getFunctionType().getResults();
  if (results.size() < 2)
    return false;
  auto loss = dyn_cast<RankedTensorType>(results[0]);
  return isa<FloatType>(results[0]) ||
         (loss && loss.hasStaticShape() && loss.getNumElements() == 1 &&
          isa<FloatType>(loss.getElementType()));
}

/// Groups the saved tensors by the layer of their producer (an argument:
/// of its first user), layers cut on the forward part only.
static SavedReport groupSaved(func::FuncOp func,
                              const SavedForBackward &saved) {
  SavedReport report;
  Operation *start = saved.backwardStart;
  report.backwardStart = "'" + start->getName().getStringRef().str() + "' at " +
                         debugString(start->getLoc());
  report.forwardOpsAfterStart = saved.forwardOpsAfterStart;
  LayerPartition partition = partitionLayers(func, start);
  report.layers.resize(partition.numLayers);
  Block &body = func.getBody().front();
  for (const SavedForBackwardTensor &tensor : saved.tensors) {
    Operation *at = tensor.producer;
    if (!at)
      for (Operation &op : body)
        if (llvm::any_of(tensor.value.getUsers(), [&](Operation *user) {
              return body.findAncestorOpInBlock(*user) == &op;
            })) {
          at = &op;
          break;
        }
    int layer = at ? partition.layerOf.lookup(at) : -1;
    SavedPart &part = layer < 0                      ? report.head
                      : layer >= partition.numLayers ? report.tail
                                                     : report.layers[layer];
    std::string type = debugString(tensor.elementType);
    part.add(type, tensor.bytes, tensor.shardedBytes);
    if (listSaved)
      part.tensors.push_back(
          debugString(tensor.value.getType()) + " " +
          std::to_string(tensor.bytes) + " bytes" +
          (tensor.shardedBytes != tensor.bytes
               ? " (sharded " + std::to_string(tensor.shardedBytes) + ")"
               : "") +
          ", " +
          (tensor.producer
               ? "'" + tensor.producer->getName().getStringRef().str() +
                     "' at " + debugString(tensor.producer->getLoc())
               : "argument #" +
                     std::to_string(
                         cast<BlockArgument>(tensor.value).getArgNumber())));
    report.total.add(type, tensor.bytes, tensor.shardedBytes);
  }
  return report;
}

static void printSavedPart(StringRef name, const SavedPart &part,
                           llvm::raw_ostream &os) {
  os << "  " << name << ": " << part.bytes << " bytes";
  if (!part.byElementType.empty()) {
    os << " (";
    llvm::interleaveComma(part.byElementType, os, [&](const auto &entry) {
      os << entry.first << " " << entry.second;
    });
    os << ")";
  }
  if (part.shardedBytes != part.bytes)
    os << "; saved sharded instead of gathered: " << part.shardedBytes
       << " bytes";
  os << "\n";
  for (const std::string &tensor : part.tensors)
    os << "    " << tensor << "\n";
}

static void printSaved(StringRef function, const SavedReport &report,
                       llvm::raw_ostream &os) {
  os << "saved for backward: @" << function
     << ", one rank, from the joint program: forward values live where the "
        "backward starts ("
     << report.backwardStart << "; docs/training-graphs.md)";
  if (report.forwardOpsAfterStart)
    os << "; " << report.forwardOpsAfterStart
       << " forward ops come after that point";
  os << "\n";
  printSavedPart("head", report.head, os);
  for (auto [i, layer] : llvm::enumerate(report.layers))
    printSavedPart("layer " + std::to_string(i), layer, os);
  printSavedPart("tail", report.tail, os);
  printSavedPart("total", report.total, os);
}

static llvm::json::Value savedPartToJSON(const SavedPart &part) {
  llvm::json::Object byType;
  for (auto &[type, bytes] : part.byElementType)
    byType[type] = bytes;
  return llvm::json::Object{{"bytes", part.bytes},
                            {"sharded_bytes", part.shardedBytes},
                            {"by_element_type", std::move(byType)}};
}

static llvm::json::Value savedToJSON(const SavedReport &report) {
  llvm::json::Array layers;
  for (const SavedPart &layer : report.layers)
    layers.push_back(savedPartToJSON(layer));
  return llvm::json::Object{
      {"backward_start", report.backwardStart},
      {"forward_ops_after_start", report.forwardOpsAfterStart},
      {"layers", std::move(layers)},
      {"head", savedPartToJSON(report.head)},
      {"tail", savedPartToJSON(report.tail)},
      {"total", savedPartToJSON(report.total)}};
}

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
  printDiagnosticsWithoutOps(ctx);

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
        failed(checkStaticShapes(func)) || failed(checkFiguresFit(func)))
      return 1;
  for (func::FuncOp func : *funcs) {
    std::optional<SavedReport> saved;
    Operation *backwardStart = nullptr;
    std::string why;
    if (FailureOr<SavedForBackward> split = analyzeSavedForBackward(func, why);
        succeeded(split)) {
      saved = groupSaved(func, *split);
      backwardStart = split->backwardStart;
    } else if (looksLikeTrainingGraph(func)) {
      emitRemark(func.getLoc())
          << "seqpar-report: @" << func.getName()
          << " returns a loss and more results, but its backward part cannot "
             "be told from its forward part ("
          << why << "): no saved-for-backward figures";
    }
    FunctionReport report = buildReport(func, recompute, backwardStart);
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
    if (json) {
      llvm::json::Value value = reportToJSON(report);
      if (saved)
        value.getAsObject()->insert(
            {"saved_for_backward", savedToJSON(*saved)});
      reports.push_back(std::move(value));
    } else {
      printReport(report, output->os());
      if (saved)
        printSaved(func.getName(), *saved, output->os());
    }
  }
  if (json)
    output->os() << llvm::formatv("{0:2}",
                                  llvm::json::Value(std::move(reports)))
                 << "\n";
  output->keep();
  return 0;
}
