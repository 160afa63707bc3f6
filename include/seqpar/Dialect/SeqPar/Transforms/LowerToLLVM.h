//===- LowerToLLVM.h - per-rank tensor program -> LLVM ------------*- C++ -*-===//
//
// The `seqpar-lower-to-llvm` named pipeline (per-rank tensor program to the
// LLVM dialect, collectives on the seqpar runtime, GEMMs on CBLAS) and the
// patterns of `seqpar-lower-matmul-to-blas`.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_LOWERTOLLVM_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_LOWERTOLLVM_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
class RewritePatternSet;
namespace seqpar {

/// Adds the pattern turning f32 linalg contractions on buffers into
/// cblas_sgemm calls (see the seqpar-lower-matmul-to-blas pass).
void populateMatmulToBlasPatterns(RewritePatternSet &patterns);

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
  PassOptions::Option<int64_t> attentionKvTile{
      *this, "attention-kv-tile",
      llvm::cl::desc("Keys per tile of attention blocks with more keys "
                     "(seqpar-tile-attention; 0: never tile)"),
      llvm::cl::init(1024)};
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
///   seqpar-lower-collectives-to-runtime; bufferization.clone -> memref;
///   linalg -> loops; scf -> cf;
///   expand-strided-metadata; lower-affine;
///   finalize-memref-to-llvm{use-generic-functions} (option); convert-to-llvm;
///   reconcile-unrealized-casts; symbol-dce (removes the shard.grid symbols).
/// `pm` must be anchored on builtin.module.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMPipelineOptions &options);

/// Registers `seqpar-lower-to-llvm` with the global pass registry.
void registerLowerToLLVMPipeline();

} // namespace seqpar
} // namespace mlir

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_LOWERTOLLVM_H
