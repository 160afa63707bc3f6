//===- seqpar-plan-auto.cpp - choose a TP x CP layout for a graph ---------===//
//
// Reads a single-device transformer graph, searches every TP x CP layout of
// --devices devices (TP size, SP on/off, CP size, strategy, load balancing)
// under an alpha-beta cost model of --hardware, and prints the fastest one
// that fits --memory-gib per device with its runners-up and the
// seqpar-pipeline options that build it (docs/planning-auto.md).
// Exit status: 0 with a plan, 1 on bad input or when nothing fits.
//
//===----------------------------------------------------------------------===//

#include "seqpar/InitSeqPar.h"
#include "seqpar/Plan/Plan.h"
#include "seqpar/Support/ModuleLoading.h"
#include "seqpar/Support/ToolOptions.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"

#include <cmath>

using namespace mlir;
using namespace mlir::seqpar;
namespace cl = llvm::cl;

static cl::OptionCategory planCategory("seqpar-plan-auto options");

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<single-device graph .mlir>"),
                                      cl::Required, cl::cat(planCategory));
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to plan (default: the "
                                           "first with a body)"),
                                  cl::init(""), cl::cat(planCategory));
static cl::opt<int64_t> devices("devices",
                                cl::desc("Devices of one model replica (D = "
                                         "TP x CP)"),
                                cl::init(8), cl::cat(planCategory));
static cl::opt<std::string>
    hardware("hardware", cl::desc("Cost model preset: h100, h200 or cpu"),
             cl::init("h100"), cl::cat(planCategory));
static cl::opt<double> memoryGiB(
    "memory-gib",
    cl::desc("Memory budget per device, GiB (default: the preset's memory)"),
    cl::cat(planCategory));
static cl::opt<Workload> workload(
    "workload", cl::desc("What runs"),
    cl::values(clEnumValN(Workload::Prefill, "prefill",
                          "inference prefill: weights, KV cache, forward"),
               clEnumValN(Workload::Training, "training",
                          "forward + backward, mixed-precision Adam (16 "
                          "bytes per parameter), saved activations"),
               clEnumValN(Workload::Decode, "decode",
                          "one decode step over a KV cache sharded by DCP "
                          "(--context slots, --new-tokens)")),
    cl::init(Workload::Prefill), cl::cat(planCategory));
static cl::opt<int64_t> elementBytes("element-bytes",
                                     cl::desc("Bytes per weight and "
                                              "activation element (bf16: 2)"),
                                     cl::init(2), cl::cat(planCategory));
static cl::opt<int64_t> seqOverride(
    "seq", cl::desc("Plan for this sequence length instead of the graph's"),
    cl::cat(planCategory));
static cl::opt<unsigned> runnersUp("runners-up",
                                   cl::desc("Layouts printed after the best"),
                                   cl::init(4), cl::cat(planCategory));
static cl::opt<bool> exhaustive("exhaustive",
                                cl::desc("Evaluate every layout (no "
                                         "branch-and-bound pruning)"),
                                cl::init(false), cl::cat(planCategory));
static cl::opt<bool> keepKV(
    "keep-kv",
    cl::desc("Training: ring and hybrid layouts keep the forward's K/V "
             "blocks for the backward (seqpar-pipeline cp-keep-kv=true)"),
    cl::init(false), cl::cat(planCategory));
static cl::opt<int64_t> context(
    "context",
    cl::desc("Decode: the KV cache's slots L_max (tokens of context)"),
    cl::cat(planCategory));
static cl::opt<int64_t> newTokens(
    "new-tokens", cl::desc("Decode: new tokens per step T (default 1)"),
    cl::init(1), cl::cat(planCategory));
static cl::opt<bool> json("json", cl::desc("Print JSON"), cl::init(false),
                          cl::cat(planCategory));

static constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

static void printTable(const PlanResult &result, llvm::raw_ostream &os) {
  os << llvm::formatv("{0,-2} {1,-34} {2,10} {3,10} {4,10} {5,10} {6,9} "
                      "{7,9} {8,9} {9,9} {10,9} {11,9}\n",
                      "#", "layout", "time_s", "compute_s", "tp_comm_s",
                      "cp_comm_s", "mem_GiB", "weights", "kv_cache", "saved",
                      "transient", "sent_GiB");
  int rank = 0;
  for (const RankedPlan &plan : result.ranked) {
    const PlanCost &c = plan.cost;
    os << llvm::formatv(
        "{0,-2} {1,-34} {2,10:e2} {3,10:e2} {4,10:e2} {5,10:e2} "
        "{6,9:f2} {7,9:f2} {8,9:f2} {9,9:f2} {10,9:f2} "
        "{11,9:f3}\n",
        ++rank, plan.config.str(), c.seconds(), c.computeSeconds,
        c.tpCommSeconds, c.cpCommSeconds, c.memoryBytes() / GiB,
        c.weightBytes / GiB, c.cacheBytes / GiB, c.savedBytes / GiB,
        c.transientBytes / GiB, c.bytesSent / GiB);
  }
}

static void printDecodeTable(const PlanResult &result, llvm::raw_ostream &os) {
  os << llvm::formatv("{0,-2} {1,-24} {2,10} {3,10} {4,10} {5,10} {6,9} "
                      "{7,9} {8,9} {9,14} {10,11}\n",
                      "#", "layout", "time_s", "compute_s", "tp_comm_s",
                      "dcp_comm_s", "mem_GiB", "weights", "kv_cache",
                      "capacity_tok", "sent_bytes");
  int rank = 0;
  for (const RankedPlan &plan : result.ranked) {
    const PlanCost &c = plan.cost;
    os << llvm::formatv("{0,-2} {1,-24} {2,10:e2} {3,10:e2} {4,10:e2} "
                        "{5,10:e2} {6,9:f2} {7,9:f2} {8,9:f2} {9,14:f0} "
                        "{10,11:f0}\n",
                        ++rank, plan.config.str(), c.seconds(),
                        c.computeSeconds, c.tpCommSeconds, c.cpCommSeconds,
                        c.memoryBytes() / GiB, c.weightBytes / GiB,
                        c.cacheBytes / GiB, c.capacityTokens, c.bytesSent);
  }
}

/// Why the first decode layout won: what bounds its step, what it sends,
/// how much context it holds, and against the runner-up.
static void explainDecodeChoice(const PlanResult &result,
                                const PlanRequest &request,
                                llvm::raw_ostream &os) {
  const RankedPlan &best = result.ranked.front();
  const PlanCost &c = best.cost;
  os << llvm::formatv("chosen: {0}: {1:e3} s per step ({2:e3} s computing "
                      "or reading weights and {3:f2} GiB of cache slots, "
                      "{4:e3} s TP all-reduces, {5:e3} s merging over DCP; "
                      "{6:f0} bytes sent per rank), {7:f2} GiB per device; "
                      "holds up to {8:f0} tokens of context in {9:f1} GiB\n",
                      best.config.str(), c.seconds(), c.computeSeconds,
                      c.cacheBytes / GiB, c.tpCommSeconds, c.cpCommSeconds,
                      c.bytesSent, c.memoryBytes() / GiB, c.capacityTokens,
                      request.memoryBudgetBytes / GiB);
  if (result.ranked.size() < 2)
    return;
  const RankedPlan &next = result.ranked[1];
  os << llvm::formatv("  runner-up {0}: {1:e3} s per step ({2:+f1}%), "
                      "{3:f0} bytes sent, {4:f0} tokens of context\n",
                      next.config.str(), next.cost.seconds(),
                      100 * (next.cost.seconds() / c.seconds() - 1),
                      next.cost.bytesSent, next.cost.capacityTokens);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  hideUnrelatedOptions(planCategory);
  cl::ParseCommandLineOptions(
      argc, argv, "seqpar-plan-auto: choose TP, SP, CP and the CP strategy\n");
  auto fail = [](const llvm::Twine &message) {
    llvm::errs() << "seqpar-plan-auto: " << message << "\n";
    return 1;
  };
  std::optional<Hardware> preset = hardwarePreset(hardware);
  if (!preset)
    return fail("unknown --hardware '" + hardware +
                "' (expected h100, h200 or cpu)");
  // Every option's range, before anything is read.
  if (devices < 1 || devices > kMaxPlanDevices)
    return fail(llvm::formatv("--devices={0}: expected 1 to {1} devices for "
                              "one model replica",
                              devices.getValue(), kMaxPlanDevices));
  // A given budget is used as is (0 or nan is not "the preset's").
  double budgetBytes = memoryGiB * GiB;
  if (memoryGiB.getNumOccurrences() &&
      !(std::isfinite(budgetBytes) && memoryGiB > 0)) {
    std::string given;
    llvm::raw_string_ostream(given) << llvm::format("%g", memoryGiB.getValue());
    return fail("--memory-gib=" + given +
                ": expected a positive, finite number of GiB");
  }
  if (elementBytes < 1 || elementBytes > 8)
    return fail(llvm::formatv("--element-bytes={0}: expected 1 to 8 bytes",
                              elementBytes.getValue()));
  bool decode = workload == Workload::Decode;
  if (!decode && (context.getNumOccurrences() || newTokens.getNumOccurrences()))
    return fail("--context and --new-tokens plan a decode step: pass "
                "--workload=decode");
  if (decode && (!context.getNumOccurrences() || context < 1))
    return fail(llvm::formatv("--workload=decode needs --context=L_max, the "
                              "KV cache's slots (a positive count; got {0})",
                              context.getValue()));
  if (decode && (newTokens < 1 || newTokens > context))
    return fail(llvm::formatv("--new-tokens={0}: expected 1 to the {1} cache "
                              "slots",
                              newTokens.getValue(), context.getValue()));
  if (seqOverride.getNumOccurrences() && seqOverride < 1)
    return fail(llvm::formatv("--seq={0}: expected a positive sequence length",
                              seqOverride.getValue()));

  registerAllPasses();
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllSeqPar(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::string error;
  FailureOr<LoadedModule> loaded =
      loadModule(ctx, inputFile, llvm::errs(), error);
  if (failed(loaded))
    return error.empty() ? 1 : fail(error); // Else the parser said where.
  SourceMgrDiagnosticHandler handler(*loaded->sources, &ctx);
  printDiagnosticsWithoutOps(ctx);
  OwningOpRef<ModuleOp> &module = loaded->module;
  FailureOr<ModelShape> read = readModelShape(*module, entry);
  if (failed(read))
    return 1;
  ModelShape shape = *read;
  if (seqOverride.getNumOccurrences())
    shape.seq = seqOverride;

  PlanRequest request;
  request.devices = devices;
  request.hardware = *preset;
  request.workload = workload;
  request.elementBytes = elementBytes;
  request.keepKV = keepKV;
  request.memoryBudgetBytes =
      memoryGiB.getNumOccurrences() ? budgetBytes : preset->memoryBytes;
  if (decode) {
    request.decodeSlots = context;
    request.decodeTokens = newTokens;
  }
  // A decode cache of L_max slots: its bytes checked as a sequence of L_max.
  ModelShape checked = shape;
  if (decode)
    checked.seq = std::max<int64_t>(shape.seq, context);
  std::string outOfRange = figureOutOfRange(checked, request);
  if (!outOfRange.empty())
    return fail(outOfRange);
  // In size_t: the unsigned count + 1 must not wrap to 0.
  size_t keep = size_t(runnersUp) + 1;
  PlanResult result = searchPlans(shape, request, keep, exhaustive);
  if (result.total == 0)
    return fail(decode ? llvm::formatv("no TP x DCP layout of {0} devices "
                                       "suits {1} heads ({2} KV heads) and "
                                       "{3} cache slots",
                                       devices.getValue(), shape.heads,
                                       shape.kvHeads, context.getValue())
                       : llvm::formatv("no TP x CP layout of {0} devices "
                                       "suits {1} heads ({2} KV heads) and "
                                       "{3} tokens",
                                       devices.getValue(), shape.heads,
                                       shape.kvHeads, shape.seq));

  llvm::raw_ostream &os = llvm::outs();
  if (json) {
    llvm::json::Array ranked;
    for (const RankedPlan &plan : result.ranked)
      ranked.push_back(planToJSON(plan, shape));
    llvm::json::Object out{
        {"entry", shape.entry},
        {"layers", shape.layers},
        {"batch", shape.batch},
        {"seq", shape.seq},
        {"hidden", shape.hidden},
        {"heads", shape.heads},
        {"kv_heads", shape.kvHeads},
        {"head_dim", shape.headDim},
        {"causal", shape.causal},
        {"parameters", shape.matrixParams + shape.vectorParams},
        {"devices", devices.getValue()},
        {"hardware", preset->name},
        {"memory_budget_bytes", request.memoryBudgetBytes},
        {"workload", decode ? "decode" : workload == Workload::Training
                                             ? "training"
                                             : "prefill"},
        {"layouts", result.total},
        {"evaluated", result.evaluated},
        {"ranked", std::move(ranked)},
    };
    if (decode) {
      out["context"] = context.getValue();
      out["new_tokens"] = newTokens.getValue();
    }
    if (result.ranked.empty() && result.smallest)
      out["smallest_over_budget"] = planToJSON(*result.smallest, shape);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
    return result.ranked.empty() ? 1 : 0;
  }

  os << llvm::formatv(
      "model: @{0}, {1} layers, b={2}, s={3}, h={4}, a={5}, a_kv={6}, d={7}, "
      "{8}; {9:f2}e9 parameters\n",
      shape.entry, shape.layers, shape.batch, shape.seq, shape.hidden,
      shape.heads, shape.kvHeads, shape.headDim,
      shape.causal ? "causal" : "not causal",
      (shape.matrixParams + shape.vectorParams) / 1e9);
  const Hardware &hw = *preset;
  os << llvm::formatv(
      "workload: {0}, {1}-byte elements; {2} x {3} ({4:f1} TFLOP/s; nodes of "
      "{5}: {6:f1} GB/s, {7:f1} us; across nodes {8:f1} GB/s, {9:f1} us); "
      "budget {10:f1} GiB per device\n",
      decode ? llvm::formatv("decode step, {0} new tokens against {1} "
                             "cache slots",
                             newTokens.getValue(), context.getValue())
                   .str()
      : workload == Workload::Prefill ? std::string("inference prefill")
                                      : std::string("training (Adam)"),
      elementBytes.getValue(), devices.getValue(), hw.name,
      hw.matmulFlops / 1e12, hw.nodeSize, hw.intraBeta / 1e9,
      hw.intraAlpha * 1e6, hw.interBeta / 1e9, hw.interAlpha * 1e6,
      request.memoryBudgetBytes / GiB);
  os << llvm::formatv("evaluated {0} of {1} layouts{2}\n", result.evaluated,
                      result.total,
                      decode       ? " (all)"
                      : exhaustive ? " (exhaustive)"
                                   : " (branch and bound)");
  if (result.ranked.empty()) {
    const RankedPlan &small = *result.smallest;
    const PlanCost &c = small.cost;
    llvm::errs() << llvm::formatv(
        "seqpar-plan-auto: no layout of {0} devices fits {1:f1} GiB per "
        "device: the smallest, {2}, needs {3:f1} GiB (weights {4:f1}, KV "
        "cache {5:f1}, saved activations {6:f1}, transient {7:f1} GiB); add "
        "devices or raise --memory-gib\n",
        devices.getValue(), request.memoryBudgetBytes / GiB, small.config.str(),
        c.memoryBytes() / GiB, c.weightBytes / GiB, c.cacheBytes / GiB,
        c.savedBytes / GiB, c.transientBytes / GiB);
    return 1;
  }
  if (decode) {
    printDecodeTable(result, os);
    explainDecodeChoice(result, request, os);
    os << "  seqpar-opt <decode-step graph> --seqpar-pipeline=\""
       << result.ranked.front().config.pipelineOptions(shape) << "\"\n";
    return 0;
  }
  printTable(result, os);
  const RankedPlan &best = result.ranked.front();
  os << llvm::formatv("chosen: {0}: {1:e3} s, {2:f2} GiB per device\n",
                      best.config.str(), best.cost.seconds(),
                      best.cost.memoryBytes() / GiB);
  os << "  seqpar-opt " << inputFile << " --seqpar-pipeline=\""
     << best.config.pipelineOptions(shape) << "\"\n";
  return 0;
}
