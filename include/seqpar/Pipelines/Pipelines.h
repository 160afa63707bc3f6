//===- Pipelines.h - seqpar named pipelines ---------------------*- C++ -*-===//
//
// The named pipelines and their option structs: `seqpar-pipeline` (an
// unsharded graph to the per-rank TP/SP/CP program), `seqpar-sp-pipeline`
// (a TP per-rank program to TP+SP), and `seqpar-lower-to-llvm` (a per-rank
// tensor program to the LLVM dialect, collectives on the seqpar runtime,
// GEMMs on CBLAS), with the pieces other drivers reuse (frontend
// normalisation, tosa lowering, lowering to buffers).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_PIPELINES_PIPELINES_H
#define SEQPAR_PIPELINES_PIPELINES_H

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridContract.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace seqpar {

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
  PassOptions::Option<bool> saveGathered{
      *this, "save-gathered",
      llvm::cl::desc("Training graphs: keep the all-gathered inputs for the "
                     "backward instead of saving them sharded and "
                     "re-gathering them (seqpar-save-sharded)"),
      llvm::cl::init(false)};

  /// The options of its seqpar-sequence-parallel pass.
  SequenceParallelOptions getSequenceParallelOptions() const;
};

/// Inlining and tosa -> linalg/arith/tensor, shared by the pipelines and
/// seqpar-report (graphs from other frontends mix tosa and linalg).
void buildFrontendNormalizationPipeline(OpPassManager &pm);

/// tosa -> linalg/arith/tensor on a function pass manager, after
/// seqpar-check-tosa-shapes (one pass, seqpar-lower-tosa, that runs them on
/// the functions holding tosa ops).
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
  PassOptions::Option<bool> inputSharded{
      *this, "input-sharded",
      llvm::cl::desc("Under SP (tp >= 2, cp = 1): take the first argument "
                     "sequence-sharded over the TP axis, as the previous "
                     "layer's SP region leaves it"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> outputSharded{
      *this, "output-sharded",
      llvm::cl::desc("Under SP (tp >= 2, cp = 1): leave the outputs "
                     "sequence-sharded over the TP axis, for the next "
                     "layer's SP region (no all-gather at the end)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> saveGathered{
      *this, "save-gathered",
      llvm::cl::desc("Training graphs under SP: keep the all-gathered inputs "
                     "for the backward instead of saving them sharded and "
                     "re-gathering them (seqpar-save-sharded)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> cp{
      *this, "cp",
      llvm::cl::desc("Context-parallel size c (grid axis 1; 1: none)"),
      llvm::cl::init(1)};
  PassOptions::Option<AttentionStrategy> cpStrategy{
      *this, "cp-strategy",
      llvm::cl::desc("Distributed attention: ring, all-gather, ulysses or "
                     "hybrid (Ulysses on cp-ulysses ranks, ring on the rest)"),
      llvm::cl::init(AttentionStrategy::Ring), attentionStrategyValues()};
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
  PassOptions::Option<LoadBalance> loadBalance{
      *this, "load-balance",
      llvm::cl::desc("CP token assignment: zigzag or none"),
      llvm::cl::init(LoadBalance::Zigzag), loadBalanceValues()};
  PassOptions::Option<bool> cpKeepKV{
      *this, "cp-keep-kv",
      llvm::cl::desc("Training graphs, ring: keep the K/V blocks the forward "
                     "received for the backward instead of sending them "
                     "again"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> cpKVCacheInterleave{
      *this, "cp-kv-cache-interleave",
      llvm::cl::desc("A prefill's K/V results ([b, a_kv, s, d]) returned "
                     "block-cyclic with this interleave, the decode layout "
                     "(0: in the prefill's split)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> dcp{
      *this, "dcp",
      llvm::cl::desc("Decode context parallelism: a decode step's KV caches "
                     "sharded over dcp ranks (grid axis 1; 1: none; not with "
                     "cp)"),
      llvm::cl::init(1)};
  PassOptions::Option<SplitKind> dcpLayout{
      *this, "dcp-layout",
      llvm::cl::desc("KV-cache layout under dcp: cyclic, contiguous or "
                     "zigzag"),
      llvm::cl::init(SplitKind::cyclic), cacheLayoutValues()};
  PassOptions::Option<int64_t> dcpInterleave{
      *this, "dcp-interleave",
      llvm::cl::desc("Tokens per block of the cyclic KV-cache layout"),
      llvm::cl::init(1)};
  PassOptions::Option<DecodeMerge> dcpMerge{
      *this, "dcp-merge",
      llvm::cl::desc("How dcp merges the ranks' partial attentions: "
                     "all-gather or all-to-all (over heads)"),
      llvm::cl::init(DecodeMerge::AllGather), decodeMergeValues()};

  /// The grid the pipeline creates: [tp], [tp, cp] (or [tp, dcp]) or, for
  /// hybrid, [tp, cp/cp-ulysses, cp-ulysses].
  GridContract getGrid() const {
    return {tp, dcp > 1 ? dcp : cp, cpUlysses};
  }
  /// The options of the passes the pipeline runs, on the axes of `getGrid`.
  CreateGridOptions getCreateGridOptions() const;
  PlanTensorParallelOptions getPlanTensorParallelOptions() const;
  ContextParallelOptions getContextParallelOptions() const;
  DecodeContextParallelOptions getDecodeContextParallelOptions() const;
  SequenceParallelOptions getSequenceParallelOptions() const;
};

/// Builds `seqpar-pipeline`. Options that make no sense (sizes below 1,
/// cp-ulysses without hybrid, ...) build a pipeline that
/// only reports them, as an error at the module. Otherwise: inlining, tosa
/// to linalg/arith/tensor, CSE, seqpar-plan-tensor-parallel on the TP axis
/// of the grid it makes (GridContract.h: [tp], [tp, cp], or [tp, cp/u, u]
/// for hybrid; seqpar-create-grid makes it when no TP is planned),
/// seqpar-raise-attention; with cp > 1
/// seqpar-context-parallel on the ring axis (hybrid: and the Ulysses
/// axis); then the sequence-parallel pipeline on the TP axis when sp is
/// set (and tp > 1). With dcp > 1 (a decode step), the KV caches are
/// sharded over axis 1 by seqpar-decode-context-parallel instead, and no
/// SP runs (a step's T new tokens are not split).
void buildSeqParPipeline(OpPassManager &pm, const SeqParPipelineOptions &opts);

/// Default queries and keys per attention tile on CPUs: tiles are taken
/// per K/V head, so a tile's f32 scores, [b, r, 128, 512] x 4 bytes
/// (0.25 MiB with one query head per K/V head), stay in a core's L2
/// (docs/runtime-and-run.md, "Attention tiles").
inline constexpr int64_t kDefaultAttentionQTile = 128;
inline constexpr int64_t kDefaultAttentionKvTile = 512;
/// Queries and keys per tile of the attention backward: its tile holds
/// three [b, r, 256, 256] f32 tensors (P, dP, dS: 0.75 MiB), in L2 as the
/// forward's two (docs/runtime-and-run.md, "Attention tiles").
inline constexpr int64_t kDefaultAttentionBackwardTile = 256;

/// Options of the `seqpar-lower-to-llvm` pipeline.
struct LowerToLLVMPipelineOptions
    : public PassPipelineOptions<LowerToLLVMPipelineOptions> {
  PassOptions::Option<bool> blas{
      *this, "blas",
      llvm::cl::desc("Run f32 matmul-like ops with cblas_sgemm (else loops)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> counted{
      *this, "counted-alloc",
      llvm::cl::desc("Allocate through _mlir_memref_to_llvm_alloc/free (the "
                     "runtime's counted hooks) instead of malloc/free"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> attentionRegions{
      *this, "attention-regions",
      llvm::cl::desc("Count each attention op's FLOPs and time in the "
                     "runtime's 'attention' compute region "
                     "(seqpar-instrument-attention)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("Check at run time the bounds only the run time knows "
                     "(seqpar-insert-runtime-checks: slice offsets, "
                     "subscripts, dynamic sizes); a failed check prints the "
                     "op's location and aborts"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> outline{
      *this, "outline",
      llvm::cl::desc("Move each top-level loop nest into its own function "
                     "(seqpar-outline-loop-nests), so LLVM's optimiser "
                     "takes time linear in the program"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> attentionKvTile{
      *this, "attention-kv-tile",
      llvm::cl::desc("Keys per tile of attention blocks with more keys "
                     "(seqpar-tile-attention; 0: never tile)"),
      llvm::cl::init(kDefaultAttentionKvTile)};
  PassOptions::Option<int64_t> attentionQTile{
      *this, "attention-q-tile",
      llvm::cl::desc("Queries per tile of attention blocks with more "
                     "queries (seqpar-tile-attention; 0: rows stay whole "
                     "unless a causal attention tiles them for its skip)"),
      llvm::cl::init(kDefaultAttentionQTile)};
  PassOptions::Option<int64_t> attentionBackwardTile{
      *this, "attention-backward-tile",
      llvm::cl::desc("Queries and keys per tile of attention backward "
                     "blocks (seqpar-tile-attention's backward-tile; 0: "
                     "attention-kv-tile; with attention-kv-tile=0 none)"),
      llvm::cl::init(kDefaultAttentionBackwardTile)};
};

/// The first part of `buildLowerToLLVMPipeline`: everything up to and with
/// the runtime calls for collectives, on memrefs with their allocations and
/// deallocations placed (memref.alloc, bufferization.dealloc) and scf
/// control flow kept; seqpar-report simulates it to predict the peak.
void buildLowerToBuffersPipeline(OpPassManager &pm,
                                 const LowerToLLVMPipelineOptions &options);

/// Builds the pipeline from a per-rank tensor program (linalg/tosa/tensor/
/// arith/math/shard/seqpar on tensors) to the LLVM dialect:
///   tosa -> linalg/arith/tensor; seqpar-expand-dropout (Philox); the
///   seqpar.* signature attributes dropped; attention ops wrapped in the
///   runtime's 'attention' compute region (option), split over key tiles
///   (option) and decomposed;
///   elementwise -> linalg;
///   one-shot-bufferize (function boundaries, identity layouts);
///   buffer-deallocation-pipeline; seqpar-free-at-last-use;
///   seqpar-lower-matmul-to-blas (option);
///   seqpar-lower-collectives-to-runtime;
///   seqpar-insert-runtime-checks (option runtime-checks);
///   bufferization.clone -> memref;
///   linalg -> loops; seqpar-outline-loop-nests (option); scf -> cf;
///   expand-strided-metadata; lower-affine;
///   finalize-memref-to-llvm{use-generic-functions} (option); convert-to-llvm;
///   reconcile-unrealized-casts; symbol-dce (removes the shard.grid symbols).
/// `pm` must be anchored on builtin.module.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMPipelineOptions &options);

/// Registers `seqpar-pipeline`, `seqpar-sp-pipeline` and
/// `seqpar-lower-to-llvm` with the global pass registry.
void registerSeqParPipelines();

} // namespace seqpar
} // namespace mlir

#endif // SEQPAR_PIPELINES_PIPELINES_H
