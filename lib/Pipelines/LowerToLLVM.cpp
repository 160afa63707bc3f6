//===- LowerToLLVM.cpp - the seqpar-lower-to-llvm pipeline ----------------===//

#include "seqpar/Conversion/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::seqpar;

/// Appends a textual pipeline of upstream passes (their options are spelled
/// as on the command line, so seqpar-opt reproduces them exactly).
static void addPipeline(OpPassManager &pm, StringRef text) {
  if (failed(parsePassPipeline(text, pm)))
    llvm::report_fatal_error(llvm::Twine("seqpar-lower-to-llvm: bad pipeline ") +
                             text);
}

void mlir::seqpar::buildLowerToBuffersPipeline(
    OpPassManager &pm, const LowerToLLVMPipelineOptions &options) {
  addTosaLoweringPasses(pm.nest<func::FuncOp>());
  // Functions of several blocks as scf.if / scf.while / scf.index_switch,
  // and switches as chains of scf.if: one-shot bufferization of
  // unstructured control flow and of scf.index_switch misses conflicts
  // (docs/runtime-and-run.md, "Control flow").
  addPipeline(pm, "lift-cf-to-scf");
  pm.addPass(createIndexSwitchToIf());
  pm.addPass(createMaterializePoisonTensors());
  // Dropout to Philox arithmetic; seqpar.* signature attributes (checked
  // against tensor types, which bufferization turns into memrefs) to strings.
  LowerToUpstreamOptions upstream;
  upstream.keepCollectives = true;
  pm.addPass(createLowerToUpstream(upstream));
  if (options.attentionRegions)
    pm.addPass(createInstrumentAttention());
  TileAttentionOptions tile;
  tile.kvTile = options.attentionKvTile;
  tile.qTile = options.attentionQTile;
  tile.backwardTile = options.attentionBackwardTile;
  pm.addPass(createTileAttention(tile));
  pm.addPass(createDecomposeAttention());
  pm.addPass(createDecomposeAggregates());
  addPipeline(pm, "func.func(convert-elementwise-to-linalg)");
  // One loop nest per chain of elementwise ops, contractions kept for BLAS.
  pm.addPass(createFuseElementwise());
  // Row reductions (norms) as 16 partials per row, which vectorise.
  pm.addPass(createSplitRowReductions());
  // Each contraction's zero accumulator filled just before it (beta = 0).
  pm.addPass(createSinkFills());
  // K/V heads transposed once per head for the tiles' GEMMs (no B^T).
  pm.addPass(createTransposeReusedOperands());
  // Key-tile loops yield their merged (out, lse) as new buffers.
  addPipeline(pm, "one-shot-bufferize{bufferize-function-boundaries=true "
                  "function-boundary-type-conversion=identity-layout-map "
                  "allow-return-allocs-from-loops=true}");
  addPipeline(pm, "buffer-deallocation-pipeline");
  // Upstream frees at the end of the block: free at the last use instead.
  pm.addNestedPass<func::FuncOp>(createFreeAtLastUse());
  if (options.blas)
    pm.addPass(createLowerMatmulToBlas());
  pm.addPass(createLowerCollectivesToRuntime());
}

void mlir::seqpar::buildLowerToLLVMPipeline(
    OpPassManager &pm, const LowerToLLVMPipelineOptions &options) {
  buildLowerToBuffersPipeline(pm, options);
  if (options.runtimeChecks)
    pm.addPass(createInsertRuntimeChecks());
  addPipeline(pm, "convert-bufferization-to-memref,"
                  "func.func(convert-linalg-to-loops)");
  // LLVM's optimiser is superlinear in one function's size: one function
  // per loop nest keeps the optimising JIT linear in the program.
  if (options.outline)
    pm.addPass(createOutlineLoopNests());
  addPipeline(pm, "convert-scf-to-cf,expand-strided-metadata,lower-affine");
  // Aligned allocations return the aligned pointer itself: computing it
  // from malloc's through integers hides from LLVM where it came from.
  addPipeline(pm, options.counted
                      ? "finalize-memref-to-llvm{use-generic-functions=true "
                        "use-aligned-alloc=true}"
                      : "finalize-memref-to-llvm{use-aligned-alloc=true}");
  // math.erf (BERT's exact GELU) has no LLVM intrinsic: libm's erff. Math
  // ops with intrinsics go first, so they do not become libm calls (rsqrtf
  // does not exist).
  addPipeline(pm, "convert-math-to-llvm,convert-math-to-libm");
  addPipeline(pm, "convert-to-llvm,reconcile-unrealized-casts,symbol-dce");
}
