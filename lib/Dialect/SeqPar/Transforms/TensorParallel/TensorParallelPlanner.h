//===- TensorParallelPlanner.h - Megatron blocks in unsharded IR -*- C++
//-*-===//
//
// Finds how one Megatron block (attention or MLP) of an unsharded graph is cut
// for tensor parallelism: starting from its column-parallel linears, the
// split of their output features is followed through bias adds, activations,
// head reshapes, transposes, slices and attention until each path ends in a
// row-parallel linear (a contraction over the split dim), whose output is a
// partial sum. Reductions over the split dim and gathers along it (the
// vocab-parallel LM head, cross-entropy and embedding) leave partial results
// too. Nothing is changed here; the pass applies the plan.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_LIB_TRANSFORMS_TENSORPARALLEL_TENSORPARALLELPLANNER_H
#define SEQPAR_LIB_TRANSFORMS_TENSORPARALLEL_TENSORPARALLELPLANNER_H

#include "seqpar/Analysis/StridedDim.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir::seqpar {

/// What the rewrite changes for one block.
struct TPBlockPlan {
  /// Values held split per rank (function arguments included), with their
  /// split (the split features are the StridedDim's extent). Types become
  /// per-rank in program order.
  llvm::MapVector<Value, StridedDim> values;
  /// Ops whose outputs are partial results over the split dim, each with the
  /// all-reduce that combines them: row-parallel linears (sum), other
  /// reductions over the split loop (the softmax max and sum of a
  /// vocab-parallel cross-entropy: their combiner) and gathers along the
  /// split dim (sum: a rank reads zero for another rank's rows).
  llvm::MapVector<Operation *, shard::ReductionKind> partial;
  /// Ops that read their position (linalg.index) along a split loop, with
  /// the loop and its per-rank extent: rank r's position is its local one
  /// plus r * extent (a fused one-hot, an iota split rather than sliced).
  llvm::MapVector<Operation *, std::pair<unsigned, int64_t>> offsetPositions;
  /// Reads inside a linalg body of a split value at a gathered index along
  /// the split dim (the embedding lookup, the label's logit): each rank reads
  /// its rows and zero elsewhere (Megatron's VocabParallelEmbedding).
  SmallVector<std::pair<tensor::ExtractOp, StridedDim>> gathers;
  /// Operands that stay global but are read on split loops: shape-only
  /// producers (tensor.empty, linalg.fill, splat constants) are rebuilt with
  /// the per-rank shape, other values are sliced locally at the rank's chunk.
  SmallVector<std::pair<OpOperand *, StridedDim>> rebuild;
  SmallVector<std::pair<OpOperand *, StridedDim>> slice;
  /// Ops whose types (and static shape attributes) change.
  llvm::SetVector<Operation *> ops;
};

/// Why a block could not be planned.
struct TPPlanFailure {
  Operation *op = nullptr;
  std::string reason;
  /// True when the structure was recognised but t does not divide a head or
  /// feature count: an error rather than a remark.
  bool divisibility = false;
  /// True when the seeds' own output features could not be split: nothing
  /// beyond them was looked at.
  bool atSeed = false;
  /// True when the block would split the input of a linear (planning with
  /// splitReductions).
  bool splitsWholeInput = false;
};

class TensorParallelPlanner {
public:
  /// `claimed` holds values already split by earlier blocks; a block that
  /// reaches one fails. With `splitReductions`, a block may also close at
  /// reductions over the split dim other than linears and at gathers along
  /// it (the vocab-parallel cross-entropy and embedding), and may not split
  /// any of `wholeInputs`, the activations of the functions' linears (a
  /// split carried into the residual stream would shard its hidden dim).
  /// With `splitOneHots` too, the one-hots that compare ids with the rows
  /// of a gathered value (a gather's backward) follow its split.
  /// `gradientArgs` (empty unless `func` reads as a training graph) holds,
  /// per result, the argument it is the gradient of, or -1: a split value
  /// is then returned only as the gradient of the argument it pairs with.
  TensorParallelPlanner(func::FuncOp func, int64_t numRanks,
                        const llvm::DenseSet<Value> &claimed,
                        const llvm::DenseSet<Value> &wholeInputs,
                        bool splitReductions, bool splitOneHots = false,
                        ArrayRef<int64_t> gradientArgs = {})
      : func(func), numRanks(numRanks), claimed(claimed),
        wholeInputs(wholeInputs), splitReductions(splitReductions),
        splitOneHots(splitOneHots), gradientArgs(gradientArgs) {}

  /// Plans the block whose column-parallel linears are `seeds` (contractions
  /// reading one activation, each with a weight argument), their output
  /// features cut into `groups` groups each split over the ranks.
  FailureOr<TPBlockPlan> plan(ArrayRef<linalg::LinalgOp> seeds, int64_t groups,
                              TPPlanFailure &failureInfo);

  /// Plans the block of an embedding table read only by gathers: `table`
  /// split on its gathered dim `dim` (Megatron's VocabParallelEmbedding);
  /// `gather` is where failures at the seed are reported.
  FailureOr<TPBlockPlan> planTable(BlockArgument table, int64_t dim,
                                   Operation *gather,
                                   TPPlanFailure &failureInfo);

  /// The row loop of a one-hot over `rows` rows: `op` compares (cmpi eq) an
  /// integer input that does not vary along the loop with the loop's
  /// position (an iota input along it, or its linalg.index). std::nullopt if `op` is not such a one-hot.
  static std::optional<unsigned> getOneHotLoop(linalg::GenericOp op,
                                               int64_t rows);

  /// The operand of `op` that is the weight of a linear (a function argument,
  /// possibly transposed or broadcast), and the output-feature loop: the one
  /// parallel loop that indexes the weight and the output but not the other
  /// input. Null if `op` is not such a linear.
  static OpOperand *getLinearWeight(linalg::LinalgOp op, unsigned &featureLoop);

  /// The activation a linear reads, through reshapes (exporters flatten
  /// [b, s, h] to [b*s, h] per linear).
  static Value getActivationRoot(Value v);

  /// The dim of `table` (a function argument) that gathers read at ids the
  /// caller passes (tensor.extract in linalg bodies, the row index an
  /// element of an input that is a function argument, through reshapes and
  /// integer casts), the same dim in every gather; `gather` is set to the
  /// first gathering op. std::nullopt when `table` is not gathered at such
  /// ids, or (with `whyNot` saying why) is also read otherwise or along
  /// several dims.
  static std::optional<int64_t> getGatheredDim(BlockArgument table,
                                               Operation *&gather,
                                               std::string &whyNot);

  /// The function argument behind `value` through transposes, broadcasts,
  /// reshapes and static unit-stride slices, or null. When a slice is on the
  /// way (a piece of a fused weight, docs/tensor-parallel-planning.md,
  /// "Fused projections"), `piece` is set to the slice nearest the
  /// argument, else to null: the weight is that piece, not the argument.
  static BlockArgument getWeightArgument(Value value, Value *piece = nullptr);

  /// The K and V tensors of `func`'s attentions (before any GQA repeat)
  /// that hold [b, heads, tokens, d] up to a permutation, each with the dim
  /// that holds its heads, and the updates of its KV caches
  /// (KVCache.h, heads in dim 1): the values a forward graph may return
  /// split over heads (a prefill's K/V results, a decode step's updated
  /// caches), as the decode step reads its caches (docs/decode.md).
  static llvm::DenseMap<Value, int64_t> findKVTensors(func::FuncOp func);

  /// What findKVTensors found for `func`, read by returnsGradients; none
  /// when not given.
  void setKVTensors(const llvm::DenseMap<Value, int64_t> *tensors) {
    kvTensors = tensors;
  }

private:
  struct LoopSplit {
    unsigned loop;
    int64_t outer, inner;
  };
  LogicalResult split(Value value, StridedDim s, Operation *at);
  /// Follows the splits from the seeds, then settles the reads.
  FailureOr<TPBlockPlan> finish();
  LogicalResult visit(Operation *op);
  LogicalResult visitLinalg(linalg::LinalgOp op);
  /// Reshapes in either direction: a split source splits the result, a
  /// split result (a weight reshaped before its linear) splits the source.
  LogicalResult visitReshape(Operation *op, Value expanded, Value collapsed,
                             ArrayRef<ReassociationIndices> groups);
  /// The split of `expanded` (the finer shape) for split `s` of the coarser
  /// shape `collapsed`, and back.
  FailureOr<StridedDim> expandSplit(Operation *op, RankedTensorType collapsed,
                                    RankedTensorType expanded,
                                    ArrayRef<ReassociationIndices> groups,
                                    StridedDim s);
  FailureOr<StridedDim> collapseSplit(Operation *op, RankedTensorType expanded,
                                      ArrayRef<ReassociationIndices> groups,
                                      StridedDim s);
  /// A use of split `value` inside the body of a linalg op: only a gather
  /// (tensor.extract whose element the op yields as it is) can be cut.
  LogicalResult visitCapture(OpOperand &use, StridedDim s);
  /// Partial results of `partial`'s element type can be all-reduced.
  LogicalResult checkCombinable(Operation *op, Type partial);
  /// A gathering op may not be split along a loop as well.
  LogicalResult checkGathers();
  LogicalResult visitSlice(tensor::ExtractSliceOp op, StridedDim s);
  LogicalResult sameDims(Operation *op, unsigned dimOperands);
  LogicalResult visitConcat(tensor::ConcatOp op);
  /// Whether `s` tiles `value` over the TP ranks (a static, non-empty dim
  /// whose extent t divides); else fails with the reason, at `at`.
  LogicalResult checkTiles(Value value, StridedDim s, Operation *at);
  /// A `seqpar.attention` (written by the user or an earlier pass): its
  /// heads are independent, so Q, K, V, a mask with a head dim and the
  /// output are split along the heads.
  LogicalResult visitAttention(AttentionOp op);
  /// Splits (or slices) `operand`, a piece joined along the split dim `dim`,
  /// into whole blocks of `block` elements.
  LogicalResult readBlocks(OpOperand &operand, int64_t dim, int64_t inner,
                           int64_t block);
  /// The split shared by the split values among `pieces`, and its block
  /// along `dim` (elements per group); dim -1 when none is split.
  FailureOr<StridedDim> joinedSplit(Operation *op, ValueRange pieces,
                                    int64_t dim, int64_t &block);
  /// tosa.concat lowers to insert_slices into an empty tensor.
  LogicalResult visitInsertSlice(tensor::InsertSliceOp op);
  /// Split values may be returned only as the gradients of split weights:
  /// shaped and split as one, they stay split as Megatron keeps them (the
  /// result's #seqpar.sharding says how), and, in a forward graph, as K/V
  /// tensors split over their heads (`kvTensors`: a prefill's K/V, a decode
  /// step's updated KV caches); any other returned output would change
  /// from global to per-rank. In a training graph (`gradientArgs`)
  /// the result must also be in the place of a parameter's gradient: an
  /// output that pairs with no parameter (an activation or a second copy of
  /// a gradient returned after the gradients) leaves the block replicated.
  LogicalResult returnsGradients();
  LogicalResult fail(Operation *op, const llvm::Twine &reason,
                     bool divisibility = false);
  /// Splits the source of `operand` if it is a weight argument (through
  /// transposes/broadcasts), else records it to be rebuilt or sliced.
  LogicalResult readSplit(OpOperand &operand, StridedDim s);

  func::FuncOp func;
  int64_t numRanks;
  const llvm::DenseSet<Value> &claimed;
  const llvm::DenseSet<Value> &wholeInputs;
  bool splitReductions, splitOneHots;
  ArrayRef<int64_t> gradientArgs;
  const llvm::DenseMap<Value, int64_t> *kvTensors = nullptr;
  TPBlockPlan result;
  TPPlanFailure *why = nullptr;
  SmallVector<Operation *> worklist;
  llvm::DenseSet<Operation *> visited;
  llvm::DenseMap<OpOperand *, StridedDim> pendingReads;
};

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_TENSORPARALLEL_TENSORPARALLELPLANNER_H
