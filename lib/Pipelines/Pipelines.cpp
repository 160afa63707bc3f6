//===- Pipelines.cpp - seqpar named pipelines -----------------------------===//

#include "seqpar/Pipelines/Pipelines.h"

#include "seqpar/Analysis/SeqDimChoice.h"
#include "seqpar/Conversion/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Fails on the module with `message`: how a pipeline built from invalid
/// options reports them, at the module and before any IR is touched (the
/// builder itself cannot fail, and C++ callers build pipelines too).
class InvalidPipelineOptionsPass
    : public PassWrapper<InvalidPipelineOptionsPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InvalidPipelineOptionsPass)

  explicit InvalidPipelineOptionsPass(std::string message)
      : message(std::move(message)) {}
  StringRef getArgument() const override {
    return "seqpar-invalid-pipeline-options";
  }
  void runOnOperation() override {
    // At the module's location only: Operation::emitError would attach the
    // whole module as a note (MLIR's print-op-on-diagnostic).
    emitError(getOperation().getLoc()) << message;
    signalPassFailure();
  }

private:
  std::string message;
};

/// tosa -> linalg/arith/tensor, after seqpar-check-tosa-shapes, on a function
/// that holds tosa. On one without (most graphs) the conversions would
/// change nothing, yet the pass manager verifies the whole function after
/// each of them (it skips that only after a pass that preserves all
/// analyses): on an 80-layer linalg graph those five verifications were a
/// third of the pipeline's time.
class LowerTosaPass
    : public PassWrapper<LowerTosaPass, OperationPass<func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerTosaPass)

  LowerTosaPass() { build(); }
  LowerTosaPass(const LowerTosaPass &other) : PassWrapper(other) { build(); }
  StringRef getArgument() const override { return "seqpar-lower-tosa"; }
  StringRef getName() const override { return "LowerTosa"; }
  StringRef getDescription() const override {
    return "tosa -> linalg/arith/tensor (static shapes checked first) on "
           "functions holding tosa ops";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    lowering.getDependentDialects(registry);
  }
  void runOnOperation() override {
    bool hasTosa = getOperation()
                       ->walk([](Operation *op) {
                         return isa_and_nonnull<tosa::TosaDialect>(
                                    op->getDialect())
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!hasTosa)
      return markAllAnalysesPreserved();
    if (failed(runPipeline(lowering, getOperation())))
      signalPassFailure();
  }

private:
  void build() {
    // Upstream's lowering crashes on some dynamic shapes: refuse them first.
    lowering.addPass(createCheckTosaShapes());
    lowering.addPass(tosa::createTosaToLinalgNamed());
    lowering.addPass(tosa::createTosaToLinalg());
    lowering.addPass(createTosaToArithPass());
    lowering.addPass(createTosaToTensorPass());
  }

  OpPassManager lowering{func::FuncOp::getOperationName()};
};

/// Why `opts` make no sense (empty when they do).
std::string whyInvalid(const SeqParPipelineOptions &opts) {
  int64_t tp = opts.tp, cp = opts.cp, ulysses = opts.cpUlysses,
          seqDim = opts.seqDim;
  AttentionStrategy strategy = opts.cpStrategy;
  bool hybrid = strategy == AttentionStrategy::Hybrid;
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "seqpar-pipeline: ";
  if (tp < 1)
    os << "tp=" << tp << " is not a TP size: expected tp >= 1";
  else if (cp < 1)
    os << "cp=" << cp
       << " is not a context-parallel size: expected cp >= 1 (1: no context "
          "parallelism)";
  else if (!llvm::checkedMul(tp, cp))
    os << "tp=" << tp << " x cp=" << cp << " ranks overflow a 64-bit count";
  else if (ulysses < 1)
    os << "cp-ulysses=" << ulysses
       << " is not a Ulysses size: expected cp-ulysses >= 1";
  else if (ulysses > 1 && !hybrid)
    os << "cp-ulysses=" << ulysses
       << " is only used by cp-strategy=hybrid (cp-strategy="
       << stringifyAttentionStrategy(strategy) << ")";
  else if (hybrid && (ulysses < 2 || cp % ulysses != 0))
    os << "cp-strategy=hybrid needs cp-ulysses > 1 dividing cp (cp=" << cp
       << ", cp-ulysses=" << ulysses << ")";
  else if (opts.cpKeepKV && !keepsRingBlocks(strategy))
    os << "cp-keep-kv is only used by the ring of cp-strategy=ring or hybrid "
          "(cp-strategy="
       << stringifyAttentionStrategy(strategy) << ")";
  else if (opts.cpKVCacheInterleave < 0)
    os << "cp-kv-cache-interleave=" << opts.cpKVCacheInterleave
       << " is not a block size: expected cp-kv-cache-interleave >= 1, or 0 "
          "(the prefill's split)";
  else if (opts.cpKVCacheInterleave > 0 && cp < 2)
    os << "cp-kv-cache-interleave is only used with cp > 1";
  else if (opts.dcp < 1)
    os << "dcp=" << opts.dcp
       << " is not a decode context-parallel size: expected dcp >= 1 (1: "
          "none)";
  else if (opts.dcp > 1 && cp > 1)
    os << "cp=" << cp << " and dcp=" << opts.dcp
       << " both set: cp shards a prefill's sequence, dcp a decode step's KV "
          "caches; a program is one or the other";
  else if (!llvm::checkedMul<int64_t>(tp, opts.dcp))
    os << "tp=" << tp << " x dcp=" << opts.dcp
       << " ranks overflow a 64-bit count";
  else if (opts.dcpInterleave < 1)
    os << "dcp-interleave=" << opts.dcpInterleave
       << " is not a block size: expected dcp-interleave >= 1";
  else if (opts.dcpInterleave != 1 && opts.dcpLayout != SplitKind::cyclic)
    os << "dcp-interleave is only used by dcp-layout=cyclic";
  else if ((opts.inputSharded || opts.outputSharded) &&
           !(opts.sp && tp >= 2 && cp == 1 && opts.dcp == 1))
    os << "input-sharded and output-sharded are only used by the SP rewrite "
          "without CP or decode (sp with tp >= 2, cp=1, dcp=1; here sp="
       << (opts.sp ? "true" : "false") << " tp=" << tp << " cp=" << cp
       << " dcp=" << opts.dcp << ")";
  else if (std::string bad = whyInvalidSeqDimOption(seqDim); !bad.empty())
    os << bad;
  else
    return "";
  return why;
}

} // namespace

/// The frontend normalization's rewrites, without its closing clean-up
/// (which seqpar-pipeline has the pass after them run).
static void addFrontendRewrites(OpPassManager &pm) {
  // Outlined helpers (a LayerNorm, a layer) are inlined so the rewrite sees
  // one function; external declarations (timers) stay calls.
  pm.addPass(createInlineCalls());
  // Graphs from other frontends mix tosa and linalg: bring tosa down to
  // linalg/arith/tensor first so one analysis sees one form.
  addTosaLoweringPasses(pm.nest<func::FuncOp>());
  // Generalizing frontends write zero fills, transposes and broadcasts as
  // linalg.generic: the named ops the analyses read.
  pm.addNestedPass<func::FuncOp>(createSpecializeStructuralGenerics());
  // torch's advanced indexing at aranges and constants (K and V taken from a
  // fused QKV by x[..., -2, :]) is a slice written as a gather.
  pm.addNestedPass<func::FuncOp>(createFoldIndexGathers());
  // ONNX's MatMul on [b, s, h]: a batch_matmul of a weight copied to every
  // batch element becomes a matmul on [b*s, h] of the weight itself (no
  // b copies of each weight), the form TP planning reads.
  pm.addNestedPass<func::FuncOp>(createFoldBroadcastMatmuls());
  // tensor.reshape that only splits or merges static dims: the
  // expand_shape / collapse_shape every analysis follows.
  pm.addNestedPass<func::FuncOp>(createFoldStaticReshapes());
  // A fused projection read by slices of unequal widths (Falcon's QKV of 4
  // query heads and one K/V head) becomes one linear per slice, which TP
  // plans as it plans separate Q, K and V (docs/tensor-parallel-planning.md,
  // "Fused projections"). After the two folds above: the slices it reads
  // are gathers before the first, the linears batch_matmuls before the
  // second.
  pm.addNestedPass<func::FuncOp>(createSplitFusedProjections());
  // Two masks added to the logits one after the other (T5's relative
  // position bias, then its attention mask) as one, the form the attention
  // matcher reads (docs/context-parallelism.md, "Masks").
  pm.addNestedPass<func::FuncOp>(createFoldLogitMasks());
}

void mlir::seqpar::buildFrontendNormalizationPipeline(OpPassManager &pm) {
  addFrontendRewrites(pm);
  // One canonicalization (as MLIR's inliner runs on every function), and
  // CSE: exporters reshape the same activation once per linear, and CSE
  // makes the linears of a block read one value.
  pm.addPass(createCanonicalizeAndCSE());
}

void mlir::seqpar::addTosaLoweringPasses(OpPassManager &funcPm) {
  funcPm.addPass(std::make_unique<LowerTosaPass>());
}

SequenceParallelOptions
SequenceParallelPipelineOptions::getSequenceParallelOptions() const {
  SequenceParallelOptions sp;
  sp.gridName = grid;
  sp.gridAxis = gridAxis;
  sp.seqDim = seqDim;
  sp.inputSharded = inputSharded;
  sp.outputSharded = outputSharded;
  sp.padUneven = pad;
  return sp;
}

CreateGridOptions SeqParPipelineOptions::getCreateGridOptions() const {
  GridContract grid = getGrid();
  CreateGridOptions create;
  create.tp = grid.tp;
  create.cp = grid.cp;
  create.cpUlysses = grid.ulysses;
  return create;
}

PlanTensorParallelOptions
SeqParPipelineOptions::getPlanTensorParallelOptions() const {
  PlanTensorParallelOptions plan;
  plan.tp = tp;
  plan.gridName = GridContract::kName.str();
  plan.gridAxis = GridContract::kTensorAxis;
  GridContract grid = getGrid();
  plan.cp = grid.cp;
  plan.cpUlysses = grid.ulysses;
  return plan;
}

ContextParallelOptions
SeqParPipelineOptions::getContextParallelOptions() const {
  ContextParallelOptions options;
  options.gridName = GridContract::kName.str();
  options.gridAxis = GridContract::kRingAxis;
  options.seqDim = seqDim;
  options.strategy = cpStrategy;
  options.loadBalance = loadBalance;
  options.pad = cpPad;
  options.keepKV = cpKeepKV;
  options.kvCacheInterleave = cpKVCacheInterleave;
  if (getGrid().hasUlyssesAxis())
    options.ulyssesAxis = GridContract::kUlyssesAxis;
  return options;
}

DecodeContextParallelOptions
SeqParPipelineOptions::getDecodeContextParallelOptions() const {
  DecodeContextParallelOptions options;
  options.gridName = GridContract::kName.str();
  options.gridAxis = GridContract::kRingAxis;
  options.layout = dcpLayout;
  options.interleave = dcpInterleave;
  options.merge = dcpMerge;
  return options;
}

SequenceParallelOptions
SeqParPipelineOptions::getSequenceParallelOptions() const {
  SequenceParallelOptions sp;
  sp.gridName = GridContract::kName.str();
  sp.gridAxis = GridContract::kTensorAxis;
  sp.seqDim = seqDim;
  sp.padUneven = pad;
  sp.inputSharded = inputSharded;
  sp.outputSharded = outputSharded;
  return sp;
}

/// The sequence-parallel part proper, on a normalised TP program; then, on
/// training graphs, the saved all-gathered inputs are re-gathered in
/// backward (unless `saveGathered`).
static void addSequenceParallelPasses(OpPassManager &pm,
                                      const SequenceParallelOptions &options,
                                      bool saveGathered) {
  // The IR comes cleaned up (CanonicalizeAndCSE) and the fold makes no
  // duplicates: no CSE before the rewrite.
  pm.addPass(createFoldReduceScatter());
  pm.addPass(createSequenceParallel(options));
  pm.addPass(createCanonicalizeAndCSE());
  if (!saveGathered)
    pm.addNestedPass<func::FuncOp>(createSaveSharded());
}

void mlir::seqpar::buildSequenceParallelPipeline(
    OpPassManager &pm, const SequenceParallelPipelineOptions &opts) {
  buildFrontendNormalizationPipeline(pm);
  addSequenceParallelPasses(pm, opts.getSequenceParallelOptions(),
                            opts.saveGathered);
}

void mlir::seqpar::buildSeqParPipeline(OpPassManager &pm,
                                       const SeqParPipelineOptions &opts) {
  if (std::string why = whyInvalid(opts); !why.empty()) {
    pm.addPass(std::make_unique<InvalidPipelineOptionsPass>(std::move(why)));
    return;
  }
  // Without TP there is nothing to plan: at tp=1 the planner's rank slices
  // (of GQA K/V heads) would only hide K and V from the raiser, and its
  // remarks would only say so. The CP and decode rewrites state every
  // argument's sharding themselves; with neither, the planner at tp=1 does
  // (replicated). The planner makes the TP x CP grid it plans on, or
  // without it seqpar-create-grid does; either runs the frontend's closing
  // clean-up first itself (each pass that changes the module costs a
  // verification of the whole module, docs/benchmarks.md §1).
  addFrontendRewrites(pm);
  bool shardsSequence = opts.getGrid().hasRingAxis() || opts.dcp > 1;
  // After TP planning, attention is raised on the per-rank (a/t heads)
  // program: it then runs tiled over keys (never holding s x s scores), and
  // the CP axis can shard it. A training graph's attention backward is
  // raised with it: its P is no longer kept, and CP distributes it. A
  // decode step (dcp) is inference: no backward to raise. The planner
  // raises itself, one verification of the module for both.
  bool raiseBackward = opts.dcp <= 1;
  if (opts.tp > 1 || !shardsSequence) {
    PlanTensorParallelOptions plan = opts.getPlanTensorParallelOptions();
    plan.canonicalizeFirst = true;
    plan.raiseAttention = true;
    plan.raiseBackward = raiseBackward;
    pm.addPass(createPlanTensorParallel(plan));
  } else {
    CreateGridOptions grid = opts.getCreateGridOptions();
    grid.canonicalizeFirst = true;
    pm.addPass(createCreateGrid(grid));
    RaiseAttentionOptions raise;
    raise.backward = raiseBackward;
    pm.addNestedPass<func::FuncOp>(createRaiseAttention(raise));
  }
  // A backward's sum of input gradients of separate projections: one
  // all_reduce, as a fused projection sends.
  pm.addPass(createCombineAllReduces());
  // The raiser re-derives Q, K and V from the views it traced: CSE makes
  // them the values the rest of the graph reads. CP and decode need that
  // (a prefill returns the K/V its attention reads, and they relay that
  // K/V by identity). SP does not: it plans the same collectives on the
  // raised program, and its own clean-up cleans both; a clean-up that
  // finds nothing still costs its patterns and CSE's hashing
  // (docs/benchmarks.md §1).
  bool sequenceParallel = opts.sp && opts.tp >= 2;
  if (opts.dcp > 1 || opts.getGrid().hasRingAxis() || !sequenceParallel)
    pm.addPass(createCanonicalizeAndCSE());
  // A decode step: its KV caches are sharded over the CP axis.
  if (opts.dcp > 1) {
    pm.addPass(
        createDecodeContextParallel(opts.getDecodeContextParallelOptions()));
    pm.addPass(createCanonicalizeAndCSE());
    return;
  }
  if (opts.getGrid().hasRingAxis()) {
    // The CP axis shards every sequence-carrying value. Its rewrite
    // repeats constants and views per attention: a clean-up follows, as
    // the output and as SP's input.
    pm.addPass(createContextParallel(opts.getContextParallelOptions()));
    pm.addPass(createCanonicalizeAndCSE());
  }
  if (!sequenceParallel)
    return;
  addSequenceParallelPasses(pm, opts.getSequenceParallelOptions(),
                            opts.saveGathered);
}

void mlir::seqpar::registerSeqParPipelines() {
  // Registered so that printed pipelines (crash reproducers) parse back.
  PassRegistration<LowerTosaPass>();
  PassPipelineRegistration<SequenceParallelPipelineOptions>(
      "seqpar-sp-pipeline",
      "TP per-rank program (linalg and/or tosa) to TP+SP per-rank program",
      buildSequenceParallelPipeline);
  PassPipelineRegistration<SeqParPipelineOptions>(
      "seqpar-pipeline",
      "Unsharded graph (linalg and/or tosa) to the per-rank TP (+SP) program",
      buildSeqParPipeline);
  PassPipelineRegistration<LowerToLLVMPipelineOptions>(
      "seqpar-lower-to-llvm",
      "Per-rank tensor program to the LLVM dialect: bufferization, "
      "collectives on the seqpar runtime, GEMMs on CBLAS",
      buildLowerToLLVMPipeline);
}
