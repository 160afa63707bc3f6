//===- Passes.h - seqpar passes ---------------------------------*- C++ -*-===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PASSES_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::seqpar {

#define GEN_PASS_DECL
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"

/// Adds the pattern folding `all_reduce(sum)` + `all_slice` over the same
/// grid axes into one `reduce_scatter`.
void populateFoldReduceScatterPatterns(RewritePatternSet &patterns);

/// Adds the pattern lowering `seqpar.dropout` to a Philox-4x32-10
/// `linalg.generic` (see the seqpar-expand-dropout pass).
void populateExpandDropoutPatterns(RewritePatternSet &patterns);

/// Options of the `seqpar-sp-pipeline` named pipeline.
struct SequenceParallelPipelineOptions
    : public PassPipelineOptions<SequenceParallelPipelineOptions> {
  PassOptions::Option<std::string> grid{*this, "grid",
                                        llvm::cl::desc("Grid symbol")};
  PassOptions::Option<int64_t> gridAxis{
      *this, "grid-axis",
      llvm::cl::desc("TP grid axis (-1: the grid's only axis)"),
      llvm::cl::init(-1)};
  PassOptions::Option<int64_t> seqDim{
      *this, "seq-dim",
      llvm::cl::desc("Sequence dim of the first argument (-1: inferred from "
                     "the attention)"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> inputSharded{
      *this, "input-sharded",
      llvm::cl::desc("Take the input sequence-sharded"), llvm::cl::init(false)};
  PassOptions::Option<bool> outputSharded{
      *this, "output-sharded",
      llvm::cl::desc("Leave the outputs sequence-sharded"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> pad{
      *this, "pad",
      llvm::cl::desc("Pad a sequence not divisible by the TP size"),
      llvm::cl::init(false)};
};

/// Inlining and tosa -> linalg/arith/tensor, shared by the pipelines and
/// seqpar-report (graphs from other frontends mix tosa and linalg).
void buildFrontendNormalizationPipeline(OpPassManager &pm);

/// tosa -> linalg/arith/tensor on a function pass manager, after
/// seqpar-check-tosa-shapes.
void addTosaLoweringPasses(OpPassManager &funcPm);

/// Builds the TP -> TP+SP pipeline: inlining, tosa to linalg/arith/tensor
/// (so mixed tosa+linalg graphs are accepted), all_reduce+all_slice folding,
/// CSE (so equal reshapes of one value are gathered once), the
/// sequence-parallel rewrite, then canonicalize and CSE.
void buildSequenceParallelPipeline(OpPassManager &pm,
                                   const SequenceParallelPipelineOptions &opts);

/// Options of `seqpar-pipeline`, the unsharded graph -> per-rank program
/// pipeline (strategies plug in here).
struct SeqParPipelineOptions : public PassPipelineOptions<SeqParPipelineOptions> {
  PassOptions::Option<int64_t> tp{
      *this, "tp", llvm::cl::desc("Tensor-parallel size t (grid axis 0)"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> sp{
      *this, "sp",
      llvm::cl::desc("Megatron sequence parallelism on the TP axis"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> seqDim{
      *this, "seq-dim",
      llvm::cl::desc("Sequence dim of the first argument (-1: inferred from "
                     "the attention)"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> pad{
      *this, "pad",
      llvm::cl::desc("Pad a sequence not divisible by the TP size"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> cp{
      *this, "cp",
      llvm::cl::desc("Context-parallel size c (grid axis 1; 1: none)"),
      llvm::cl::init(1)};
  PassOptions::Option<std::string> cpStrategy{
      *this, "cp-strategy",
      llvm::cl::desc("Distributed attention: ring, all-gather, ulysses or "
                     "hybrid (Ulysses on cp-ulysses ranks, ring on the rest)"),
      llvm::cl::init("ring")};
  PassOptions::Option<int64_t> cpUlysses{
      *this, "cp-ulysses",
      llvm::cl::desc("Hybrid's Ulysses size u > 1 dividing cp (grid [tp, "
                     "cp/u, u]); only with cp-strategy=hybrid"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> cpPad{
      *this, "cp-pad",
      llvm::cl::desc("Pad a sequence not divisible by cp (2cp with zigzag) "
                     "and mask the padding"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> loadBalance{
      *this, "load-balance",
      llvm::cl::desc("CP token assignment: zigzag or none"),
      llvm::cl::init("zigzag")};
};

/// Builds `seqpar-pipeline`. Options that make no sense (sizes below 1, an
/// unknown strategy, cp-ulysses without hybrid, ...) build a pipeline that
/// only reports them, as an error at the module. Otherwise: inlining, tosa
/// to linalg/arith/tensor, CSE,
/// seqpar-plan-tensor-parallel (tp) on grid axis 0; with cp > 1 (grid
/// [tp, cp], or [tp, cp/u, u] for hybrid) seqpar-raise-attention and
/// seqpar-context-parallel on axis 1 (hybrid: ring on 1, Ulysses on 2);
/// then the sequence-parallel pipeline on the TP axis when sp is set (and
/// tp > 1).
void buildSeqParPipeline(OpPassManager &pm, const SeqParPipelineOptions &opts);

/// Registers every seqpar pass and the named pipelines (seqpar-opt, embedders).
void registerSeqParPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PASSES_H
