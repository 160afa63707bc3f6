//===- Plan.h - choose TP size, SP, CP size and strategy ---------*- C++
//-*-===//
//
// seqpar-plan-auto's model: one model replica on D devices used as a grid
// [t, c] (TP x CP; hybrid: [t, c/u, u]), a per-device memory budget, and an
// alpha-beta cost model of the forward pass (and, for training, of the
// backward pass and the Adam states). The model's shape, parameters, FLOPs
// and activation widths are read from the single-device graph; the costs of
// one layout are closed formulas of them (docs/planning-auto.md).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_PLAN_PLAN_H
#define SEQPAR_PLAN_PLAN_H

#include "seqpar/Analysis/ByteCounts.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::seqpar {

/// Activation elements per token live at one program point of the forward
/// pass, split by how TP x SP shards them.
struct LiveWidths {
  /// Outside the TP region ([b, s, h] residual-stream tensors): whole on
  /// every TP rank without SP, a 1/t sequence shard with SP.
  double replicated = 0;
  /// Inputs of a column-parallel matmul: whole on every TP rank, also with
  /// SP (the all-gather's output).
  double gathered = 0;
  /// Inside the TP region (heads, MLP width): 1/t on every rank.
  double tensorParallel = 0;
};

/// How seqpar's TP planner splits a parameter, and with it its gradient.
enum class ParameterSplit {
  /// A planned block's weight, or a bias inside its TP region: 1/t.
  Always,
  /// A K/V projection's weight: 1/t when t divides a_kv, else whole.
  KVHeads,
  /// An embedding table or an LM head (vocab-parallel): 1/t when t divides
  /// `rows` (the vocabulary), else whole.
  Rows,
  /// Norm gains and biases, row-parallel biases, position tables: whole.
  Never,
};

/// One floating-point parameter (an argument that is not an activation).
struct Parameter {
  int64_t elements = 0;
  /// Forward ops that read it (through views). In a training graph each
  /// such use gives a gradient summed over the tokens, which CP (and, for a
  /// replicated parameter, SP) all-reduces once
  /// (docs/context-parallelism.md, "Reductions over the sequence").
  int64_t forwardUses = 0;
  ParameterSplit split = ParameterSplit::Never;
  int64_t rows = 0; // ParameterSplit::Rows: the vocabulary
};

/// One distinct input of column-parallel matmuls (the projections that read
/// one norm output share it): gathered before them under SP, its gradient
/// all-reduced (reduce-scattered under SP) in backward.
struct ColumnInput {
  int64_t width = 0; // elements per token
  /// Sequence-sharded under SP: false while a value is computed from the
  /// replicated arguments only (the first layer's norm of an input that is
  /// an argument), before any row-parallel matmul or embedding lookup.
  bool sequenceSharded = true;
  /// An LM head's input (a column-parallel matmul no row-parallel one
  /// closes): vocab-parallel only when t divides this width; 0 otherwise.
  int64_t vocab = 0;
  /// The Q, K, V projections read it: with SP and a ring or all-gather CP
  /// its gradient is all-reduced, not reduce-scattered (after the CP
  /// rewrite it no longer carries the sequence dim SP follows).
  bool attention = false;
};

/// An embedding lookup (a generic reading a table parameter at the token
/// ids): vocab-parallel when t divides the table's rows, its output then
/// all-reduced (reduce-scattered under SP).
struct Lookup {
  int64_t width = 0; // elements per token of the output
  int64_t rows = 0;
};

/// What the planner reads from the single-device graph. FLOPs and widths
/// are per token (linear in s and b) except attention's, per s^2.
struct ModelShape {
  std::string entry;
  int64_t layers = 0;  // seqpar.attention ops (after raising)
  int64_t batch = 0;   // b
  int64_t seq = 0;     // s
  int64_t seqDim = 0;  // the sequence dim of the first argument
  int64_t hidden = 0;  // h (elements per token of the graph's input)
  int64_t heads = 0;   // a
  int64_t kvHeads = 0; // a_kv
  int64_t headDim = 0; // d
  bool causal = false;
  /// Weight elements: matrices (split by TP), of which the K/V projections
  /// (split only when t divides a_kv, else replicated as seqpar's TP
  /// planner does), and vectors (norm scales, biases: replicated).
  int64_t matrixParams = 0, kvParams = 0, vectorParams = 0;
  /// Forward FLOPs per token: matmuls (2 x iteration space), of which the
  /// K/V projections; elementwise and reductions outside / inside the TP
  /// region.
  double matmulFlopsPerToken = 0, kvMatmulFlopsPerToken = 0;
  double replicatedVectorFlopsPerToken = 0, shardedVectorFlopsPerToken = 0;
  /// Attention FLOPs per s^2 (4 b a d per layer, the full square).
  double attentionFlopsPerSeq2 = 0;
  /// Output widths (elements per token) of the row-parallel matmuls: each
  /// is one TP all-reduce (or reduce-scatter + all-gather with SP).
  std::vector<int64_t> rowParallelWidths;
  /// The Pareto frontier of LiveWidths over the forward's program points.
  std::vector<LiveWidths> liveFrontier;
  /// Activations kept for the backward pass per token, all layers, by
  /// region: elements (at the workload's element size) plus bytes of a
  /// fixed size (dropout masks 1 byte, the LSE 4 bytes per element).
  /// Replicated ones are kept as 1/t shards with SP (Korthikanti et al.
  /// 2022, section 4.2.2).
  double savedReplicatedElements = 0, savedReplicatedFixedBytes = 0;
  double savedTensorParallelElements = 0, savedTensorParallelFixedBytes = 0;

  /// The graph is a training graph (loss and gradients, docs/training-
  /// graphs.md): everything above is read from its forward part, and the
  /// saved figures from what the joint program keeps for its backward
  /// (lib/Analysis/SavedForBackward) after the attention and its backward
  /// are raised as seqpar-pipeline raises them.
  bool trainingGraph = false;
  /// Training graph: saved tensors outside the TP region that SP does not
  /// shard (computed from the replicated arguments only), per token; and
  /// tensors without a token dim (the loss), bytes as stored.
  double savedLeadingElements = 0, savedLeadingFixedBytes = 0;
  double savedUntokenedBytes = 0;
  /// Of those, tensors with a dim of the vocabulary `savedVocab` (an iota
  /// for a one-hot): split by the vocab-parallel head when t divides it.
  double savedVocabBytes = 0;
  int64_t savedVocab = 0;
  std::vector<Parameter> parameters;
  std::vector<ColumnInput> columnInputs;
  std::vector<Lookup> lookups;
};

/// Reads `entry` (or the first function with a body) of a single-device
/// graph: tosa is lowered and attention raised on a clone, as seqpar-pipeline
/// does. Fails with a located error when there is no attention, shapes are
/// dynamic, or the attention ops disagree in shape.
FailureOr<ModelShape> readModelShape(ModuleOp module, StringRef entry);

/// Devices and links of an alpha-beta model (Hockney 1994): a message of n
/// bytes on a link costs alpha + n / beta seconds.
struct Hardware {
  std::string name;
  double matmulFlops = 0; // sustained FLOP/s of matmuls and attention
  double vectorFlops = 0; // sustained FLOP/s of elementwise ops
  double memoryBytes = 0; // device memory, bytes (the default budget)
  int64_t nodeSize = 1;   // devices sharing the fast link
  double intraAlpha = 0, intraBeta = 0; // s, bytes/s per device, one way
  double interAlpha = 0, interBeta = 0;
  /// Queries and keys per attention tile whose f32 scores live in device
  /// memory: 0 for a flash kernel (scores stay on chip), seqpar-lower-to-
  /// llvm's attention-q-tile and attention-kv-tile on CPUs (two
  /// [b, r, q tile, kv tile] tensors live, r the query heads of one K/V
  /// head; a q tile of 0: all queries).
  int64_t attentionQueryTile = 0, attentionTile = 0;
  /// Queries and keys per square tile of a training backward on CPUs
  /// (seqpar-lower-to-llvm's attention-backward-tile: three f32 [b, r,
  /// tile, tile] tensors live, P, dP and dS); 0: attentionTile.
  int64_t attentionBackwardTile = 0;
  /// Bytes per second one device reads from its memory (HBM, DRAM): the
  /// bound of a decode step, which reads every weight and its KV cache for
  /// a few tokens.
  double memoryBandwidth = 0;
};
/// "h100", "h200" (NVLink 4 in nodes of 8, 400 Gb/s InfiniBand across) or
/// "cpu" (this 2-core machine, MPI over shared memory); nullopt otherwise.
std::optional<Hardware> hardwarePreset(llvm::StringRef name);

enum class Workload {
  /// Forward only: bf16 weights, the KV cache, the transient activations.
  Prefill,
  /// Forward + backward with mixed-precision Adam: 16 bytes per parameter
  /// (Rajbhandari et al. 2020, section 3.1), saved activations.
  Training,
  /// One decode step over a KV cache sharded by decode context parallelism
  /// (docs/decode.md): weights, the cache's slots, T new tokens.
  Decode,
};

/// One layout of D = t * c devices.
struct PlanConfig {
  int64_t tp = 1;
  bool sp = false;
  int64_t cp = 1;
  std::string strategy; // "ring", "all-gather", "ulysses", "hybrid", "" (c=1)
  int64_t ulysses = 1;  // hybrid's Ulysses size u
  bool zigzag = false;  // causal load balancing (ring, all-gather, hybrid)
  /// Ring and hybrid: the forward's K/V blocks are kept for the backward
  /// instead of circulating again (seqpar-pipeline cp-keep-kv=true).
  bool keepKV = false;
  /// Decode: `cp` is the DCP size N (the cache's slots over N ranks) and
  /// `merge` the scheme that merges the ranks' partial attentions
  /// ("all-gather" or "all-to-all", seqpar-pipeline dcp-merge=).
  bool decode = false;
  std::string merge;
  std::string str() const;
  /// The seqpar-pipeline options that build this layout.
  std::string pipelineOptions(const ModelShape &shape) const;
};

/// Calls and bytes one rank sends of one collective kind over some grid
/// axes of seqpar-pipeline's grid ([tp, cp], hybrid [tp, cp/u, u]).
struct CollectiveVolume {
  CollectiveKind kind = CollectiveKind::AllReduce;
  std::string axes; // "[0]", "[1]", "[2]", "[1,2]"
  double calls = 0;
  double bytes = 0;
};

/// Predicted cost of one layout for one rank (the busiest).
struct PlanCost {
  double weightBytes = 0;    // weights (training: + grads + Adam states)
  double cacheBytes = 0;     // prefill: the KV cache of all layers
  double savedBytes = 0;     // training: activations kept for backward
  double transientBytes = 0; // the forward's live activations at its peak
  double memoryBytes() const {
    return weightBytes + cacheBytes + savedBytes + transientBytes;
  }
  double computeSeconds = 0; // matmuls + attention + elementwise
  double tpCommSeconds = 0;  // TP all-reduces / SP RS + AG, exposed
  double cpCommSeconds = 0;  // CP collectives, the part not hidden
  double seconds() const {
    return computeSeconds + tpCommSeconds + cpCommSeconds;
  }
  /// Decode: KV-cache slots (tokens of context) this layout holds within
  /// the memory budget.
  double capacityTokens = 0;
  double bytesSent = 0; // per rank, docs/semantics.md §5 ring convention
  /// bytesSent by collective kind and grid axes, as seqpar-report and
  /// seqpar-run's counters print them.
  std::vector<CollectiveVolume> collectives;
};

struct PlanRequest {
  int64_t devices = 1;
  double memoryBudgetBytes = 0;
  Workload workload = Workload::Prefill;
  int64_t elementBytes = 2; // bf16
  Hardware hardware;
  bool keepKV = false; // enumerateConfigs' keepKV
  /// Decode: the cache's slots (L_max) and the new tokens per step (T).
  int64_t decodeSlots = 0;
  int64_t decodeTokens = 1;
};

/// The most devices one model replica (t * c) is planned for: the search
/// visits every divisor and every rank of a group (axisLink).
constexpr int64_t kMaxPlanDevices = 1 << 16;

/// Which of the integer figures the cost model builds on (tokens per rank
/// with padding, one layer's activation bytes, the KV cache, the weights
/// with Adam states, the attention's score elements) exceeds int64 for
/// `shape` (its s possibly overridden) and `request`; empty when all fit.
std::string figureOutOfRange(const ModelShape &shape,
                             const PlanRequest &request);

/// KV heads on one TP rank: a_kv/t, or one when t is a multiple of a_kv
/// (seqpar's TP planner then keeps the K/V projections whole).
int64_t kvHeadsPerRank(const ModelShape &shape, int64_t tp);
/// Weight elements on one TP rank: matrices split over t (the K/V
/// projections only when t divides a_kv), vectors whole.
double weightElementsPerRank(const ModelShape &shape, int64_t tp);

/// Why `config` cannot run `shape` with seqpar's rewrites (empty: it can).
std::string configInvalidReason(const ModelShape &shape,
                                const PlanConfig &config);
/// The cost of one valid layout.
PlanCost evaluatePlan(const ModelShape &shape, const PlanConfig &config,
                      const PlanRequest &request);

/// A lower bound on the time and memory of every valid layout with this t
/// and c: s unpadded, SP's elementwise share, balanced attention, no CP
/// communication; memory only weights (and Adam states) and the KV cache.
PlanCost familyLowerBound(const ModelShape &shape, int64_t tp, int64_t cp,
                          const PlanRequest &request);

struct RankedPlan {
  PlanConfig config;
  PlanCost cost;
};
/// Every valid layout of request.devices (t * c = D), in the planner's order.
/// With `keepKV`, ring and hybrid layouts keep the forward's K/V blocks for
/// the backward (PlanConfig::keepKV).
std::vector<PlanConfig> enumerateConfigs(const ModelShape &shape,
                                         int64_t devices, bool keepKV = false);
/// The decode layouts of request.devices (t * N = D): every merge scheme
/// the heads allow, where N divides the cache's slots (PlanDecode.cpp).
std::vector<PlanConfig> enumerateDecodeConfigs(const ModelShape &shape,
                                               const PlanRequest &request);
/// The cost of one decode step of a valid decode layout: the larger of its
/// contractions' time and the time to read the weights and the rank's
/// cache slots, then the TP all-reduces and the DCP merge, exposed
/// (docs/planning-auto.md, "Decode").
PlanCost evaluateDecodePlan(const ModelShape &shape, const PlanConfig &config,
                            const PlanRequest &request);
/// Why a decode layout cannot be built (empty: it can).
std::string decodeConfigInvalidReason(const ModelShape &shape,
                                      const PlanConfig &config,
                                      const PlanRequest &request);

/// The order plans are ranked by: time, then memory, then enumeration
/// order (a stable tie-break).
bool betterPlan(const RankedPlan &a, size_t aIndex, const RankedPlan &b,
                size_t bIndex);

struct PlanResult {
  /// The best `keep` layouts that fit, best first.
  std::vector<RankedPlan> ranked;
  /// The smallest evaluated layout that does not fit the budget (all are
  /// evaluated when none fits).
  std::optional<RankedPlan> smallest;
  /// Layouts evaluated (the search prunes (t, c) families whose lower
  /// bound already loses to the keep-th best).
  int64_t evaluated = 0, total = 0;
};
/// exhaustive = true evaluates every layout; false prunes by lower bounds.
/// Both return the same ranking (test/PlanAuto checks it).
PlanResult searchPlans(const ModelShape &shape, const PlanRequest &request,
                       size_t keep, bool exhaustive);

llvm::json::Value planToJSON(const RankedPlan &plan, const ModelShape &shape);

} // namespace mlir::seqpar

#endif // SEQPAR_PLAN_PLAN_H
