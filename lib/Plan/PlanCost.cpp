//===- PlanCost.cpp - memory and time of one TP x CP layout ---------------===//
//
// Closed formulas over the ModelShape (docs/planning-auto.md derives each).
// Communication is the alpha-beta model with docs/semantics.md §5's ring
// volumes; a grid axis whose groups stay inside one node uses the node's link.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Plan/Plan.h"

#include "seqpar/Analysis/ByteCounts.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::seqpar;

std::optional<Hardware> mlir::seqpar::hardwarePreset(llvm::StringRef name) {
  // Sustained, not peak, rates: 60% of H100/H200 SXM dense bf16 (989 TFLOP/s)
  // for matmuls and flash attention; elementwise ops are bound by HBM (3.35
  // / 4.8 TB/s, about 2 bytes moved per FLOP). NVLink 4: 450 GB/s one way
  // per GPU, 80% reached by NCCL; InfiniBand NDR: 400 Gb/s per GPU.
  Hardware h100{"h100", 600e12, 1.6e12, 80e9, 8, 3e-6, 360e9, 10e-6, 40e9, 0};
  if (name == "h100")
    return h100;
  if (name == "h200") {
    Hardware h200 = h100;
    h200.name = "h200";
    h200.vectorFlops = 2.4e12;
    h200.memoryBytes = 141e9;
    return h200;
  }
  // This machine: one core per MPI rank with single-threaded OpenBLAS, two
  // ranks exchanging through shared memory (bench/run_runtime_bench.sh).
  if (name == "cpu")
    return Hardware{"cpu", 40e9, 1e9, 8.0 * (1 << 30), 2, 5e-6, 4e9,
                    5e-6,  4e9,  1024};
  return std::nullopt;
}

std::string PlanConfig::str() const {
  std::string text = llvm::formatv("tp={0}{1} cp={2}", tp,
                                   tp > 1 ? (sp ? "+sp" : "") : "", cp);
  if (cp > 1) {
    text += " " + strategy;
    if (strategy == "hybrid")
      text += llvm::formatv("(u={0})", ulysses).str();
    if (strategy != "ulysses")
      text += zigzag ? " zigzag" : " contiguous";
  }
  return text;
}

/// Tokens per CP rank: s padded to a multiple of c (2c with zigzag).
static int64_t localTokens(const ModelShape &shape, const PlanConfig &config) {
  int64_t pieces = config.zigzag ? 2 * config.cp : config.cp;
  return (shape.seq + pieces - 1) / pieces * pieces / config.cp;
}

std::string PlanConfig::pipelineOptions(const ModelShape &shape) const {
  std::string text = llvm::formatv("tp={0} sp={1} cp={2} seq-dim={3}", tp,
                                   sp ? "true" : "false", cp, shape.seqDim);
  if (sp && localTokens(shape, *this) % tp != 0)
    text += " pad=true";
  if (cp > 1) {
    text += " cp-strategy=" + strategy;
    if (strategy == "hybrid")
      text += llvm::formatv(" cp-ulysses={0}", ulysses).str();
    text += zigzag ? " load-balance=zigzag" : " load-balance=none";
    if (shape.seq % (zigzag ? 2 * cp : cp) != 0)
      text += " cp-pad=true";
  }
  return text;
}

std::string mlir::seqpar::figureOutOfRange(const ModelShape &shape,
                                           const PlanRequest &request) {
  int64_t b = shape.batch, s = shape.seq, e = request.elementBytes;
  // Padding adds fewer than 2c tokens (localTokens).
  std::optional<int64_t> padded = llvm::checkedMul(request.devices, int64_t(2));
  if (padded)
    padded = llvm::checkedAdd(s, *padded);
  std::optional<int64_t> params =
      llvm::checkedAdd(shape.matrixParams, shape.vectorParams);
  struct Figure {
    const char *name;
    SmallVector<int64_t> factors;
  };
  Figure figures[] = {
      {"b * (s + 2D) tokens", {b, padded.value_or(-1)}},
      {"one layer's activation bytes b * s * h * e", {b, s, shape.hidden, e}},
      {"the KV cache bytes L * 2 * b * s * a_kv * d * e",
       {shape.layers, 2, b, s, shape.kvHeads, shape.headDim, e}},
      {"the weight bytes with Adam states 16 * parameters",
       {16, params.value_or(-1)}},
      {"the attention's score elements b * a * s * s", {b, shape.heads, s, s}},
  };
  for (const Figure &figure : figures) {
    std::optional<int64_t> value = 1;
    for (int64_t factor : figure.factors)
      value = value && factor >= 0 ? llvm::checkedMul(*value, factor)
                                   : std::nullopt;
    if (!value)
      return llvm::formatv("{0} exceed 2^63 - 1 at s = {1}", figure.name, s);
  }
  return "";
}

/// KV heads on one TP rank: a_kv/t, or one when t is a multiple of a_kv
/// (seqpar's TP planner then keeps the K/V projections whole).
static int64_t localKVHeads(const ModelShape &shape, int64_t tp) {
  return shape.kvHeads % tp == 0 ? shape.kvHeads / tp : 1;
}

std::string mlir::seqpar::configInvalidReason(const ModelShape &shape,
                                              const PlanConfig &config) {
  int64_t t = config.tp, c = config.cp;
  if (shape.heads % t != 0)
    return llvm::formatv("t={0} does not divide the {1} heads", t, shape.heads);
  if (shape.kvHeads % t != 0 && t % shape.kvHeads != 0)
    return llvm::formatv("t={0} and the {1} KV heads do not divide one "
                         "another",
                         t, shape.kvHeads);
  if (c > shape.seq)
    return llvm::formatv("c={0} exceeds the {1} tokens", c, shape.seq);
  int64_t ulysses = config.strategy == "ulysses"  ? c
                    : config.strategy == "hybrid" ? config.ulysses
                                                  : 1;
  if (ulysses > 1 && ((shape.heads / t) % ulysses != 0 ||
                      localKVHeads(shape, t) % ulysses != 0))
    return llvm::formatv("{0} Ulysses ranks do not divide the {1} query and "
                         "{2} KV heads of a TP rank",
                         ulysses, shape.heads / t, localKVHeads(shape, t));
  return "";
}

namespace {
struct Link {
  double alpha, beta;
};
} // namespace

/// The link of a grid axis of `size` ranks `stride` apart (row-major grid,
/// the runtime's rank order): the node's when every group stays in a node.
static Link axisLink(const Hardware &hw, int64_t devices, int64_t stride,
                     int64_t size) {
  for (int64_t rank = 0; rank < devices; ++rank) {
    if ((rank / stride) % size != 0)
      continue; // not the first member of its group
    int64_t last = rank + (size - 1) * stride;
    if (rank / hw.nodeSize != last / hw.nodeSize)
      return {hw.interAlpha, hw.interBeta};
  }
  return {hw.intraAlpha, hw.intraBeta};
}

/// Fraction of the full s x s score square one rank computes for one head
/// group: causal attention computes only the lower triangle (flash-style
/// block skipping), contiguous chunks leave the last rank the most.
static double attentionShare(const ModelShape &shape, const PlanConfig &cfg) {
  int64_t c = cfg.cp;
  if (!shape.causal)
    return 1.0 / c;
  if (c == 1 || cfg.zigzag || cfg.strategy == "ulysses")
    return 1.0 / (2 * c);
  int64_t ring = cfg.strategy == "hybrid" ? c / cfg.ulysses : c;
  return (ring - 0.5) / (double(ring) * ring) / (c / ring);
}

/// The cost of `cfg`, or with `bound` a lower bound for every layout with
/// its t and c: s unpadded, SP, balanced attention, no CP communication,
/// no activations (only what every member holds).
static PlanCost evaluate(const ModelShape &shape, const PlanConfig &cfg,
                         const PlanRequest &request, bool bound) {
  const Hardware &hw = request.hardware;
  bool training = request.workload == Workload::Training;
  double e = request.elementBytes;
  double t = cfg.tp, c = cfg.cp;
  double b = shape.batch, d = shape.headDim, layers = shape.layers;
  double sl = bound ? double(shape.seq) / c : localTokens(shape, cfg);
  double sPadded = sl * c;
  double tokens = b * sl;
  bool kvSplit = shape.kvHeads % cfg.tp == 0;
  double kvHeads = localKVHeads(shape, cfg.tp), heads = shape.heads / t;
  double spShare = cfg.sp || bound ? 1.0 / t : 1.0;
  PlanCost cost;

  // Memory.
  double params = (shape.matrixParams - shape.kvParams) / t +
                  shape.kvParams / (kvSplit ? t : 1.0) + shape.vectorParams;
  cost.weightBytes = params * (training ? 16.0 : e);
  if (!training)
    cost.cacheBytes = layers * 2 * tokens * kvHeads * d * e;
  else
    cost.savedBytes =
        tokens *
        ((shape.savedReplicatedElements * e + shape.savedReplicatedFixedBytes) *
             spShare +
         (shape.savedTensorParallelElements * e +
          shape.savedTensorParallelFixedBytes) /
             t);
  double liveWidth = 0;
  for (const LiveWidths &w : shape.liveFrontier)
    liveWidth = std::max(liveWidth, w.replicated * spShare +
                                        w.gathered * (cfg.sp ? 1 + 1 / t : 1) +
                                        w.tensorParallel / t);
  double kvChunk = 2 * tokens * kvHeads * d * e; // K and V of this rank
  double workspace = 0;
  int64_t u = cfg.strategy == "ulysses"  ? cfg.cp
              : cfg.strategy == "hybrid" ? cfg.ulysses
                                         : 1;
  double ring = c / u;
  if (cfg.strategy == "all-gather")
    workspace = kvChunk * c;
  if (u > 1) // the all-to-all outputs: Q, K, V, and O before it goes back
    workspace += tokens * (2 * heads + 2 * kvHeads) * d * e;
  if (ring > 1) // a K/V chunk in flight, f32 output and LSE accumulators
    workspace += 2 * kvChunk + tokens * heads * (d + 1) * 4;
  if (hw.attentionTile > 0) {
    // Scores of this rank's queries (Ulysses: a/c heads of all s, the same
    // count) against one tile of the keys a step sees.
    double keys = ring > 1 ? sl * u : sPadded;
    workspace +=
        2 * tokens * heads * std::min<double>(hw.attentionTile, keys) * 4;
  }
  cost.transientBytes = tokens * e * liveWidth + workspace;

  // Compute (training: the backward computes twice the forward).
  double passes = training ? 3 : 1;
  double matmul =
      tokens * ((shape.matmulFlopsPerToken - shape.kvMatmulFlopsPerToken) / t +
                shape.kvMatmulFlopsPerToken / (kvSplit ? t : 1.0));
  double share = attentionShare(shape, cfg);
  if (bound)
    share = shape.causal ? 1.0 / (2 * c) : 1.0 / c;
  double attention =
      shape.attentionFlopsPerSeq2 * sPadded * sPadded / t * share;
  double vector = tokens * (shape.replicatedVectorFlopsPerToken * spShare +
                            shape.shardedVectorFlopsPerToken / t);
  cost.computeSeconds = passes * ((matmul + attention) / hw.matmulFlops +
                                  vector / hw.vectorFlops);

  // TP: one all-reduce per row-parallel matmul, or its reduce-scatter +
  // all-gather with SP: the same bytes (docs/semantics.md §5). Backward mirrors
  // them.
  int64_t devices = request.devices;
  if (cfg.tp > 1) {
    Link link = axisLink(hw, devices, cfg.cp, cfg.tp);
    for (int64_t width : shape.rowParallelWidths) {
      double full = tokens * width * e;
      cost.tpCommSeconds += (training ? 2 : 1) * 2 * (t - 1) *
                            (link.alpha + full / t / link.beta);
      cost.bytesSent += (training ? 2 : 1) *
                        estimateBytesSent(CollectiveKind::AllReduce, full, t);
    }
  }

  // CP, per layer: Ulysses' four all-to-alls (Q, K, V out, O back) on the
  // innermost axis, then the ring's c/u - 1 K/V shifts, each hidden behind
  // one step of attention compute; all-gather-KV is not overlapped. The
  // backward repeats the all-to-alls and the all-gather (as a
  // reduce-scatter of dK, dV); its ring sends K/V and dK/dV behind twice
  // the compute.
  if (bound) {
    cost.savedBytes = cost.transientBytes = 0;
    return cost;
  }
  if (cfg.cp > 1) {
    double mirrored = training ? 2 : 1;
    double seconds = 0, bytes = 0;
    if (u > 1) {
      Link link = axisLink(hw, devices, 1, u);
      double local = tokens * (2 * heads + 2 * kvHeads) * d * e;
      double sent = estimateBytesSent(CollectiveKind::AllToAll, local, u);
      seconds += mirrored * (4 * (u - 1) * link.alpha + sent / link.beta);
      bytes += mirrored * sent;
    }
    if (cfg.strategy == "all-gather") {
      Link link = axisLink(hw, devices, 1, cfg.cp);
      double sent =
          estimateBytesSent(CollectiveKind::AllGather, kvChunk * c, c);
      seconds += mirrored * (2 * (c - 1) * link.alpha + sent / link.beta);
      bytes += mirrored * sent;
    } else if (ring > 1) {
      Link link = axisLink(hw, devices, u, int64_t(ring));
      double stepCompute = attention / hw.matmulFlops / layers / ring;
      auto exposed = [&](double chunk, double compute) {
        return (ring - 1) *
               std::max(0.0, link.alpha + chunk / link.beta - compute);
      };
      seconds += exposed(kvChunk, stepCompute);
      bytes +=
          (ring - 1) * estimateBytesSent(CollectiveKind::Shift, kvChunk, ring);
      if (training) {
        seconds += exposed(2 * kvChunk, 2 * stepCompute);
        bytes += (ring - 1) *
                 estimateBytesSent(CollectiveKind::Shift, 2 * kvChunk, ring);
      }
    }
    cost.cpCommSeconds = seconds * layers;
    cost.bytesSent += bytes * layers;
  }
  return cost;
}

PlanCost mlir::seqpar::evaluatePlan(const ModelShape &shape,
                                    const PlanConfig &config,
                                    const PlanRequest &request) {
  return evaluate(shape, config, request, /*bound=*/false);
}

PlanCost mlir::seqpar::familyLowerBound(const ModelShape &shape, int64_t tp,
                                        int64_t cp,
                                        const PlanRequest &request) {
  PlanConfig config;
  config.tp = tp;
  config.cp = cp;
  config.sp = tp > 1;
  return evaluate(shape, config, request, /*bound=*/true);
}
