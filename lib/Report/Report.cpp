//===- Report.cpp - per-layer report of a per-rank program ----------------===//

#include "seqpar/Report/Report.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "seqpar/Analysis/Activations.h"
#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Analysis/KVCache.h"

#include "mlir/Support/DebugStringHelper.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::seqpar;

static void add(LayerReport &into, const LayerReport &from) {
  into.savedBytes += from.savedBytes;
  for (auto &[rule, bytes] : from.savedByRule)
    into.savedByRule[rule] += bytes;
  for (auto &[key, cost] : from.collectives) {
    into.collectives[key].first += cost.first;
    into.collectives[key].second += cost.second;
  }
  for (auto &[kind, flops] : from.flops)
    into.flops[kind] += flops;
}

static int64_t totalFlops(const LayerReport &report) {
  int64_t sum = 0;
  for (auto &entry : report.flops)
    sum += entry.second;
  return sum;
}

/// Collectives and FLOPs of `op` and the ops nested in it; of an scf.if,
/// the branch with more FLOPs (what the busier ranks run).
static void accumulate(Operation *op, LayerReport &into) {
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    LayerReport best;
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
      LayerReport side;
      for (Block &block : *region)
        for (Operation &nested : block)
          accumulate(&nested, side);
      if (totalFlops(side) >= totalFlops(best))
        best = side;
    }
    add(into, best);
    return;
  }
  if (std::optional<CollectiveCost> cost = collectiveCost(op)) {
    auto &entry = into.collectives[cost->kind + " " + cost->axes];
    entry.first += cost->calls;
    entry.second += cost->bytes;
  }
  if (std::optional<OpFlops> flops = opFlops(op))
    into.flops[flops->kind] += flops->flops;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        accumulate(&nested, into);
}

LogicalResult mlir::seqpar::checkStaticShapes(func::FuncOp func) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || !isa<TensorType, BaseMemRefType>(shaped) ||
           (shaped.hasRank() && shaped.hasStaticShape());
  };
  auto refuse = [&](Location at, const Twine &what, Type type) {
    return emitError(at) << what << " has type " << type
                         << ": seqpar-report needs static shapes (its bytes "
                            "and the FLOPs of the ops on it are sized at "
                            "compile time); export with a fixed batch and "
                            "sequence length";
  };
  WalkResult walk = func.walk([&](Block *block) {
    bool entry = block->getParentOp() == func;
    for (BlockArgument arg : block->getArguments())
      if (!isStatic(arg.getType())) {
        std::string owner =
            entry ? " of @" + func.getName().str() : std::string(" of a block");
        (void)refuse(entry ? func.getLoc() : arg.getLoc(),
                     "argument #" + Twine(arg.getArgNumber()) + owner,
                     arg.getType());
        return WalkResult::interrupt();
      }
    for (Operation &op : *block)
      for (OpResult result : op.getResults())
        if (!isStatic(result.getType())) {
          (void)refuse(op.getLoc(),
                       "result #" + Twine(result.getResultNumber()) + " of '" +
                           op.getName().getStringRef() + "'",
                       result.getType());
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult mlir::seqpar::checkFiguresFit(func::FuncOp func) {
  std::optional<int64_t> bytes = 0, flops = 0, sent = 0;
  // Adds `amount` (nullopt: it does not fit itself) to `total`.
  auto add = [](std::optional<int64_t> &total, std::optional<int64_t> amount,
                Location at, const Twine &what) -> LogicalResult {
    if (amount && total)
      total = llvm::checkedAdd(*total, *amount);
    if (amount && total)
      return success();
    return emitError(at) << what
                         << (amount ? " bring the function's total past "
                                      "2^63 - 1"
                                    : " do not fit in 64 bits")
                         << " (sums built on them would wrap around)";
  };
  for (BlockArgument arg : func.getArguments())
    if (failed(add(bytes, checkedBytes(arg.getType()), func.getLoc(),
                   "the bytes of argument #" + Twine(arg.getArgNumber()) +
                       " (" + debugString(arg.getType()) + ")")))
      return failure();
  WalkResult walk = func.walk([&](Operation *op) {
    for (OpResult result : op->getResults())
      if (failed(add(bytes, checkedBytes(result.getType()), op->getLoc(),
                     "the bytes of result #" + Twine(result.getResultNumber()) +
                         " of '" + op->getName().getStringRef() + "'")))
        return WalkResult::interrupt();
    if (std::optional<OpFlops> f = opFlops(op))
      if (failed(add(flops, f->fits ? std::optional(f->flops) : std::nullopt,
                     op->getLoc(),
                     "the FLOPs of '" + op->getName().getStringRef() + "'")))
        return WalkResult::interrupt();
    if (std::optional<CollectiveCost> c = collectiveCost(op))
      if (failed(add(sent, c->fits ? std::optional(c->bytes) : std::nullopt,
                     op->getLoc(),
                     "the bytes '" + op->getName().getStringRef() + "' sends")))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

FunctionReport mlir::seqpar::buildReport(func::FuncOp func, Recompute recompute,
                                         Operation *backwardStart) {
  FunctionReport report;
  report.name = func.getName().str();
  report.recompute = recompute;
  report.trainingStep = backwardStart != nullptr;
  if (func.getBody().empty())
    return report;
  LayerPartition partition = partitionLayers(func, backwardStart);
  report.layers.resize(partition.numLayers);
  Block &body = func.getBody().front();
  auto bucket = [&](Operation *top) -> LayerReport & {
    int layer = partition.layerOf.lookup(top);
    if (layer < 0)
      return report.head;
    if (layer >= partition.numLayers)
      return report.tail;
    return report.layers[layer];
  };
  for (const SavedTensor &saved :
       backwardStart ? std::vector<SavedTensor>()
                     : computeSavedActivations(func, recompute)) {
    LayerReport &into = bucket(body.findAncestorOpInBlock(*saved.user));
    into.savedBytes += saved.bytes;
    into.savedByRule[saved.rule] += saved.bytes;
  }
  for (Operation &op : body)
    accumulate(&op, bucket(&op));
  add(report.total, report.head);
  for (const LayerReport &layer : report.layers)
    add(report.total, layer);
  add(report.total, report.tail);
  for (BlockArgument cache : findKVCacheArguments(func)) {
    ++report.numKVCaches;
    report.kvCacheBytes += checkedBytes(cache.getType()).value_or(0);
  }
  return report;
}

static void printLayer(StringRef name, const LayerReport &layer,
                       bool trainingStep, llvm::raw_ostream &os) {
  os << name << ":";
  if (!trainingStep)
    os << " saved " << layer.savedBytes << " bytes";
  if (!layer.savedByRule.empty()) {
    os << " (";
    llvm::interleaveComma(layer.savedByRule, os, [&](const auto &entry) {
      os << entry.first << " " << entry.second;
    });
    os << ")";
  }
  os << (trainingStep ? " flops" : "; flops");
  if (layer.flops.empty())
    os << " 0";
  for (auto &[kind, flops] : layer.flops)
    os << " " << kind << " " << flops;
  os << "; collectives";
  if (layer.collectives.empty())
    os << " none";
  for (auto &[key, cost] : layer.collectives)
    os << " " << key << " calls " << cost.first << " bytes " << cost.second;
  os << "\n";
}

void mlir::seqpar::printReport(const FunctionReport &report,
                               llvm::raw_ostream &os) {
  os << "seqpar-report: @" << report.name << ", one rank, "
     << report.layers.size() << " layers; ";
  if (report.trainingStep)
    os << "a training graph: the layers are its forward's, the tail holds "
          "the loss and the whole backward, saved: see 'saved for backward'";
  else
    os << "saved = activation bytes kept for the backward pass (recompute="
       << (report.recompute == Recompute::None ? "none" : "selective")
       << "), not the forward peak";
  os << "; bytes sent per rank (docs/semantics.md, section 5)\n";
  bool training = report.trainingStep;
  printLayer("head", report.head, training, os);
  for (auto [i, layer] : llvm::enumerate(report.layers))
    printLayer("layer " + std::to_string(i), layer, training, os);
  printLayer("tail", report.tail, training, os);
  printLayer("total", report.total, training, os);
  if (report.numKVCaches > 0)
    os << "KV caches: " << report.numKVCaches << " arguments, "
       << report.kvCacheBytes << " bytes on this rank ("
       << llvm::format("%.2f", report.kvCacheBytes / 1e9) << " GB)\n";
  if (report.peak)
    os << (report.trainingStep ? "training-step peak (forward and backward)"
                               : "forward peak")
       << ": " << report.peak->peakBytes << " bytes of buffers live at once ("
       << report.peak->liveAtEnd << " at exit"
       << (report.peak->exact ? "" : "; some sizes unknown") << ")\n";
}

static llvm::json::Value layerToJSON(const LayerReport &layer) {
  llvm::json::Object byRule, flops;
  for (auto &[rule, bytes] : layer.savedByRule)
    byRule[rule] = bytes;
  for (auto &[kind, n] : layer.flops)
    flops[kind] = n;
  llvm::json::Array collectives;
  for (auto &[key, cost] : layer.collectives) {
    size_t space = key.find(' ');
    collectives.push_back(llvm::json::Object{{"kind", key.substr(0, space)},
                                             {"axes", key.substr(space + 1)},
                                             {"calls", cost.first},
                                             {"bytes_sent", cost.second}});
  }
  return llvm::json::Object{{"saved_bytes", layer.savedBytes},
                            {"saved_by_rule", std::move(byRule)},
                            {"flops", std::move(flops)},
                            {"collectives", std::move(collectives)}};
}

llvm::json::Value mlir::seqpar::reportToJSON(const FunctionReport &report) {
  llvm::json::Array layers;
  for (const LayerReport &layer : report.layers)
    layers.push_back(layerToJSON(layer));
  llvm::json::Object result{
      {"function", report.name},
      {"recompute", report.recompute == Recompute::None ? "none" : "selective"},
      {"layers", std::move(layers)},
      {"head", layerToJSON(report.head)},
      {"tail", layerToJSON(report.tail)},
      {"total", layerToJSON(report.total)}};
  if (report.numKVCaches > 0) {
    result["kv_caches"] = report.numKVCaches;
    result["kv_cache_bytes"] = report.kvCacheBytes;
  }
  if (report.peak) {
    result["forward_peak_bytes"] = report.peak->peakBytes;
    result["forward_peak_exact"] = report.peak->exact;
    result["peak_of"] = report.trainingStep ? "training step" : "forward";
  }
  return result;
}
