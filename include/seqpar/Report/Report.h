//===- Report.h - memory, communication and FLOP report ---------*- C++ -*-===//
//
// What one rank of a per-rank program saves for the backward pass, sends,
// and computes, per transformer layer (docs/semantics.md §5 and §6). The
// figures are read from the IR: element types, shapes after sharding,
// collectives and their grid axes. Nothing is executed.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_REPORT_REPORT_H
#define SEQPAR_REPORT_REPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::seqpar {

/// Which activations training would keep for the backward pass.
enum class Recompute {
  /// Every op keeps what its backward needs (Korthikanti et al. 2022,
  /// section 4.1, Table 2 "no recomputation").
  None,
  /// The attention core (Q.K^T, scale, mask, softmax, dropout, P.V, or a
  /// seqpar.attention) is recomputed from Q, K and V, which it keeps
  /// (section 5, "selective activation recomputation").
  Selective,
};

/// One tensor kept for the backward pass.
struct SavedTensor {
  /// The op whose backward needs it.
  Operation *user = nullptr;
  /// The tensor (a view's root; a dropout mask or an LSE: the dropout's or
  /// the attention's result, whose shape it follows).
  Value value;
  /// Why it is kept: "matmul input", "softmax output", "dropout mask",
  /// "norm input", "nonlinear input", "attention input/output/LSE".
  std::string rule;
  /// Bytes (elements x element bytes; dropout masks: 1 byte per element).
  int64_t bytes = 0;
};

/// Kept tensors of `func`, deduplicated: a tensor kept by several ops (Q, K
/// and V projections reading one norm output) counts once; reshapes,
/// transposes, casts and broadcasts (a GQA repeat) are the tensor they read.
/// A matmul input produced by an all-gather is kept as the gathered shard
/// (Megatron-SP re-gathers it in backward, Korthikanti section 4.2.2).
/// Activations are values computed from `func`'s sequence-carrying
/// arguments (`seqpar.seq_dim`; the first argument when none has one);
/// weights and constants are never counted.
std::vector<SavedTensor> computeSavedActivations(func::FuncOp func,
                                                 Recompute recompute);

/// The layer of every op of `func`'s body: layers are cut at the residual
/// stream, the program points where a single activation is live (a layer's
/// input); a layer runs from the cut before one attention to the cut before
/// the next. Ops before the first layer get -1, ops after the last layer's
/// end get `numLayers` (the function's tail: final norm, head). With `end`
/// (a top-level op: a training graph's backward start), only the ops before
/// it are read (their uses, their attentions) and `end` and the ops after
/// it go to the tail.
struct LayerPartition {
  llvm::DenseMap<Operation *, int> layerOf;
  int numLayers = 0;
};
LayerPartition partitionLayers(func::FuncOp func, Operation *end = nullptr);

/// One collective op: calls and bytes this rank sends (getBytesSent in
/// seqpar/Analysis/ByteCounts.h, docs/semantics.md §5), over all its calls:
/// inside scf.for loops one call per iteration (static trip counts), as
/// the runtime counts them.
struct CollectiveCost {
  std::string kind; // "all_reduce", "all_gather", ...
  std::string axes; // grid axes, "[1]" or "[1,2]"
  int64_t calls = 1;
  int64_t bytes = 0;
  bool fits = true; // false: calls or bytes exceed int64 (then wrong)
};
/// The cost of `op` if it is a collective over more than one rank (group
/// sizes from its grid; a one-rank group is a copy, as in the runtime).
std::optional<CollectiveCost> collectiveCost(Operation *op);

/// FLOPs of one op and its kind: "matmul" (2 * iteration space of a
/// contraction out + in0 * in1, its inputs possibly extended: a bf16 linear
/// accumulating in f32; isLinearContraction), "attention" and
/// "attention_backward" (the forward and backward attention ops,
/// getAttentionFlops, as the runtime's regions of those names count them),
/// "elementwise" and "reduction" (float arithmetic ops in the body times the
/// iteration space). Ops inside scf.for loops count once per iteration (static
/// trip counts).
struct OpFlops {
  std::string kind;
  int64_t flops = 0;
  bool fits = true; // false: the count exceeds int64 (`flops` is then wrong)
};
std::optional<OpFlops> opFlops(Operation *op);

/// Fails with an error at the first argument or op result of `func` (or
/// of a block inside it) that is a tensor or memref without a static shape:
/// its bytes, and the FLOPs of the ops on it, have no value to report
/// (they would read as 0).
LogicalResult checkStaticShapes(func::FuncOp func);

/// Fails with an error at the first op or value whose bytes, FLOPs or bytes
/// sent do not fit in int64, or whose function totals of them do not: every
/// figure and sum of a report (and of seqpar-plan-auto's graph reading) is
/// then below them, so the plain int64 arithmetic after it cannot wrap.
LogicalResult checkFiguresFit(func::FuncOp func);

/// The forward peak of one function: the most bytes of program buffers
/// live at once when it runs (inputs excluded, outputs included), from its
/// lowering to buffers as seqpar-run compiles it (see BufferPeak.cpp).
/// `exact` is false when a dynamic shape or trip count was guessed.
struct BufferPeak {
  int64_t peakBytes = 0;
  int64_t liveAtEnd = 0;
  bool exact = true;
};
/// Fails (with the lowering's diagnostics) when the program does not lower.
FailureOr<BufferPeak> predictBufferPeak(ModuleOp module, StringRef entry);

/// Totals of one layer (or of the function's head or tail).
struct LayerReport {
  int64_t savedBytes = 0;
  std::map<std::string, int64_t> savedByRule;
  /// kind + " " + axes -> (calls, bytes sent).
  std::map<std::string, std::pair<int64_t, int64_t>> collectives;
  std::map<std::string, int64_t> flops;
};

/// The report of one function: layers in order, then head (-1) and tail.
struct FunctionReport {
  std::string name;
  Recompute recompute = Recompute::None;
  std::vector<LayerReport> layers;
  LayerReport head, tail, total;
  std::optional<BufferPeak> peak;
  /// The function is a training graph: `peak` is a whole training step's
  /// (forward and backward), not a forward-only run's.
  bool trainingStep = false;
  /// A decode step's KV-cache arguments (findKVCacheArguments) and their
  /// bytes on one rank (the argument types: per rank in a per-rank program).
  int64_t numKVCaches = 0;
  int64_t kvCacheBytes = 0;
};

/// With `backwardStart` (a training graph's, SavedForBackward.h) the layers
/// are the forward's, the tail also holds the backward, and no save rule is
/// applied (the joint program itself says what is saved).
FunctionReport buildReport(func::FuncOp func, Recompute recompute,
                           Operation *backwardStart = nullptr);
void printReport(const FunctionReport &report, llvm::raw_ostream &os);
llvm::json::Value reportToJSON(const FunctionReport &report);

} // namespace mlir::seqpar

#endif // SEQPAR_REPORT_REPORT_H
