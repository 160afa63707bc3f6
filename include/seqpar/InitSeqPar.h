//===- InitSeqPar.h - register seqpar in an embedding compiler --*- C++ -*-===//
//
// The one entry point for stacks that embed seqpar: dialects into a
// DialectRegistry, passes and named pipelines into the global pass registry.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_INITSEQPAR_H
#define SEQPAR_INITSEQPAR_H

namespace mlir {
class DialectRegistry;
namespace seqpar {

/// Inserts the seqpar dialect and the upstream dialects seqpar's passes
/// create ops in (arith, func, linalg, math, shard, tensor, tosa) into
/// `registry`, with the upstream interface and sharding extensions of those
/// dialects.
void registerSeqParDialects(DialectRegistry &registry);

/// Registers every seqpar transform and conversion pass (`seqpar-*`) and
/// named pipeline (`seqpar-pipeline`, `seqpar-sp-pipeline`,
/// `seqpar-lower-to-llvm`) with MLIR's global pass registry, so they can be
/// named in textual pipelines. The test passes (`seqpar-test-*`) are left
/// to seqpar-opt. Safe to call more than once.
void registerAllSeqParPasses();

/// registerSeqParDialects + registerAllSeqParPasses.
void registerAllSeqPar(DialectRegistry &registry);

} // namespace seqpar
} // namespace mlir

#endif // SEQPAR_INITSEQPAR_H
