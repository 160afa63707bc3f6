//===- PlanCost.cpp - memory and time of one TP x CP layout ---------------===//
//
// Closed formulas over the ModelShape (docs/planning-auto.md derives each).
// Communication is the alpha-beta model with docs/semantics.md §5's ring
// volumes; a grid axis whose groups stay inside one node uses the node's link.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Plan/Plan.h"

#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Pipelines/Pipelines.h"

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
  Hardware h100{"h100", 600e12, 1.6e12, 80e9, 8, 3e-6, 360e9, 10e-6, 40e9};
  h100.memoryBandwidth = 3.35e12;
  if (name == "h100")
    return h100;
  if (name == "h200") {
    Hardware h200 = h100;
    h200.name = "h200";
    h200.vectorFlops = 2.4e12;
    h200.memoryBytes = 141e9;
    h200.memoryBandwidth = 4.8e12;
    return h200;
  }
  // This machine: one core per MPI rank with single-threaded OpenBLAS, two
  // ranks exchanging through shared memory (bench/run_runtime_bench.sh);
  // one core streams about 10 GB/s from DRAM (an assumption, not measured:
  // the machine is shared).
  if (name == "cpu") {
    Hardware cpu{"cpu", 40e9, 1e9, 8.0 * (1 << 30), 2, 5e-6, 4e9, 5e-6, 4e9};
    cpu.attentionQueryTile = kDefaultAttentionQTile;
    cpu.attentionTile = kDefaultAttentionKvTile;
    cpu.attentionBackwardTile = kDefaultAttentionBackwardTile;
    cpu.memoryBandwidth = 10e9;
    return cpu;
  }
  return std::nullopt;
}

std::string PlanConfig::str() const {
  if (decode)
    return llvm::formatv("tp={0} dcp={1}{2}{3}", tp, cp, cp > 1 ? " " : "",
                         cp > 1 ? merge : "");
  std::string text = llvm::formatv("tp={0}{1} cp={2}", tp,
                                   tp > 1 ? (sp ? "+sp" : "") : "", cp);
  if (cp > 1) {
    text += " " + strategy;
    if (strategy == "hybrid")
      text += llvm::formatv("(u={0})", ulysses).str();
    if (strategy != "ulysses")
      text += zigzag ? " zigzag" : " contiguous";
    if (keepKV && (strategy == "ring" || strategy == "hybrid"))
      text += " keep-kv";
  }
  return text;
}

/// Tokens per CP rank: s padded to a multiple of c (2c with zigzag).
static int64_t localTokens(const ModelShape &shape, const PlanConfig &config) {
  int64_t pieces = config.zigzag ? 2 * config.cp : config.cp;
  return (shape.seq + pieces - 1) / pieces * pieces / config.cp;
}

std::string PlanConfig::pipelineOptions(const ModelShape &shape) const {
  // A decode step: no SP over its few tokens.
  if (decode)
    return cp > 1 ? llvm::formatv("tp={0} dcp={1} dcp-merge={2}", tp, cp, merge)
                        .str()
                  : llvm::formatv("tp={0} sp=false", tp).str();
  std::string text = llvm::formatv("tp={0} sp={1} cp={2} seq-dim={3}", tp,
                                   sp ? "true" : "false", cp, shape.seqDim);
  if (sp && localTokens(shape, *this) % tp != 0)
    text += " pad=true";
  if (cp > 1) {
    text += " cp-strategy=" + strategy;
    if (strategy == "hybrid")
      text += llvm::formatv(" cp-ulysses={0}", ulysses).str();
    text += zigzag ? " load-balance=zigzag" : " load-balance=none";
    if (keepKV && (strategy == "ring" || strategy == "hybrid"))
      text += " cp-keep-kv=true";
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

int64_t mlir::seqpar::kvHeadsPerRank(const ModelShape &shape, int64_t tp) {
  return shape.kvHeads % tp == 0 ? shape.kvHeads / tp : 1;
}

double mlir::seqpar::weightElementsPerRank(const ModelShape &shape,
                                           int64_t tp) {
  double t = tp;
  bool kvSplit = shape.kvHeads % tp == 0;
  return (shape.matrixParams - shape.kvParams) / t +
         shape.kvParams / (kvSplit ? t : 1.0) + shape.vectorParams;
}

/// Matmul FLOPs per token on one TP rank: the K/V projections split only
/// when t divides a_kv.
static double matmulFlopsPerRank(const ModelShape &shape, int64_t tp) {
  double t = tp;
  bool kvSplit = shape.kvHeads % tp == 0;
  return (shape.matmulFlopsPerToken - shape.kvMatmulFlopsPerToken) / t +
         shape.kvMatmulFlopsPerToken / (kvSplit ? t : 1.0);
}

/// Why TP size `t` cannot split `shape`'s heads (empty: it can).
static std::string headsInvalidReason(const ModelShape &shape, int64_t t) {
  if (shape.heads % t != 0)
    return llvm::formatv("t={0} does not divide the {1} heads", t, shape.heads);
  if (shape.kvHeads % t != 0 && t % shape.kvHeads != 0)
    return llvm::formatv("t={0} and the {1} KV heads do not divide one "
                         "another",
                         t, shape.kvHeads);
  return "";
}

std::string mlir::seqpar::configInvalidReason(const ModelShape &shape,
                                              const PlanConfig &config) {
  int64_t t = config.tp, c = config.cp;
  if (std::string why = headsInvalidReason(shape, t); !why.empty())
    return why;
  if (c > shape.seq)
    return llvm::formatv("c={0} exceeds the {1} tokens", c, shape.seq);
  // seqpar's TP planner leaves a training graph's attention replicated
  // when t splits K/V heads across ranks (docs/training-graphs.md, "What
  // the passes do with training graphs").
  if (shape.trainingGraph && shape.kvHeads % t != 0)
    return llvm::formatv("t={0} does not divide the {1} KV heads of a "
                         "training graph",
                         t, shape.kvHeads);
  int64_t ulysses = config.strategy == "ulysses"  ? c
                    : config.strategy == "hybrid" ? config.ulysses
                                                  : 1;
  if (ulysses > 1 && ((shape.heads / t) % ulysses != 0 ||
                      kvHeadsPerRank(shape, t) % ulysses != 0))
    return llvm::formatv("{0} Ulysses ranks do not divide the {1} query and "
                         "{2} KV heads of a TP rank",
                         ulysses, shape.heads / t, kvHeadsPerRank(shape, t));
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

namespace {

/// The collectives of one layout: calls and bytes sent per rank by kind
/// and grid axes (getBytesSent's convention, docs/semantics.md §5).
struct Traffic {
  std::vector<CollectiveVolume> volumes;
  double bytes = 0;

  /// `calls` calls of `kind` over `group` ranks of `axes`, each of N = `n`
  /// bytes as the runtime's counters take it (ByteCounts.h).
  void add(CollectiveKind kind, StringRef axes, double calls, double n,
           double group) {
    if (calls <= 0 || group <= 1)
      return;
    double sent = calls * estimateBytesSent(kind, n, group);
    auto it = llvm::find_if(volumes, [&](const CollectiveVolume &v) {
      return v.kind == kind && v.axes == axes;
    });
    if (it == volumes.end()) {
      volumes.push_back(CollectiveVolume{kind, axes.str(), 0, 0});
      it = std::prev(volumes.end());
    }
    it->calls += calls;
    it->bytes += sent;
    bytes += sent;
  }
};

} // namespace

/// Seconds of one collective of N = `n` bytes over `group` ranks on `link`
/// with ring algorithms (Hockney's alpha-beta model; docs/semantics.md §5):
/// an all-reduce is a reduce-scatter and an all-gather, 2(g-1) steps of
/// n/g bytes; all-gather, reduce-scatter and all-to-all g-1 such steps; a
/// shift one message of n bytes.
static double callSeconds(CollectiveKind kind, double n, double group,
                          Link link) {
  if (group <= 1)
    return 0;
  switch (kind) {
  case CollectiveKind::AllReduce:
    return 2 * (group - 1) * (link.alpha + n / group / link.beta);
  case CollectiveKind::AllGather:
  case CollectiveKind::ReduceScatter:
  case CollectiveKind::AllToAll:
    return (group - 1) * (link.alpha + n / group / link.beta);
  case CollectiveKind::Shift:
    return link.alpha + n / link.beta;
  }
  return 0;
}

/// Whether a parameter of `shape` is split over t TP ranks.
static bool parameterSplit(const ModelShape &shape, const Parameter &p,
                           int64_t t) {
  switch (p.split) {
  case ParameterSplit::Always:
    return true;
  case ParameterSplit::KVHeads:
    return shape.kvHeads % t == 0;
  case ParameterSplit::Rows:
    return p.rows > 0 && p.rows % t == 0;
  case ParameterSplit::Never:
    return false;
  }
  return false;
}

/// The TP axis's collectives of one layout with SP on or off; their
/// seconds, all exposed. `tokens` = b s_l.
///  - Prefill: one all-reduce per row-parallel matmul of N = b s_l w e (w
///    its output width), or with SP its reduce-scatter and an all-gather of
///    the same N (docs/semantics.md §5: the same bytes).
///  - Training (docs/training-graphs.md, "What the passes do"): without SP
///    an all-reduce per row-parallel matmul (forward) and per distinct
///    column-parallel input (backward, its input gradient; the projections
///    that read one value send one, seqpar-combine-all-reduces), and per
///    vocab-parallel embedding lookup (forward). Megatron SP (Korthikanti
///    et al. 2022, section 4.2.2): a row-parallel matmul is reduce-scattered
///    in forward and its output gradient all-gathered in backward; a column
///    input is all-gathered in forward and again in backward (saved sharded,
///    the pipelines' default) when SP has sharded it, and its gradient
///    reduce-scattered (all-reduced for the attention's input with
///    `attentionAllReduced`); a lookup reduce-scattered, its gradient gathered;
///    and every replicated parameter's gradient, summed over this rank's
///    tokens, all-reduced once per forward use (docs/semantics.md §10).
static double addTensorParallel(Traffic &traffic, const ModelShape &shape,
                                const PlanConfig &cfg, bool sp, bool training,
                                bool attentionAllReduced, double tokens,
                                double e, Link link) {
  double t = cfg.tp;
  if (cfg.tp <= 1)
    return 0;
  double seconds = 0;
  auto add = [&](CollectiveKind kind, double width, double calls = 1) {
    double n = tokens * width * e;
    traffic.add(kind, "[0]", calls, n, t);
    seconds += calls * callSeconds(kind, n, t, link);
  };
  using K = CollectiveKind;
  if (!training) {
    for (int64_t width : shape.rowParallelWidths) {
      if (sp) {
        add(K::ReduceScatter, width);
        add(K::AllGather, width);
      } else {
        add(K::AllReduce, width);
      }
    }
    return seconds;
  }
  for (int64_t width : shape.rowParallelWidths) {
    add(sp ? K::ReduceScatter : K::AllReduce, width);
    if (sp)
      add(K::AllGather, width);
  }
  for (const ColumnInput &input : shape.columnInputs) {
    if (input.vocab > 0 && input.vocab % cfg.tp != 0)
      continue; // an LM head left replicated
    bool scattered = sp && !(input.attention && attentionAllReduced);
    add(scattered ? K::ReduceScatter : K::AllReduce, input.width);
    if (sp && input.sequenceSharded)
      add(K::AllGather, input.width, 2);
  }
  for (const Lookup &lookup : shape.lookups) {
    if (lookup.rows % cfg.tp != 0)
      continue;
    add(sp ? K::ReduceScatter : K::AllReduce, lookup.width);
    if (sp)
      add(K::AllGather, lookup.width);
  }
  if (sp)
    for (const Parameter &p : shape.parameters)
      if (!parameterSplit(shape, p, cfg.tp)) {
        double n = p.elements * e;
        traffic.add(K::AllReduce, "[0]", p.forwardUses, n, t);
        seconds += p.forwardUses * callSeconds(K::AllReduce, n, t, link);
      }
  return seconds;
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
  double kvHeads = kvHeadsPerRank(shape, cfg.tp), heads = shape.heads / t;
  double spShare = cfg.sp || bound ? 1.0 / t : 1.0;
  PlanCost cost;
  int64_t u = cfg.strategy == "ulysses"  ? cfg.cp
              : cfg.strategy == "hybrid" ? cfg.ulysses
                                         : 1;
  double ring = c / u;
  bool keepKV = cfg.keepKV && ring > 1;
  // Ring steps (ring, hybrid) attend one received K/V block at a time;
  // all-gather attends the gathered K/V as one block.
  bool ringSteps = ring > 1 && cfg.strategy != "all-gather";
  // One K or V block of this rank (a hybrid ring moves u s_l tokens of
  // a_kv'/u heads: the same count), at e bytes and in f32 (the backward's
  // dK, dV accumulators, docs/context-parallelism.md).
  double kvBlock = tokens * kvHeads * d * e;
  double kvBlockF32 = tokens * kvHeads * d * 4;
  double kvChunk = 2 * kvBlock; // K and V of this rank

  // Memory.
  cost.weightBytes = weightElementsPerRank(shape, cfg.tp) * (training ? 16.0 : e);
  if (!training)
    cost.cacheBytes = layers * 2 * tokens * kvHeads * d * e;
  else
    cost.savedBytes =
        tokens *
        ((shape.savedReplicatedElements * e + shape.savedReplicatedFixedBytes) *
             spShare +
         (shape.savedLeadingElements * e + shape.savedLeadingFixedBytes) +
         (shape.savedTensorParallelElements * e +
          shape.savedTensorParallelFixedBytes) /
             t) +
        shape.savedUntokenedBytes +
        shape.savedVocabBytes /
            (shape.savedVocab > 0 && shape.savedVocab % cfg.tp == 0 ? t : 1);
  if (training && cfg.cp > 1) {
    // Per attention, beyond the single-device program's saved tensors
    // (docs/context-parallelism.md, "Training: the attention backward"):
    // the rows' two-part f32 LSE, which a training graph's own backward
    // recomputes (the save rules count it already); Ulysses' head-sharded
    // output beside the token-sharded one the output projection reads;
    // with keep-kv the r-1 K/V blocks received in forward.
    double perLayer = 0;
    if (shape.trainingGraph)
      perLayer += 2 * tokens * heads * 4;
    if (u > 1)
      perLayer += tokens * heads * d * e;
    if (keepKV)
      perLayer += (ring - 1) * kvChunk;
    cost.savedBytes += layers * perLayer;
  }
  double liveWidth = 0;
  for (const LiveWidths &w : shape.liveFrontier)
    liveWidth = std::max(liveWidth, w.replicated * spShare +
                                        w.gathered * (cfg.sp ? 1 + 1 / t : 1) +
                                        w.tensorParallel / t);
  double workspace = 0;
  if (cfg.strategy == "all-gather")
    workspace = kvChunk * c;
  if (u > 1) // the all-to-all outputs: Q, K, V, and O before it goes back
    workspace += tokens * (2 * heads + 2 * kvHeads) * d * e;
  if (ringSteps) // a K/V chunk in flight, f32 output and LSE accumulators
    workspace += 2 * kvChunk + tokens * heads * (d + 1) * 4;
  if (hw.attentionTile > 0) {
    // Scores of one tile of this rank's queries against one tile of the
    // keys a step sees: [b, r, q tile, kv tile] f32, r the query heads of
    // one K/V head (tiles are taken per K/V head). Per head a rank's
    // attention has s_l query rows (Ulysses: u s_l, all s of a/u heads).
    double rows = sl * u;
    double keys = ringSteps ? sl * u : sPadded;
    double groupHeads = kvHeads > 1 ? heads / kvHeads : heads;
    auto scoreTiles = [&](double count, int64_t queryTile, int64_t keyTile) {
      double queries = queryTile > 0 ? std::min<double>(queryTile, rows) : rows;
      return count * b * groupHeads * queries *
             std::min<double>(keyTile, keys) * 4;
    };
    double tiles = scoreTiles(2, hw.attentionQueryTile, hw.attentionTile);
    if (training) {
      // The backward's P, dP and dS, square tiles live after the forward's
      // are freed (docs/runtime-and-run.md, "Attention tiles").
      int64_t tile = hw.attentionBackwardTile > 0 ? hw.attentionBackwardTile
                                                  : hw.attentionTile;
      tiles = std::max(tiles, scoreTiles(3, tile, tile));
    }
    workspace += tiles;
  }
  cost.transientBytes = tokens * e * liveWidth + workspace;

  // Compute (training: the backward computes twice the forward).
  double passes = training ? 3 : 1;
  double matmul = tokens * matmulFlopsPerRank(shape, cfg.tp);
  double share = attentionShare(shape, cfg);
  if (bound)
    share = shape.causal ? 1.0 / (2 * c) : 1.0 / c;
  double attention =
      shape.attentionFlopsPerSeq2 * sPadded * sPadded / t * share;
  double vector = tokens * (shape.replicatedVectorFlopsPerToken * spShare +
                            shape.shardedVectorFlopsPerToken / t);
  cost.computeSeconds = passes * ((matmul + attention) / hw.matmulFlops +
                                  vector / hw.vectorFlops);

  // TP on grid axis 0 (addTensorParallel). The bound takes the cheaper of
  // SP on and off: with training's re-gathers SP sends more.
  int64_t devices = request.devices;
  Traffic traffic;
  if (cfg.tp > 1) {
    Link link = axisLink(hw, devices, cfg.cp, cfg.tp);
    if (bound) {
      Traffic unused;
      cost.tpCommSeconds = std::min(
          addTensorParallel(unused, shape, cfg, true, training, false, tokens,
                            e, link),
          addTensorParallel(unused, shape, cfg, false, training, false,
                            tokens, e, link));
    } else {
      // With SP under a ring or all-gather CP the pipeline all-reduces the
      // attention input's gradient (ColumnInput::attention).
      bool attentionAllReduced = cfg.cp > 1 && u == 1;
      cost.tpCommSeconds =
          addTensorParallel(traffic, shape, cfg, cfg.sp, training,
                            attentionAllReduced, tokens, e, link);
    }
  }
  if (bound) {
    cost.savedBytes = cost.transientBytes = 0;
    return cost;
  }

  // CP, per layer, on grid axis 1 (hybrid: the ring on axis 1, Ulysses on
  // axis 2). Ulysses' four all-to-alls (Q, K, V out, O back); the ring's
  // r - 1 K/V shifts, each hidden behind one step of attention compute;
  // all-gather-KV, not overlapped. Training adds the backward
  // (docs/context-parallelism.md, "Training: the attention backward"):
  // Ulysses' conjugate all-to-alls (dO out, dQ, dK, dV back); the ring's
  // r - 1 K/V blocks again (none with keep-kv) and r f32 dK/dV blocks on
  // their way home, each step's transfers behind its block backward (2.5
  // times the forward's contractions, AttentionFlops.h) but for the last
  // dK/dV hop; all-gather-KV's gather again and an f32 reduce-scatter of
  // dK and dV. Then every parameter gradient, summed over this rank's
  // tokens, is all-reduced over all CP axes once per forward use
  // (docs/context-parallelism.md, "Reductions over the sequence").
  if (cfg.cp > 1) {
    using K = CollectiveKind;
    bool hybrid = cfg.strategy == "hybrid";
    StringRef ringAxes = "[1]", ulyssesAxes = hybrid ? "[2]" : "[1]",
              cpAxes = hybrid ? "[1,2]" : "[1]";
    double seconds = 0;
    auto add = [&](K kind, StringRef axes, double calls, double n,
                   double group, Link link) {
      traffic.add(kind, axes, calls * layers, n, group);
      seconds += calls * callSeconds(kind, n, group, link);
    };
    if (u > 1) {
      Link link = axisLink(hw, devices, 1, u);
      double q = tokens * heads * d * e, kv = tokens * kvHeads * d * e;
      for (double n : {q, kv, kv, q})
        add(K::AllToAll, ulyssesAxes, training ? 2 : 1, n, u, link);
    }
    if (cfg.strategy == "all-gather") {
      Link link = axisLink(hw, devices, 1, cfg.cp);
      add(K::AllGather, cpAxes, training ? 4 : 2, c * kvBlock, c, link);
      if (training)
        add(K::ReduceScatter, cpAxes, 2, c * kvBlockF32, c, link);
    } else if (ring > 1) {
      Link link = axisLink(hw, devices, u, int64_t(ring));
      double stepCompute = attention / hw.matmulFlops / layers / ring;
      auto exposed = [&](double chunk, double compute) {
        return std::max(0.0, link.alpha + chunk / link.beta - compute);
      };
      traffic.add(K::Shift, ringAxes, 2 * (ring - 1) * layers, kvBlock, ring);
      seconds += (ring - 1) * exposed(kvChunk, stepCompute);
      if (training) {
        double kvAgain = keepKV ? 0 : 2 * (ring - 1);
        traffic.add(K::Shift, ringAxes, kvAgain * layers, kvBlock, ring);
        traffic.add(K::Shift, ringAxes, 2 * ring * layers, kvBlockF32, ring);
        seconds +=
            (ring - 1) * exposed((keepKV ? 0 : kvChunk) + 2 * kvBlockF32,
                                 2.5 * stepCompute) +
            link.alpha + 2 * kvBlockF32 / link.beta;
      }
    }
    cost.cpCommSeconds = seconds * layers;
    if (training) {
      Link link = axisLink(hw, devices, 1, cfg.cp);
      for (const Parameter &p : shape.parameters) {
        double n = p.elements / (parameterSplit(shape, p, cfg.tp) ? t : 1) * e;
        traffic.add(K::AllReduce, cpAxes, p.forwardUses, n, c);
        cost.cpCommSeconds +=
            p.forwardUses * callSeconds(K::AllReduce, n, c, link);
      }
    }
  }
  cost.bytesSent = traffic.bytes;
  cost.collectives = std::move(traffic.volumes);
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

std::string mlir::seqpar::decodeConfigInvalidReason(const ModelShape &shape,
                                                    const PlanConfig &config,
                                                    const PlanRequest &request) {
  int64_t t = config.tp, n = config.cp;
  if (std::string why = headsInvalidReason(shape, t); !why.empty())
    return why;
  // seqpar-decode-context-parallel gives every rank L_max/N whole slots.
  if (request.decodeSlots % n != 0)
    return llvm::formatv("N={0} does not divide the {1} cache slots", n,
                         request.decodeSlots);
  if (config.merge == "all-to-all" && (shape.heads / t) % n != 0)
    return llvm::formatv("the all-to-all merge needs the {0} heads of a TP "
                         "rank divisible by N={1}",
                         shape.heads / t, n);
  return "";
}

/// One decode step (docs/planning-auto.md, "Decode"): b T new tokens of
/// every layer against L_max/N cache slots per rank (seqpar's decode rewrite
/// attends over all of them, whatever L). The step is bound by the larger of
/// its contractions and reading the rank's weights and its heads' slots;
/// the TP all-reduces (no SP over T tokens) and the DCP merge are exposed.
/// The merge sends f32 partials (out [b, a/t, T, d], row max and sum
/// [b, a/t, T]) per layer: all-gathered whole, or exchanged by an all-to-all
/// over heads and the merged out and sum all-gathered (docs/decode.md).
PlanCost mlir::seqpar::evaluateDecodePlan(const ModelShape &shape,
                                          const PlanConfig &cfg,
                                          const PlanRequest &request) {
  const Hardware &hw = request.hardware;
  double e = request.elementBytes;
  double t = cfg.tp, n = cfg.cp;
  double b = shape.batch, d = shape.headDim, layers = shape.layers;
  double tokens = b * request.decodeTokens;
  double slots = double(request.decodeSlots) / n;
  double heads = shape.heads / t;
  PlanCost cost;

  // Memory: the TP planner splits a cache argument over heads with its K/V
  // projection, so a TP rank holds a_kv/t heads of its slots when t
  // divides a_kv, and all a_kv heads (each rank reading its own by a
  // slice) when it does not (docs/decode.md).
  cost.weightBytes = weightElementsPerRank(shape, cfg.tp) * e;
  double cacheHeads = shape.kvHeads % cfg.tp == 0
                          ? double(shape.kvHeads / cfg.tp)
                          : double(shape.kvHeads);
  double cacheBytesPerSlot = layers * 2 * b * cacheHeads * d * e;
  cost.cacheBytes = cacheBytesPerSlot * slots;
  double liveWidth = 0;
  for (const LiveWidths &w : shape.liveFrontier)
    liveWidth = std::max(liveWidth,
                         w.replicated + w.gathered + w.tensorParallel / t);
  double partial = tokens * heads * (d + 2) * 4;
  cost.transientBytes = tokens * e * liveWidth + n * partial;
  cost.capacityTokens =
      std::max(0.0, (request.memoryBudgetBytes - cost.weightBytes -
                     cost.transientBytes) /
                        cacheBytesPerSlot * n);

  // Compute: contractions against reading the weights and this rank's
  // heads' slots, whichever is slower (a roofline).
  double matmul = tokens * matmulFlopsPerRank(shape, cfg.tp);
  double attention = shape.attentionFlopsPerSeq2 / t *
                     request.decodeTokens * slots;
  double readBytes = cost.weightBytes + layers * 2 * b *
                                            kvHeadsPerRank(shape, cfg.tp) *
                                            slots * d * e;
  double vector = tokens * (shape.replicatedVectorFlopsPerToken +
                            shape.shardedVectorFlopsPerToken / t);
  cost.computeSeconds =
      std::max((matmul + attention) / hw.matmulFlops,
               readBytes / hw.memoryBandwidth) +
      vector / hw.vectorFlops;

  Traffic traffic;
  int64_t devices = request.devices;
  if (cfg.tp > 1)
    cost.tpCommSeconds = addTensorParallel(
        traffic, shape, cfg, /*sp=*/false, /*training=*/false,
        /*attentionAllReduced=*/false, tokens, e,
        axisLink(hw, devices, cfg.cp, cfg.tp));
  if (cfg.cp > 1) {
    using K = CollectiveKind;
    Link link = axisLink(hw, devices, 1, cfg.cp);
    double out = tokens * heads * d * 4, rows = tokens * heads * 4;
    auto add = [&](K kind, double size) {
      traffic.add(kind, "[1]", layers, size, n);
      cost.cpCommSeconds += layers * callSeconds(kind, size, n, link);
    };
    if (cfg.merge == "all-to-all") {
      for (double size : {out, rows, rows})
        add(K::AllToAll, size);
      add(K::AllGather, out);
      add(K::AllGather, rows);
    } else {
      for (double size : {out, rows, rows})
        add(K::AllGather, n * size);
    }
  }
  cost.bytesSent = traffic.bytes;
  cost.collectives = std::move(traffic.volumes);
  return cost;
}
