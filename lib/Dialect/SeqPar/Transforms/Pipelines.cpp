//===- Pipelines.cpp - seqpar named pipelines -----------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/LowerToLLVM.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::seqpar;

void mlir::seqpar::buildFrontendNormalizationPipeline(OpPassManager &pm) {
  // Outlined helpers (a LayerNorm, a layer) are inlined so the rewrite sees
  // one function; external declarations (timers) stay calls.
  pm.addPass(createInlinerPass());
  // Graphs from other frontends mix tosa and linalg: bring tosa down to
  // linalg/arith/tensor first so one analysis sees one form.
  addTosaLoweringPasses(pm.nest<func::FuncOp>());
}

void mlir::seqpar::addTosaLoweringPasses(OpPassManager &funcPm) {
  // Upstream's lowering crashes on some dynamic shapes: refuse them first.
  funcPm.addPass(createCheckTosaShapes());
  funcPm.addPass(tosa::createTosaToLinalgNamed());
  funcPm.addPass(tosa::createTosaToLinalg());
  funcPm.addPass(createTosaToArithPass());
  funcPm.addPass(createTosaToTensorPass());
}

/// The sequence-parallel part proper, on a normalised TP program.
static void addSequenceParallelPasses(
    OpPassManager &pm, const SequenceParallelPipelineOptions &opts) {
  pm.addPass(createFoldReduceScatter());
  pm.addPass(createCSEPass());
  SequenceParallelOptions sp;
  sp.gridName = opts.grid;
  sp.gridAxis = opts.gridAxis;
  sp.seqDim = opts.seqDim;
  sp.inputSharded = opts.inputSharded;
  sp.outputSharded = opts.outputSharded;
  sp.padUneven = opts.pad;
  pm.addPass(createSequenceParallel(sp));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::seqpar::buildSequenceParallelPipeline(
    OpPassManager &pm, const SequenceParallelPipelineOptions &opts) {
  buildFrontendNormalizationPipeline(pm);
  addSequenceParallelPasses(pm, opts);
}

void mlir::seqpar::buildSeqParPipeline(OpPassManager &pm,
                                       const SeqParPipelineOptions &opts) {
  buildFrontendNormalizationPipeline(pm);
  // Exporters reshape the same activation once per linear: CSE makes the
  // linears of a block read one value.
  pm.addPass(createCSEPass());
  PlanTensorParallelOptions plan;
  plan.tp = opts.tp;
  plan.cp = opts.cp;
  bool hybrid = opts.cpStrategy == "hybrid";
  // Hybrid without a Ulysses size reaches the CP pass, which says so.
  plan.cpUlysses = hybrid ? opts.cpUlysses : 1;
  pm.addPass(createPlanTensorParallel(plan));
  // After TP planning, attention is raised on the per-rank (a/t heads)
  // program: it then runs tiled over keys (never holding s x s scores), and
  // the CP axis can shard it.
  pm.addNestedPass<func::FuncOp>(createRaiseAttention());
  pm.addPass(createCanonicalizerPass());
  bool contextParallel = opts.cp > 1;
  if (contextParallel) {
    // The CP axis shards every sequence-carrying value.
    ContextParallelOptions cp;
    cp.gridName = "grid";
    cp.gridAxis = 1;
    cp.seqDim = opts.seqDim;
    cp.strategy = opts.cpStrategy;
    cp.loadBalance = opts.loadBalance;
    cp.pad = opts.cpPad;
    if (hybrid && opts.cpUlysses > 1)
      cp.ulyssesAxis = 2;
    pm.addPass(createContextParallel(cp));
  }
  if (!opts.sp || opts.tp < 2) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    return;
  }
  SequenceParallelPipelineOptions sp;
  sp.seqDim = opts.seqDim;
  sp.pad = opts.pad;
  if (contextParallel) {
    sp.grid = "grid";
    sp.gridAxis = 0;
  }
  addSequenceParallelPasses(pm, sp); // already inlined and normalised
}

void mlir::seqpar::registerSeqParPassesAndPipelines() {
  registerSeqParPasses();
  PassPipelineRegistration<SequenceParallelPipelineOptions>(
      "seqpar-sp-pipeline",
      "TP per-rank program (linalg and/or tosa) to TP+SP per-rank program",
      buildSequenceParallelPipeline);
  PassPipelineRegistration<SeqParPipelineOptions>(
      "seqpar-pipeline",
      "Unsharded graph (linalg and/or tosa) to the per-rank TP (+SP) program",
      buildSeqParPipeline);
  registerLowerToLLVMPipeline();
}
